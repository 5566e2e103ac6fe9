// A response of any of the chat formats whose calls ptc reads (OpenAI Chat Completions, OpenAI
// Responses, Anthropic Messages), told apart by its shape: parse_tool_calls, and parse_openai_tool_call
// for either OpenAI item. Each format's reader of one call is in its own file (common.hpp lists them).

#include <algorithm>
#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <ptc/coercion.hpp>
#include <ptc/provider.hpp>

#include "common.hpp"

namespace ptc {
namespace {

using coercion::index_path;
using coercion::key_path;
using providers::anthropic_call;
using providers::at;
using providers::chat_call;
using providers::expect_object;
using providers::json;
using providers::responses_call;
using providers::shown;

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

}  // namespace

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

Result<std::vector<ToolCall>> parse_tool_calls(const nlohmann::json& response) {
  if (response.is_object()) return response_object(response);
  if (response.is_array()) return parse_items(response, "", std::nullopt);
  return at("", "expected a provider response (an object or an array), got " + shown(response));
}

}  // namespace ptc
