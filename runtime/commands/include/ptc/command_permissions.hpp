#pragma once
// Permission rules and what they mean: narrowing a command's permissions to its allowed tools, and
// deciding whether one concrete tool use is allowed, denied or needs asking. docs/commands.md has the
// rules with examples.

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <ptc/command_settings.hpp>

namespace ptc {

/// `pattern` matches `text` as a raw string in which each `*` stands for any run of characters
/// (nothing is parsed: `Bash(git:*)` does not match `Bash(git diff:*)`). Without `*`: equality.
bool wildcard_matches(std::string_view pattern, std::string_view text);

/// The permissions a command with `allowed-tools` runs with: the allowed tools that an allow rule
/// covers, then the exact (wildcard-free) allow rules that an allowed tool covers, without repeats. The
/// deny and ask rules are kept whole: narrowing only ever removes allows. An empty `allowed_tools`
/// (none declared) leaves the permissions as they are.
Permissions restrict_permissions(const Permissions& permissions, const std::vector<std::string>& allowed_tools);

enum class PermissionEffect { Allow, Deny, Ask };
std::string_view permission_effect_name(PermissionEffect effect);  ///< "allow", "deny", "ask"

struct PermissionDecision {
  // A constructor, so that `{effect, rule}` stays warning-free under -Wextra now that `reason` follows.
  PermissionDecision(PermissionEffect effect_ = PermissionEffect::Ask, std::string rule_ = {}, std::string reason_ = {})
      : effect(effect_), rule(std::move(rule_)), reason(std::move(reason_)) {}

  PermissionEffect effect = PermissionEffect::Ask;
  std::string rule;  ///< the rule that decided; empty when no rule matched (the effect is then Ask)
  /// Why a shell line asks although rules were found for it: what could not be read, the command no
  /// rule allows, the file a redirection writes. Empty otherwise.
  std::string reason;
  friend bool operator==(const PermissionDecision&, const PermissionDecision&) = default;
};

/// Whether a rule covers a tool use such as `Bash(git diff --stat)` or `Read`:
/// - the same text, or a raw-string wildcard match (wildcard_matches);
/// - a rule without `(` names a whole tool: `Bash` covers `Bash` and every `Bash(...)`;
/// - `Tool(prefix:*)` covers `Tool(prefix)` and `Tool(prefix <anything>)`, as Claude Code reads it.
bool permission_rule_matches(std::string_view rule, std::string_view tool_use);

/// Whether a tool's argument is a shell command line, read as such by decide_permission: `Bash`, `sh`
/// and `shell`, in any case (`Bash(ls && rm -rf /)`, `bash(...)`). Rules about one of them apply to all:
/// a deny on `Bash(rm:*)` holds for `bash(rm -rf /)` and `sh(rm -rf /)`.
bool is_shell_tool(std::string_view tool);

/// Deny rules first, then ask, then allow; within a bucket the first matching rule decides. A use that
/// no rule matches is Ask.
///
/// A shell tool's use (`Bash(...)`) is read as the simple commands its line runs, wherever they stand
/// (after `&&` or `;`, in pipelines, `{ }`, `( )`, if/while/for/case bodies, substitutions, behind
/// `time`, `!`, assignments, redirections, wrappers such as `sudo` or `env`, in `sh -c` scripts):
/// deny and ask rules are checked against the whole line and every one of them; the line is allowed
/// only when every command is allowed. A line that cannot be read exactly is allowed only by a rule
/// about the whole tool (`Bash`, `Bash(*)`), and only when no deny or ask rule is about a shell tool;
/// otherwise it asks, and `reason` says why. docs/commands.md has the details. This decides what a
/// rule means; it is not a sandbox.
PermissionDecision decide_permission(const Permissions& permissions, std::string_view tool_use);

}  // namespace ptc
