#pragma once
// Descriptions of a set of tools as text and JSON: the prompt tool list and the `tools.json` document.

#include <span>
#include <string>
#include <vector>

#include <ptc/error.hpp>
#include <ptc/json_schema.hpp>
#include <ptc/tool.hpp>
#include <ptc/tool_list.hpp>

namespace ptc {

std::vector<ToolDescription> describe(std::span<const Tool> tools);

/// The prompt's tool list (DESIGN.md section 7), examples included.
std::string render_tool_list(std::span<const Tool> tools);

/// `{"tools":[{"name","description","signature","malli","input_schema","output_schema"}]}` in the
/// given order (DESIGN.md section 7). Errors name the tool: "tool 'x': <path>: ...".
Result<OrderedJson> tools_document(std::span<const Tool> tools, Profile profile = Profile::Portable);

}  // namespace ptc
