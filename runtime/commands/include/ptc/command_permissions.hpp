#pragma once
// Permission rules and what they mean: narrowing a command's permissions to its allowed tools, and
// deciding whether one concrete tool use is allowed, denied or needs asking. docs/commands.md has the
// rules with examples.

#include <string>
#include <string_view>
#include <vector>

#include <ptc/command_settings.hpp>

namespace ptc {

/// `pattern` matches `text` as a raw string in which each `*` stands for any run of characters
/// (nothing is parsed: `Bash(git:*)` does not match `Bash(git diff:*)`). Without `*`: equality.
bool wildcard_matches(std::string_view pattern, std::string_view text);

/// The permissions a command with `allowed-tools` runs with: in each bucket, the allowed tools that a
/// rule of the bucket covers, then the bucket's exact (wildcard-free) rules that an allowed tool covers,
/// without repeats. An empty `allowed_tools` (none declared) leaves the permissions as they are.
Permissions restrict_permissions(const Permissions& permissions, const std::vector<std::string>& allowed_tools);

enum class PermissionEffect { Allow, Deny, Ask };
std::string_view permission_effect_name(PermissionEffect effect);  ///< "allow", "deny", "ask"

struct PermissionDecision {
  PermissionEffect effect = PermissionEffect::Ask;
  std::string rule;  ///< the rule that decided; empty when no rule matched (the effect is then Ask)
  friend bool operator==(const PermissionDecision&, const PermissionDecision&) = default;
};

/// Whether a rule covers a tool use such as `Bash(git diff --stat)` or `Read`:
/// - the same text, or a raw-string wildcard match (wildcard_matches);
/// - a rule without `(` names a whole tool: `Bash` covers `Bash` and every `Bash(...)`;
/// - `Tool(prefix:*)` covers `Tool(prefix)` and `Tool(prefix <anything>)`, as Claude Code reads it.
bool permission_rule_matches(std::string_view rule, std::string_view tool_use);

/// Deny rules first, then ask, then allow; within a bucket the first matching rule decides. A use that
/// no rule matches is Ask.
PermissionDecision decide_permission(const Permissions& permissions, std::string_view tool_use);

}  // namespace ptc
