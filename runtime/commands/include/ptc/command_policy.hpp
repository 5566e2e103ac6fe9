#pragma once
// ptc::CommandPermissionPolicy — a command's permissions as a tool policy, so that the tools an LLM
// calls while a command runs are gated by the rules in settings.json (narrowed by `allowed-tools`).

#include <functional>
#include <string>

#include <nlohmann/json.hpp>

#include <ptc/command_permissions.hpp>
#include <ptc/policy.hpp>

namespace ptc {

class Tool;

/// The text a tool call is judged as: `name(argument)` where the argument is the first string among
/// `command`, `file_path`, `path`, `url`, `pattern` that the tool's signature declares (an undeclared
/// argument is never read); just `name` when there is none.
/// `bash {"command":"git diff --stat"}` -> `bash(git diff --stat)`.
std::string describe_tool_use(const Tool& tool, const nlohmann::json& params);

/// Decides each call with decide_permission. Allow runs the call; Deny refuses it; Ask asks `ask`
/// (refused when there is no one to ask).
class CommandPermissionPolicy final : public ToolPolicy {
 public:
  struct Options {
    /// Returns true to let the call run. Called from the dispatching thread.
    std::function<bool(const std::string& tool_use, const PermissionDecision& decision)> ask{};
    std::function<std::string(const Tool& tool, const nlohmann::json& params)> describe = describe_tool_use;
  };

  explicit CommandPermissionPolicy(Permissions permissions)
      : CommandPermissionPolicy(std::move(permissions), Options{}) {}
  CommandPermissionPolicy(Permissions permissions, Options options)
      : permissions_(std::move(permissions)), options_(std::move(options)) {}

  std::string_view name() const override { return "command_permissions"; }
  /// Denials: "Tool use 'bash(rm -rf /)' is denied by permission rule 'bash(rm:*)'.",
  /// "Tool use 'x' needs approval (permission rule 'x').", "Tool use 'x' matches no permission rule and
  /// needs approval."; "... was not approved." when `ask` said no.
  PolicyDecision check(const Tool& tool, const nlohmann::json& params, ToolContext& context) const override;

  const Permissions& permissions() const { return permissions_; }

 private:
  Permissions permissions_;
  Options options_;
};

}  // namespace ptc
