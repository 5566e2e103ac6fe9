// ISO 8601 text for std::chrono types (docs/codecs.md, "Types"): times in UTC such as
// "2025-12-29T10:30:00Z" (a fraction of a second and an offset such as "+02:00" are read too; times
// are always written in UTC with "Z"), and dates such as "2025-12-29".

#include <ptc/codec/codec.hpp>
#include <ptc/coercion.hpp>

#include <stdexcept>

#include "text.hpp"

namespace ptc::codec::detail {

namespace {

// Reads `n` digits at `pos`.
std::optional<int> digits(std::string_view s, std::size_t pos, std::size_t n) {
  if (pos + n > s.size()) return std::nullopt;
  int value = 0;
  for (std::size_t i = pos; i < pos + n; ++i) {
    if (s[i] < '0' || s[i] > '9') return std::nullopt;
    value = value * 10 + (s[i] - '0');
  }
  return value;
}

// "YYYY-MM-DD" at the start of `s`.
std::optional<std::chrono::year_month_day> date_prefix(std::string_view s) {
  auto y = digits(s, 0, 4), m = digits(s, 5, 2), d = digits(s, 8, 2);
  if (!y || !m || !d || s[4] != '-' || s[7] != '-') return std::nullopt;
  std::chrono::year_month_day date{std::chrono::year(*y), std::chrono::month(static_cast<unsigned>(*m)),
                                   std::chrono::day(static_cast<unsigned>(*d))};
  if (!date.ok()) return std::nullopt;
  return date;
}

}  // namespace

std::optional<UtcTime> parse_time(std::string_view s) {
  auto date = date_prefix(s);
  if (!date || s.size() < 20 || s[10] != 'T' || s[13] != ':' || s[16] != ':') return std::nullopt;
  auto hh = digits(s, 11, 2), mm = digits(s, 14, 2), ss = digits(s, 17, 2);
  if (!hh || !mm || !ss || *hh > 23 || *mm > 59 || *ss > 59) return std::nullopt;
  std::size_t pos = 19;
  std::uint32_t nanos = 0;
  if (s[pos] == '.') {
    std::size_t n = 0;
    for (++pos; pos < s.size() && s[pos] >= '0' && s[pos] <= '9'; ++pos, ++n) {
      if (n >= 9) return std::nullopt;
      nanos = nanos * 10 + static_cast<std::uint32_t>(s[pos] - '0');
    }
    if (n == 0) return std::nullopt;
    for (; n < 9; ++n) nanos *= 10;
  }
  std::int64_t offset = 0;
  if (pos < s.size() && s[pos] == 'Z') {
    ++pos;
  } else if (pos < s.size() && (s[pos] == '+' || s[pos] == '-')) {
    auto oh = digits(s, pos + 1, 2), om = digits(s, pos + 4, 2);
    if (!oh || !om || s[pos + 3] != ':' || *oh > 23 || *om > 59) return std::nullopt;
    offset = (s[pos] == '-' ? -1 : 1) * (*oh * 3600 + *om * 60);
    pos += 6;
  } else {
    return std::nullopt;
  }
  if (pos != s.size()) return std::nullopt;
  const std::int64_t days = std::chrono::sys_days(*date).time_since_epoch().count();
  return UtcTime{days * 86400 + *hh * 3600 + *mm * 60 + *ss - offset, nanos};
}

std::string format_time(UtcTime t) {
  // Four-digit years only: anything else would be text that parse_time (and every reader of RFC 3339)
  // refuses, so the value is refused here, where it is written.
  constexpr std::int64_t kFirst = -62167219200;  // 0000-01-01T00:00:00Z
  constexpr std::int64_t kLast = 253402300799;   // 9999-12-31T23:59:59Z
  if (t.seconds < kFirst || t.seconds > kLast)
    throw std::out_of_range("a time " + std::to_string(t.seconds) +
                            " s from 1970 is outside the years 0000-9999 that ISO 8601 text can hold");
  return text::rfc3339_utc(t.seconds, t.nanos);
}

std::optional<std::chrono::year_month_day> parse_date(std::string_view s) {
  if (s.size() != 10) return std::nullopt;
  return date_prefix(s);
}

std::string format_date(const std::chrono::year_month_day& date) { return text::iso_date(date); }

namespace {

// What is wrong with a time that parse_time refused, when a well-meant input is close: the text shows
// the model how to fix its call rather than only an example.
std::string why_not_time(std::string_view s) {
  if (s.size() < 19 || !date_prefix(s) || s[10] != 'T' || s[13] != ':' || s[16] != ':') return "";
  if (digits(s, 17, 2) == 60) return " (leap seconds are not supported)";
  std::size_t pos = 19;
  if (pos < s.size() && s[pos] == '.')
    for (++pos; pos < s.size() && s[pos] >= '0' && s[pos] <= '9';) ++pos;
  if (pos == s.size()) return " (the time zone offset is missing: add Z or an offset such as +02:00)";
  return "";
}

}  // namespace

bool bad_time(Decoder& d, std::string_view text) {
  d.error(coercion::expected("ISO 8601 time such as \"2025-12-29T10:30:00Z\"", std::string(text)) + why_not_time(text));
  return false;
}

bool time_out_of_range(Decoder& d, std::string_view text) {
  d.error(coercion::expected("time within the range of the C++ type", std::string(text)));
  return false;
}

bool time_too_precise(Decoder& d, std::string_view text, int fraction_digits) {
  d.error(coercion::expected(fraction_digits == 0
                                 ? std::string("time in whole seconds")
                                 : "time with at most " + std::to_string(fraction_digits) + " fractional digits",
                             std::string(text)));
  return false;
}

bool bad_date(Decoder& d, std::string_view text) {
  d.error(coercion::expected("ISO 8601 date such as \"2025-12-29\"", std::string(text)));
  return false;
}

}  // namespace ptc::codec::detail
