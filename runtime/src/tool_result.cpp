#include <ptc/firewall.hpp>
#include <ptc/tool_result.hpp>

namespace ptc::detail {

std::string render_tool_output(std::string_view message, const nlohmann::json* value, bool exclude,
                               const Schema* schema) {
  if (value == nullptr || exclude) return std::string(message);
  const nlohmann::json shown = schema != nullptr ? firewall(*schema, *value) : *value;
  // Handlers may put any bytes in strings; the model gets U+FFFD rather than the call failing.
  return shown.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace ptc::detail
