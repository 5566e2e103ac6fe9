#pragma once
// The one form in which ptc writes a JSON value as text.

#include <string>

#include <nlohmann/json.hpp>

namespace ptc {

/// `j.dump()` without indentation, with invalid UTF-8 replaced (U+FFFD) instead of thrown on: the text
/// LazyJson keeps, TextWriter writes, replies and error messages carry. For nlohmann::json and
/// nlohmann::ordered_json alike.
template <class Json>
std::string compact_text(const Json& j) {
  return j.dump(-1, ' ', false, Json::error_handler_t::replace);
}

/// A string's own characters, any other value its compact_text: how a JSON value reads when it is put
/// into text (a message, a command's body) rather than into JSON.
template <class Json>
std::string plain_text(const Json& j) {
  return j.is_string() ? j.template get<std::string>() : compact_text(j);
}

}  // namespace ptc
