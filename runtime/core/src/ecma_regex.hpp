#pragma once
// RE2 patterns ([:re "..."]) as JSON Schema `pattern`s, which are ECMA-262: translated where the
// translation means exactly the same, refused otherwise. Internal to core (json_schema.cpp).

#include <string>
#include <string_view>
#include <variant>

namespace ptc::detail {

/// Why a pattern has no exact ECMA-262 form: "(?i) and other flags have no ECMA-262 form at offset 0".
struct PatternRefusal {
  std::string reason;
};

/// The ECMA-262 pattern that matches exactly the strings `re2` matches, both searched unanchored, with
/// or without ECMA's `u` flag; or why there is none. `re2` compiles with RE2.
std::variant<std::string, PatternRefusal> ecma_pattern(std::string_view re2);

}  // namespace ptc::detail
