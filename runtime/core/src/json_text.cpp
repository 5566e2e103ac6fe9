// compact_text: nlohmann's compact dump, byte for byte, at a fraction of its cost. nlohmann's
// serializer decodes every byte of every string through a UTF-8 automaton; here a string is copied in
// runs between the characters JSON escapes, once its UTF-8 is known to be well formed. What is rare
// (a string with malformed UTF-8, a float, a binary value) is left to nlohmann, so its output stays
// the reference; tests/core/json_text_test.cpp and fuzz_json_text compare the two.
#include <ptc/json_text.hpp>

#include <charconv>
#include <cstdint>
#include <string_view>

namespace ptc {
namespace {

// Well-formed UTF-8 as Unicode defines it (table 3-7): no overlong forms, no surrogates, nothing past
// U+10FFFF. The same set nlohmann's automaton accepts.
bool well_formed_utf8(std::string_view s) {
  const auto* p = reinterpret_cast<const unsigned char*>(s.data());
  const auto* end = p + s.size();
  while (p < end) {
    const unsigned char b = *p;
    if (b < 0x80) {
      ++p;
      continue;
    }
    std::size_t n;
    unsigned char lo = 0x80, hi = 0xBF;  // the range of the second byte
    if (b >= 0xC2 && b <= 0xDF) {
      n = 2;
    } else if (b >= 0xE0 && b <= 0xEF) {
      n = 3;
      if (b == 0xE0) lo = 0xA0;
      if (b == 0xED) hi = 0x9F;
    } else if (b >= 0xF0 && b <= 0xF4) {
      n = 4;
      if (b == 0xF0) lo = 0x90;
      if (b == 0xF4) hi = 0x8F;
    } else {
      return false;
    }
    if (static_cast<std::size_t>(end - p) < n || p[1] < lo || p[1] > hi) return false;
    for (std::size_t k = 2; k < n; ++k)
      if (p[k] < 0x80 || p[k] > 0xBF) return false;
    p += n;
  }
  return true;
}

// What JSON escapes: the quote, the backslash and the control characters.
constexpr bool needs_escape(unsigned char c) { return c < 0x20 || c == '"' || c == '\\'; }

void append_string(const std::string& s, std::string& out) {
  if (!well_formed_utf8(s)) {
    out += nlohmann::json(s).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    return;
  }
  out += '"';
  std::size_t run = 0;  // start of the characters not yet copied
  for (std::size_t i = 0; i < s.size(); ++i) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (!needs_escape(c)) continue;
    out.append(s, run, i - run);
    run = i + 1;
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\b': out += "\\b"; break;
      case '\t': out += "\\t"; break;
      case '\n': out += "\\n"; break;
      case '\f': out += "\\f"; break;
      case '\r': out += "\\r"; break;
      default: {
        constexpr char kHex[] = "0123456789abcdef";
        const char escaped[] = {'\\', 'u', '0', '0', kHex[c >> 4], kHex[c & 0xF]};
        out.append(escaped, sizeof escaped);
      }
    }
  }
  out.append(s, run, s.size() - run);
  out += '"';
}

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
    case Type::string: append_string(j.template get_ref<const std::string&>(), out); return;
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
        append_string(it.key(), out);
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
