#pragma once
// A reader for the EDN subset that Malli text uses: vectors, maps, keywords, strings, numbers,
// true/false/nil. Each value remembers its byte offset so errors can name the column.

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <ptc/error.hpp>

namespace ptc::edn {

// A guard for the recursion only: schemas are limited to kMaxSchemaDepth (256) levels by the Malli
// reader. Malli spends two EDN levels per map level (`[:map [:a T]]`) and three on `[:=> [:catn [:p T]]]`,
// so every schema within that limit fits.
inline constexpr std::size_t kMaxDepth = 2 * 256 + 8;

struct Value {
  enum class Type { Vector, Map, Keyword, String, Int, Float, Bool, Nil, Symbol };
  Type type = Type::Nil;
  std::size_t offset = 0;  // where the value starts in the source
  std::string text;        // Keyword (without ':'), String (unescaped), Symbol
  std::int64_t integer = 0;
  double real = 0;
  bool boolean = false;
  std::vector<Value> items;  // Vector; Map as k0 v0 k1 v1 ...
};

/// Reads exactly one value starting at `offset` (after whitespace/comments). On success `offset` is
/// just past the value. Errors are positioned in `source`.
Result<Value> read_one(std::string_view source, std::size_t& offset);

/// Reads one value that must be all of `source` (trailing whitespace allowed).
Result<Value> read_all(std::string_view source);

/// Human name for messages: "vector", "keyword :int", "string \"x\"", ...
std::string describe(const Value& v);

}  // namespace ptc::edn
