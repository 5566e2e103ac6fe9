// The encoders' sinks. TextWriter's bytes must equal nlohmann::json::dump() of the same value, so it
// formats floats with nlohmann's own routine, escapes strings as nlohmann does, and sorts object keys.

#include <array>
#include <charconv>
#include <cmath>
#include <cstring>

#include <simdjson.h>

#include <ptc/codec/writer.hpp>

namespace ptc::codec {

namespace {

std::string dump(const nlohmann::json& j) { return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace); }

// 1: escaped by nlohmann's dump; 2: not ASCII (the string must be checked as UTF-8).
constexpr std::array<std::uint8_t, 256> kAttention = [] {
  std::array<std::uint8_t, 256> t{};
  for (int c = 0; c < 0x20; ++c) t[c] = 1;
  t['"'] = t['\\'] = 1;
  for (int c = 0x80; c < 0x100; ++c) t[c] = 2;
  return t;
}();

// What kAttention says of the whole string, eight bytes at a time where it can.
std::uint8_t attention(std::string_view s) {
  constexpr std::uint64_t ones = 0x0101010101010101ull, highs = 0x8080808080808080ull;
  auto has_zero = [](std::uint64_t x) { return (x - ones) & ~x & highs; };
  std::uint8_t seen = 0;
  std::size_t i = 0;
  for (; i + 8 <= s.size(); i += 8) {
    std::uint64_t x;
    std::memcpy(&x, s.data() + i, 8);
    if (x & highs) seen |= 2;
    const std::uint64_t low = x & ~highs;  // bytes < 0x20 among the ASCII ones: their low 7 bits < 0x20
    if (((low - ones * 0x20) & ~x & highs) || has_zero(x ^ (ones * '"')) || has_zero(x ^ (ones * '\\'))) seen |= 1;
  }
  for (; i < s.size(); ++i) seen |= kAttention[static_cast<unsigned char>(s[i])];
  return seen;
}

void write_string(std::string& out, std::string_view s) {
  const std::uint8_t seen = attention(s);
  if ((seen & 2) && !simdjson::validate_utf8(s.data(), s.size())) {
    out += dump(std::string(s));  // nlohmann's replacement of invalid sequences
    return;
  }
  if (!(seen & 1)) {  // the common case: one copy between the quotes
    const std::size_t at = out.size();
    out.resize(at + s.size() + 2);
    char* p = out.data() + at;
    p[0] = '"';
    std::memcpy(p + 1, s.data(), s.size());
    p[s.size() + 1] = '"';
    return;
  }
  out += '"';
  std::size_t run = 0;  // start of the characters not yet written
  for (std::size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    if (kAttention[static_cast<unsigned char>(c)] != 1) continue;
    out.append(s, run, i - run);
    run = i + 1;
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\b': out += "\\b"; break;
      case '\f': out += "\\f"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default: {
        static constexpr char hex[] = "0123456789abcdef";
        const auto u = static_cast<unsigned char>(c);
        out += "\\u00";
        out += hex[u >> 4];
        out += hex[u & 0xf];
      }
    }
  }
  out.append(s, run, s.size() - run);
  out += '"';
}

// Keys usually differ in their first byte: compare that before calling memcmp.
bool key_less(std::string_view a, std::string_view b) {
  if (!a.empty() && !b.empty() && a[0] != b[0])
    return static_cast<unsigned char>(a[0]) < static_cast<unsigned char>(b[0]);
  return a < b;
}

}  // namespace

void TextWriter::separate() {
  if (after_key_) {
    after_key_ = false;
    return;
  }
  if (frames_.empty()) return;
  Frame& f = frames_.back();
  if (!f.empty) out_ += ',';
  f.empty = false;
}

void TextWriter::null() {
  separate();
  out_ += "null";
}

void TextWriter::boolean(bool b) {
  separate();
  out_ += b ? "true" : "false";
}

void TextWriter::integer(std::int64_t i) {
  separate();
  char buffer[24];
  auto end = std::to_chars(buffer, buffer + sizeof buffer, i).ptr;
  out_.append(buffer, end);
}

