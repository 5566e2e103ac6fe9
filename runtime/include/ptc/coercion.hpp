#pragma once
// The scalar coercion rules and message texts of DESIGN.md section 6, as plain functions so that the
// runtime validator and generated decoders apply exactly the same rules and say exactly the same thing.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json_fwd.hpp>

namespace ptc::coercion {

enum class Status { Ok, Invalid, OutOfRange };

struct IntValue {
  Status status = Status::Invalid;
  std::int64_t value = 0;
};

/// Whole-string integer in JSON grammar: optional '-', digits, no leading zeros ("42", "-5", "0").
/// No spaces, no '+', no decimals.
IntValue int_from_string(std::string_view text);
/// A JSON-style number ("3.14", "-2", "1e3"); nullopt for anything else or a non-finite result.
std::optional<double> float_from_string(std::string_view text);
/// Exactly "true" or "false".
std::optional<bool> bool_from_string(std::string_view text);
/// A double that is a whole number within int64 (used to reject 42.0 -> int with a precise message).
bool is_whole(double d);

/// `int64` bounds as printed in range errors: "-9223372036854775808..9223372036854775807".
std::string int64_range();

/// Describes a value for "got ..." in messages: `string "abc"`, `int 5`, `float 4.5`, `bool true`,
/// `nil`, `list`, `map`. Long strings are cut to 64 bytes and end with `..." (N bytes)`.
std::string describe(const nlohmann::json& value);
std::string describe_string(std::string_view s);

/// `expected <what>, got <describe(value)>`.
std::string expected(std::string_view what, const nlohmann::json& value);
/// `coerced string "42" to int`.
std::string coerced(std::string_view original, std::string_view target);

}  // namespace ptc::coercion
