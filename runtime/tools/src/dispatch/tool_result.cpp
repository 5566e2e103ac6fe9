#include <ptc/firewall.hpp>
#include <ptc/json_text.hpp>
#include <ptc/tool_result.hpp>

namespace ptc::detail {

std::string render_tool_output(std::string_view message, const nlohmann::json* value, bool success,
                               const Schema* schema) {
  if (value == nullptr) return std::string(message);
  // Handlers may put any bytes in strings; the model gets U+FFFD rather than the call failing.
  return render_tool_output_text(message,
                                 schema != nullptr ? compact_text(firewall(*schema, *value)) : compact_text(*value),
                                 success);
}

std::string render_tool_output_text(std::string_view message, std::string json, bool success) {
  // A failure's message says what went wrong; its payload (partial results) must not hide it.
  return success ? json : std::string(message) + "\n\n" + json;
}

}  // namespace ptc::detail
