#pragma once
// MCP's shapes for tools, the one home of this wire format: a tools/list entry, the params of a
// tools/call request, and the CallToolResult that answers it; and those of resources and prompts. The server
// (<ptc/mcp/server.hpp>) speaks them; a program that serves or calls MCP tools its own way can use them alone. The
// other providers' formats are in <ptc/provider.hpp>.

#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include <ptc/error.hpp>
#include <ptc/json_schema.hpp>
#include <ptc/prompt_template.hpp>
#include <ptc/resource.hpp>
#include <ptc/tool.hpp>
#include <ptc/tool_call.hpp>
#include <ptc/tool_catalog.hpp>  // mcp_tool_annotations, which tools.json shares

namespace ptc {

/// How an MCP revision carries results that are not objects. Up to 2025-11-25 an outputSchema and a
/// structuredContent must be objects, so every result but a `{...}` map travels as {"result": v}
/// (mcp_wraps_result); from 2026-07-28 they may be any JSON value, and the result travels as itself.
enum class McpResults { Wrapped, Unwrapped };

// ---- tool calls in -------------------------------------------------------------------------------

/// The members of tools/call params, borrowed from them: the name (a string, perhaps empty) and the
/// arguments as sent (null when absent or JSON null, which MCP reads as {}). What either must be beyond
/// that is the caller's to decide: a server answers an empty name as an unknown tool and lets dispatch
/// tell the model that arguments which are not an object are wrong.
struct McpToolCallParams {
  std::string_view name;
  const nlohmann::json* arguments = nullptr;
};
/// Errors name the path: "(root): expected an object", "name: missing required field", "name: expected
/// a string".
Result<McpToolCallParams> read_mcp_tool_call(const nlohmann::json& params);

/// The params of an MCP `tools/call` request `{"name","arguments"}`; `id` is the JSON-RPC request id.
/// Stricter than read_mcp_tool_call: the name must not be empty and the arguments must be an object.
Result<ToolCall> parse_mcp_tool_call(const nlohmann::json& params, std::string id = {});

// ---- outcomes out --------------------------------------------------------------------------------

/// MCP CallToolResult: `{"content":[{"type":"text","text":rendered}, attachments...],"isError":bool}` plus
/// `structuredContent` (the visible value; a non-object wrapped as {"result": v}, matching the mcp
/// output schema) when there is a visible value and the call succeeded. Without the tool this goes by
/// the value's JSON type; prefer the overload below, which follows the tool's outputSchema exactly.
nlohmann::json mcp_call_tool_result(const ToolOutcome& outcome);
/// Same, wrapping exactly when `mcp_tool(tool)`'s outputSchema does: every result but a `{...}` map is
/// wrapped, so a `:map` or `{...}?` result that happens to be an object still travels as {"result": v}.
/// A `{...}` result whose value is not an object gets no `structuredContent` (it must be an object).
/// With McpResults::Unwrapped, the visible value is the structuredContent, whatever its type.
nlohmann::json mcp_call_tool_result(const ToolOutcome& outcome, const Tool& tool,
                                    McpResults results = McpResults::Wrapped);
/// The reply above as compact JSON text, byte for byte its `dump()`, written without building a JSON
/// value: what a server sending it pays least for.
std::string mcp_call_tool_result_text(const ToolOutcome& outcome, const Tool& tool,
                                      McpResults results = McpResults::Wrapped);

// ---- tool definitions ----------------------------------------------------------------------------

/// `{"name","title"?,"description","inputSchema","outputSchema","annotations"}` (a tools/list entry);
/// the outputSchema is wrapped as `results` says. Checks the tool name against MCP's rules and builds
/// the schemas with the mcp JSON Schema profile; an error names the tool and the path the profile
/// cannot express.
Result<OrderedJson> mcp_tool(const Tool& tool, McpResults results = McpResults::Wrapped);
/// The same as compact JSON text, byte for byte its compact_text(). A tool with a listing
/// (Tool::listing(), as generated tools have) is written from the listing's texts, without reading its
/// signature.
Result<std::string> mcp_tool_text(const Tool& tool, McpResults results = McpResults::Wrapped);

// ---- resources and prompts -----------------------------------------------------------------------

/// A resources/list entry `{"uri","name","title"?,"description"?,"mimeType"?}` of a static resource,
/// or a resources/templates/list entry `{"uriTemplate",...}` of a template.
OrderedJson mcp_resource(const Resource& resource);
/// The `contents` of a successful read of `uri` (ToolRegistry::dispatch_reader's outcome): the resource
/// blocks the reader attached, else one item `{"uri","mimeType","text"}` holding the value: a string as
/// itself (text/plain unless the resource declares a type), any other value as its JSON text
/// (application/json unless declared).
OrderedJson mcp_resource_contents(const ToolOutcome& outcome, const Resource& resource, std::string_view uri);
/// A prompts/list entry `{"name","title"?,"description","arguments":[{"name","description"?,"required"}]}`:
/// the renderer's parameters, required unless optional or defaulted.
OrderedJson mcp_prompt(const PromptTemplate& prompt);
/// The `messages` of a successful prompts/get (prompt_template.hpp says how the value becomes them).
OrderedJson mcp_prompt_messages(const ToolOutcome& outcome);

}  // namespace ptc
