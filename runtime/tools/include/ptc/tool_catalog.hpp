#pragma once
// Descriptions of a set of tools as text and JSON: the prompt tool list and the `tools.json` document.

#include <optional>
#include <span>
#include <string>
#include <vector>

#include <ptc/error.hpp>
#include <ptc/json_schema.hpp>
#include <ptc/tool.hpp>
#include <ptc/tool_list.hpp>

namespace ptc {

/// Each tool as the tool list renders it: name, description, signature and examples, in order.
std::vector<ToolDescription> describe_tools(std::span<const Tool> tools);
[[deprecated("renamed ptc::describe_tools")]] inline std::vector<ToolDescription> describe(
    std::span<const Tool> tools) {
  return describe_tools(tools);
}

/// The prompt's tool list (docs/json-schema.md), examples included.
std::string render_tool_list(std::span<const Tool> tools);

/// The tool's input and output schemas as tools_document writes them, after the same checks: whether
/// `profile` accepts the tool, without rendering the rest of its entry. Errors are tools_document's.
Result<SignatureSchemas> tool_schemas(const Tool& tool, Profile profile = Profile::Portable);

/// Whether `profile` accepts the tool's name and parameters: tool_schemas() without the result, for
/// a caller that checks the result under result_rules(profile) once for all the profiles sharing them.
/// Errors are tool_schemas'.
std::optional<Error> check_tool_parameters(const Tool& tool, Profile profile);

/// `{"title"?,"readOnlyHint","destructiveHint","idempotentHint","openWorldHint"}`: MCP's
/// ToolAnnotations with all four hints stated (Tool::hints()), so no host has to guess a default. Declared
/// here, not with the rest of MCP's shapes (<ptc/mcp/wire.hpp>), because tools_document writes them too.
OrderedJson mcp_tool_annotations(const Tool& tool);

/// The texts of a ToolListing for `tool`, rendered from its signature: what ptc-gen writes into generated
/// code, and what a tool without a listing is rendered as. Errors are tool_schemas' for the mcp
/// profile: a tool it cannot express gets no listing.
struct ToolListingTexts {
  std::string signature, mcp_input, mcp_output, mcp_result;
};
Result<ToolListingTexts> render_tool_listing(const Tool& tool);

/// `{"tools":[{"name","description","signature","malli","input_schema","output_schema","annotations"}]}`
/// in the given order (docs/json-schema.md); `annotations` is mcp_tool_annotations(). Errors name the tool: "tool 'x':
/// <path>: ...".
Result<OrderedJson> tools_document(std::span<const Tool> tools, Profile profile = Profile::Portable);

}  // namespace ptc
