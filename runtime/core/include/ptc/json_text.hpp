#pragma once
// The one form in which ptc writes a JSON value as text.

#include <string>

#include <nlohmann/json.hpp>

namespace ptc {

/// `j.dump()` without indentation, with invalid UTF-8 replaced (U+FFFD) instead of thrown on: the text
/// LazyJson keeps, TextWriter writes, replies, request bodies and error messages carry. The same bytes
/// as nlohmann's dump, written in runs rather than a byte at a time.
std::string compact_text(const nlohmann::json& j);
std::string compact_text(const nlohmann::ordered_json& j);
/// compact_text(j) appended to `out`.
void append_compact_text(const nlohmann::json& j, std::string& out);
void append_compact_text(const nlohmann::ordered_json& j, std::string& out);

/// A string's own characters, any other value its compact_text: how a JSON value reads when it is put
/// into text (a message, a command's body) rather than into JSON.
template <class Json>
std::string plain_text(const Json& j) {
  return j.is_string() ? j.template get<std::string>() : compact_text(j);
}

}  // namespace ptc
