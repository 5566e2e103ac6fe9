#pragma once
// Running one command: checking its params, narrowing permissions to its allowed tools, the hook
// signals, the executor. The API and the dispatcher both run commands through run_command.

#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include <ptc/command.hpp>
#include <ptc/command_executor.hpp>
#include <ptc/command_settings.hpp>
#include <ptc/error.hpp>

namespace ptc {

class SignalBus;

struct ExecutionContext {
  nlohmann::json context = nlohmann::json::object();  ///< the caller's, handed to the executor
  std::string invocation_id;                          ///< blank: a fresh UUID is used
  Permissions permissions;                            ///< before narrowing to the allowed tools
  SignalBus* bus = nullptr;                           ///< hook signals go here (none without a bus)
};

/// Replaces each `{{key}}` whose key is a param by its value (strings as they are, other values as
/// compact JSON), in one pass: text that a value brings in is not scanned again. Unknown keys stay.
std::string render_command_body(std::string_view body, const nlohmann::json& params);

/// Validates and defaults `params` against the command's schema (coercing like tool arguments), then
/// emits `jido.hooks.pre` (if enabled), runs the executor (`command_module`, else the default one),
/// and emits `jido.hooks.after` (if enabled) for success and failure alike. Returns
/// `{"invocation_id","duration_ms","result"}`. Invalid params and an unknown executor fail before the
/// pre hook. Never throws for an executor's exception: it becomes the error.
Result<nlohmann::json> run_command(const CommandDefinition& command, const nlohmann::json& params,
                                   const ExecutionContext& context, const CommandExecutors& executors);

}  // namespace ptc
