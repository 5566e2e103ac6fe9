#include <ptc/firewall.hpp>
#include <ptc/tool_result.hpp>

namespace ptc::detail {

std::string render_tool_output(std::string_view message, const nlohmann::json* value, bool success,
                               const Schema* schema) {
  if (value == nullptr) return std::string(message);
  const nlohmann::json shown = schema != nullptr ? firewall(*schema, *value) : *value;
  // Handlers may put any bytes in strings; the model gets U+FFFD rather than the call failing.
  std::string json = shown.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  // A failure's message says what went wrong; its payload (partial results) must not hide it.
  return success ? json : std::string(message) + "\n\n" + json;
}

}  // namespace ptc::detail