void TextWriter::unsigned_integer(std::uint64_t u) {
  separate();
  char buffer[24];
  auto end = std::to_chars(buffer, buffer + sizeof buffer, u).ptr;
  out_.append(buffer, end);
}

void TextWriter::number(double d) {
  separate();
  if (!std::isfinite(d)) {
    out_ += "null";
    return;
  }
  // nlohmann's shortest round-trip form ("1.0", "1e+20"), which std::to_chars does not reproduce.
  char buffer[64];
  char* end = nlohmann::detail::to_chars(buffer, buffer + sizeof buffer, d);
  out_.append(buffer, end);
}

void TextWriter::string(std::string_view s) {
  separate();
  write_string(out_, s);
}

void TextWriter::json(const nlohmann::json& j) {
  separate();
  out_ += dump(j);
}

void TextWriter::begin_object() {
  separate();
  out_ += '{';
  frames_.push_back({true, members_.size()});
}

void TextWriter::key(std::string_view k) {
  Frame& f = frames_.back();
  if (!f.empty) out_ += ',';
  f.empty = false;
  members_.push_back({k, out_.size()});
  write_string(out_, k);
  out_ += ':';
  after_key_ = true;
}

void TextWriter::end_object() {
  const std::size_t first = frames_.back().members;
  sort_members(first);
  members_.resize(first);
  frames_.pop_back();
  out_ += '}';
}

void TextWriter::begin_array() {
  separate();
  out_ += '[';
  frames_.push_back({true, 0});
}

void TextWriter::end_array() {
  frames_.pop_back();
  out_ += ']';
}

// Rewrites the members of the open object in key order; of a repeated key, the last is kept.
void TextWriter::sort_members(std::size_t first) {
  const std::size_t n = members_.size() - first;
  const Member* m = members_.data() + first;
  bool sorted = true;
  for (std::size_t i = 1; i < n && sorted; ++i) sorted = key_less(m[i - 1].key, m[i].key);
  if (sorted) return;
  // Insertion sort of the positions: objects are small, and equal keys stay in writing order.
  order_.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    std::size_t j = i;
    for (; j > 0 && key_less(m[i].key, m[order_[j - 1]].key); --j) order_[j] = order_[j - 1];
    order_[j] = i;
  }
  const std::size_t start = m[0].begin;
  scratch_.assign(out_, start, out_.size() - start);
  char* at = out_.data() + start;
  for (std::size_t k = 0; k < n; ++k) {
    const std::size_t i = order_[k];
    if (k + 1 < n && m[order_[k + 1]].key == m[i].key) continue;
    const std::size_t begin = m[i].begin - start;
    const std::size_t end = (i + 1 < n ? m[i + 1].begin - 1 : out_.size()) - start;  // without the comma
    if (at != out_.data() + start) *at++ = ',';
    std::memcpy(at, scratch_.data() + begin, end - begin);
    at += end - begin;
  }
  out_.resize(static_cast<std::size_t>(at - out_.data()));  // shorter when a repeated key was dropped
}

void JsonWriter::null() { put(nullptr); }
void JsonWriter::boolean(bool b) { put(b); }
void JsonWriter::integer(std::int64_t i) { put(i); }
void JsonWriter::unsigned_integer(std::uint64_t u) { put(u); }
void JsonWriter::number(double d) { put(d); }
void JsonWriter::string(std::string_view s) { put(std::string(s)); }
void JsonWriter::json(const nlohmann::json& j) { put(j); }

void JsonWriter::begin_object() { stack_.push_back(&put(nlohmann::json::object())); }
void JsonWriter::key(std::string_view k) { key_.assign(k.data(), k.size()); }
void JsonWriter::end_object() { stack_.pop_back(); }
void JsonWriter::begin_array() { stack_.push_back(&put(nlohmann::json::array())); }
void JsonWriter::end_array() { stack_.pop_back(); }

nlohmann::json& JsonWriter::put(nlohmann::json v) {
  if (stack_.empty()) {
    root_ = std::move(v);
    return root_;
  }
  nlohmann::json& top = *stack_.back();
  if (top.is_array()) {
    top.push_back(std::move(v));
    return top.back();
  }
  nlohmann::json& slot = top[key_];
  slot = std::move(v);
  return slot;
}

}  // namespace ptc::codec
