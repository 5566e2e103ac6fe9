#pragma once
// Parsing untrusted JSON text with a nesting limit (nlohmann's dump and comparison recurse).

#include <cstddef>
#include <string_view>

#include <nlohmann/json.hpp>

#include <ptc/error.hpp>

namespace ptc {

inline constexpr std::size_t kMaxJsonDepth = 512;

/// Parses JSON text; malformed text, invalid UTF-8 or nesting deeper than `max_depth` give an Error
/// whose column is the byte position (1-based) where the parser stopped.
Result<nlohmann::json> parse_json(std::string_view text, std::size_t max_depth = kMaxJsonDepth);

}  // namespace ptc
