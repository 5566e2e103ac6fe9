#include <ptc/command_permissions.hpp>

#include <algorithm>
#include <utility>
#include <variant>

#include "shell_line.hpp"
#include "shell_programs.hpp"

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

// The tool a rule or a use names: the text before `(`, or all of it.
std::string_view tool_of(std::string_view text) { return text.substr(0, text.find('(')); }

// permission_rule_matches, with shell tools as one tool: a rule about any of them is read as if it
// named the tool of the use (`Bash(rm:*)` for `bash(rm -rf /)`).
bool rule_matches(std::string_view rule, std::string_view use) {
  if (permission_rule_matches(rule, use)) return true;
  const auto rule_tool = tool_of(rule), use_tool = tool_of(use);
  if (rule_tool == use_tool || !is_shell_tool(rule_tool) || !is_shell_tool(use_tool)) return false;
  return permission_rule_matches(std::string(use_tool) + std::string(rule.substr(rule_tool.size())), use);
}

const std::string* first_match(const std::vector<std::string>& rules, std::string_view use) {
  for (const auto& rule : rules)
    if (rule_matches(rule, use)) return &rule;
  return nullptr;
}

// A rule that says nothing about the argument of the shell tool `tool`: `Bash`, `Bash(*)`, `*`.
bool covers_any_argument(std::string_view rule, std::string_view tool) {
  const auto rule_tool = tool_of(rule);
  const bool names_tool =
      rule_tool.find('*') != std::string_view::npos ? wildcard_matches(rule_tool, tool) : is_shell_tool(rule_tool);
  const auto argument = rule.substr(rule_tool.size());
  return names_tool && (argument.empty() || argument == "(*)");
}

// Whether a deny or ask rule could be about some part of a shell line: it names a shell tool, or its
// tool is a wildcard.
bool about_shell(const std::vector<std::string>& rules) {
  return std::any_of(rules.begin(), rules.end(), [](const std::string& rule) {
    const auto tool = tool_of(rule);
    return tool.find('*') != std::string_view::npos || is_shell_tool(tool);
  });
}

PermissionDecision decide_plain(const Permissions& permissions, std::string_view tool_use) {
  for (auto [effect, rules] :
       {Bucket{PermissionEffect::Deny, &permissions.deny}, Bucket{PermissionEffect::Ask, &permissions.ask},
        Bucket{PermissionEffect::Allow, &permissions.allow}})
    if (const auto* rule = first_match(*rules, tool_use)) return {effect, *rule, ""};
  return {PermissionEffect::Ask, "", ""};
}

std::string shell_use(std::string_view tool, std::string_view text) {
  return std::string(tool) + "(" + std::string(text) + ")";
}

// What deny and ask rules are matched against for one command: its text, with its assignments, with
// its program's path cut to the name (`/bin/rm` -> `rm`), and the commands behind its wrappers.
void add_rule_texts(const commands::SimpleCommand& command, std::vector<std::string>& texts) {
  auto add = [&](const std::vector<std::string>& words) {
    if (words.empty()) return;
    commands::SimpleCommand plain{{}, words, {}};
    texts.push_back(plain.text());
    const auto program = commands::program_name(words.front());
    if (program.size() == words.front().size()) return;
    plain.words.front() = std::string(program);
    texts.push_back(plain.text());
  };
  add(command.words);
  if (!command.assignments.empty()) texts.push_back(command.text_with_assignments());
  for (const auto& wrapped : commands::commands_behind(command.words).commands) add(wrapped);
}

// The allow pass over a readable line: each command allowed by a rule, and one that writes a file by
// redirection only by a rule about the whole tool.
PermissionDecision allow_each(const Permissions& permissions, std::string_view tool, std::string_view line,
                              const std::vector<commands::SimpleCommand>& commands) {
  const std::string* first_rule = nullptr;
  for (const auto& command : commands) {
    const std::string text = command.text_with_assignments();
    const auto* rule = first_match(permissions.allow, shell_use(tool, text));
    if (!rule && commands.size() == 1 && command.assignments.empty() && text == line)
      return {PermissionEffect::Ask, "", ""};  // the line is one plain command: "no rule" says it all
    if (!rule) return {PermissionEffect::Ask, "", "no allow rule covers `" + text + "`"};
    if (!command.writes.empty() && !covers_any_argument(*rule, tool))
      return {PermissionEffect::Ask, "",
              "`" + text + "` writes to `" + command.writes.front() + "` by redirection, which `" + *rule +
                  "` does not allow"};
    if (!first_rule) first_rule = rule;
  }
  return {PermissionEffect::Allow, *first_rule, ""};
}

// `Bash(<line>)`: see decide_permission.
PermissionDecision decide_shell(const Permissions& permissions, std::string_view tool, std::string_view tool_use,
                                std::string_view line) {
  const auto read = commands::read_command_line(line);
  if (read.commands.empty() && read.unreadable.empty()) return decide_plain(permissions, tool_use);
  std::vector<std::string> texts{std::string(line)};  // the whole line too: a deny written for it holds
  for (const auto& command : read.commands) add_rule_texts(command, texts);
  for (auto [effect, rules] :
       {Bucket{PermissionEffect::Deny, &permissions.deny}, Bucket{PermissionEffect::Ask, &permissions.ask}})
    for (const auto& text : texts)
      if (const auto* rule = first_match(*rules, shell_use(tool, text))) return {effect, *rule, ""};
  if (read.unreadable.empty()) return allow_each(permissions, tool, line, read.commands);
  const auto whole = std::find_if(permissions.allow.begin(), permissions.allow.end(),
                                  [&](const std::string& rule) { return covers_any_argument(rule, tool); });
  if (whole != permissions.allow.end() && !about_shell(permissions.deny) && !about_shell(permissions.ask))
    return {PermissionEffect::Allow, *whole, ""};
  return {PermissionEffect::Ask, "", "the line cannot be read exactly: " + read.unreadable.front()};
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
