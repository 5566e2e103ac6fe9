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

// "name: doc" and the default, for a parameter that has either: what the JSON Schema says of it in
// "description" and "default", which the signature line cannot (docs/tokens.md, "What the prompt text
// carries"). A doc ending in '.' takes the default inside its sentence: "Most results (default 10)."
std::string render_parameter(const MapEntry& param) {
  if (param.doc.empty() && !param.has_default()) return {};
  std::string_view doc = param.doc;
  const bool period = !doc.empty() && doc.back() == '.';
  if (period) doc.remove_suffix(1);
  std::string text(doc);
  if (param.has_default()) {
    const bool alone = text.empty();
    text.append(alone ? "default " : " (default ").append(compact_text(*param.default_value));
    if (!alone) text += ')';
  }
  if (period) text += '.';
  // A doc of several lines continues under its first, two spaces further in.
  const auto nl = text.find('\n');
  std::string out = "  " + param.name + ": " + text.substr(0, nl) + "\n";
  if (nl != std::string::npos) out += indented(std::string_view(text).substr(nl + 1), "    ");
  return out;
}

}  // namespace

std::string render_tool_entry(const ToolDescription& tool) {
  // "(a :int) -> R" becomes "name(a :int) -> R".
  std::string out = tool.name + tool.signature.render() + "\n";
  out += indented(tool.description, "  ");
  for (const auto& param : tool.signature.params()) out += render_parameter(param);
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
