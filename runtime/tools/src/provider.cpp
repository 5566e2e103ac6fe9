// The providers' wire formats: tool calls read from responses, outcomes sent back, tool definitions.
//
// Reading is strict about what ptc needs (a call id to reply to, a non-empty name, arguments of the
// right JSON type) and names the JSON path of whatever is wrong, because a call dropped or misread
// here is a call the model never hears back about. Everything else in a response is ignored.

#include <ptc/provider.hpp>

#include <algorithm>
#include <array>
#include <cctype>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include <ptc/coercion.hpp>
#include <ptc/json_text.hpp>

#include "text.hpp"

namespace ptc {
namespace {

using coercion::index_path;  // paths as validation writes them: tool_calls[0].function["my key"]
using coercion::key_path;
using json = nlohmann::json;

// ---- paths and errors ----------------------------------------------------------------------------

Error at(const std::string& path, std::string_view message) {
  return Error{(path.empty() ? std::string(coercion::kRootPath) : path) + ": " + std::string(message)};
}

// A value as it appears in a message. Replaces invalid UTF-8 rather than throwing: the value may come
// from anywhere.
std::string shown(const json& v) { return text::excerpt(compact_text(v), 60); }

// ---- reading fields ------------------------------------------------------------------------------

std::optional<Error> expect_object(const json& v, const std::string& path) {
  if (v.is_object()) return std::nullopt;
  return at(path, "expected an object");
}

Result<std::string> required_string(const json& obj, const std::string& path, std::string_view key) {
  auto it = obj.find(key);
  if (it == obj.end()) return at(key_path(path, key), "missing required field");
  if (!it->is_string()) return at(key_path(path, key), "expected a string");
  return it->get<std::string>();
}

// Names select the tool: an empty one can only be a provider bug, and dispatch would report it as an
// unknown tool called "", which helps nobody.
Result<std::string> required_name(const json& obj, const std::string& path) {
  auto name = required_string(obj, path, "name");
  if (name && name->empty()) return at(key_path(path, "name"), "must not be empty");
  return name;
}

// A `type` the caller did not strip must be the one the shape promises; an absent one is allowed for
// items built by hand.
std::optional<Error> expect_type(const json& obj, const std::string& path, std::string_view want) {
  auto it = obj.find("type");
  if (it == obj.end() || (it->is_string() && it->get_ref<const std::string&>() == want)) return std::nullopt;
  return at(key_path(path, "type"), "expected \"" + std::string(want) + "\", got " + shown(*it));
}

bool blank(const std::string& s) {
  return std::all_of(s.begin(), s.end(), [](unsigned char c) { return std::isspace(c) != 0; });
}

// OpenAI sends arguments as JSON text; it stays text so that dispatch reports malformed text as a
// failed call instead of this parser losing the call. Some OpenAI-compatible servers send "" for a call
// without arguments, which means the empty object, not malformed JSON. An object is taken as is, for
// servers that send one.
Result<json> openai_arguments(const json& obj, const std::string& path) {
  auto it = obj.find("arguments");
  const std::string where = key_path(path, "arguments");
  if (it == obj.end()) return at(where, "missing required field");
  if (it->is_string() && blank(it->get_ref<const std::string&>())) return json::object();
  if (it->is_string() || it->is_object()) return *it;
  return at(where, "expected a string of JSON text or an object");
}

// ---- one call in each shape ----------------------------------------------------------------------

// Chat Completions: {"id","type":"function","function":{"name","arguments"}}.
Result<ToolCall> chat_call(const json& call, const std::string& path) {
  if (auto bad = expect_object(call, path)) return *bad;
  if (auto bad = expect_type(call, path, "function")) return *bad;
  auto id = required_string(call, path, "id");
  if (!id) return id.error();
  const std::string fpath = key_path(path, "function");
  auto fn = call.find("function");
  if (fn == call.end()) return at(fpath, "missing required field");
  if (auto bad = expect_object(*fn, fpath)) return *bad;
  auto name = required_name(*fn, fpath);
  if (!name) return name.error();
  auto args = openai_arguments(*fn, fpath);
  if (!args) return args.error();
  return ToolCall{std::move(id).value(), std::move(name).value(), std::move(args).value()};
}

// Responses: {"type":"function_call","id"?,"call_id","name","arguments"}. `id` names the output item
// (fc_...); the function_call_output must quote `call_id` (call_...), so that is the one kept.
Result<ToolCall> responses_call(const json& call, const std::string& path) {
  if (auto bad = expect_object(call, path)) return *bad;
  if (auto bad = expect_type(call, path, "function_call")) return *bad;
  auto id = required_string(call, path, "call_id");
  if (!id) return id.error();
  auto name = required_name(call, path);
  if (!name) return name.error();
  auto args = openai_arguments(call, path);
  if (!args) return args.error();
  return ToolCall{std::move(id).value(), std::move(name).value(), std::move(args).value()};
}

// Anthropic: {"type":"tool_use","id","name","input":{...}}.
Result<ToolCall> anthropic_call(const json& block, const std::string& path) {
  if (auto bad = expect_object(block, path)) return *bad;
  if (auto bad = expect_type(block, path, "tool_use")) return *bad;
  auto id = required_string(block, path, "id");
  if (!id) return id.error();
  auto name = required_name(block, path);
  if (!name) return name.error();
  auto input = block.find("input");
  if (input == block.end()) return at(key_path(path, "input"), "missing required field");
  if (auto bad = expect_object(*input, key_path(path, "input"))) return *bad;
  return ToolCall{std::move(id).value(), std::move(name).value(), *input};
}

// ---- arrays of items -----------------------------------------------------------------------------

enum class Family { Chat, Responses, Anthropic };

std::string_view plural(Family f) {
  switch (f) {
    case Family::Chat: return "Chat Completions tool calls";
    case Family::Responses: return "Responses output items";
    case Family::Anthropic: return "Anthropic content blocks";
  }
  return "";
}

std::string_view singular(Family f) {
  switch (f) {
    case Family::Chat: return "a Chat Completions tool call";
    case Family::Responses: return "a Responses output item";
    case Family::Anthropic: return "an Anthropic content block";
  }
  return "";
}

// What one array item is. `family` is empty for a typed item of a type neither format is known to use
// (providers add item types often; such an item is not one of our function calls).
struct ItemKind {
  std::optional<Family> family;
  bool is_call = false;
  std::string type;
};

// Item types each format is known to put next to its calls, so that a mixed array is caught even when
// only one of its calls is of the wrong format.
constexpr std::array<std::string_view, 13> kResponsesTypes = {
    "message",          "reasoning",     "function_call_output",  "file_search_call",
    "web_search_call",  "computer_call", "code_interpreter_call", "image_generation_call",
    "local_shell_call", "mcp_call",      "mcp_list_tools",        "mcp_approval_request",
    "custom_tool_call"};
constexpr std::array<std::string_view, 8> kAnthropicTypes = {
    "text",        "thinking", "redacted_thinking", "server_tool_use", "web_search_tool_result",
    "tool_result", "image",    "document"};

bool among(std::string_view type, auto const& types) {
  return std::find(types.begin(), types.end(), type) != types.end();
}

Result<ItemKind> classify(const json& v, const std::string& path) {
  if (auto bad = expect_object(v, path)) return *bad;
  auto type = v.find("type");
  bool chat_type = type != v.end() && type->is_string() && type->get_ref<const std::string&>() == "function";
  if (v.contains("function") || chat_type) return ItemKind{Family::Chat, true, "function"};
  if (type == v.end() || !type->is_string())
    return at(path,
              "expected a Chat Completions tool call, a Responses output item or an Anthropic content "
              "block (an object with a \"function\" or a \"type\")");
  const std::string& t = type->get_ref<const std::string&>();
  if (t == "function_call") return ItemKind{Family::Responses, true, t};
  if (t == "tool_use") return ItemKind{Family::Anthropic, true, t};
  if (among(t, kResponsesTypes)) return ItemKind{Family::Responses, false, t};
  if (among(t, kAnthropicTypes)) return ItemKind{Family::Anthropic, false, t};
  return ItemKind{std::nullopt, false, t};
}

std::string describe(const ItemKind& k) {
  if (!k.family) return "an item of type \"" + k.type + "\"";
  return std::string(singular(*k.family)) + " (\"" + k.type + "\")";
}

Result<ToolCall> parse_call(Family f, const json& v, const std::string& path) {
  switch (f) {
    case Family::Chat: return chat_call(v, path);
    case Family::Responses: return responses_call(v, path);
    case Family::Anthropic: return anthropic_call(v, path);
  }
  return at(path, "unknown format");
}

// The calls in one array, whose format is `expected` or else the first item that tells. Every item of
// a chat `tool_calls` array is a call that needs a reply, so anything else there is an error; in the
// other formats non-call items (text, reasoning, ...) are skipped.
Result<std::vector<ToolCall>> parse_items(const json& items, const std::string& path, std::optional<Family> expected) {
  if (!items.is_array()) return at(path, "expected an array");
  std::vector<ItemKind> kinds;
  kinds.reserve(items.size());
  for (std::size_t i = 0; i < items.size(); ++i) {
    auto kind = classify(items[i], index_path(path, i));
    if (!kind) return kind.error();
    kinds.push_back(std::move(kind).value());
  }
  std::optional<Family> family = expected;
  for (const auto& k : kinds)
    if (!family && k.family) family = k.family;
  std::vector<ToolCall> calls;
  for (std::size_t i = 0; i < items.size(); ++i) {
    const ItemKind& k = kinds[i];
    bool foreign = k.family ? k.family != family : family == Family::Chat;
    if (foreign) return at(index_path(path, i), describe(k) + " among " + std::string(plural(*family)));
    if (!k.is_call) continue;
    auto call = parse_call(*family, items[i], index_path(path, i));
    if (!call) return call.error();
    calls.push_back(std::move(call).value());
  }
  return calls;
}

// ---- whole responses -----------------------------------------------------------------------------

// A chat message: `tool_calls` absent or null means the model answered in text.
Result<std::vector<ToolCall>> chat_message(const json& message, const std::string& path) {
  if (auto bad = expect_object(message, path)) return *bad;
  // The deprecated `functions` API puts one call without an id here; it cannot be answered with a tool
  // message, and ignoring it would lose the call.
  if (auto legacy = message.find("function_call"); legacy != message.end() && !legacy->is_null())
    return at(key_path(path, "function_call"), "legacy function calling is not supported (send tools, not functions)");
  auto calls = message.find("tool_calls");
  if (calls == message.end() || calls->is_null()) return std::vector<ToolCall>{};
  return parse_items(*calls, key_path(path, "tool_calls"), Family::Chat);
}

// Only choices[0]: with n > 1 the choices are alternative completions of the same turn, not parallel
// calls, and the conversation continues with one of them. Parallel calls are all in one message.
Result<std::vector<ToolCall>> chat_completion(const json& completion) {
  const json& choices = completion["choices"];
  if (!choices.is_array()) return at("choices", "expected an array");
  if (choices.empty()) return std::vector<ToolCall>{};
  if (auto bad = expect_object(choices[0], "choices[0]")) return *bad;
  auto message = choices[0].find("message");
  if (message == choices[0].end()) return at("choices[0].message", "missing required field");
  return chat_message(*message, "choices[0].message");
}

Result<std::vector<ToolCall>> response_object(const json& response) {
  if (response.contains("choices")) return chat_completion(response);
  if (response.contains("output")) return parse_items(response["output"], "output", Family::Responses);
  if (response.contains("tool_calls") || response.contains("function_call")) return chat_message(response, "");
  if (auto content = response.find("content"); content != response.end()) {
    if (content->is_array()) return parse_items(*content, "content", Family::Anthropic);
    // A chat message's content is text (or null); such a message has no calls.
    if (response.contains("role") && (content->is_string() || content->is_null())) return std::vector<ToolCall>{};
    return at("content", "expected an array");
  }
  if (response.contains("role")) return std::vector<ToolCall>{};
  return at("",
            "expected a chat completion (\"choices\"), a chat message (\"tool_calls\"), a Responses object "
            "(\"output\") or an Anthropic message (\"content\")");
}

// ---- tool definitions ----------------------------------------------------------------------------

Error about(const Tool& tool, const Error& e) { return Error{"tool '" + tool.name() + "': " + e.message}; }

// The provider profiles leave "$schema" out of their roots (only the portable profile writes it), so
// nothing needs stripping before the schemas go into a request.
Result<SignatureSchemas> schemas_for(const Tool& tool, Profile profile) {
  if (auto bad = check_tool_name(tool.name(), profile)) return about(tool, *bad);
  auto schemas = to_json_schemas(tool.signature(), profile);
  if (!schemas) return about(tool, schemas.error());
  return schemas;
}

OrderedJson named(const Tool& tool) {
  OrderedJson out = OrderedJson::object();
  out["name"] = tool.name();
  out["description"] = tool.description();
  return out;
}

/// Whether the mcp profile describes the tool's result as {"result": R} (to_json_schemas wraps every
/// result but a `{...}` map), so that 2025 results travel wrapped the same way.
bool mcp_wraps(const Tool& tool) { return tool.result().kind() != Kind::Map; }

}  // namespace

// ---- tool calls in -------------------------------------------------------------------------------

Result<ToolCall> parse_openai_tool_call(const nlohmann::json& item) {
  if (auto bad = expect_object(item, "")) return *bad;
  if (item.contains("function")) return chat_call(item, "");
  auto type = item.find("type");
  if (type == item.end())
    return at("", "expected a Chat Completions tool call (with \"function\") or a Responses function_call item");
  if (type->is_string() && type->get_ref<const std::string&>() == "function_call") return responses_call(item, "");
  if (type->is_string() && type->get_ref<const std::string&>() == "function") return chat_call(item, "");
  return at("type", "expected \"function\" or \"function_call\", got " + shown(*type));
}

Result<ToolCall> parse_anthropic_tool_use(const nlohmann::json& block) { return anthropic_call(block, ""); }

// MCP makes `arguments` optional; a missing (or null) one is the empty object.
Result<ToolCall> parse_mcp_tool_call(const nlohmann::json& params, std::string id) {
  if (auto bad = expect_object(params, "")) return *bad;
  auto name = required_name(params, "");
  if (!name) return name.error();
  auto args = params.find("arguments");
  if (args == params.end() || args->is_null()) return ToolCall{std::move(id), std::move(name).value(), json::object()};
  if (auto bad = expect_object(*args, "arguments")) return *bad;
  return ToolCall{std::move(id), std::move(name).value(), *args};
}

Result<std::vector<ToolCall>> parse_tool_calls(const nlohmann::json& response) {
  if (response.is_object()) return response_object(response);
  if (response.is_array()) return parse_items(response, "", std::nullopt);
  return at("", "expected a provider response (an object or an array), got " + shown(response));
}

// ---- outcomes out --------------------------------------------------------------------------------

// Each reply is written once, as text, with its keys in nlohmann::json's sorted order so that the
// text is byte for byte the dump() of the JSON versions, which parse it.

std::string openai_chat_tool_message_text(const ToolOutcome& outcome) {
  std::string out;
  out.reserve(outcome.rendered.size() + outcome.call_id.size() + 48);
  out += R"({"content":)";
  text::append_json_string(out, outcome.rendered);
  out += R"(,"role":"tool","tool_call_id":)";
  text::append_json_string(out, outcome.call_id);
  out += '}';
  return out;
}

std::string openai_responses_output_text(const ToolOutcome& outcome) {
  std::string out;
  out.reserve(outcome.rendered.size() + outcome.call_id.size() + 64);
  out += R"({"call_id":)";
  text::append_json_string(out, outcome.call_id);
  out += R"(,"output":)";
  text::append_json_string(out, outcome.rendered);
  out += R"(,"type":"function_call_output"})";
  return out;
}

std::string anthropic_tool_result_text(const ToolOutcome& outcome) {
  std::string out;
  out.reserve(outcome.rendered.size() + outcome.call_id.size() + 72);
  out += R"({"content":)";
  text::append_json_string(out, outcome.rendered);
  out += outcome.success() ? R"(,"is_error":false,"tool_use_id":)" : R"(,"is_error":true,"tool_use_id":)";
  text::append_json_string(out, outcome.call_id);
  out += R"(,"type":"tool_result"})";
  return out;
}

namespace {

// `tool` null: wrap by the value's JSON type (mcp_call_tool_result without a tool).
std::string mcp_result_text(const ToolOutcome& outcome, const Tool* tool, McpResults results) {
  std::string out;
  out.reserve(2 * outcome.rendered.size() + 96);
  // The text block of what the model reads, then the blocks the handler attached.
  out += R"({"content":[{"text":)";
  text::append_json_string(out, outcome.rendered);
  out += R"(,"type":"text"})";
  for (const auto& attachment : outcome.attachments) {
    out += ',';
    out += compact_text(attachment.block());
  }
  out += outcome.success() ? R"(],"isError":false)" : R"(],"isError":true)";
  if (outcome.success() && outcome.visible_value) {
    const std::string value = outcome.visible_value->dump();
    const bool object = !value.empty() && value.front() == '{';
    // Mirrors to_json_schemas(..., Profile::Mcp): the outputSchema is the result's own only for a
    // `{...}` map; everything else (`:map`, `{...}?`, scalars, lists) is described as {"result": R}.
    const bool wrap = results == McpResults::Unwrapped ? false : tool ? mcp_wraps(*tool) : !object;
    // A `{...}` result whose value is not an object gets no structuredContent (it must be an object).
    if (wrap || object || results == McpResults::Unwrapped) {
      out += wrap ? R"(,"structuredContent":{"result":)" : R"(,"structuredContent":)";
      out += value;
      if (wrap) out += '}';
    }
  }
  out += '}';
  return out;
}

}  // namespace

std::string mcp_call_tool_result_text(const ToolOutcome& outcome, const Tool& tool, McpResults results) {
  return mcp_result_text(outcome, &tool, results);
}

nlohmann::json openai_chat_tool_message(const ToolOutcome& outcome) {
  return json::parse(openai_chat_tool_message_text(outcome));
}

nlohmann::json openai_responses_output(const ToolOutcome& outcome) {
  return json::parse(openai_responses_output_text(outcome));
}

nlohmann::json anthropic_tool_result(const ToolOutcome& outcome) {
  return json::parse(anthropic_tool_result_text(outcome));
}

nlohmann::json mcp_call_tool_result(const ToolOutcome& outcome) {
  return json::parse(mcp_result_text(outcome, nullptr, McpResults::Wrapped));
}

nlohmann::json mcp_call_tool_result(const ToolOutcome& outcome, const Tool& tool, McpResults results) {
  return json::parse(mcp_result_text(outcome, &tool, results));
}

// ---- tool definitions for requests ---------------------------------------------------------------

Result<OrderedJson> openai_chat_tool(const Tool& tool) {
  auto schemas = schemas_for(tool, Profile::OpenAI);
  if (!schemas) return schemas.error();
  OrderedJson fn = named(tool);
  fn["parameters"] = std::move(schemas->input);
  fn["strict"] = true;
  OrderedJson out = OrderedJson::object();
  out["type"] = "function";
  out["function"] = std::move(fn);
  return out;
}

Result<OrderedJson> openai_responses_tool(const Tool& tool) {
  auto schemas = schemas_for(tool, Profile::OpenAI);
  if (!schemas) return schemas.error();
  OrderedJson out = OrderedJson::object();
  out["type"] = "function";
  out["name"] = tool.name();
  out["description"] = tool.description();
  out["parameters"] = std::move(schemas->input);
  out["strict"] = true;
  return out;
}

Result<OrderedJson> anthropic_tool(const Tool& tool) {
  auto schemas = schemas_for(tool, Profile::Anthropic);
  if (!schemas) return schemas.error();
  OrderedJson out = named(tool);
  out["input_schema"] = std::move(schemas->input);
  return out;
}

// Gemini answers 400 "parameters.properties: should be non-empty for OBJECT type" to a declaration
// whose parameters have no properties; a function without parameters simply has none.
Result<OrderedJson> gemini_function_declaration(const Tool& tool) {
  auto schemas = schemas_for(tool, Profile::Gemini);
  if (!schemas) return schemas.error();
  OrderedJson out = named(tool);
  const OrderedJson& input = schemas->input;
  bool no_params = input.contains("properties") && input["properties"].empty();
  if (!no_params) out["parameters"] = std::move(schemas->input);
  return out;
}

OrderedJson mcp_tool_annotations(const Tool& tool) {
  const ToolHints hints = tool.hints();
  OrderedJson out = OrderedJson::object();
  if (!tool.title().empty()) out["title"] = tool.title();
  out["readOnlyHint"] = hints.read_only;
  out["destructiveHint"] = hints.destructive;
  out["idempotentHint"] = hints.idempotent;
  out["openWorldHint"] = hints.open_world;
  return out;
}

Result<OrderedJson> mcp_tool(const Tool& tool, McpResults results) {
  auto schemas = schemas_for(tool, Profile::Mcp);
  if (!schemas) return schemas.error();
  OrderedJson out = OrderedJson::object();
  out["name"] = tool.name();
  if (!tool.title().empty()) out["title"] = tool.title();
  out["description"] = tool.description();
  out["inputSchema"] = std::move(schemas->input);
  // Unwrapping takes the schema the profile wrapped.
  out["outputSchema"] = results == McpResults::Unwrapped && mcp_wraps(tool)
                            ? std::move(schemas->output["properties"]["result"])
                            : std::move(schemas->output);
  out["annotations"] = mcp_tool_annotations(tool);
  return out;
}

}  // namespace ptc
