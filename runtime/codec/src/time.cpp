// ISO 8601 text for std::chrono types (DESIGN.md section 8): times in UTC such as
// "2025-12-29T10:30:00Z" (a fraction of a second and an offset such as "+02:00" are read too; times
// are always written in UTC with "Z"), and dates such as "2025-12-29".

#include <ptc/codec/codec.hpp>
#include <ptc/coercion.hpp>

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

void append_two(std::string& out, long v) {
  out += static_cast<char>('0' + v / 10);
  out += static_cast<char>('0' + v % 10);
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
  const std::int64_t days = t.seconds >= 0 ? t.seconds / 86400 : -((-t.seconds + 86399) / 86400);
  const std::int64_t in_day = t.seconds - days * 86400;
  std::string out = format_date(std::chrono::year_month_day(std::chrono::sys_days(std::chrono::days(days))));
  out += 'T';
  append_two(out, static_cast<long>(in_day / 3600));
  out += ':';
  append_two(out, static_cast<long>(in_day / 60 % 60));
  out += ':';
  append_two(out, static_cast<long>(in_day % 60));
  if (t.nanos != 0) {
    std::string fraction = std::to_string(1000000000u + t.nanos).substr(1);
    fraction.erase(fraction.find_last_not_of('0') + 1);
    out += '.';
    out += fraction;
  }
  out += 'Z';
  return out;
}

std::optional<std::chrono::year_month_day> parse_date(std::string_view s) {
  if (s.size() != 10) return std::nullopt;
  return date_prefix(s);
}

std::string format_date(const std::chrono::year_month_day& date) {
  const int y = static_cast<int>(date.year());
  std::string out = std::to_string(y < 0 ? -y : y);
  out.insert(0, out.size() < 4 ? 4 - out.size() : 0, '0');
  if (y < 0) out.insert(0, 1, '-');
  out += '-';
  append_two(out, static_cast<unsigned>(date.month()));
  out += '-';
  append_two(out, static_cast<unsigned>(date.day()));
  return out;
}

bool bad_time(Decoder& d, std::string_view text) {
  d.error(coercion::expected("ISO 8601 time such as \"2025-12-29T10:30:00Z\"", std::string(text)));
  return false;
}

bool bad_date(Decoder& d, std::string_view text) {
  d.error(coercion::expected("ISO 8601 date such as \"2025-12-29\"", std::string(text)));
  return false;
}

}  // namespace ptc::codec::detail
