#pragma once
// Prompt text that lists tools for an LLM (docs/json-schema.md).

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <ptc/signature.hpp>
#include <ptc/tool_example.hpp>

namespace ptc {

struct ToolDescription {
  std::string name;
  std::string description;
  Signature signature;
  std::vector<ToolExample> examples = {};  ///< defaulted, so {name, description, signature} stays warning-free
};

/// "name(p :t, ...) -> R\n", the description indented two spaces, "  p: <doc> (default <json>).\n" per parameter
/// with either, and each example as "  Example: <description>\n    input: <json>\n    output: <json>\n".
std::string render_tool_entry(const ToolDescription& tool);
/// "## Tools you can call\n\n" then the entries in order, separated by blank lines.
std::string render_tool_list(std::span<const ToolDescription> tools);

}  // namespace ptc
