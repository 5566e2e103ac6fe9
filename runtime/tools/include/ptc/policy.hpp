#pragma once
// Tool policies: checks that run after arguments are validated and before the handler. All policies
// that govern a tool must allow a call (fail-closed: the first denial stops it).

#include <map>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include <ptc/tool_result.hpp>

namespace ptc {

class Tool;
class ToolContext;

struct PolicyDecision {
  bool allowed = true;
  std::string reason;  ///< why not; becomes the failed result's message
  static PolicyDecision allow() { return {}; }
  static PolicyDecision deny(std::string reason) { return {false, std::move(reason)}; }
};

/// Policies are shared by every session and thread, so they keep what they remember in session state
/// (`context.session().state<T>()`), which also makes it roll back with a failed call.
class ToolPolicy {
 public:
  virtual ~ToolPolicy() = default;
  virtual std::string_view name() const = 0;
  /// `params` are the validated, coerced arguments.
  virtual PolicyDecision check(const Tool& tool, const nlohmann::json& params, ToolContext& context) const = 0;
  /// Called after each successful call of a tool this policy governs.
  virtual void on_result(const Tool& tool, const nlohmann::json& params, const ToolResult<nlohmann::json>& result,
                         ToolContext& context) const;
};

/// Tool -> the tools that must have succeeded (in this session) before it may run.
/// Denial: "Tool 'deploy' requires: build, test" (missing names sorted).
class SequentialDependencyPolicy final : public ToolPolicy {
 public:
  explicit SequentialDependencyPolicy(std::map<std::string, std::set<std::string>> dependencies);
  std::string_view name() const override { return "sequential_dependency"; }
  PolicyDecision check(const Tool& tool, const nlohmann::json& params, ToolContext& context) const override;
  void on_result(const Tool& tool, const nlohmann::json& params, const ToolResult<nlohmann::json>& result,
                 ToolContext& context) const override;

  /// Session state: names of tools that succeeded.
  struct State {
    std::set<std::string> succeeded;
  };

 private:
  std::map<std::string, std::set<std::string>> dependencies_;
};

/// A file must be read (by a successful read-tool call in this session) before a write tool may
/// overwrite it; creating a new file is allowed. The path comes from the tool's path parameter: the one
/// `path_parameters` names for it, else the first of `path` and `file_path` that its signature declares
/// (an argument the tool does not declare is never read). A leading '/' and then the mount point are
/// stripped. Whether the file exists is asked of the session's Filesystem; without one every file
/// counts as existing.
/// Denial: "File '<path>' must be read before overwriting."
class ReadBeforeWritePolicy final : public ToolPolicy {
 public:
  struct Options {
    std::set<std::string> read_tools{"read_file"};
    std::set<std::string> write_tools{"write_file", "edit_file"};
    /// e.g. "/workspace": "/workspace/a.txt" and "a.txt" name the same file.
    std::string mount_point{};
    /// Tool name -> the parameter holding its path, for tools that call it something else ("target").
    std::map<std::string, std::string> path_parameters{};
  };
  ReadBeforeWritePolicy() : ReadBeforeWritePolicy(Options{}) {}
  explicit ReadBeforeWritePolicy(Options options);
  std::string_view name() const override { return "read_before_write"; }
  PolicyDecision check(const Tool& tool, const nlohmann::json& params, ToolContext& context) const override;
  void on_result(const Tool& tool, const nlohmann::json& params, const ToolResult<nlohmann::json>& result,
                 ToolContext& context) const override;

  /// Session state: normalized paths read so far.
  struct State {
    std::set<std::string> read;
  };
  /// The parameter of `tool` that holds its path, or nullopt when the tool declares none.
  std::optional<std::string> path_parameter(const Tool& tool) const;
  /// The normalized path in `params[parameter]`, or nullopt if it is not a string (or names a place
  /// outside the root).
  std::optional<std::string> path_of(const nlohmann::json& params, std::string_view parameter) const;

 private:
  Options options_;
};

}  // namespace ptc
