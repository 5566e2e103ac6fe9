#pragma once
// Speaking the chat providers' wire formats (OpenAI Chat Completions and Responses, Anthropic, Gemini):
// tool definitions for requests, tool calls out of responses, and the messages that carry a call's
// outcome back. MCP's shapes are ptc::mcp's (<ptc/mcp/wire.hpp>).

#include <span>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include <ptc/error.hpp>
#include <ptc/json_schema.hpp>
#include <ptc/tool.hpp>
#include <ptc/tool_call.hpp>

namespace ptc {

// ---- tool calls in -------------------------------------------------------------------------------

/// One OpenAI tool call: Chat Completions `{"id","type":"function","function":{"name","arguments"}}` or
/// Responses `{"type":"function_call","call_id","name","arguments"}`. `arguments` is JSON text and is
/// kept as a string: dispatch parses it, so malformed text becomes a failed result, not a lost call.
/// Blank text (some compatible servers send "" for no arguments) becomes `{}`; an object is kept as is.
Result<ToolCall> parse_openai_tool_call(const nlohmann::json& item);
/// One Anthropic content block `{"type":"tool_use","id","name","input":{...}}`.
Result<ToolCall> parse_anthropic_tool_use(const nlohmann::json& block);

/// Every tool call in a provider response, in order: an OpenAI chat completion (or one of its
/// messages), an OpenAI Responses object (or its `output` array), or an Anthropic message (or its
/// `content` array). Errors name the JSON path, e.g. "choices[0].message.tool_calls[1].function: ...".
/// Only `choices[0]` is read: with n > 1 the choices are alternative answers, not parallel calls. Items
/// that are not function calls (text, reasoning, server-side tools) are skipped; an array whose items
/// belong to different formats is an error.
Result<std::vector<ToolCall>> parse_tool_calls(const nlohmann::json& response);

// ---- outcomes out --------------------------------------------------------------------------------

/// `{"role":"tool","tool_call_id":id,"content":rendered}`
nlohmann::json openai_chat_tool_message(const ToolOutcome& outcome);
/// `{"type":"function_call_output","call_id":id,"output":rendered}`
nlohmann::json openai_responses_output(const ToolOutcome& outcome);
/// `{"type":"tool_result","tool_use_id":id,"content":rendered,"is_error":!success}`
nlohmann::json anthropic_tool_result(const ToolOutcome& outcome);
/// The replies above as compact JSON text, byte for byte their `dump()`, written without building a
/// JSON value: what a server sending them on pays least for.
std::string openai_chat_tool_message_text(const ToolOutcome& outcome);
std::string openai_responses_output_text(const ToolOutcome& outcome);
std::string anthropic_tool_result_text(const ToolOutcome& outcome);
/// `{"functionResponse":{"id":id,"name":name,"response":{...}}}`, a part of the `user` content that answers
/// Gemini's `functionCall` parts: `{"output":value}` on success (the value as the model may see it, or
/// the rendered text when there is none), `{"error":rendered}` on failure, the two keys Gemini reads.
/// `id` is left out when the call had none (Gemini's call ids are optional; it matches by name).
nlohmann::json gemini_function_response(const ToolOutcome& outcome);

// ---- tool definitions for requests ---------------------------------------------------------------
// Each checks the tool name against the provider's rules and builds its schemas with that provider's
// JSON Schema profile; an error names the tool and the path the profile cannot express.

/// `{"type":"function","function":{"name","description","parameters","strict":true}}`
Result<OrderedJson> openai_chat_tool(const Tool& tool);
/// `{"type":"function","name","description","parameters","strict":true}`
Result<OrderedJson> openai_responses_tool(const Tool& tool);
/// `{"name","description","input_schema"}`
Result<OrderedJson> anthropic_tool(const Tool& tool);
/// `{"name","description","parameters"}` (a functionDeclarations entry); `parameters` is left out for a
/// tool without parameters, as Gemini rejects an OBJECT schema with empty `properties`.
Result<OrderedJson> gemini_function_declaration(const Tool& tool);

}  // namespace ptc
