#include <ptc/agent/conversation.hpp>

#include <optional>
#include <string>

namespace ptc::agent {

std::string_view role_name(Role role) {
  switch (role) {
    case Role::user: return "user";
    case Role::assistant: return "assistant";
    case Role::tool: return "tool";
  }
  return "user";
}

Usage& Usage::operator+=(const Usage& other) {
  requests += other.requests;
  input_tokens += other.input_tokens;
  output_tokens += other.output_tokens;
  cached_input_tokens += other.cached_input_tokens;
  reasoning_tokens += other.reasoning_tokens;
  return *this;
}

namespace {

nlohmann::json usage_json(const Usage& u) {
  return {{"requests", u.requests},
          {"input_tokens", u.input_tokens},
          {"output_tokens", u.output_tokens},
          {"cached_input_tokens", u.cached_input_tokens},
          {"reasoning_tokens", u.reasoning_tokens}};
}

// Reads `key` of `object` as `T`, naming the member when it has another type; absent keeps `out`.
template <class T>
std::optional<Error> read(const nlohmann::json& object, const char* key, T& out) {
  auto it = object.find(key);
  if (it == object.end() || it->is_null()) return std::nullopt;
  try {
    out = it->get<T>();
  } catch (const nlohmann::json::exception&) {
    return Error{std::string(key) + ": has the wrong type (" + it->type_name() + ")"};
  }
  return std::nullopt;
}

}  // namespace

nlohmann::json to_json(const Message& m) {
  nlohmann::json out = nlohmann::json::object();
  out["role"] = role_name(m.role);
  if (!m.text.empty()) out["text"] = m.text;
  if (!m.tool_calls.empty()) {
    auto& calls = out["tool_calls"] = nlohmann::json::array();
    for (const auto& c : m.tool_calls) calls.push_back({{"id", c.id}, {"name", c.name}, {"arguments", c.arguments}});
  }
  if (!m.tool_results.empty()) {
    auto& results = out["tool_results"] = nlohmann::json::array();
    for (const auto& r : m.tool_results)
      results.push_back({{"call_id", r.call_id}, {"name", r.name}, {"content", r.content}, {"is_error", r.is_error}});
  }
  if (!m.raw.is_null()) {
    out["raw"] = m.raw;
    out["provider"] = m.provider;
  }
  if (m.role == Role::assistant && m.usage != Usage{}) out["usage"] = usage_json(m.usage);
  return out;
}

Result<Message> message_from_json(const nlohmann::json& v) {
  if (!v.is_object()) return Error{"a message must be a JSON object"};
  Message m;
  std::string role;
  if (auto e = read(v, "role", role)) return *e;
  if (role == "user") {
    m.role = Role::user;
  } else if (role == "assistant") {
    m.role = Role::assistant;
  } else if (role == "tool") {
    m.role = Role::tool;
  } else {
    return Error{"role: expected \"user\", \"assistant\" or \"tool\""};
  }
  if (auto e = read(v, "text", m.text)) return *e;
  if (auto e = read(v, "provider", m.provider)) return *e;
  if (auto it = v.find("raw"); it != v.end()) m.raw = *it;
  if (auto it = v.find("tool_calls"); it != v.end()) {
    if (!it->is_array()) return Error{"tool_calls: expected a list"};
    for (std::size_t i = 0; i < it->size(); ++i) {
      const auto& c = (*it)[i];
      const std::string at = "tool_calls[" + std::to_string(i) + "].";
      if (!c.is_object()) return Error{at + ": expected an object"};
      ToolCall call;
      if (auto e = read(c, "id", call.id)) return Error{at + e->message};
      if (auto e = read(c, "name", call.name)) return Error{at + e->message};
      if (auto a = c.find("arguments"); a != c.end()) call.arguments = *a;
      m.tool_calls.push_back(std::move(call));
    }
  }
  if (auto it = v.find("tool_results"); it != v.end()) {
    if (!it->is_array()) return Error{"tool_results: expected a list"};
    for (std::size_t i = 0; i < it->size(); ++i) {
      const auto& r = (*it)[i];
      const std::string at = "tool_results[" + std::to_string(i) + "].";
      if (!r.is_object()) return Error{at + ": expected an object"};
      ToolResultPart part;
      if (auto e = read(r, "call_id", part.call_id)) return Error{at + e->message};
      if (auto e = read(r, "name", part.name)) return Error{at + e->message};
      if (auto e = read(r, "content", part.content)) return Error{at + e->message};
      if (auto e = read(r, "is_error", part.is_error)) return Error{at + e->message};
      m.tool_results.push_back(std::move(part));
    }
  }
  if (auto it = v.find("usage"); it != v.end()) {
    if (!it->is_object()) return Error{"usage: expected an object"};
    for (auto [key, field] :
         {std::pair{"requests", &m.usage.requests}, std::pair{"input_tokens", &m.usage.input_tokens},
          std::pair{"output_tokens", &m.usage.output_tokens},
          std::pair{"cached_input_tokens", &m.usage.cached_input_tokens},
          std::pair{"reasoning_tokens", &m.usage.reasoning_tokens}})
      if (auto e = read(*it, key, *field)) return Error{"usage." + e->message};
  }
  return m;
}

std::string Conversation::to_json_lines() const {
  std::string out = nlohmann::json{{"system", system}}.dump();
  out += '\n';
  for (const auto& m : messages) {
    out += to_json(m).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    out += '\n';
  }
  return out;
}

Result<Conversation> Conversation::from_json_lines(std::string_view text) {
  Conversation c;
  std::size_t line_number = 0;
  bool header = false;
  while (!text.empty()) {
    const auto end = text.find('\n');
    std::string_view line = text.substr(0, end);
    text = end == std::string_view::npos ? std::string_view{} : text.substr(end + 1);
    ++line_number;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line.find_first_not_of(" \t") == std::string_view::npos) continue;
    nlohmann::json value = nlohmann::json::parse(line, nullptr, false);
    if (value.is_discarded()) return Error{"invalid JSON", line_number, 1};
    if (!header) {
      header = true;
      if (value.is_object() && value.contains("system") && !value.contains("role")) {
        if (!value["system"].is_string()) return Error{"system: expected a string", line_number, 1};
        c.system = value["system"].get<std::string>();
        continue;
      }
    }
    auto message = message_from_json(value);
    if (!message) return Error{message.error().message, line_number, 1};
    c.messages.push_back(std::move(*message));
  }
  return c;
}

}  // namespace ptc::agent
