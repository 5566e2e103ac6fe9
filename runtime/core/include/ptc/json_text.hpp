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

/// A node that compact_text writes as `text`, verbatim: JSON rendered once and placed in trees built
/// again and again (a provider's tool definitions, in every request body) without being copied as a
/// tree. `text` must be compact JSON. Only compact_text knows the node: to nlohmann it is a binary value.
nlohmann::ordered_json raw_json(std::string_view text);

/// A string's own characters, any other value its compact_text: how a JSON value reads when it is put
/// into text (a message, a command's body) rather than into JSON.
template <class Json>
std::string plain_text(const Json& j) {
  return j.is_string() ? j.template get<std::string>() : compact_text(j);
}

}  // namespace ptc
