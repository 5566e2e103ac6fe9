#pragma once
// Small text helpers shared by the components' sources (never installed; the ptc_internal target). The
// one home of trimming, quoting, number printing and RFC 3339 times.

#include <chrono>
#include <cstddef>
#include <cstdint>
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

/// Appends `s` as a JSON string, quoted and escaped exactly as nlohmann::json::dump() escapes it
/// (invalid UTF-8 replaced by U+FFFD): the one home of that rule for every writer of JSON text.
void append_json_string(std::string& out, std::string_view s);
/// `s` as a JSON value may hold it: as it is when it is valid UTF-8, else with each invalid sequence
/// replaced by U+FFFD, as dump() and append_json_string replace it; so a reply's JSON form dumps to the
/// bytes its text form writes.
std::string valid_utf8(std::string_view s);
/// The most bytes append_json_string writes for `n` bytes: a control character takes six.
constexpr std::size_t json_string_bound(std::size_t n) { return 6 * n + 2; }
/// `s` quoted at `out` (room for s.size() + 2 bytes) when it is ASCII with nothing to escape, checked
/// and copied eight bytes at a time; otherwise nullptr, having written garbage.
char* write_plain_json_string(char* out, std::string_view s);
/// append_json_string into a buffer with room for json_string_bound(s.size()) bytes; returns the end.
char* write_json_string(char* out, std::string_view s);

/// A C0 control character or DEL: what may not reach a one-line message or listing unescaped.
constexpr bool is_control(char c) { return static_cast<unsigned char>(c) < 0x20 || c == 0x7F; }

/// Text someone else wrote (a key, a value) as a message shows it: as it is, or quote()d when it holds a
/// control character, so that it cannot start a new line in a listing or a log.
std::string printable(std::string_view s);
/// `s` with each control character written as its JSON escape (`\n`, `\u0001`), for a message that
/// quotes someone else's text inside its own words.
std::string escape_controls(std::string_view s);

/// Numbers as both printers write them: integers plainly, floats in shortest round-trip form with a
/// decimal point ("1.0", "0.5", "1e+20").
std::string number(const nlohmann::json& n);

inline constexpr std::string_view kAsciiWhitespace = " \t\r\n\f\v";
/// What JSON allows between tokens.
inline constexpr std::string_view kJsonWhitespace = " \t\r\n";

/// Without leading and trailing characters of `set` (by default ASCII whitespace).
std::string_view trim(std::string_view s, std::string_view set = kAsciiWhitespace);
/// Without trailing characters of `set`.
std::string_view trim_right(std::string_view s, std::string_view set = kAsciiWhitespace);

/// "2025-12-29" (years before 1000 zero-padded to four digits, negative years with a '-').
std::string iso_date(const std::chrono::year_month_day& date);
/// An RFC 3339 time in UTC, `seconds` since 1970-01-01T00:00:00Z plus `nanos`: "2025-12-29T10:30:00Z".
/// `fraction_digits` < 0 writes the fraction of a second in as few digits as it needs (none when it
/// is zero); 0 to 9 writes exactly that many, truncated.
std::string rfc3339_utc(std::int64_t seconds, std::uint32_t nanos, int fraction_digits = -1);

/// Keeps generated errors readable: "..." stands for whatever was cut.
std::string excerpt(std::string_view s, std::size_t max_bytes);

/// `s` with A-Z turned into a-z and every other byte kept: for names the protocols compare without case
/// (HTTP header names, URL schemes and hosts), whatever locale the program set.
std::string ascii_lower(std::string_view s);

/// Optimal string alignment distance between `a` and `b`, or limit + 1 once it exceeds `limit`.
std::size_t edit_distance(std::string_view a, std::string_view b, std::size_t limit);

}  // namespace ptc::text
