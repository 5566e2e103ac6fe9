#pragma once
// Parsing untrusted JSON text: a nesting limit (nlohmann's dump and comparison recurse) and no repeated keys.

#include <cstddef>
#include <functional>
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

struct JsonParseOptions {
  std::size_t max_depth = kMaxJsonDepth;
  /// Which members of a top-level object to build. A member it declines is read to its end and
  /// checked as every other value is (syntax, depth, repeated keys), but left out of the object: tool
  /// arguments a signature does not declare cost no memory that way (dispatch's `keep` notes their
  /// names in a DroppedFields for validation to report). With a `keep`, the items of a top-level list
  /// are skipped too (the list reads as empty): its caller wants an object. Empty: build everything.
  std::function<bool(std::string_view key)> keep{};
  /// Told, every MiB or so, about how many bytes the value built so far takes; returning false stops
  /// the parse (an Error "invalid JSON: stopped by the caller at ..."). Dispatch grows a call's memory
  /// reservation this way. Empty: not told.
  std::function<bool(std::size_t built_bytes)> charge{};
};

/// parse_json with options.
Result<nlohmann::json> parse_json(std::string_view text, const JsonParseOptions& options);

}  // namespace ptc
