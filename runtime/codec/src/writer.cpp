// The encoders' sinks. TextWriter's bytes must equal nlohmann::json::dump() of the same value, so it
// formats floats with nlohmann's own routine, escapes strings as nlohmann does, and sorts object keys.

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstring>

#include <ptc/codec/writer.hpp>

#include <ptc/json_text.hpp>

#include "text.hpp"

namespace ptc::codec {

namespace {

// Keys usually differ in their first byte: compare that before calling memcmp.
bool key_less(std::string_view a, std::string_view b) {
  if (!a.empty() && !b.empty() && a[0] != b[0])
    return static_cast<unsigned char>(a[0]) < static_cast<unsigned char>(b[0]);
  return a < b;
}

}  // namespace

std::string TextWriter::take() {
  out_.resize(size_);
  size_ = 0;
  return std::move(out_);
}

void TextWriter::reserve(std::size_t n) {
  if (out_.size() < n) out_.resize(n);
}

// Doubling, and starting with the bytes std::string holds without allocating.
void TextWriter::grow(std::size_t n) { out_.resize(std::max({size_ + n, 2 * out_.size(), out_.capacity()})); }

void TextWriter::null() {
  separate();
  put("null");
}

void TextWriter::boolean(bool b) {
  separate();
  put(b ? std::string_view("true") : std::string_view("false"));
}

void TextWriter::integer(std::int64_t i) {
  separate();
  constexpr std::size_t kMax = 20;  // "-9223372036854775808"
  char* at = room(kMax);
  size_ = static_cast<std::size_t>(std::to_chars(at, at + kMax, i).ptr - out_.data());
}

void TextWriter::unsigned_integer(std::uint64_t u) {
  separate();
  constexpr std::size_t kMax = 20;  // "18446744073709551615"
  char* at = room(kMax);
  size_ = static_cast<std::size_t>(std::to_chars(at, at + kMax, u).ptr - out_.data());
}

void TextWriter::number(double d) {
  separate();
  if (!std::isfinite(d)) {
    put("null");
    return;
  }
  // nlohmann's shortest round-trip form ("1.0", "1e+20"), which std::to_chars does not reproduce.
  constexpr std::size_t kMax = 64;  // nlohmann's own buffer for it
  char* at = room(kMax);
  size_ = static_cast<std::size_t>(nlohmann::detail::to_chars(at, at + kMax, d) - out_.data());
}

void TextWriter::string(std::string_view s) {
  separate();
  put_escaped(s);
}

void TextWriter::put_escaped(std::string_view s) {
  // Room for the usual string first, ASCII with nothing to escape: a short result then fits
  // std::string's own inline bytes.
  if (char* end = text::write_plain_json_string(room(s.size() + 2), s)) {
    size_ = static_cast<std::size_t>(end - out_.data());
    return;
  }
  // Room for the worst case is at most a few pages for a short string; a long one is escaped on its
  // own first, so the buffer grows by what it takes and not six times its size.
  constexpr std::size_t kDirect = 4096;
  if (s.size() > kDirect) {
    std::string escaped;
    text::append_json_string(escaped, s);
    put(escaped);
    return;
  }
  char* at = room(text::json_string_bound(s.size()));
  size_ = static_cast<std::size_t>(text::write_json_string(at, s) - out_.data());
}

void TextWriter::json(const nlohmann::json& j) {
  separate();
  put(compact_text(j));
}

void TextWriter::key(std::string_view k) {
  Frame& f = frames_.back();
  if (!f.empty) put(',');
  f.empty = false;
  members_.push_back({k, size_});
  put_escaped(k);
  put(':');
  after_key_ = true;
}

// Rewrites the members of the open object in key order, and forgets them; of a repeated key, the last
// is kept.
void TextWriter::sort_members(std::size_t first) {
  const std::size_t n = members_.size() - first;
  const Member* m = members_.data() + first;
  bool sorted = true;
  for (std::size_t i = 1; i < n && sorted; ++i) sorted = key_less(m[i - 1].key, m[i].key);
  if (!sorted) rewrite_in_order(first);
  members_.resize(first);
}

void TextWriter::rewrite_in_order(std::size_t first) {
  const std::size_t n = members_.size() - first;
  const Member* m = members_.data() + first;
  // Insertion sort of the positions: objects are small, and equal keys stay in writing order.
  order_.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    std::size_t j = i;
    for (; j > 0 && key_less(m[i].key, m[order_[j - 1]].key); --j) order_[j] = order_[j - 1];
    order_[j] = i;
  }
  const std::size_t start = m[0].begin;
  scratch_.assign(out_, start, size_ - start);
  char* at = out_.data() + start;
  for (std::size_t k = 0; k < n; ++k) {
    const std::size_t i = order_[k];
    if (k + 1 < n && m[order_[k + 1]].key == m[i].key) continue;
    const std::size_t begin = m[i].begin - start;
    const std::size_t end = (i + 1 < n ? m[i + 1].begin - 1 : size_) - start;  // without the comma
    if (at != out_.data() + start) *at++ = ',';
    std::memcpy(at, scratch_.data() + begin, end - begin);
    at += end - begin;
  }
  size_ = static_cast<std::size_t>(at - out_.data());  // shorter when a repeated key was dropped
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
