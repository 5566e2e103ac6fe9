#include <ptc/coercion.hpp>

#include <charconv>
#include <cmath>
#include <limits>

#include <nlohmann/json.hpp>

#include "text.hpp"

namespace ptc::coercion {

IntValue int_from_string(std::string_view s) {
  IntValue out;
  std::string_view digits = s;
  if (!digits.empty() && digits[0] == '-') digits.remove_prefix(1);
  if (digits.empty()) return out;
  for (char c : digits)
    if (c < '0' || c > '9') return out;
  if (digits.size() > 1 && digits[0] == '0') return out;  // JSON's integer grammar: no leading zeros
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), out.value);
  if (ec == std::errc::result_out_of_range) {
    out.status = Status::OutOfRange;
  } else if (ec == std::errc() && p == s.data() + s.size()) {
    out.status = Status::Ok;
  }
  return out;
}

std::optional<double> float_from_string(std::string_view s) {
  // The JSON number grammar: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?  ("01" and ".5" are not numbers)
  std::size_t i = 0;
  const std::size_t n = s.size();
  auto digit = [&](std::size_t k) { return k < n && s[k] >= '0' && s[k] <= '9'; };
  if (i < n && s[i] == '-') ++i;
  if (!digit(i)) return std::nullopt;
  if (s[i] == '0') {
    ++i;
  } else {
    while (digit(i)) ++i;
  }
  if (i < n && s[i] == '.') {
    ++i;
    if (!digit(i)) return std::nullopt;
    while (digit(i)) ++i;
  }
  if (i < n && (s[i] == 'e' || s[i] == 'E')) {
    ++i;
    if (i < n && (s[i] == '+' || s[i] == '-')) ++i;
    if (!digit(i)) return std::nullopt;
    while (digit(i)) ++i;
  }
  if (i != n) return std::nullopt;
  double d = 0;
  auto [p, ec] = std::from_chars(s.data(), s.data() + n, d);
  if (ec != std::errc() || p != s.data() + n || !std::isfinite(d)) return std::nullopt;
  return d;
}

std::optional<bool> bool_from_string(std::string_view s) {
  if (s == "true") return true;
  if (s == "false") return false;
  return std::nullopt;
}

bool is_whole(double d) {
  return std::isfinite(d) && std::trunc(d) == d && d >= -9223372036854775808.0 && d < 9223372036854775808.0;
}

std::string int64_range() { return "-9223372036854775808..9223372036854775807"; }

std::string describe_string(std::string_view s) {
  constexpr std::size_t kMax = 64;
  if (s.size() <= kMax) return "string " + text::quote(s);
  return "string " + text::quote(text::excerpt(s, kMax)) + " (" + std::to_string(s.size()) + " bytes)";
}

std::string describe(const nlohmann::json& v) {
  using V = nlohmann::json::value_t;
  switch (v.type()) {
    case V::null: return "nil";
    case V::boolean: return v.get<bool>() ? "bool true" : "bool false";
    case V::number_integer: return "int " + std::to_string(v.get<std::int64_t>());
    case V::number_unsigned: return "int " + std::to_string(v.get<std::uint64_t>());
    case V::number_float: {
      double d = v.get<double>();
      if (std::isnan(d)) return "float NaN";
      if (std::isinf(d)) return d > 0 ? "float Infinity" : "float -Infinity";
      return "float " + v.dump();
    }
    case V::string: return describe_string(v.get_ref<const std::string&>());
    case V::array: return "list";
    case V::object: return "map";
    case V::binary: return "binary";
    case V::discarded: break;
  }
  return "nothing";
}

std::string expected(std::string_view what, const nlohmann::json& value) {
  return "expected " + std::string(what) + ", got " + describe(value);
}

std::string coerced(std::string_view original, std::string_view target) {
  return "coerced string " + text::quote(text::excerpt(original, 64)) + " to " + std::string(target);
}

}  // namespace ptc::coercion
