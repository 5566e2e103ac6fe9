#include <ptc/command_run.hpp>

#include <chrono>

#include <ptc/command_permissions.hpp>
#include <ptc/json_text.hpp>
#include <ptc/uuid.hpp>
#include <ptc/signal_bus.hpp>
#include <ptc/validate.hpp>

#include "text.hpp"
#include "json_keys.hpp"

namespace ptc {

using nlohmann::json;

std::string render_command_body(std::string_view body, const json& params) {
  std::string out;
  out.reserve(body.size());
  std::size_t at = 0;
  while (true) {
    auto open = body.find("{{", at);
    auto close = open == std::string_view::npos ? open : body.find("}}", open + 2);
    if (close == std::string_view::npos) break;
    std::string key(body.substr(open + 2, close - open - 2));
    auto it = params.is_object() ? params.find(key) : params.end();
    if (it == params.end()) {
      // Not a param: keep the text and look for the next `{{` inside it, so `{{{{x}}` still fills x.
      out.append(body.substr(at, open + 2 - at));
      at = open + 2;
      continue;
    }
    out.append(body.substr(at, open - at));
    out += plain_text(*it);
    at = close + 2;
  }
  out.append(body.substr(at));
  return out;
}

namespace {

void emit_hook(const CommandDefinition& command, SignalBus* bus, std::string type, json data) {
  if (!bus) return;
  data["command"] = command.name;
  bus->publish(Signal::make(std::move(type), "/commands/" + command.name, std::move(data)));
}

// The errors stored (Validation keeps the first limits::kStoredIssues), and how many more there are.
std::string issues_text(const std::vector<Issue>& issues, std::size_t more) {
  std::string out;
  for (const auto& issue : issues) {
    if (!out.empty()) out += "; ";
    out += issue.path + ": " + issue.message;
  }
  if (more != 0) {
    out += "; ... and ";
    out += std::to_string(more);
    out += " more";
  }
  return out;
}

Result<json> execute(const CommandExecutor& executor, const CommandInvocation& invocation,
                     const std::string& executor_name) {
  std::string who = "executor '" + executor_name + "'";
  try {
    auto result = executor(invocation);
    if (result && !result->is_object())
      return Error{who + " returned a " + commands::json_type_name(*result) + ", not an object"};
    return result;
  } catch (const std::exception& e) {
    return Error{who + " threw: " + e.what()};
  } catch (...) {
    return Error{who + " threw an unknown exception"};
  }
}

}  // namespace

Result<json> run_command(const CommandDefinition& command, const json& params, const ExecutionContext& context,
                         const CommandExecutors& executors) {
  if (!params.is_object()) return Error{"params must be an object"};
  auto checked = validate_and_coerce(command.params, params, {Direction::Input, Mode::Enabled});
  if (!checked.ok)
    return Error{"invalid params for command '" + command.name +
                 "': " + issues_text(checked.errors, checked.more_errors)};

  CommandExecutor executor = default_command_executor;
  std::string executor_name = "default";
  if (command.command_module) {
    auto found = executors.find(*command.command_module);
    if (!found)
      return Error{"command '" + command.name + "': no executor is registered as '" + *command.command_module + "'"};
    executor = std::move(*found);
    executor_name = *command.command_module;
  }

  auto trimmed_id = text::trim(context.invocation_id);
  std::string invocation_id = trimmed_id.empty() ? make_uuid() : std::string(trimmed_id);
  auto started = std::chrono::steady_clock::now();
  if (command.hooks.pre)
    emit_hook(command, context.bus, "jido.hooks.pre",
              {{"params", checked.value}, {"invocation_id", invocation_id}, {"status", "pre"}});

  CommandInvocation invocation{command,       render_command_body(command.body, checked.value),
                               checked.value, context.context.is_object() ? context.context : json::object(),
                               invocation_id, restrict_permissions(context.permissions, command.allowed_tools),
                               context.bus};
  auto result = execute(executor, invocation, executor_name);
  auto duration_ms =
      std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - started).count();

  if (command.hooks.after) {
    json data{{"params", checked.value}, {"invocation_id", invocation_id}, {"duration_ms", duration_ms}};
    if (result) {
      data["status"] = "ok";
      data["result"] = *result;
    } else {
      data["status"] = "error";
      data["error"] = result.error().message;
    }
    emit_hook(command, context.bus, "jido.hooks.after", std::move(data));
  }
  if (!result) return result.error();
  return json{{"invocation_id", invocation_id}, {"duration_ms", duration_ms}, {"result", *result}};
}

}  // namespace ptc
