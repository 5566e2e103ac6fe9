// The encoders' sinks. TextWriter's bytes must equal nlohmann::json::dump() of the same value, so it
// formats floats with nlohmann's own routine, escapes strings as nlohmann does, and sorts object keys.

#include <charconv>
#include <cmath>
#include <cstring>

#include <ptc/codec/writer.hpp>

#include "text.hpp"

namespace ptc::codec {

namespace {

std::string dump(const nlohmann::json& j) { return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace); }

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
  text::append_json_string(out_, s);
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
  text::append_json_string(out_, k);
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
