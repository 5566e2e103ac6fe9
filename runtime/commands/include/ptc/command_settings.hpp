#pragma once
// Settings of the command runtime: `settings.json` in a global root and in a project root, merged
// (the project wins; objects merge key by key, lists and other values are replaced) and then checked
// strictly. docs/commands.md lists the keys and rules.

#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include <ptc/error.hpp>
#include <ptc/signal_bus.hpp>

namespace ptc {

/// Permission rules such as `Read`, `Bash(git diff:*)`. Each list is trimmed, without empty entries and
/// without repeats (first occurrence kept).
struct Permissions {
  std::vector<std::string> allow{};
  std::vector<std::string> deny{};
  std::vector<std::string> ask{};

  /// `{"allow":[...],"deny":[...],"ask":[...]}`
  nlohmann::json to_json() const;
  friend bool operator==(const Permissions&, const Permissions&) = default;
};

/// Trims each entry, drops empty ones and repeats, keeps the order.
std::vector<std::string> normalize_permission_list(const std::vector<std::string>& entries);

struct CommandSettings {
  std::optional<std::string> schema;   ///< `$schema`
  std::optional<std::string> version;  ///< SemVer 2.0.0
  std::string bus_name = "jido_code_bus";
  /// One Logger middleware per entry, at that level. Without `signal_bus.middleware`: one, at debug.
  std::vector<LogLevel> logger_levels{LogLevel::Debug};
  Permissions permissions;
  std::optional<std::string> default_model;
  std::size_t max_concurrent = 5;
};

/// Checks one settings object (already merged) and reads it. Errors: `<key path>: <rule>`, e.g.
/// `commands.max_concurrent: must be a positive integer`.
Result<CommandSettings> settings_from_json(const nlohmann::json& settings);

/// Reads `<global_root>/settings.json` and `<project_root>/settings.json` (a missing file counts as
/// `{}`), merges them and checks the result. Errors name the file that holds the offending value:
/// `/home/me/.jido_code/settings.json: version: must be a SemVer version such as 1.2.3`.
Result<CommandSettings> load_command_settings(const std::filesystem::path& global_root,
                                              const std::filesystem::path& project_root);

}  // namespace ptc
