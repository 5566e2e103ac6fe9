#include <ptc/tool_list.hpp>

#include <ptc/firewall.hpp>
#include <ptc/json_text.hpp>

namespace ptc {
namespace {

// Each line of `text` after `indent`; empty lines stay empty (no trailing spaces).
std::string indented(std::string_view text, std::string_view indent) {
  std::string out;
  while (!text.empty()) {
    auto nl = text.find('\n');
    std::string_view line = text.substr(0, nl);
    out += line.empty() ? "\n" : std::string(indent) + std::string(line) + "\n";
    if (nl == std::string_view::npos) break;
    text.remove_prefix(nl + 1);
  }
  return out;
}

// Compact, keys sorted (nlohmann::json objects are ordered maps), so the text is deterministic.
// Firewalled fields are hidden as in every LLM-facing rendering of values (docs/signatures.md, "Firewalled fields").
std::string example_json(const Schema& schema, const nlohmann::json& value) {
  return compact_text(firewall(schema, value));
}

std::string render_example(const ToolDescription& tool, const ToolExample& example) {
  // A multi-line description continues under "Example:" at the input/output indentation.
  std::string_view description = example.description;
  auto nl = description.find('\n');
  std::string_view first = description.substr(0, nl);
  std::string out = first.empty() ? "  Example:\n" : "  Example: " + std::string(first) + "\n";
  if (nl != std::string_view::npos) out += indented(description.substr(nl + 1), "    ");
  out += "    input: " + example_json(tool.signature.input(), example.input) + "\n";
  out += "    output: " + example_json(tool.signature.output(), example.output) + "\n";
  return out;
}

}  // namespace

std::string render_tool_entry(const ToolDescription& tool) {
  // "(a :int) -> R" becomes "name(a :int) -> R".
  std::string out = tool.name + tool.signature.render() + "\n";
  out += indented(tool.description, "  ");
  for (const auto& example : tool.examples) out += render_example(tool, example);
  return out;
}

std::string render_tool_list(std::span<const ToolDescription> tools) {
  std::string out = "## Tools you can call\n";
  for (const auto& t : tools) {
    out += '\n';
    out += render_tool_entry(t);
  }
  return out;
}

}  // namespace ptc
