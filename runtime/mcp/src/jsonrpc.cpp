#include "jsonrpc.hpp"

#include <ptc/json_input.hpp>

namespace ptc::mcp::jsonrpc {
namespace {

ReadResult refuse(const nlohmann::json& id, int code, std::string message) {
  return ReadResult{std::nullopt, Refusal{error(id, code, std::move(message))}};
}

bool valid_id(const nlohmann::json& id) { return id.is_string() || id.is_number_integer(); }

}  // namespace

ReadResult read(std::string_view text) {
  auto parsed = parse_json(text);
  if (!parsed) return refuse(nullptr, kParseError, "Parse error: " + parsed.error().to_string());
  nlohmann::json& j = *parsed;
  if (j.is_array()) return refuse(nullptr, kInvalidRequest, "Invalid Request: batches are not supported");
  if (!j.is_object()) return refuse(nullptr, kInvalidRequest, "Invalid Request: a message is a JSON object");
  const auto id_it = j.find("id");
  const bool has_id = id_it != j.end();
  // A request whose id is unusable is answered with id null, as JSON-RPC says.
  const nlohmann::json reply_id = has_id && valid_id(*id_it) ? *id_it : nlohmann::json();
  const auto version = j.find("jsonrpc");
  if (version == j.end() || *version != "2.0")
    return refuse(reply_id, kInvalidRequest, "Invalid Request: \"jsonrpc\" must be \"2.0\"");
  const auto method = j.find("method");
  if (method == j.end()) {
    if (has_id && (j.contains("result") || j.contains("error")))
      return ReadResult{Message{Message::Kind::Response, *id_it, {}, nlohmann::json::object()}, std::nullopt};
    return refuse(reply_id, kInvalidRequest, "Invalid Request: no \"method\"");
  }
  if (!method->is_string()) return refuse(reply_id, kInvalidRequest, "Invalid Request: \"method\" must be a string");
  if (has_id && !valid_id(*id_it))
    return refuse(nullptr, kInvalidRequest, "Invalid Request: \"id\" must be a string or an integer");
  Message message;
  message.kind = has_id ? Message::Kind::Request : Message::Kind::Notification;
  if (has_id) message.id = *id_it;
  message.method = method->get<std::string>();
  if (const auto params = j.find("params"); params != j.end() && !params->is_null()) {
    if (!params->is_object()) return refuse(reply_id, kInvalidParams, "Invalid params: \"params\" must be an object");
    message.params = std::move(*params);
  }
  return ReadResult{std::move(message), std::nullopt};
}

Json result(const nlohmann::json& id, Json result) {
  return Json{{"jsonrpc", "2.0"}, {"id", id}, {"result", std::move(result)}};
}

Json error(const nlohmann::json& id, int code, std::string message, Json data) {
  Json e{{"code", code}, {"message", std::move(message)}};
  if (!data.is_null()) e["data"] = std::move(data);
  return Json{{"jsonrpc", "2.0"}, {"id", id}, {"error", std::move(e)}};
}

Json notification(std::string method, Json params) {
  return Json{{"jsonrpc", "2.0"}, {"method", std::move(method)}, {"params", std::move(params)}};
}

std::string line(const Json& message) { return message.dump(-1, ' ', false, Json::error_handler_t::replace); }

std::string id_key(const nlohmann::json& id) { return id.dump(); }

}  // namespace ptc::mcp::jsonrpc
