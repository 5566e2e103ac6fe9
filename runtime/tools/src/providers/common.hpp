#pragma once
// What the provider files share: reading a call's fields with the JSON path of whatever is wrong, each
// format's reader of one call (parse_tool_calls picks among them), and the head of a tool definition.
//
// Reading is strict about what ptc needs (a call id to reply to, a non-empty name, arguments of the
// right JSON type) and names the JSON path of whatever is wrong, because a call dropped or misread
// here is a call the model never hears back about. Everything else in a response is ignored.

#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include <ptc/error.hpp>
#include <ptc/json_schema.hpp>
#include <ptc/tool.hpp>
#include <ptc/tool_call.hpp>

namespace ptc::providers {

using json = nlohmann::json;

// ---- paths and errors ----------------------------------------------------------------------------

/// `message` at `path` ("(root)" when empty), as validation writes paths: tool_calls[0].function["my key"].
Error at(const std::string& path, std::string_view message);
/// A value as it appears in a message, shortened. Replaces invalid UTF-8 rather than throwing: the value
/// may come from anywhere.
std::string shown(const json& v);

// ---- reading fields ------------------------------------------------------------------------------

std::optional<Error> expect_object(const json& v, const std::string& path);
Result<std::string> required_string(const json& obj, const std::string& path, std::string_view key);
/// `name`, a non-empty string.
Result<std::string> required_name(const json& obj, const std::string& path);
/// A `type` member, when present, must be `want`; items built by hand may leave it out.
std::optional<Error> expect_type(const json& obj, const std::string& path, std::string_view want);

// ---- one call in each format (`path`: where the item is, for errors) -----------------------------

/// OpenAI's `arguments`, both APIs (openai_chat.cpp).
Result<json> openai_arguments(const json& obj, const std::string& path);
/// `{"id","type":"function","function":{"name","arguments"}}` (openai_chat.cpp).
Result<ToolCall> chat_call(const json& call, const std::string& path);
/// `{"type":"function_call","id"?,"call_id","name","arguments"}` (openai_responses.cpp).
Result<ToolCall> responses_call(const json& call, const std::string& path);
/// `{"type":"tool_use","id","name","input":{...}}` (anthropic.cpp).
Result<ToolCall> anthropic_call(const json& block, const std::string& path);

// ---- tool definitions ----------------------------------------------------------------------------

/// `{"name","description"}`, the members most definitions start with.
OrderedJson named(const Tool& tool);

}  // namespace ptc::providers
