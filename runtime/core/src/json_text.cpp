// compact_text: nlohmann's compact dump, byte for byte, at a fraction of its cost. nlohmann's
// serializer decodes every byte of every string through a UTF-8 automaton; here strings go through
// text::append_json_string, which copies them in runs, eight bytes at a time where it can. What is rare
// (a string with malformed UTF-8, a float, a binary value) is left to nlohmann, so its output stays the
// reference; tests/core/json_text_test.cpp and fuzz_json_text compare the two.
#include <ptc/json_text.hpp>

#include <charconv>
#include <cstdint>
#include <string_view>

#include "text.hpp"

namespace ptc {
namespace {

template <class Integer>
void append_integer(Integer v, std::string& out) {
  char buffer[24];
  const auto end = std::to_chars(buffer, buffer + sizeof buffer, v).ptr;
  out.append(buffer, static_cast<std::size_t>(end - buffer));
}

template <class Json>
void append_value(const Json& j, std::string& out) {
  using Type = typename Json::value_t;
  switch (j.type()) {
    case Type::null: out += "null"; return;
    case Type::boolean: out += j.template get<bool>() ? "true" : "false"; return;
    case Type::number_integer: append_integer(j.template get<std::int64_t>(), out); return;
    case Type::number_unsigned: append_integer(j.template get<std::uint64_t>(), out); return;
    case Type::string: text::append_json_string(out, j.template get_ref<const std::string&>()); return;
    case Type::array: {
      out += '[';
      bool first = true;
      for (const auto& item : j) {
        if (!first) out += ',';
        first = false;
        append_value(item, out);
      }
      out += ']';
      return;
    }
    case Type::object: {
      out += '{';
      bool first = true;
      for (auto it = j.begin(); it != j.end(); ++it) {
        if (!first) out += ',';
        first = false;
        text::append_json_string(out, it.key());
        out += ':';
        append_value(it.value(), out);
      }
      out += '}';
      return;
    }
    default:  // floats (nlohmann's shortest form), binary values, discarded ones
      out += j.dump(-1, ' ', false, Json::error_handler_t::replace);
  }
}

}  // namespace

void append_compact_text(const nlohmann::json& j, std::string& out) { append_value(j, out); }
void append_compact_text(const nlohmann::ordered_json& j, std::string& out) { append_value(j, out); }

std::string compact_text(const nlohmann::json& j) {
  std::string out;
  append_value(j, out);
  return out;
}

std::string compact_text(const nlohmann::ordered_json& j) {
  std::string out;
  append_value(j, out);
  return out;
}

}  // namespace ptc
