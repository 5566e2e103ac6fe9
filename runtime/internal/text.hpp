#pragma once
// Small text helpers shared by the readers and printers.

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json_fwd.hpp>

#include <ptc/error.hpp>

namespace ptc::text {

/// Byte offset of the first invalid UTF-8 sequence, or nullopt.
std::optional<std::size_t> invalid_utf8_at(std::string_view s);

/// An Error at byte `offset` of `source`, with 1-based line and column.
Error error_at(std::string_view source, std::size_t offset, std::string message);

/// `[A-Za-z_][A-Za-z0-9_-]*`: field and parameter names printable without quotes.
bool is_identifier(std::string_view s);

/// A double-quoted string with JSON escapes (valid EDN and shorthand too).
std::string quote(std::string_view s);

/// Numbers as both printers write them: integers plainly, floats in shortest round-trip form with a
/// decimal point ("1.0", "0.5", "1e+20").
std::string number(const nlohmann::json& n);

/// Without leading and trailing ASCII whitespace (" \t\r\n\f\v").
std::string_view trim(std::string_view s);

/// Keeps generated errors readable: "..." stands for whatever was cut.
std::string excerpt(std::string_view s, std::size_t max_bytes);

}  // namespace ptc::text
