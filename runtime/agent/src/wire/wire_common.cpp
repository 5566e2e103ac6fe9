// The helpers the wire formats share (wire_common.hpp).

#include "wire/wire_common.hpp"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <utility>

#include <ptc/codec/codec.hpp>
#include <ptc/coercion.hpp>
#include <ptc/json_input.hpp>
#include <ptc/json_text.hpp>

#include "text.hpp"

namespace ptc::agent::detail::wire {

// ---- paths and errors ----------------------------------------------------------------------------

std::string key_path(std::string_view parent, std::string_view key) { return coercion::key_path(parent, key); }

std::string index_path(std::string_view parent, std::size_t index) { return coercion::index_path(parent, index); }

Error at(std::string_view path, std::string_view message) {
  std::string out(path.empty() ? coercion::kRootPath : path);
  out += ": ";
  out += message;
  return Error{std::move(out)};
}

Error nested(std::string_view prefix, const Error& error) {
  const std::string& m = error.message;
  const std::string root = std::string(coercion::kRootPath) + ":";
  if (m.rfind(root, 0) == 0) return Error{std::string(prefix) + m.substr(coercion::kRootPath.size())};
  if (!m.empty() && m[0] == '[') return Error{std::string(prefix) + m};
  return Error{std::string(prefix) + "." + m};
}

// ---- reading -------------------------------------------------------------------------------------

const json* member(const json& object, std::string_view key) {
  if (!object.is_object()) return nullptr;
  auto it = object.find(key);
  if (it == object.end() || it->is_null()) return nullptr;
  return &*it;
}

std::optional<Error> expect_object(const json& value, std::string_view path) {
  if (value.is_object()) return std::nullopt;
  return at(path, "expected an object");
}

namespace {

Result<const json*> typed_member(const json& object, std::string_view path, std::string_view key, bool required,
                                 bool (json::*is)() const noexcept, std::string_view expected) {
  const json* value = member(object, key);
  if (!value) {
    if (required) return at(key_path(path, key), "missing required field");
    return static_cast<const json*>(nullptr);
  }
  if (!(value->*is)()) return at(key_path(path, key), expected);
  return value;
}

}  // namespace

Result<const json*> object_member(const json& object, std::string_view path, std::string_view key, bool required) {
  return typed_member(object, path, key, required, &json::is_object, "expected an object");
}

Result<const json*> array_member(const json& object, std::string_view path, std::string_view key, bool required) {
  return typed_member(object, path, key, required, &json::is_array, "expected an array");
}

std::optional<Error> read_string(const json& object, std::string_view path, std::string_view key, std::string& out,
                                 bool required) {
  auto value = typed_member(object, path, key, required, &json::is_string, "expected a string");
  if (!value) return value.error();
  if (*value) out = (*value)->get<std::string>();
  return std::nullopt;
}

std::optional<Error> read_count(const json& object, std::string_view path, std::string_view key, std::uint64_t& out,
                                bool required) {
  const json* value = member(object, key);
  if (!value) {
    if (required) return at(key_path(path, key), "missing required field");
    return std::nullopt;
  }
  if (value->is_number_unsigned()) {
    out = value->get<std::uint64_t>();
    return std::nullopt;
  }
  if (value->is_number_integer()) return at(key_path(path, key), "expected a non-negative integer");
  return at(key_path(path, key), "expected an integer");
}

std::optional<Error> read_bool(const json& object, std::string_view path, std::string_view key, bool& out) {
  const json* value = member(object, key);
  if (!value) return std::nullopt;
  if (!value->is_boolean()) return at(key_path(path, key), "expected a boolean");
  out = value->get<bool>();
  return std::nullopt;
}

// ---- tool calls ----------------------------------------------------------------------------------

std::string arguments_text(const ToolCall& call) {
  if (call.arguments.is_string()) return call.arguments.get<std::string>();
  return compact_text(call.arguments);
}

json arguments_object(const ToolCall& call) {
  if (call.arguments.is_object()) return call.arguments;
  if (call.arguments.is_string()) {
    auto parsed = parse_json(call.arguments.get_ref<const std::string&>());
    if (parsed && parsed->is_object()) return std::move(parsed).value();
  }
  return json::object();
}

json arguments_from_text(std::string text) {
  if (std::all_of(text.begin(), text.end(), [](unsigned char c) { return std::isspace(c) != 0; }))
    return json::object();
  return json(std::move(text));
}

std::string generated_call_id(std::string_view seed, std::size_t number) {
  // FNV-1a: stable across platforms and runs, unlike std::hash.
  std::uint64_t hash = 0xcbf29ce484222325ULL;
  for (unsigned char c : seed) {
    hash ^= c;
    hash *= 0x100000001b3ULL;
  }
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(hash));
  return "call_" + std::string(hex) + "_" + std::to_string(number);
}

Headers bearer_headers(const std::string& api_key) {
  if (api_key.empty()) return {};
  return {{"Authorization", "Bearer " + api_key}};
}

bool ToolRenderer::same_tools(const std::vector<const Tool*>& tools) const {
  if (tools.size() != tools_.size() || rendered_.empty()) return false;
  for (std::size_t i = 0; i < tools.size(); ++i)
    if (tools[i] == nullptr || &tools[i]->signature() != &tools_[i].signature()) return false;
  return true;
}

Result<std::string> ToolRenderer::operator()(const std::vector<const Tool*>& tools) const {
  std::lock_guard lock(mutex_);
  if (same_tools(tools)) return rendered_;
  OrderedJson out = OrderedJson::array();
  std::vector<Tool> copies;
  for (std::size_t i = 0; i < tools.size(); ++i) {
    if (tools[i] == nullptr) return Error{"tools[" + std::to_string(i) + "]: no tool"};
    auto rendered = render_(*tools[i]);
    if (!rendered) return rendered.error();
    out.push_back(std::move(rendered).value());
    copies.push_back(*tools[i]);
  }
  tools_ = std::move(copies);
  rendered_ = compact_text(out);
  return rendered_;
}

