#pragma once
// ptc::Commands — the command runtime in one object: settings, signal bus, registry, executors and
// dispatcher, with the calls a program (or the `ptc command` CLI) makes: invoke, dispatch, and the
// registry operations. Each call also has a JSON form that takes its arguments and options as JSON
// values and applies the option rules of docs/commands.md. Also ptc::commands's umbrella header: it
// includes every public header of the component.

#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include <ptc/command.hpp>
#include <ptc/command_dispatcher.hpp>
#include <ptc/command_executor.hpp>
#include <ptc/command_permissions.hpp>
#include <ptc/command_policy.hpp>
#include <ptc/command_prompts.hpp>
#include <ptc/command_registry.hpp>
#include <ptc/command_run.hpp>
#include <ptc/command_settings.hpp>
#include <ptc/error.hpp>
#include <ptc/signal.hpp>
#include <ptc/signal_bus.hpp>

namespace ptc {

struct CommandsOptions {
  /// Each holds `settings.json` and `commands/`; either may be missing.
  std::filesystem::path global_root{};
  std::filesystem::path project_root{};
  /// Where the Logger middleware writes.
  LogSink log_sink = stderr_log_sink(LogLevel::Info);
};

struct CommandInvokeOptions {
  std::optional<std::string> invocation_id{};  ///< used when it is a non-blank string
  /// Instead of the context's `permissions`, and of the settings'.
  std::optional<Permissions> permissions{};
};

struct CommandDispatchOptions {
  std::optional<std::string> invocation_id{};  ///< used when it is a non-blank string
};

class Commands {
 public:
  /// The name JSON options use for this runtime's registry (its bus is named by the settings).
  static constexpr std::string_view kRegistryName = "command_registry";

  /// Loads the settings and the commands; fails with the first bad file.
  static Result<std::unique_ptr<Commands>> open(CommandsOptions options);
  Commands(const Commands&) = delete;
  Commands& operator=(const Commands&) = delete;
  ~Commands();

  const CommandSettings& settings() const { return settings_; }
  SignalBus& bus() { return *bus_; }
  CommandRegistry& registry() { return *registry_; }
  CommandExecutors& executors() { return *executors_; }
  CommandDispatcher& dispatcher() { return *dispatcher_; }

  /// Runs a command now, on this thread, and returns `{"invocation_id","duration_ms","result"}`. The
  /// invocation id is the option's, else the context's `invocation_id`, else a fresh UUID. Permissions:
  /// the option's, else the context's `permissions`, else the settings'. Hook signals go on the bus;
  /// no `command.completed`/`command.failed` is published.
  Result<nlohmann::json> invoke(std::string_view name, const nlohmann::json& params = nlohmann::json::object(),
                                const nlohmann::json& context = nlohmann::json::object(),
                                const CommandInvokeOptions& options = {});
  /// Publishes `command.invoke` for the dispatcher and returns the invocation id (chosen as for
  /// invoke). Nothing is published when the arguments break a rule.
  Result<std::string> dispatch(std::string_view name, const nlohmann::json& params = nlohmann::json::object(),
                               const nlohmann::json& context = nlohmann::json::object(),
                               const CommandDispatchOptions& options = {});

  /// The JSON forms. Options are a JSON object: for invoke `bus`, `registry`, `invocation_id`,
  /// `permissions`; for dispatch `bus`, `invocation_id`; for the others `registry`. `bus` and
  /// `registry` name this runtime's (`settings().bus_name`, kRegistryName).
  Result<nlohmann::json> invoke_json(const nlohmann::json& name, const nlohmann::json& params,
                                     const nlohmann::json& context, const nlohmann::json& options);
  Result<std::string> dispatch_json(const nlohmann::json& name, const nlohmann::json& params,
                                    const nlohmann::json& context, const nlohmann::json& options);
  Result<std::vector<std::string>> list_commands_json(const nlohmann::json& options) const;
  Result<nlohmann::json> reload_json(const nlohmann::json& options);
  Result<nlohmann::json> register_command_json(const nlohmann::json& path, const nlohmann::json& options);
  Result<nlohmann::json> unregister_command_json(const nlohmann::json& name, const nlohmann::json& options);

 private:
  Commands() = default;
  struct Checked;
  Result<Checked> check_call(const nlohmann::json& name, const nlohmann::json& params, const nlohmann::json& context,
                             bool invoking) const;
  Result<nlohmann::json> run(const Checked& call, const CommandInvokeOptions& options);
  Result<std::string> publish(const Checked& call, const CommandDispatchOptions& options);

  CommandSettings settings_;
  std::unique_ptr<SignalBus> bus_;
  std::unique_ptr<CommandExecutors> executors_;
  std::unique_ptr<CommandRegistry> registry_;
  std::unique_ptr<CommandDispatcher> dispatcher_;
};

}  // namespace ptc
