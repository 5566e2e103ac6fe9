#include <ptc/prompt.hpp>

namespace ptc {

std::string render_tool_entry(const ToolDescription& tool) {
  const std::string sig = tool.signature.render();
  // "(a :int) -> R" becomes "name(a :int) -> R".
  std::string out = tool.name + sig + "\n";
  std::string_view d = tool.description;
  while (!d.empty()) {
    auto nl = d.find('\n');
    std::string_view line = d.substr(0, nl);
    out += line.empty() ? "\n" : "  " + std::string(line) + "\n";
    if (nl == std::string_view::npos) break;
    d.remove_prefix(nl + 1);
  }
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
