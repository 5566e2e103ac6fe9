#pragma once
// What runs a command: executors, looked up by the name a command file gives in `jido.command_module`,
// or the default executor, which hands back the rendered prompt for a model to run.

#include <functional>
#include <map>
#include <optional>
#include <shared_mutex>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include <ptc/command.hpp>
#include <ptc/command_settings.hpp>
#include <ptc/error.hpp>

namespace ptc {

class SignalBus;

/// One run of a command, as an executor sees it.
struct CommandInvocation {
  const CommandDefinition& command;
  std::string prompt;      ///< the body with `{{param}}` filled in
  nlohmann::json params;   ///< validated, defaults filled in
  nlohmann::json context;  ///< the caller's context object
  std::string invocation_id;
  Permissions permissions;   ///< narrowed to the command's allowed tools (see CommandPermissionPolicy)
  SignalBus* bus = nullptr;  ///< where the run's signals go, if anywhere
};

/// Returns the result object, or an Error whose message becomes the failure's `error`. May throw: the
/// exception is reported as a failure too. Called from dispatcher threads, several at once.
using CommandExecutor = std::function<Result<nlohmann::json>(const CommandInvocation& invocation)>;

/// `{"command","prompt","params","allowed_tools","model","permissions"}`; `model` is null when neither
/// the command nor the settings name one.
Result<nlohmann::json> default_command_executor(const CommandInvocation& invocation);

/// Executors by name. Thread-safe.
class CommandExecutors {
 public:
  /// `name` is written like a module name (`MyApp.Commands.Run`), as command files refer to it.
  /// Replaces an executor of the same name. Throws ptc::Exception for a malformed name or an empty executor.
  void add(std::string name, CommandExecutor executor);
  bool remove(std::string_view name);
  std::optional<CommandExecutor> find(std::string_view name) const;

 private:
  mutable std::shared_mutex mutex_;
  std::map<std::string, CommandExecutor, std::less<>> executors_;
};

/// True for `^[A-Z][A-Za-z0-9_]*(\.[A-Z][A-Za-z0-9_]*)*$`.
bool is_module_name(std::string_view name);

}  // namespace ptc