// ---- structured output ---------------------------------------------------------------------------

void write_json_schema_members(BodyWriter& out, const std::string& name, const OutputSchema& schema) {
  out.member("name", name);
  out.key("schema");
  out.json(schema.schema);
  out.member("strict", schema.native);
}

Result<OutputSchema> output_schema(const OutputSpec& output, Profile profile) {
  auto native = to_json_schema(output.schema, profile);
  if (native) return OutputSchema{std::move(native).value(), true};
  auto portable = to_json_schema(output.schema, Profile::Portable);
  if (!portable) return Error{"output schema '" + output.name + "': " + portable.error().message};
  portable->erase("$schema");
  return OutputSchema{std::move(portable).value(), false};
}

std::optional<Error> check_format_name(std::string_view name) {
  bool ok = !name.empty() && name.size() <= 64 && std::all_of(name.begin(), name.end(), [](unsigned char c) {
    return std::isalnum(c) != 0 || c == '_' || c == '-';
  });
  if (ok) return std::nullopt;
  return Error{"output schema name " + text::quote(name) + " must match ^[a-zA-Z0-9_-]{1,64}$"};
}

bool is_object_schema(const OrderedJson& schema) {
  auto type = schema.find("type");
  return type != schema.end() && type->is_string() && type->get_ref<const std::string&>() == "object";
}

// ---- messages ------------------------------------------------------------------------------------

bool has_raw(const Message& message, std::string_view provider) {
  return message.role == Role::assistant && !message.raw.is_null() && message.provider == provider;
}

std::optional<Error> check_request(const ModelRequest& request) {
  if (request.conversation == nullptr) return Error{"the request has no conversation"};
  if (request.settings == nullptr) return Error{"the request has no settings"};
  return std::nullopt;
}

std::string message_path(std::size_t index) { return index_path("messages", index); }

// ---- streams -------------------------------------------------------------------------------------

Result<json> read_json(std::string_view text) {
  json value;
  if (codec::decode_only(text, value).ok) return value;
  return parse_json(text);
}

Result<json> event_json(std::string_view data) {
  auto parsed = read_json(data);
  if (!parsed) {
    std::string message = parsed.error().message;
    if (message.rfind("invalid JSON", 0) != 0) message = "invalid JSON: " + message;
    if (parsed.error().column > 0) message += " (at byte " + std::to_string(parsed.error().column) + ")";
    return Error{std::move(message)};
  }
  return std::move(parsed).value();
}

std::string event_type(const json& data, const SseReader::Event& event) {
  if (const json* type = member(data, "type"); type && type->is_string()) return type->get<std::string>();
  return event.event;
}

void emit_text(const Emit& emit, std::string text) {
  if (!emit || text.empty()) return;
  StreamEvent e;
  e.kind = StreamEvent::Kind::text_delta;
  e.text = std::move(text);
  emit(e);
}

void emit_call(const Emit& emit, std::size_t index, const std::string& call_id, const std::string& name,
               std::string arguments) {
  if (!emit) return;
  StreamEvent e;
  e.kind = StreamEvent::Kind::tool_call_delta;
  e.text = std::move(arguments);
  e.index = index;
  e.call_id = call_id;
  e.name = name;
  emit(e);
}

std::optional<Error> AssemblerBase::on_event(const SseReader::Event& event, const Emit& emit) {
  if (error_) return error_;
  ++events_;
  auto failed = handle(event, emit);
  if (!failed) return std::nullopt;
  error_ = provider_failed_ ? std::move(*failed) : Error{"event " + std::to_string(events_) + ": " + failed->message};
  return error_;
}

Result<ModelResponse> AssemblerBase::finish() {
  if (error_) return *error_;
  return complete();
}

Error AssemblerBase::provider_error(std::string message) {
  provider_failed_ = true;
  return Error{std::move(message)};
}

// ---- error bodies --------------------------------------------------------------------------------

namespace {

constexpr std::size_t kExcerptBytes = 200;

// The first kExcerptBytes bytes, never ending inside a UTF-8 sequence, invalid sequences replaced by
// U+FFFD (the text ends up in messages that are written as JSON).
std::string excerpt(std::string_view body) {
  body = text::trim(body);
  std::size_t cut = std::min(body.size(), kExcerptBytes);
  if (cut < body.size())
    while (cut > 0 && (static_cast<unsigned char>(body[cut]) & 0xC0) == 0x80) --cut;
  std::string out(body.substr(0, cut));
  if (text::invalid_utf8_at(out)) {
    std::string quoted = compact_text(json(out));
    auto plain = parse_json(quoted);
    if (plain && plain->is_string()) out = plain->get<std::string>();
  }
  return out;
}

}  // namespace

std::string message_or_excerpt(std::string_view body,
                               const std::function<std::optional<std::string>(const json&)>& find) {
  auto parsed = parse_json(body);
  if (parsed) {
    if (auto message = find(*parsed); message && !message->empty()) return *message;
  }
  return excerpt(body);
}

std::optional<std::string> error_member_message(const json& body) {
  const json* root = &body;
  if (body.is_array() && !body.empty()) root = &body[0];
  const json* error = member(*root, "error");
  if (!error) return std::nullopt;
  if (error->is_string()) return error->get<std::string>();
  if (const json* message = member(*error, "message"); message && message->is_string())
    return message->get<std::string>();
  return std::nullopt;
}

}  // namespace ptc::agent::detail::wire
