#include <ptc/commands.hpp>

#include <ptc/command_run.hpp>
#include <ptc/uuid.hpp>

#include "text.hpp"
#include "api_options.hpp"
#include "json_keys.hpp"

namespace ptc {

using commands::non_blank_string;
using nlohmann::json;

struct Commands::Checked {
  std::string name;
  json params;
  json context;
};

Result<std::unique_ptr<Commands>> Commands::open(CommandsOptions options) {
  auto settings = load_command_settings(options.global_root, options.project_root);
  if (!settings) return settings.error();
  std::unique_ptr<Commands> commands(new Commands());
  commands->settings_ = std::move(*settings);
  const auto& s = commands->settings_;

  SignalBus::Options bus{s.bus_name, {}, {}};
  for (LogLevel level : s.logger_levels)
    bus.middleware.push_back(std::make_shared<LoggerMiddleware>(level, options.log_sink));
  commands->bus_ = std::make_unique<SignalBus>(std::move(bus));
  commands->executors_ = std::make_unique<CommandExecutors>();
  auto registry =
      CommandRegistry::open({options.global_root, options.project_root, s.default_model, commands->bus_.get()});
  if (!registry) return registry.error();
  commands->registry_ = std::move(*registry);
  commands->dispatcher_ =
      std::make_unique<CommandDispatcher>(*commands->bus_, *commands->registry_, *commands->executors_,
                                          CommandDispatcherOptions{s.permissions, s.max_concurrent});
  return commands;
}

// The dispatcher goes first: its workers use everything else.
Commands::~Commands() { dispatcher_.reset(); }

Result<Commands::Checked> Commands::check_call(const json& name, const json& params, const json& context,
                                               bool invoking) const {
  auto command = non_blank_string(&name);
  if (!command) return Error{"invalid_name: a command name must be a non-empty string"};
  if (!params.is_object()) return Error{"params must be an object, got " + commands::json_type_name(params)};
  if (!context.is_object()) return Error{"context must be an object, got " + commands::json_type_name(context)};
  if (context.contains("invocation_id") && context.contains(":invocation_id"))
    return Error{"context: conflicting keys \":invocation_id\" and \"invocation_id\""};
  if (auto conflict = commands::find_conflicting_keys(params, "params")) return Error{*conflict};
  if (auto conflict = commands::find_conflicting_keys(context, "context")) return Error{*conflict};
  if (invoking) {
    if (const json* bus = commands::find_key(context, "bus"))
      if (auto error = commands::check_reference(*bus, bus_->name(), "bus", "context.bus")) return Error{*error};
    if (const json* permissions = commands::find_key(context, "permissions")) {
      auto checked = commands::permissions_from_json(*permissions, "context.permissions");
      if (!checked) return checked.error();
    }
  }
  return Checked{*command, params, context};
}

namespace {

std::string resolve_invocation_id(const std::optional<std::string>& option, const json& context) {
  if (option && !text::trim(*option).empty()) return std::string(text::trim(*option));
  if (auto id = non_blank_string(commands::find_key(context, "invocation_id"))) return *id;
  return make_uuid();
}

}  // namespace

Result<json> Commands::run(const Checked& call, const CommandInvokeOptions& options) {
  auto command = registry_->find(call.name);
  if (!command) return Error{"unknown command '" + call.name + "'"};
  Permissions permissions = settings_.permissions;
  if (options.permissions) {
    permissions = *options.permissions;
  } else if (const json* given = commands::find_key(call.context, "permissions")) {
    permissions = *commands::permissions_from_json(*given, "context.permissions");
  }
  ExecutionContext context{call.context, resolve_invocation_id(options.invocation_id, call.context),
                           std::move(permissions), bus_.get()};
  return run_command(*command, call.params, context, *executors_);
}

Result<std::string> Commands::publish(const Checked& call, const CommandDispatchOptions& options) {
  std::string id = resolve_invocation_id(options.invocation_id, call.context);
  bus_->publish(
      Signal::make("command.invoke", "/jido_command",
                   {{"name", call.name}, {"params", call.params}, {"context", call.context}, {"invocation_id", id}}));
  return id;
}

Result<json> Commands::invoke(std::string_view name, const json& params, const json& context,
                              const CommandInvokeOptions& options) {
  auto call = check_call(json(name), params, context, true);
  if (!call) return call.error();
  return run(*call, options);
}

Result<std::string> Commands::dispatch(std::string_view name, const json& params, const json& context,
                                       const CommandDispatchOptions& options) {
  auto call = check_call(json(name), params, context, false);
  if (!call) return call.error();
  return publish(*call, options);
}

Result<json> Commands::invoke_json(const json& name, const json& params, const json& context, const json& options) {
  auto given = commands::read_options(options, {"bus", "registry", "invocation_id", "permissions"}, "invoke");
  if (!given) return given.error();
  const std::string prefix = "invalid invoke options: ";
  if (given->bus)
    if (auto error = commands::check_reference(*given->bus, bus_->name(), "bus", "bus")) return Error{prefix + *error};
  if (given->registry)
    if (auto error = commands::check_reference(*given->registry, kRegistryName, "registry", "registry"))
      return Error{prefix + *error};
  CommandInvokeOptions typed;
  typed.invocation_id = non_blank_string(given->invocation_id);
  if (given->permissions) {
    auto permissions = commands::permissions_from_json(*given->permissions, "permissions");
    if (!permissions) return Error{prefix + permissions.error().message};
    typed.permissions = std::move(*permissions);
  }
  auto call = check_call(name, params, context, true);
  if (!call) return call.error();
  return run(*call, typed);
}

Result<std::string> Commands::dispatch_json(const json& name, const json& params, const json& context,
                                            const json& options) {
  auto given = commands::read_options(options, {"bus", "invocation_id"}, "dispatch");
  if (!given) return given.error();
  if (given->bus)
    if (auto error = commands::check_reference(*given->bus, bus_->name(), "bus", "bus"))
      return Error{"invalid dispatch options: " + *error};
  auto call = check_call(name, params, context, false);
  if (!call) return call.error();
  return publish(*call, {non_blank_string(given->invocation_id)});
}

namespace {

std::optional<Error> check_registry_options(const json& options, std::string_view operation) {
  auto given = commands::read_options(options, {"registry"}, operation);
  if (!given) return given.error();
  if (given->registry)
    if (auto error = commands::check_reference(*given->registry, Commands::kRegistryName, "registry", "registry"))
      return Error{"invalid " + std::string(operation) + " options: " + *error};
  return std::nullopt;
}

}  // namespace

Result<std::vector<std::string>> Commands::list_commands_json(const json& options) const {
  if (auto error = check_registry_options(options, "list_commands")) return *error;
  return registry_->list_commands();
}

Result<json> Commands::reload_json(const json& options) {
  if (auto error = check_registry_options(options, "reload")) return *error;
  return registry_->reload();
}

Result<json> Commands::register_command_json(const json& path, const json& options) {
  if (auto error = check_registry_options(options, "register_command")) return *error;
  return registry_->register_command(path);
}

Result<json> Commands::unregister_command_json(const json& name, const json& options) {
  if (auto error = check_registry_options(options, "unregister_command")) return *error;
  return registry_->unregister_command(name);
}

}  // namespace ptc
