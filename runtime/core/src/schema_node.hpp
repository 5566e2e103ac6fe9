#pragma once
// The private representation behind ptc::Schema.

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>
#include <re2/re2.h>

#include <ptc/schema.hpp>

namespace ptc::detail {

struct Node {
  Kind kind = Kind::Any;
  std::vector<Schema> children;        // item (1) / key,value (2) / tuple, or, and parts
  std::vector<MapEntry> entries;       // Map
  std::vector<std::size_t> by_name;    // Map: indices of `entries` sorted by name, for find()
  std::vector<nlohmann::json> values;  // Enum
  Refine op = Refine::Gt;
  nlohmann::json bound;  // Refinement
  std::shared_ptr<const re2::RE2> regex;
  std::size_t depth = 1;                // levels of nesting, this node included
  std::string format{};                 // String: JSON Schema format
  std::optional<std::size_t> length{};  // Vector: exact number of items
};

}  // namespace ptc::detail

namespace ptc {
/// Checks names are unique and wraps the type of optional entries in [:maybe ...].
std::vector<MapEntry> normalize_entries(std::vector<MapEntry> entries);
}  // namespace ptc
