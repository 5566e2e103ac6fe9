#pragma once
// Parsing untrusted JSON text: a nesting limit (nlohmann's dump and comparison recurse) and no repeated keys.

#include <cstddef>
#include <string_view>

#include <nlohmann/json.hpp>

#include <ptc/error.hpp>

namespace ptc {

inline constexpr std::size_t kMaxJsonDepth = 512;

/// Parses JSON text; malformed text, invalid UTF-8 or nesting deeper than `max_depth` give an Error
/// whose column is the byte position (1-based) where the parser stopped. An object that repeats a key
/// is refused too, naming the object: `invalid JSON: duplicate key "x" at filter` (`at (root)` for the
/// top level), where nlohmann alone would keep the last value; generated decoders refuse the same text
/// with the same message.
Result<nlohmann::json> parse_json(std::string_view text, std::size_t max_depth = kMaxJsonDepth);

}  // namespace ptc
