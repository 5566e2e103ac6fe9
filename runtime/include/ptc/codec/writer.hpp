#pragma once
// Sinks for generated encoders: TextWriter writes JSON text directly (the fast path for results), and
// JsonWriter builds nlohmann::json (for Validation::value and ToolResult<json>). Both produce the same
// JSON, and TextWriter's bytes equal nlohmann::json::dump() of it.

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
  void number(double d);  ///< non-finite numbers are written as null, as nlohmann::json::dump does
  void string(std::string_view s);  ///< escaped like nlohmann::json::dump (invalid UTF-8 replaced)
  void json(const nlohmann::json& j);
  void begin_object();
  void key(std::string_view k);
  void end_object();
  void begin_array();
  void end_array();

  const std::string& str() const { return out_; }
  std::string take() { return std::move(out_); }
  void reserve(std::size_t n) { out_.reserve(n); }

 private:
  void separate();
  std::string out_;
  std::vector<bool> first_;  // per open container: nothing written yet
  bool after_key_ = false;
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

  nlohmann::json take() { return std::move(root_); }

 private:
  void put(nlohmann::json v);
  nlohmann::json root_;
  std::vector<nlohmann::json*> stack_;
  std::string key_;
};

}  // namespace ptc::codec
