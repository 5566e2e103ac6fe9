#include <ptc/command_permissions.hpp>

#include <algorithm>

namespace ptc {

bool wildcard_matches(std::string_view pattern, std::string_view text) {
  // Greedy matching with backtracking to the last '*': linear in practice, no regex needed.
  std::size_t p = 0, t = 0, star = std::string_view::npos, resume = 0;
  while (t < text.size()) {
    if (p < pattern.size() && pattern[p] == '*') {
      star = p++;
      resume = t;
    } else if (p < pattern.size() && pattern[p] == text[t]) {
      ++p;
      ++t;
    } else if (star != std::string_view::npos) {
      p = star + 1;
      t = ++resume;
    } else {
      return false;
    }
  }
  while (p < pattern.size() && pattern[p] == '*') ++p;
  return p == pattern.size();
}

namespace {

bool has_wildcard(std::string_view rule) { return rule.find('*') != std::string_view::npos; }

void add_once(std::vector<std::string>& out, const std::string& value) {
  if (std::find(out.begin(), out.end(), value) == out.end()) out.push_back(value);
}

std::vector<std::string> restrict_bucket(const std::vector<std::string>& rules, const std::vector<std::string>& tools) {
  std::vector<std::string> out;
  for (const auto& tool : tools)
    if (std::any_of(rules.begin(), rules.end(), [&](const std::string& rule) { return wildcard_matches(rule, tool); }))
      add_once(out, tool);
  for (const auto& rule : rules)
    if (!has_wildcard(rule) &&
        std::any_of(tools.begin(), tools.end(), [&](const std::string& tool) { return wildcard_matches(tool, rule); }))
      add_once(out, rule);
  return out;
}

}  // namespace

Permissions restrict_permissions(const Permissions& permissions, const std::vector<std::string>& allowed_tools) {
  if (allowed_tools.empty()) return permissions;
  return {restrict_bucket(permissions.allow, allowed_tools), restrict_bucket(permissions.deny, allowed_tools),
          restrict_bucket(permissions.ask, allowed_tools)};
}

std::string_view permission_effect_name(PermissionEffect effect) {
  switch (effect) {
    case PermissionEffect::Allow: return "allow";
    case PermissionEffect::Deny: return "deny";
    case PermissionEffect::Ask: return "ask";
  }
  return "ask";
}

bool permission_rule_matches(std::string_view rule, std::string_view tool_use) {
  if (wildcard_matches(rule, tool_use)) return true;
  if (rule.find('(') == std::string_view::npos)
    return tool_use.size() > rule.size() && tool_use.starts_with(rule) && tool_use[rule.size()] == '(' &&
           tool_use.ends_with(')');
  constexpr std::string_view kPrefixEnd = ":*)";
  if (!rule.ends_with(kPrefixEnd) || !tool_use.ends_with(')')) return false;
  std::string_view head = rule.substr(0, rule.size() - kPrefixEnd.size());  // "Bash(git diff"
  std::string_view inner = tool_use.substr(0, tool_use.size() - 1);         // "Bash(git diff --stat"
  return inner == head || (inner.starts_with(head) && inner[head.size()] == ' ');
}

PermissionDecision decide_permission(const Permissions& permissions, std::string_view tool_use) {
  for (auto [effect, rules] : {std::pair{PermissionEffect::Deny, &permissions.deny},
                               {PermissionEffect::Ask, &permissions.ask},
                               {PermissionEffect::Allow, &permissions.allow}})
    for (const auto& rule : *rules)
      if (permission_rule_matches(rule, tool_use)) return {effect, rule};
  return {PermissionEffect::Ask, ""};
}

}  // namespace ptc
