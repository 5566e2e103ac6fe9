#include <ptc/json_input.hpp>

#include "text.hpp"

namespace ptc {

Result<nlohmann::json> parse_json(std::string_view text, std::size_t max_depth) {
  bool too_deep = false;
  // The callback sees each value's depth as the parser meets it; stopping early keeps a 100 000-level
  // document from ever being built (nlohmann's dump and comparisons recurse).
  auto limit = [&](int depth, nlohmann::json::parse_event_t event, nlohmann::json&) {
    if ((event == nlohmann::json::parse_event_t::object_start || event == nlohmann::json::parse_event_t::array_start) &&
        static_cast<std::size_t>(depth) >= max_depth) {
      too_deep = true;
      throw std::length_error("depth");
    }
    return true;
  };
  try {
    return nlohmann::json::parse(text.begin(), text.end(), limit);
  } catch (const nlohmann::json::parse_error& e) {
    std::string what = e.what();
    // "[json.exception.parse_error.101] parse error at line 1, column 5: syntax error while ..." -> the tail.
    auto colon = what.find(": ");
    std::string message = colon == std::string::npos ? what : what.substr(colon + 2);
    std::size_t at = e.byte == 0 ? 0 : e.byte - 1;
    return text::error_at(text, at, "invalid JSON: " + message);
  } catch (const std::length_error&) {
    if (!too_deep) throw;
    return Error{"invalid JSON: nesting deeper than " + std::to_string(max_depth) + " levels"};
  } catch (const nlohmann::json::exception& e) {
    // e.g. out_of_range 406 for 1e999: a number no double holds.
    std::string what = e.what();
    auto close = what.find("] ");
    return Error{"invalid JSON: " + (close == std::string::npos ? what : what.substr(close + 2))};
  }
}

}  // namespace ptc
