// text::valid_utf8, in a file of its own: compiled in text.cpp, nlohmann's parser and printer made g++
// move std::string::append out of line for the whole file, append_json_string's appends with it, and
// writing a reply's text took 12% more instructions (bench_instructions dispatch_firewalled).

#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "text.hpp"

namespace ptc::text {

std::string valid_utf8(std::string_view s) {
  if (!invalid_utf8_at(s)) return std::string(s);
  // Rare: nlohmann's own replacement, written and read back.
  const std::string quoted =
      nlohmann::json(std::string(s)).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  return nlohmann::json::parse(quoted).get<std::string>();
}

}  // namespace ptc::text
