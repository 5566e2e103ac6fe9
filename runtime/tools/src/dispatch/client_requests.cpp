// Asking the client from a handler: the questions as MCP requests, and their answers read back
// (client_requests.hpp, ToolContext).

#include <ptc/schema.hpp>
#include <ptc/tool_context.hpp>
#include <ptc/validate.hpp>

namespace ptc {
namespace {

/// A field of an elicitation schema: MCP allows strings (with a few formats), numbers, integers,
/// booleans and string enums, each flat.
Result<nlohmann::json> primitive(const Schema& schema, const std::string& field) {
  using J = nlohmann::json;
  switch (schema.kind()) {
    case Kind::String: {
      J out{{"type", "string"}};
      if (!schema.format().empty()) out["format"] = schema.format() == "date-time" ? "date-time" : schema.format();
      return out;
    }
    case Kind::Int: return J{{"type", "integer"}};
    case Kind::Float: return J{{"type", "number"}};
    case Kind::Bool: return J{{"type", "boolean"}};
    case Kind::Enum: {
      J values = J::array();
      for (const auto& v : schema.values()) {
        if (!v.is_string()) return Error{field + ": an enum of elicitation must hold strings only"};
        values.push_back(v);
      }
      return J{{"type", "string"}, {"enum", values}};
    }
    case Kind::And: {
      // A refined number keeps its bounds; other refinements (patterns) MCP cannot state.
      const auto& children = schema.children();
      if (children.empty()) break;
      auto base = primitive(children.front(), field);
      if (!base) return base;
      J out = *base;
      for (std::size_t i = 1; i < children.size(); ++i) {
        const Schema& r = children[i];
        if (r.kind() != Kind::Refinement || r.op() == Refine::Re) continue;
        if (r.op() == Refine::Ge || r.op() == Refine::Gt) out["minimum"] = r.bound();
        if (r.op() == Refine::Le || r.op() == Refine::Lt) out["maximum"] = r.bound();
      }
      return out;
    }
    case Kind::Vector:
    case Kind::Set: {
      // A multi-select: a list of a string enum's values.
      if (schema.item().kind() != Kind::Enum) break;
      auto item = primitive(schema.item(), field + "[]");
      if (!item) return item;
      return J{{"type", "array"}, {"items", std::move(*item)}};
    }
    default: break;
  }
  return Error{field + ": " + std::string(kind_name(schema.kind())) +
               " cannot be asked for (elicitation takes strings, numbers, booleans, string enums and lists of "
               "a string enum)"};
}

/// A member that is a string, or `fallback`: the client wrote the answer, so any member may be of any
/// type.
std::string text_member(const nlohmann::json& object, const char* key, std::string fallback = {}) {
  if (!object.is_object()) return fallback;
  auto it = object.find(key);
  return it != object.end() && it->is_string() ? it->get<std::string>() : fallback;
}

/// The answer to `key`; a channel answers every key it was asked, or fails.
Result<nlohmann::json> answer_to(Result<std::map<std::string, nlohmann::json>> answers, const std::string& key) {
  if (!answers) return answers.error();
  auto it = answers->find(key);
  if (it == answers->end()) return Error{"The client gave no answer to '" + key + "'."};
  return std::move(it->second);
}

}  // namespace

namespace detail {

Result<nlohmann::json> elicitation_schema(const Schema& schema) {
  if (schema.kind() != Kind::Map)
    return Error{"(root): elicitation asks for an object of fields, not a " + std::string(kind_name(schema.kind()))};
  nlohmann::json properties = nlohmann::json::object();
  nlohmann::json required = nlohmann::json::array();
  for (const auto& entry : schema.entries()) {
    const Schema& type = entry.optional && entry.schema.kind() == Kind::Maybe ? entry.schema.item() : entry.schema;
    auto field = primitive(type, entry.name);
    if (!field) return field.error();
    if (!entry.doc.empty()) (*field)["description"] = entry.doc;
    if (entry.has_default()) (*field)["default"] = *entry.default_value;
    properties[entry.name] = std::move(*field);
    if (!entry.optional && !entry.has_default()) required.push_back(entry.name);
  }
  nlohmann::json out{{"type", "object"}, {"properties", std::move(properties)}};
  if (!required.empty()) out["required"] = std::move(required);
  return out;
}

}  // namespace detail

std::string ClientRequest::capability() const {
  if (method == "elicitation/create") return "elicitation";
  if (method == "sampling/createMessage") return "sampling";
  if (method == "roots/list") return "roots";
  return method;
}

bool ToolContext::client_supports(std::string_view capability) const {
  return environment_.client && environment_.client->supports(capability);
}

void ToolContext::require_client(std::string_view capability) const {
  if (!client_supports(capability)) throw MissingClientCapability(std::string(capability));
}

Result<std::map<std::string, nlohmann::json>> ToolContext::ask_client(const std::vector<ClientRequest>& requests) {
  if (!environment_.client)
    return Error{"There is no client to ask: this call did not come from an MCP client that can answer."};
  for (const auto& r : requests)
    if (!environment_.client->supports(r.capability()))
      return Error{"The client cannot answer " + r.method + ": it did not declare the '" + r.capability() +
                   "' capability."};
  return environment_.client->ask(requests);
}

Result<Elicited<nlohmann::json>> ToolContext::elicit(std::string_view message, const Schema& schema, std::string key) {
  auto requested = detail::elicitation_schema(schema);
  if (!requested) return Error{"This value cannot be asked for: " + requested.error().message};
  if (key.empty()) key = "elicit-" + std::to_string(++asked_);
  ClientRequest request{key, "elicitation/create",
                        nlohmann::json{{"message", std::string(message)}, {"requestedSchema", std::move(*requested)}}};
  auto got = answer_to(ask_client({request}), key);
  if (!got) return got.error();
  const nlohmann::json& answer = *got;
  Elicited<nlohmann::json> out;
  const std::string action = text_member(answer, "action");
  if (action != "accept" && action != "decline" && action != "cancel")
    return Error{"The client's answer to the elicitation has no action accept, decline or cancel."};
  out.action = action == "accept"    ? ElicitAction::accept
               : action == "decline" ? ElicitAction::decline
                                     : ElicitAction::cancel;
  if (out.action != ElicitAction::accept) return out;
  auto content = answer.find("content");
  auto checked = validate_and_coerce(schema, content == answer.end() ? nlohmann::json::object() : *content);
  if (!checked.ok) {
    // The errors alone, without the report's heading (written for a tool's arguments) and warnings.
    checked.warnings.clear();
    checked.more_warnings = 0;
    std::string report = checked.report();
    if (auto heading = report.find('\n'); heading != std::string::npos) report.erase(0, heading + 1);
    while (!report.empty() && report.back() == '\n') report.pop_back();
    return Error{"The user's answer does not match what was asked:\n" + report};
  }
  out.value = std::move(checked.value);
  return out;
}

Result<Sample> ToolContext::sample(SamplingRequest request) {
  nlohmann::json messages = nlohmann::json::array();
  for (const auto& m : request.messages)
    messages.push_back({{"role", m.role}, {"content", {{"type", "text"}, {"text", m.text}}}});
  nlohmann::json params{{"messages", std::move(messages)}, {"maxTokens", request.max_tokens}};
  if (!request.system_prompt.empty()) params["systemPrompt"] = request.system_prompt;
  if (request.temperature) params["temperature"] = *request.temperature;
  if (!request.stop_sequences.empty()) params["stopSequences"] = request.stop_sequences;
  std::string key = request.key.empty() ? "sample-" + std::to_string(++asked_) : request.key;
  auto got = answer_to(ask_client({ClientRequest{key, "sampling/createMessage", std::move(params)}}), key);
  if (!got) return got.error();
  const nlohmann::json& answer = *got;
  if (!answer.is_object()) return Error{"The client's sampling answer is not an object."};
  Sample out;
  out.role = text_member(answer, "role", "assistant");
  out.model = text_member(answer, "model");
  out.stop_reason = text_member(answer, "stopReason");
  // 2025-11-25 allows an array of content blocks; the text is all their text together.
  auto content = answer.find("content");
  auto add = [&out](const nlohmann::json& block) {
    if (text_member(block, "type") == "text" && block.contains("text") && block["text"].is_string())
      out.text += block["text"].get<std::string>();
  };
  if (content != answer.end() && content->is_array())
    for (const auto& block : *content) add(block);
  else if (content != answer.end())
    add(*content);
  return out;
}

Result<std::vector<Root>> ToolContext::roots(std::string key) {
  if (key.empty()) key = "roots-" + std::to_string(++asked_);
  auto got = answer_to(ask_client({ClientRequest{key, "roots/list", nlohmann::json::object()}}), key);
  if (!got) return got.error();
  return detail::roots_of(*got);
}

namespace detail {

Result<std::vector<Root>> roots_of(const nlohmann::json& answer) {
  auto list = answer.is_object() ? answer.find("roots") : answer.end();
  if (!answer.is_object() || list == answer.end() || !list->is_array())
    return Error{"The client's roots answer has no list of roots."};
  std::vector<Root> out;
  for (const auto& r : *list)
    if (r.is_object() && r.contains("uri") && r["uri"].is_string())
      out.push_back(Root{r["uri"].get<std::string>(), text_member(r, "name")});
  return out;
}

}  // namespace detail

}  // namespace ptc
