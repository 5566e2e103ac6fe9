#pragma once
// Sinks for generated encoders: TextWriter writes JSON text directly (the fast path for results), and
// JsonWriter builds nlohmann::json (for Validation::value and ToolResult<json>). Both produce the same
// JSON, and TextWriter's bytes equal nlohmann::json::dump() of it (with invalid UTF-8 replaced): object
// keys come out sorted, as nlohmann's std::map holds them, and a repeated key keeps its last value.

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace ptc::codec {

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
  void end_object();
  void begin_array();
  void end_array();

  /// Records that a value its schema does not describe was written (an enum value that is no
  /// enumerator, written as its integer): the text is no longer vouched for by the C++ type.
  void mark_off_schema() { off_schema_ = true; }
  bool off_schema() const { return off_schema_; }

  const std::string& str() const { return out_; }
  std::string take() { return std::move(out_); }
  void reserve(std::size_t n) { out_.reserve(n); }

 private:
  void separate();
  void sort_members(std::size_t first);

  struct Frame {  // an open object or list
    bool empty = true;
    std::size_t members = 0;  // an object's first entry in members_
  };
  struct Member {
    std::string_view key;
    std::size_t begin = 0;  // offset of the key's opening quote in out_
  };
  std::string out_;
  std::vector<Frame> frames_;
  std::vector<Member> members_;
  std::vector<std::size_t> order_;
  std::string scratch_;
  bool after_key_ = false;
  bool off_schema_ = false;
};

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
