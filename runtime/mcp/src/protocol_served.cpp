// The MCP methods of resources, prompts and completions: lists, reads and gets run through the
// registry's dispatch (ToolRegistry::dispatch_reader), so a template's variables and a prompt's
// arguments are decoded, coerced and reported as tool arguments are.

#include <exception>

#include <ptc/json_text.hpp>

#include "protocol.hpp"

namespace ptc::mcp {
namespace {

using jsonrpc::Json;
using jsonrpc::Message;

/// 2025 revisions name a missing resource -32002; 2026-07-28 made it -32602 (SEP-2164).
constexpr int kLegacyResourceNotFound = -32002;

using jsonrpc::invalid_params;

/// Runs a reader's or a renderer's work. What it asked of the client (InputRequired,
/// MissingClientCapability) goes on to run_request; any other exception is the request's internal error.
template <class Work>
std::string answering_internal_errors(const Json& id, Work&& work) {
  try {
    return work();
  } catch (const InputRequired&) {
    throw;
  } catch (const MissingClientCapability&) {
    throw;
  } catch (const std::exception& e) {
    return jsonrpc::line(jsonrpc::error(id, jsonrpc::kInternalError, std::string("Internal error: ") + e.what()));
  }
}

/// The string members of `object` (a prompt's arguments, a completion's context); other values as
/// their JSON text, which the lenient decoder reads as well.
nlohmann::json string_arguments(const nlohmann::json* object) {
  nlohmann::json out = nlohmann::json::object();
  if (!object || !object->is_object()) return out;
  for (auto it = object->begin(); it != object->end(); ++it) out[it.key()] = it.value();
  return out;
}

/// A failed read or get as a JSON-RPC error: arguments that do not decode are the client's mistake
/// (-32602 with the report), a reader's failed result says what is not there (`missing`), and
/// anything else is the server's (-32603).
Json failure(const Message& message, const ToolOutcome& outcome, int missing_code, Json data) {
  switch (outcome.status) {
    case CallStatus::InvalidArguments: {
      // Without the warnings: a URI's variables and a prompt's arguments are strings, so every number
      // in them is "coerced", which says nothing to the client.
      Validation errors = outcome.validation;
      errors.warnings.clear();
      errors.more_warnings = 0;
      std::string report = errors.report();
      while (!report.empty() && report.back() == '\n') report.pop_back();
      return invalid_params(message, report.empty() ? outcome.rendered : report);
    }
    case CallStatus::Failed: return jsonrpc::error(message.id, missing_code, outcome.rendered, std::move(data));
    default: return jsonrpc::error(message.id, jsonrpc::kInternalError, "Internal error: " + outcome.rendered);
  }
}

/// A member that is a string, or "" (absent or of another type).
std::string string_member(const nlohmann::json& object, const char* key) {
  auto it = object.find(key);
  return it != object.end() && it->is_string() ? it->get<std::string>() : std::string();
}

}  // namespace

Json Protocol::list_resources(const Message& message, Era era, bool templates) const {
  std::vector<Resource> listed;
  for (auto& r : registry_.resources())
    if (r.is_template() == templates) listed.push_back(std::move(r));
  auto range = page(message, listed.size());
  if (!range) return invalid_params(message, "unknown cursor");
  Json list = Json::array();
  for (std::size_t i = range->first; i < range->second; ++i) list.push_back(mcp_resource(listed[i]));
  Json result{{templates ? "resourceTemplates" : "resources", std::move(list)}};
  if (range->second < listed.size()) result["nextCursor"] = std::to_string(range->second);
  return era_result(message, std::move(result), era, true);
}

Reply Protocol::read_resource(const std::shared_ptr<Client>& client, const Message& message, Era era,
                              Notify notify) const {
  auto uri = message.params.find("uri");
  if (uri == message.params.end() || !uri->is_string())
    return {invalid_params(message, "\"uri\" must be a string"), {}};
  const std::string text = uri->get<std::string>();
  const int not_found = era == Era::Legacy ? kLegacyResourceNotFound : jsonrpc::kInvalidParams;
  auto match = registry_.find_resource(text);
  if (!match) return {jsonrpc::error(message.id, not_found, "Resource not found: " + text, Json{{"uri", text}}), {}};
  ToolCall call{call_id(message.id), match->resource.reader().name(), nlohmann::json::object()};
  for (auto& [name, value] : match->variables) call.arguments[name] = std::move(value);
  auto work = [this, client, era, not_found, text, message, call = std::move(call),
               resource = std::move(match->resource)](const DispatchOptions& dispatch) {
    return answering_internal_errors(message.id, [&] {
      ToolOutcome outcome = registry_.dispatch_reader(client->session(), resource.reader(), call, dispatch);
      if (!outcome.success()) return jsonrpc::line(failure(message, outcome, not_found, Json{{"uri", text}}));
      Json result{{"contents", mcp_resource_contents(outcome, resource, text)}};
      return jsonrpc::line(era_result(message, std::move(result), era, true));
    });
  };
  return run_request(client, message, era, std::move(notify), std::move(work));
}

Json Protocol::list_prompts(const Message& message, Era era) const {
  const auto prompts = registry_.prompts();
  auto range = page(message, prompts.size());
  if (!range) return invalid_params(message, "unknown cursor");
  Json list = Json::array();
  for (std::size_t i = range->first; i < range->second; ++i) list.push_back(mcp_prompt(prompts[i]));
  Json result{{"prompts", std::move(list)}};
  if (range->second < prompts.size()) result["nextCursor"] = std::to_string(range->second);
  return era_result(message, std::move(result), era, true);
}

Reply Protocol::get_prompt(const std::shared_ptr<Client>& client, const Message& message, Era era,
                           Notify notify) const {
  auto name = message.params.find("name");
  if (name == message.params.end() || !name->is_string())
    return {invalid_params(message, "\"name\" must be a string"), {}};
  auto prompt = registry_.find_prompt(name->get<std::string>());
  if (!prompt) return {invalid_params(message, "Unknown prompt: " + name->get<std::string>()), {}};
  auto arguments = message.params.find("arguments");
  ToolCall call{call_id(message.id), prompt->name(),
                string_arguments(arguments == message.params.end() ? nullptr : &*arguments)};
  auto work = [this, client, era, message, call = std::move(call),
               prompt = std::move(*prompt)](const DispatchOptions& dispatch) {
    return answering_internal_errors(message.id, [&] {
      ToolOutcome outcome = registry_.dispatch_reader(client->session(), prompt.renderer(), call, dispatch);
      if (!outcome.success()) return jsonrpc::line(failure(message, outcome, jsonrpc::kInternalError, nullptr));
      Json result;
      if (!prompt.description().empty()) result["description"] = prompt.description();
      result["messages"] = mcp_prompt_messages(outcome);
      return jsonrpc::line(era_result(message, std::move(result), era, false));
    });
  };
  return run_request(client, message, era, std::move(notify), std::move(work));
}

Json Protocol::complete(const Message& message, Era era) const {
  const auto& params = message.params;
  auto ref = params.find("ref");
  auto argument = params.find("argument");
  if (ref == params.end() || !ref->is_object()) return invalid_params(message, "\"ref\" must be an object");
  if (argument == params.end() || !argument->is_object() || !argument->contains("name") ||
      !(*argument)["name"].is_string())
    return invalid_params(message, "\"argument\" must be an object with a string \"name\"");
  const std::string name = (*argument)["name"].get<std::string>();
  const std::string value = string_member(*argument, "value");
  std::map<std::string, std::string, std::less<>> context;
  if (auto c = params.find("context"); c != params.end() && c->is_object())
    if (auto args = c->find("arguments"); args != c->end() && args->is_object())
      for (auto it = args->begin(); it != args->end(); ++it)
        if (it->is_string()) context[it.key()] = it->get<std::string>();

  const std::string type = string_member(*ref, "type");
  const Schema* schema = nullptr;
  const Completer* completer = nullptr;
  std::optional<PromptTemplate> prompt;
  std::optional<Resource> resource;
  if (type == "ref/prompt") {
    prompt = registry_.find_prompt(string_member(*ref, "name"));
    if (!prompt) return invalid_params(message, "no prompt named by ref.name");
    const MapEntry* entry =
        prompt->renderer().input().kind() == Kind::Map ? prompt->renderer().input().find(name) : nullptr;
    if (!entry) return invalid_params(message, "prompt '" + prompt->name() + "' has no argument '" + name + "'");
    schema = &entry->schema;
    completer = prompt->completer(name);
  } else if (type == "ref/resource") {
    const std::string uri = string_member(*ref, "uri");
    for (auto& r : registry_.resources())
      if (r.uri().text() == uri) resource = std::move(r);
    if (!resource) return invalid_params(message, "no resource template has the URI '" + uri + "'");
    const MapEntry* entry =
        resource->reader().input().kind() == Kind::Map ? resource->reader().input().find(name) : nullptr;
    if (!entry) return invalid_params(message, "resource template '" + uri + "' has no variable '" + name + "'");
    schema = &entry->schema;
    completer = resource->completer(name);
  } else {
    return invalid_params(message, "ref.type must be \"ref/prompt\" or \"ref/resource\"");
  }
  Completion completion;
  try {
    completion = ptc::complete(*schema, completer, CompletionRequest{name, value, &context});
  } catch (const std::exception& e) {
    return jsonrpc::error(message.id, jsonrpc::kInternalError, std::string("Internal error: ") + e.what());
  }
  Json result{{"completion",
               Json{{"values", completion.values}, {"total", completion.total}, {"hasMore", completion.has_more}}}};
  return era_result(message, std::move(result), era, false);
}

Json Protocol::subscription(Client& client, const Message& message, bool subscribe) const {
  auto uri = message.params.find("uri");
  if (uri == message.params.end() || !uri->is_string()) return invalid_params(message, "\"uri\" must be a string");
  const std::string text = uri->get<std::string>();
  if (subscribe) {
    if (!registry_.find_resource(text))
      return jsonrpc::error(message.id, kLegacyResourceNotFound, "Resource not found: " + text, Json{{"uri", text}});
    client.subscribe(text);
  } else {
    client.unsubscribe(text);
  }
  return jsonrpc::result(message.id, Json::object());
}

}  // namespace ptc::mcp
