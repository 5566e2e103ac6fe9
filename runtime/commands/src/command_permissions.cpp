#include <ptc/command_permissions.hpp>

#include <algorithm>
#include <utility>
#include <variant>

#include "shell_words.hpp"

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
  // Only allows narrow: a command file comes with the project, settings' deny and ask rules come from
  // the user, and a command must not be able to declare them away.
  return {restrict_bucket(permissions.allow, allowed_tools), permissions.deny, permissions.ask};
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

bool is_shell_tool(std::string_view tool) {
  auto lower = [](char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; };
  for (std::string_view name : {"bash", "sh", "shell"})
    if (std::equal(tool.begin(), tool.end(), name.begin(), name.end(), [&](char a, char b) { return lower(a) == b; }))
      return true;
  return false;
}

namespace {

using Bucket = std::pair<PermissionEffect, const std::vector<std::string>*>;

const std::string* first_match(const std::vector<std::string>& rules, std::string_view use) {
  for (const auto& rule : rules)
    if (permission_rule_matches(rule, use)) return &rule;
  return nullptr;
}

// A rule that says nothing about the argument: `Bash` or `Bash(*)`.
bool covers_any_argument(std::string_view rule, std::string_view tool) {
  return rule == tool || (rule.size() == tool.size() + 3 && rule.starts_with(tool) && rule.ends_with("(*)"));
}

PermissionDecision decide_plain(const Permissions& permissions, std::string_view tool_use) {
  for (auto [effect, rules] :
       {Bucket{PermissionEffect::Deny, &permissions.deny}, Bucket{PermissionEffect::Ask, &permissions.ask},
        Bucket{PermissionEffect::Allow, &permissions.allow}})
    if (const auto* rule = first_match(*rules, tool_use)) return {effect, *rule};
  return {PermissionEffect::Ask, ""};
}

// `Bash(<line>)`: every simple command of the line is decided on its own; the line is allowed only when
// each is allowed and none is denied or asks. A line the splitter cannot read exactly is never allowed
// by a rule that looks at the argument.
PermissionDecision decide_shell(const Permissions& permissions, std::string_view tool, std::string_view tool_use,
                                std::string_view line) {
  auto split = commands::split_shell_commands(line);
  if (std::holds_alternative<commands::Unsupported>(split)) {
    auto decision = decide_plain(permissions, tool_use);
    if (decision.effect == PermissionEffect::Allow && !covers_any_argument(decision.rule, tool))
      return {PermissionEffect::Ask, ""};
    return decision;
  }
  const auto& simple = std::get<std::vector<commands::SimpleCommand>>(split);
  if (simple.size() <= 1 && (simple.empty() || simple.front().text() == line))
    return decide_plain(permissions, tool_use);
  std::vector<std::string> uses{std::string(tool_use)};  // the whole line too: a deny written for it still holds
  for (const auto& command : simple) uses.push_back(std::string(tool) + "(" + command.text() + ")");
  for (auto [effect, rules] :
       {Bucket{PermissionEffect::Deny, &permissions.deny}, Bucket{PermissionEffect::Ask, &permissions.ask}})
    for (const auto& use : uses)
      if (const auto* rule = first_match(*rules, use)) return {effect, *rule};
  const std::string* first_rule = nullptr;
  for (std::size_t i = 1; i < uses.size(); ++i) {
    const auto* rule = first_match(permissions.allow, uses[i]);
    if (!rule) return {PermissionEffect::Ask, ""};
    if (!first_rule) first_rule = rule;
  }
  return {PermissionEffect::Allow, *first_rule};
}

}  // namespace

PermissionDecision decide_permission(const Permissions& permissions, std::string_view tool_use) {
  const auto open = tool_use.find('(');
  if (open != std::string_view::npos && tool_use.ends_with(')')) {
    const auto tool = tool_use.substr(0, open);
    if (is_shell_tool(tool))
      return decide_shell(permissions, tool, tool_use, tool_use.substr(open + 1, tool_use.size() - open - 2));
  }
  return decide_plain(permissions, tool_use);
}

}  // namespace ptc
