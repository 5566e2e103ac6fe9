#pragma once
// ptc::CommandRegistry — the commands in `<global root>/commands/*.md` and `<project root>/commands/*.md`
// (the project's win over the global ones of the same name), plus files registered at run time, with
// the lifecycle signals of each change.

#include <cstddef>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <shared_mutex>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include <ptc/command.hpp>
#include <ptc/error.hpp>

namespace ptc {

class SignalBus;

enum class CommandScope { Global, Project, Manual };
std::string_view command_scope_name(CommandScope scope);  ///< "global", "project", "manual"

struct CommandRegistryOptions {
  std::filesystem::path global_root{};
  std::filesystem::path project_root{};
  /// The model of commands that name none (`commands.default_model`).
  std::optional<std::string> default_model{};
  /// Lifecycle signals go here; none are sent without a bus.
  SignalBus* bus = nullptr;
};

/// Thread-safe. Lookups run in parallel with each other and with changes; changes run one at a time.
/// Runtime registrations outlive reloads (re-read after the directories, latest last).
class CommandRegistry {
 public:
  struct Entry {
    std::shared_ptr<const CommandDefinition> command;
    CommandScope scope = CommandScope::Global;
  };

  /// Loads both directories (sorted by file name; a missing directory has no commands). Fails on the
  /// first bad file, or on two files of one directory declaring the same name. Sends no signal.
  static Result<std::unique_ptr<CommandRegistry>> open(CommandRegistryOptions options);

  std::shared_ptr<const CommandDefinition> find(std::string_view name) const;
  std::optional<Entry> entry(std::string_view name) const;
  /// Sorted.
  std::vector<std::string> list_commands() const;
  std::size_t size() const;

  /// Reads everything again. On success sends `command.registry.reloaded` and returns its data
  /// `{"previous_count","current_count"}`; on failure keeps the catalog as it was and sends
  /// `command.registry.failed` (`operation` "reload").
  Result<nlohmann::json> reload();
  /// Adds the command in one file (scope "manual"; it replaces a command of the same name). `path`
  /// must be a non-blank string (`invalid_path: ...` otherwise); relative paths are made absolute.
  /// Returns `command.registered`'s data `{"name","path","scope","current_count"}`.
  Result<nlohmann::json> register_command(const nlohmann::json& path);
  /// Removes a command (`invalid_name: ...` for a blank or non-string name, `unknown command 'x'`). Removing
  /// a runtime registration re-reads the catalog without it, so a command it shadowed comes back.
  /// Returns `command.unregistered`'s data `{"name","current_count"}`.
  Result<nlohmann::json> unregister_command(const nlohmann::json& name);

 private:
  using Catalog = std::map<std::string, Entry, std::less<>>;
  explicit CommandRegistry(CommandRegistryOptions options) : options_(std::move(options)) {}
  Result<Catalog> load(const std::vector<std::filesystem::path>& manual) const;
  Result<std::shared_ptr<const CommandDefinition>> read(const std::filesystem::path& file) const;
  void replace(Catalog catalog);
  void emit(std::string type, nlohmann::json data) const;
  Error fail(const std::string& operation, std::string error, nlohmann::json extra) const;

  CommandRegistryOptions options_;
  mutable std::shared_mutex catalog_mutex_;
  Catalog catalog_;
  // Serializes changes; recursive so that a subscriber to a lifecycle signal may change the registry.
  std::recursive_mutex change_mutex_;
  std::vector<std::filesystem::path> manual_paths_;  // oldest first
};

}  // namespace ptc
