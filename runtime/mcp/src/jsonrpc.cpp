#include "jsonrpc.hpp"

#include "call_envelope.hpp"

#include <ptc/json_input.hpp>
#include <ptc/json_text.hpp>

namespace ptc::mcp::jsonrpc {
namespace {

ReadResult refuse(const nlohmann::json& id, int code, std::string message) {
  return ReadResult{std::nullopt, Refusal{error(id, code, std::move(message))}};
}

bool valid_id(const nlohmann::json& id) { return id.is_string() || id.is_number_integer(); }

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

std::size_t skip_space(std::string_view t, std::size_t i) {
  while (i < t.size() && is_space(t[i])) ++i;
  return i;
}

/// Past the string that starts at t[i] (a quote).
std::size_t skip_string(std::string_view t, std::size_t i) {
  for (++i; i < t.size(); ++i) {
    if (t[i] == '\\')
      ++i;
    else if (t[i] == '"')
      return i + 1;
  }
  return t.size();
}

/// Past the value that starts at t[i]; the text is valid JSON, so brackets balance.
std::size_t skip_value(std::string_view t, std::size_t i) {
  if (i >= t.size()) return i;
  if (t[i] == '"') return skip_string(t, i);
  if (t[i] != '{' && t[i] != '[') {
    while (i < t.size() && t[i] != ',' && t[i] != '}' && t[i] != ']' && !is_space(t[i])) ++i;
    return i;
  }
  std::size_t depth = 0;
  while (i < t.size()) {
    const char c = t[i];
    if (c == '"') {
      i = skip_string(t, i);
      continue;
    }
    if (c == '{' || c == '[') ++depth;
    if ((c == '}' || c == ']') && --depth == 0) return i + 1;
    ++i;
  }
  return i;
}

}  // namespace

ReadResult read(std::string_view text) {
  if (text.find("tools/call") != std::string_view::npos)
    if (auto call = read_tool_call(text)) return ReadResult{std::move(*call), std::nullopt};
  return read_parsed(text);
}

ReadResult read_parsed(std::string_view text) {
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
    if (has_id && (j.contains("result") || j.contains("error"))) {
      // A client's answer to a request of the server's: kept as {"result": ...} or {"error": ...}.
      const char* member = j.contains("result") ? "result" : "error";
      nlohmann::json answer = nlohmann::json::object();
      answer[member] = std::move(j[member]);
      return ReadResult{Message{Message::Kind::Response, *id_it, {}, std::move(answer)}, std::nullopt};
    }
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
  if (const auto args = message.params.find("arguments");
      message.method == "tools/call" && args != message.params.end() && args->is_object())
    if (auto span = member_text(text, {"params", "arguments"})) {
      message.arguments_text = *span;
      message.params.erase(args);  // one form, as read_tool_call gives it
    }
  return ReadResult{std::move(message), std::nullopt};
}

Json result(const nlohmann::json& id, Json result) {
  return Json{{"jsonrpc", "2.0"}, {"id", id}, {"result", std::move(result)}};
}

std::string result_line(const nlohmann::json& id, std::string_view result) {
  std::string out = R"({"jsonrpc":"2.0","id":)";
  out += compact_text(id);
  out += R"(,"result":)";
  out += result;
  out += '}';
  return out;
}

Json error(const nlohmann::json& id, int code, std::string message, Json data) {
  Json e{{"code", code}, {"message", std::move(message)}};
  if (!data.is_null()) e["data"] = std::move(data);
  return Json{{"jsonrpc", "2.0"}, {"id", id}, {"error", std::move(e)}};
}

Json invalid_params(const Message& message, std::string why) {
  return error(message.id, kInvalidParams, "Invalid params: " + std::move(why));
}

Json notification(std::string method, Json params) {
  return Json{{"jsonrpc", "2.0"}, {"method", std::move(method)}, {"params", std::move(params)}};
}

std::string line(const Json& message) { return compact_text(message); }

std::string id_key(const nlohmann::json& id) { return id.dump(); }

std::optional<std::string_view> member_text(std::string_view json, std::initializer_list<std::string_view> path) {
  std::size_t i = skip_space(json, 0);
  for (const auto name : path) {
    if (i >= json.size() || json[i] != '{') return std::nullopt;
    i = skip_space(json, i + 1);
    bool found = false;
    while (!found && i < json.size() && json[i] == '"') {
      const std::size_t key_end = skip_string(json, i);
      // A key written with escapes is not compared: the caller falls back to the parsed value.
      const bool match = json.substr(i + 1, key_end - i - 2) == name;
      i = skip_space(json, key_end);
      if (i >= json.size() || json[i] != ':') return std::nullopt;
      i = skip_space(json, i + 1);
      if (match) {
        found = true;
        break;
      }
      i = skip_space(json, skip_value(json, i));
      if (i < json.size() && json[i] == ',') i = skip_space(json, i + 1);
    }
    if (!found) return std::nullopt;
  }
  return json.substr(i, skip_value(json, i) - i);
}

}  // namespace ptc::mcp::jsonrpc
