#include "text.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include <ptc/json_text.hpp>

namespace ptc::text {

std::optional<std::size_t> invalid_utf8_at(std::string_view s) {
  std::size_t i = 0;
  const std::size_t n = s.size();
  while (i < n) {
    auto c = static_cast<unsigned char>(s[i]);
    if (c < 0x80) {
      ++i;
      continue;
    }
    std::size_t len;
    unsigned min_cp;
    unsigned cp;
    if ((c & 0xE0) == 0xC0) {
      len = 2;
      cp = c & 0x1F;
      min_cp = 0x80;
    } else if ((c & 0xF0) == 0xE0) {
      len = 3;
      cp = c & 0x0F;
      min_cp = 0x800;
    } else if ((c & 0xF8) == 0xF0) {
      len = 4;
      cp = c & 0x07;
      min_cp = 0x10000;
    } else
      return i;
    if (i + len > n) return i;
    for (std::size_t k = 1; k < len; ++k) {
      auto cc = static_cast<unsigned char>(s[i + k]);
      if ((cc & 0xC0) != 0x80) return i;
      cp = (cp << 6) | (cc & 0x3F);
    }
    if (cp < min_cp || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return i;
    i += len;
  }
  return std::nullopt;
}

Error error_at(std::string_view source, std::size_t offset, std::string message) {
  if (offset > source.size()) offset = source.size();
  std::size_t line = 1;
  std::size_t line_start = 0;
  for (std::size_t i = 0; i < offset; ++i)
    if (source[i] == '\n') {
      ++line;
      line_start = i + 1;
    }
  return Error{std::move(message), line, offset - line_start + 1};
}

bool is_identifier(std::string_view s) {
  if (s.empty()) return false;
  auto alpha = [](char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; };
  if (!alpha(s[0])) return false;
  for (char c : s)
    if (!alpha(c) && !(c >= '0' && c <= '9') && c != '-') return false;
  return true;
}

std::string quote(std::string_view s) {
  std::string out;
  append_json_string(out, s);
  return out;
}

std::string printable(std::string_view s) {
  return std::any_of(s.begin(), s.end(), is_control) ? quote(s) : std::string(s);
}

std::string escape_controls(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (char c : s) {
    if (!is_control(c)) {
      out += c;
    } else {
      const std::string escaped = quote(std::string_view(&c, 1));  // "\n" or "\u0001", with its quotes
      out.append(escaped, 1, escaped.size() - 2);
    }
  }
  return out;
}

std::string number(const nlohmann::json& n) { return n.dump(); }

std::string excerpt(std::string_view s, std::size_t max_bytes) {
  if (s.size() <= max_bytes) return std::string(s);
  std::size_t cut = max_bytes;
  while (cut > 0 && (static_cast<unsigned char>(s[cut]) & 0xC0) == 0x80) --cut;  // keep UTF-8 whole
  return std::string(s.substr(0, cut)) + "...";
}

std::string_view trim(std::string_view s, std::string_view set) {
  auto b = s.find_first_not_of(set);
  if (b == std::string_view::npos) return {};
  return s.substr(b, s.find_last_not_of(set) - b + 1);
}

std::string_view trim_right(std::string_view s, std::string_view set) {
  auto e = s.find_last_not_of(set);
  return e == std::string_view::npos ? std::string_view{} : s.substr(0, e + 1);
}

namespace {
void append_two(std::string& out, long v) {
  out += static_cast<char>('0' + v / 10);
  out += static_cast<char>('0' + v % 10);
}
}  // namespace

std::string iso_date(const std::chrono::year_month_day& date) {
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

std::string rfc3339_utc(std::int64_t seconds, std::uint32_t nanos, int fraction_digits) {
  const std::int64_t days = seconds >= 0 ? seconds / 86400 : -((-seconds + 86399) / 86400);
  const std::int64_t in_day = seconds - days * 86400;
  std::string out = iso_date(std::chrono::year_month_day(std::chrono::sys_days(std::chrono::days(days))));
  out += 'T';
  append_two(out, static_cast<long>(in_day / 3600));
  out += ':';
  append_two(out, static_cast<long>(in_day / 60 % 60));
  out += ':';
  append_two(out, static_cast<long>(in_day % 60));
  std::string fraction = std::to_string(1000000000u + nanos % 1000000000u).substr(1);
  if (fraction_digits < 0) {
    fraction.erase(fraction.find_last_not_of('0') + 1);
  } else {
    fraction.resize(static_cast<std::size_t>(fraction_digits < 9 ? fraction_digits : 9));
  }
  if (!fraction.empty()) {
    out += '.';
    out += fraction;
  }
  out += 'Z';
  return out;
}

namespace {

// 1: escaped by nlohmann's dump; 2: not ASCII (the string must be checked as UTF-8).
constexpr std::array<std::uint8_t, 256> kAttention = [] {
  std::array<std::uint8_t, 256> t{};
  for (int c = 0; c < 0x20; ++c) t[c] = 1;
  t['"'] = t['\\'] = 1;
  for (int c = 0x80; c < 0x100; ++c) t[c] = 2;
  return t;
}();

constexpr std::uint64_t kOnes = 0x0101010101010101ull, kHighs = 0x8080808080808080ull;

// What kAttention says of eight bytes at once.
std::uint8_t word_attention(std::uint64_t x) {
  auto has_zero = [](std::uint64_t y) { return (y - kOnes) & ~y & kHighs; };
  std::uint8_t seen = (x & kHighs) ? 2 : 0;
  const std::uint64_t low = x & ~kHighs;  // bytes < 0x20 among the ASCII ones: their low 7 bits < 0x20
  if (((low - kOnes * 0x20) & ~x & kHighs) || has_zero(x ^ (kOnes * '"')) || has_zero(x ^ (kOnes * '\\'))) seen |= 1;
  return seen;
}

std::uint64_t load8(const char* p) {
  std::uint64_t x;
  std::memcpy(&x, p, 8);
  return x;
}

// What kAttention says of the whole string, eight bytes at a time where it can.
std::uint8_t attention(std::string_view s) {
  const std::size_t n = s.size();
  std::uint8_t seen = 0;
  if (n < 8) {
    for (char c : s) seen |= kAttention[static_cast<unsigned char>(c)];
    return seen;
  }
  for (std::size_t i = 0; i + 8 < n; i += 8) seen |= word_attention(load8(s.data() + i));
  return seen | word_attention(load8(s.data() + n - 8));  // the last eight, overlapping bytes already seen
}

// The escaping itself, for both kinds of output: a buffer known to be large enough, or a growing string.
template <class Out>
void escape_json_string(Out& out, std::string_view s) {
  const std::uint8_t seen = attention(s);
  if ((seen & 2) && invalid_utf8_at(s)) {
    // nlohmann's replacement of invalid sequences, from nlohmann itself (compact_text comes here)
    out.put(nlohmann::json(std::string(s)).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
    return;
  }
  out.put("\"");
  if (!(seen & 1)) {  // the common case: one copy between the quotes
    out.put(s);
    out.put("\"");
    return;
  }
  std::size_t run = 0;  // start of the characters not yet written
  for (std::size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    if (kAttention[static_cast<unsigned char>(c)] != 1) continue;
    out.put(s.substr(run, i - run));
    run = i + 1;
    switch (c) {
      case '"': out.put("\\\""); break;
      case '\\': out.put("\\\\"); break;
      case '\b': out.put("\\b"); break;
      case '\f': out.put("\\f"); break;
      case '\n': out.put("\\n"); break;
      case '\r': out.put("\\r"); break;
      case '\t': out.put("\\t"); break;
      default: {
        static constexpr char hex[] = "0123456789abcdef";
        const auto u = static_cast<unsigned char>(c);
        const char escaped[] = {'\\', 'u', '0', '0', hex[u >> 4], hex[u & 0xf]};
        out.put(std::string_view(escaped, sizeof escaped));
      }
    }
  }
  out.put(s.substr(run));
  out.put("\"");
}

struct BufferOut {
  char* at;
  void put(std::string_view s) {
    std::memcpy(at, s.data(), s.size());
    at += s.size();
  }
};

struct StringOut {
  std::string& s;
  void put(std::string_view t) { s.append(t); }
};

}  // namespace

char* write_plain_json_string(char* out, std::string_view s) {
  const std::size_t n = s.size();
  *out++ = '"';
  if (n < 8) {
    for (std::size_t i = 0; i < n; ++i) {
      if (kAttention[static_cast<unsigned char>(s[i])]) return nullptr;
      out[i] = s[i];
    }
  } else {
    for (std::size_t i = 0; i + 8 < n; i += 8) {
      const std::uint64_t x = load8(s.data() + i);
      if (word_attention(x)) return nullptr;
      std::memcpy(out + i, &x, 8);
    }
    const std::uint64_t last = load8(s.data() + n - 8);
    if (word_attention(last)) return nullptr;
    std::memcpy(out + n - 8, &last, 8);
  }
  out[n] = '"';
  return out + n + 1;
}

char* write_json_string(char* out, std::string_view s) {
  BufferOut buffer{out};
  escape_json_string(buffer, s);
  return buffer.at;
}

void append_json_string(std::string& out, std::string_view s) {
  out.reserve(out.size() + s.size() + 2);
  StringOut string{out};
  escape_json_string(string, s);
}

std::string ascii_lower(std::string_view s) {
  std::string out(s);
  for (char& c : out)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  return out;
}

// A band of width 2 * limit + 1 around the diagonal, so a hostile string costs O(length * limit).
std::size_t edit_distance(std::string_view a, std::string_view b, std::size_t limit) {
  const std::size_t n = a.size(), m = b.size();
  if ((n > m ? n - m : m - n) > limit) return limit + 1;
  constexpr std::size_t kFar = std::size_t{1} << 20;
  std::vector<std::size_t> before(m + 1, kFar), prev(m + 1, kFar), cur(m + 1, kFar);
  for (std::size_t j = 0; j <= std::min(m, limit); ++j) prev[j] = j;
  for (std::size_t i = 1; i <= n; ++i) {
    std::fill(cur.begin(), cur.end(), kFar);
    if (i <= limit) cur[0] = i;
    const std::size_t lo = i > limit ? i - limit : 1, hi = std::min(m, i + limit);
    std::size_t best = cur[0];
    for (std::size_t j = lo; j <= hi; ++j) {
      const std::size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      std::size_t d = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) d = std::min(d, before[j - 2] + 1);
      cur[j] = d;
      best = std::min(best, d);
    }
    if (best > limit) return limit + 1;
    std::swap(before, prev);
    std::swap(prev, cur);
  }
  return std::min(prev[m], limit + 1);
}

}  // namespace ptc::text
