#pragma once
// Sinks for generated encoders: TextWriter writes JSON text directly (the fast path for results), and
// JsonWriter builds nlohmann::json (for Validation::value and ToolResult<json>). Both produce the same
// JSON, and TextWriter's bytes equal nlohmann::json::dump() of it (with invalid UTF-8 replaced): object
// keys come out sorted, as nlohmann's std::map holds them, and a repeated key keeps its last value.

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace ptc::codec {

/// An object key known when the code was written: `name` as it is, and `json`, the same name as JSON
/// text with its quotes and colon (`"name":`), so that writing it is one copy. Generated encoders write
/// a struct's fields through these, in ascending key order.
struct KnownKey {
  std::string_view name;
  std::string_view json;
};

class TextWriter {
 public:
  void null();
  void boolean(bool b);
  void integer(std::int64_t i);
  void unsigned_integer(std::uint64_t u);
  void number(double d);            ///< non-finite numbers are written as null, as nlohmann::json::dump does
  void string(std::string_view s);  ///< escaped like nlohmann::json::dump (invalid UTF-8 replaced)
  void json(const nlohmann::json& j);
  void begin_object();
  /// `k` must stay alive until its object ends (field names are literals, map keys live in the map).
  void key(std::string_view k);
  /// A key of an object whose keys all come this way, each greater than the one before: the object is
  /// then written as it comes, without sorting.
  void key(KnownKey k);
  void end_object();
  void begin_array();
  void end_array();

  /// Records that a value its schema does not describe was written (an enum value that is no
  /// enumerator, written as its integer): the text is no longer vouched for by the C++ type.
  void mark_off_schema() { off_schema_ = true; }
  bool off_schema() const { return off_schema_; }

  /// The text written so far.
  std::string_view str() const { return {out_.data(), size_}; }
  std::size_t size() const { return size_; }
  std::string take();
  void reserve(std::size_t n);

 private:
  // out_ is the buffer, and its size() its capacity: the text is its first size_ bytes. Writing then
  // costs a bounds check and a copy, with none of std::string's bookkeeping per append.
  char* room(std::size_t n) {
    if (out_.size() - size_ < n) grow(n);
    return out_.data() + size_;
  }
  void put(char c) { *room(1) = c, ++size_; }
  void put(std::string_view s) {
    std::memcpy(room(s.size()), s.data(), s.size());
    size_ += s.size();
  }
  void grow(std::size_t n);
  void put_escaped(std::string_view s);  ///< a JSON string, quoted and escaped
  void separate();
  void sort_members(std::size_t first);
  void rewrite_in_order(std::size_t first);

  struct Frame {  // an open object or list
    bool empty = true;
    std::size_t members = 0;  // an object's first entry in members_
  };
  struct Member {
    std::string_view key;
    std::size_t begin = 0;  // offset of the key's opening quote in out_
  };
  std::string out_;
  std::size_t size_ = 0;
  std::vector<Frame> frames_;
  std::vector<Member> members_;
  std::vector<std::size_t> order_;
  std::string scratch_;
  bool after_key_ = false;
  bool off_schema_ = false;
};

// The calls generated encoders make for every value are defined here, and always inlined, so that they
// compile into the encoder as a few loads and stores (a KnownKey's copy has a constant size there).

[[gnu::always_inline]] inline void TextWriter::separate() {
  if (after_key_) {
    after_key_ = false;
    return;
  }
  if (frames_.empty()) return;
  Frame& f = frames_.back();
  if (!f.empty) put(',');
  f.empty = false;
}

[[gnu::always_inline]] inline void TextWriter::key(KnownKey k) {
  Frame& f = frames_.back();
  char* at = room(k.json.size() + 1);
  if (!f.empty) *at++ = ',';
  f.empty = false;
  std::memcpy(at, k.json.data(), k.json.size());
  size_ = static_cast<std::size_t>(at + k.json.size() - out_.data());
  after_key_ = true;
}

[[gnu::always_inline]] inline void TextWriter::begin_object() {
  separate();
  put('{');
  frames_.push_back({true, members_.size()});
}

[[gnu::always_inline]] inline void TextWriter::end_object() {
  const std::size_t first = frames_.back().members;
  if (members_.size() > first) sort_members(first);
  frames_.pop_back();
  put('}');
}

[[gnu::always_inline]] inline void TextWriter::begin_array() {
  separate();
  put('[');
  frames_.push_back({true, 0});
}

[[gnu::always_inline]] inline void TextWriter::end_array() {
  frames_.pop_back();
  put(']');
}

class JsonWriter {
 public:
  void null();
  void boolean(bool b);
  void integer(std::int64_t i);
  void unsigned_integer(std::uint64_t u);
  void number(double d);
  void string(std::string_view s);
  void json(const nlohmann::json& j);
  void begin_object();
  void key(std::string_view k);
  void key(KnownKey k) { key(k.name); }
  void end_object();
  void begin_array();
  void end_array();

  void mark_off_schema() {}  ///< the JSON is checked against the schema anyway

  nlohmann::json take() { return std::move(root_); }

 private:
  nlohmann::json& put(nlohmann::json v);
  nlohmann::json root_;
  std::vector<nlohmann::json*> stack_;
  std::string key_;
};

}  // namespace ptc::codec
