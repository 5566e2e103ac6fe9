#include <ptc/coercion.hpp>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>

#include <nlohmann/json.hpp>

#include <ptc/json_input.hpp>
#include <ptc/json_text.hpp>

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

std::string int64_range() {
  return int_range(std::numeric_limits<std::int64_t>::min(), std::numeric_limits<std::int64_t>::max());
}

std::string int_range(std::int64_t min, std::uint64_t max) { return std::to_string(min) + ".." + std::to_string(max); }

std::string describe_string(std::string_view s) {
  constexpr std::size_t kMax = 64;
  if (s.size() <= kMax) return "string " + text::quote(s);
  return "string " + text::quote(text::excerpt(s, kMax)) + " (" + std::to_string(s.size()) + " bytes)";
}

std::string_view type_name(const nlohmann::json& v) {
  using V = nlohmann::json::value_t;
  switch (v.type()) {
    case V::null: return "nil";
    case V::boolean: return "bool";
    case V::number_integer:
    case V::number_unsigned: return "int";
    case V::number_float: return "float";
    case V::string: return "string";
    case V::array: return "list";
    case V::object: return "map";
    case V::binary: return "binary";
    case V::discarded: break;
  }
  return "nothing";
}

namespace {

// A boolean or number as messages show it: "true", "5", "4.5", "NaN", "-Infinity".
std::string scalar_text(const nlohmann::json& v) {
  if (v.is_boolean()) return v.get<bool>() ? "true" : "false";
  if (v.is_number_unsigned()) return std::to_string(v.get<std::uint64_t>());
  if (v.is_number_integer()) return std::to_string(v.get<std::int64_t>());
  const double d = v.get<double>();
  if (std::isnan(d)) return "NaN";
  if (std::isinf(d)) return d > 0 ? "Infinity" : "-Infinity";
  return v.dump();
}

}  // namespace

std::string describe(const nlohmann::json& v) {
  if (v.is_string()) return describe_string(v.get_ref<const std::string&>());
  if (v.is_boolean() || v.is_number()) return std::string(type_name(v)) + " " + scalar_text(v);
  return std::string(type_name(v));
}

std::string short_value(const nlohmann::json& v) {
  if (v.is_string()) return text::quote(text::excerpt(v.get_ref<const std::string&>(), 64));
  if (v.is_boolean() || v.is_number()) return scalar_text(v);
  return std::string(type_name(v));
}

std::string expected(std::string_view what, const nlohmann::json& value) {
  return "expected " + std::string(what) + ", got " + describe(value);
}

std::optional<nlohmann::json> container_from_text(std::string_view text, JsonKind want, std::size_t depth_left) {
  // Cheap refusal first: most strings given where a list or map belongs are not JSON text at all.
  const auto start = text.find_first_not_of(" \t\n\r");
  if (start == std::string_view::npos || text[start] != (want == JsonKind::List ? '[' : '{')) return std::nullopt;
  if (depth_left == 0) return std::nullopt;
  auto parsed = parse_json(text, depth_left);
  if (!parsed) return std::nullopt;
  return std::move(parsed).value();
}

std::string coerced(std::string_view original, std::string_view target) {
  return "coerced string " + text::quote(text::excerpt(original, 64)) + " to " + std::string(target);
}

namespace {

std::string out_of_int64(const nlohmann::json& v) { return expected("int in range " + int64_range(), v); }

}  // namespace

Outcome<std::int64_t> to_int(const nlohmann::json& v, bool coercing) {
  if (v.is_number_integer() && !v.is_number_unsigned()) return {Verdict::Exact, v.get<std::int64_t>(), {}};
  if (v.is_number_unsigned()) {
    if (v.get<std::uint64_t>() <= static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()))
      return {Verdict::Exact, static_cast<std::int64_t>(v.get<std::uint64_t>()), {}};
    return {Verdict::Failed, 0, out_of_int64(v), true};
  }
  if (v.is_number_float()) {
    // An integral float such as 1e19 beyond int64: say the range rather than a bare "expected int".
    // Only an integral float within int64 (42.0) is a plain type error: an int64 holds its value.
    double d = v.get<double>();
    if (std::isfinite(d) && std::trunc(d) == d && (d <= -9223372036854775808.0 || d >= 9223372036854775808.0))
      return {Verdict::Failed, 0, out_of_int64(v), true};
    return {Verdict::Failed, 0, expected("int", v), !is_whole(d)};
  }
  if (v.is_string() && coercing) {
    const auto& s = v.get_ref<const std::string&>();
    auto r = int_from_string(s);
    if (r.status == Status::Ok) return {Verdict::Coerced, r.value, coerced(s, "int")};
    if (r.status == Status::OutOfRange) return {Verdict::Failed, 0, out_of_int64(v), true};
  }
  return {Verdict::Failed, 0, expected("int", v)};
}

Outcome<double> to_float(const nlohmann::json& v, bool coercing) {
  if (v.is_number_float()) {
    if (!std::isfinite(v.get<double>())) return {Verdict::Failed, 0, expected("finite float", v), true};
    return {Verdict::Exact, v.get<double>(), {}};
  }
  if (v.is_number()) return {Verdict::Exact, v.get<double>(), {}};  // int -> float widening is silent
  if (v.is_string() && coercing) {
    const auto& s = v.get_ref<const std::string&>();
    if (auto d = float_from_string(s)) return {Verdict::Coerced, *d, coerced(s, "float")};
  }
  return {Verdict::Failed, 0, expected("float", v)};
}

Outcome<bool> to_bool(const nlohmann::json& v, bool coercing) {
  if (v.is_boolean()) return {Verdict::Exact, v.get<bool>(), {}};
  if (v.is_string() && coercing) {
    const auto& s = v.get_ref<const std::string&>();
    if (auto b = bool_from_string(s)) return {Verdict::Coerced, *b, coerced(s, "bool")};
  }
  return {Verdict::Failed, false, expected("bool", v)};
}

std::string not_one_of(const std::vector<nlohmann::json>& values, const nlohmann::json& got) {
  std::string list = "[";
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (i) list += ", ";
    list += compact_text(values[i]);
  }
  return "expected one of " + list + "], got " + short_value(got);
}

std::optional<std::string> refinement_error(const Schema& s, const nlohmann::json& v) {
  if (s.op() == Refine::Re) {
    if (!v.is_string()) return expected("string", v);
    if (s.matches(v.get_ref<const std::string&>())) return std::nullopt;
    return "expected string matching " + text::quote(s.bound().get_ref<const std::string&>()) + ", got " +
           short_value(v);
  }
  if (!v.is_number()) return expected("number", v);
  if (v.is_number_float() && std::isnan(v.get<double>())) return expected("number", v);
  const nlohmann::json& b = s.bound();
  int cmp;  // sign of (v - b)
  if (v.is_number_integer() && b.is_number_integer() && !v.is_number_unsigned()) {
    auto x = v.get<std::int64_t>(), y = b.get<std::int64_t>();
    cmp = (x > y) - (x < y);
  } else if (v.is_number_unsigned() && b.is_number_integer()) {
    auto x = v.get<std::uint64_t>(), y = b.get<std::uint64_t>();
    cmp = b.get<std::int64_t>() < 0 ? 1 : (x > y) - (x < y);
  } else {
    double x = v.get<double>(), y = b.get<double>();
    cmp = (x > y) - (x < y);
  }
  bool pass = s.op() == Refine::Gt   ? cmp > 0
              : s.op() == Refine::Lt ? cmp < 0
              : s.op() == Refine::Ge ? cmp >= 0
                                     : cmp <= 0;
  if (pass) return std::nullopt;
  return "expected value " + std::string(refine_symbol(s.op())) + " " + text::number(b) + ", got " + short_value(v);
}

std::string list_of(std::size_t n) { return "list of " + std::to_string(n) + " items"; }

std::string wrong_length(std::size_t expected_items, std::size_t got) {
  return "expected " + list_of(expected_items) + ", got " + std::to_string(got);
}

std::string duplicate_key(std::string_view key, std::string_view path) {
  return "invalid JSON: duplicate key " + text::quote(key) + " at " + std::string(path.empty() ? kRootPath : path);
}

std::string int_beyond_64_bits(std::string_view token, std::string_view path) {
  return "invalid JSON: int " + std::string(text::excerpt(token, 64)) + " is beyond 64 bits at " +
         std::string(path.empty() ? kRootPath : path);
}

bool is_int_beyond_64_bits(std::string_view token) {
  if (token.empty() || token.find_first_of(".eE") != std::string_view::npos) return false;
  const char* end = token.data() + token.size();
  std::int64_t i = 0;
  std::uint64_t u = 0;
  if (token.front() == '-') return std::from_chars(token.data(), end, i).ec == std::errc::result_out_of_range;
  return std::from_chars(token.data(), end, u).ec == std::errc::result_out_of_range;
}

std::string duplicate_item(std::size_t first) { return "duplicate item (same as [" + std::to_string(first) + "])"; }

// Sorting keeps a million-item set at n log n; json's operator< treats 1 and 1.0 as equal, as JSON
// Schema's uniqueItems does.
std::vector<std::pair<std::size_t, std::size_t>> duplicates(const nlohmann::json& items) {
  std::vector<std::size_t> order(items.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  // Ties broken by index: a stable order without std::stable_sort (deprecated internals in clang).
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    if (items[a] < items[b]) return true;
    if (items[b] < items[a]) return false;
    return a < b;
  });
  std::vector<std::pair<std::size_t, std::size_t>> dups;
  std::size_t group = 0;  // ties are in index order: a group's first element has the smallest index
  for (std::size_t k = 1; k < order.size(); ++k) {
    if (items[order[k - 1]] < items[order[k]]) {
      group = k;
    } else {
      dups.emplace_back(order[k], order[group]);
    }
  }
  std::sort(dups.begin(), dups.end());
  return dups;
}

JsonKind json_kind(const nlohmann::json& v) {
  if (v.is_null()) return JsonKind::Null;
  if (v.is_boolean()) return JsonKind::Bool;
  if (v.is_number()) return JsonKind::Number;
  if (v.is_string()) return JsonKind::String;
  if (v.is_object()) return JsonKind::Map;
  return JsonKind::List;  // arrays (and binary, which JSON text never holds)
}

unsigned family(const Schema& s) {
  switch (s.kind()) {
    case Kind::String:
    case Kind::Keyword: return kind_bit(JsonKind::String);
    case Kind::Int:
    case Kind::Float: return kind_bit(JsonKind::Number);
    case Kind::Bool: return kind_bit(JsonKind::Bool);
    case Kind::Nil: return kind_bit(JsonKind::Null);
    case Kind::Any:
    case Kind::Refinement: return kAllKinds;
    case Kind::Vector:
    case Kind::Sequential:
    case Kind::Set:
    case Kind::Tuple: return kind_bit(JsonKind::List);
    case Kind::Map:
    case Kind::MapOf: return kind_bit(JsonKind::Map);
    case Kind::Enum: return kScalarKinds;
    case Kind::Maybe: return kind_bit(JsonKind::Null) | family(s.item());
    case Kind::And: return family(s.children().front());
    case Kind::Or: {
      unsigned kinds = 0;
      for (const auto& c : s.children()) kinds |= family(c);
      return kinds;
    }
  }
  return 0;
}

bool detailed(const Schema& s) { return !s.is_primitive() && s.kind() != Kind::Enum; }

std::string union_name(const std::vector<std::string>& all) {
  std::vector<std::string_view> names;
  for (const auto& n : all)
    if (std::find(names.begin(), names.end(), n) == names.end()) names.push_back(n);
  std::string out;
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (i) out += i + 1 == names.size() ? " or " : ", ";
    out += names[i];
  }
  return out;
}

UnionChoice::Take UnionChoice::offer(bool ok, bool was_coerced, bool detailed_in_family, std::size_t errors) {
  if (ok && !was_coerced) return Take::Exact;
  if (ok) {
    if (have_coerced_) return Take::Nothing;
    have_coerced_ = true;
    return Take::Coerced;
  }
  if (!detailed_in_family || (have_closest_ && errors >= closest_errors_)) return Take::Nothing;
  have_closest_ = true;
  closest_errors_ = errors;
  return Take::Closest;
}

void append_key(std::string& path, std::string_view key) {
  if (text::is_identifier(key)) {
    if (!path.empty()) path += '.';
    path += key;
  } else {
    path += '[';
    path += text::quote(key);
    path += ']';
  }
}

std::string key_path(std::string_view parent, std::string_view key) {
  std::string path(parent);
  append_key(path, key);
  return path;
}

std::string index_path(std::string_view parent, std::size_t index) {
  std::string path(parent);
  append_index(path, index);
  return path;
}

void append_index(std::string& path, std::size_t index) {
  path += '[';
  path += std::to_string(index);
  path += ']';
}

namespace {

std::string folded(std::string_view name) {
  std::string out;
  for (char c : name) {
    if (c == '_' || c == '-') continue;
    out += (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
  }
  return out;
}

}  // namespace

std::string ignored_field(std::string_view key, const std::vector<std::string_view>& declared) {
  std::string out = std::string(kUnexpectedField) + " (ignored)";
  constexpr std::size_t kLongest = 64;  // past this, no name is "close"; keeps the cost bounded
  if (key.size() > kLongest || declared.empty()) return out;
  const std::string key_folded = folded(key);
  std::string_view best;
  std::size_t best_distance = 3;
  bool tie = false;
  for (auto name : declared) {
    if (name.size() > kLongest) continue;
    const std::size_t limit = name.size() <= 4 ? 1 : 2;
    std::size_t d = folded(name) == key_folded ? 0 : text::edit_distance(key, name, limit);
    if (d > limit) continue;
    if (d < best_distance) {
      best = name;
      best_distance = d;
      tie = false;
    } else if (d == best_distance) {
      tie = true;
    }
  }
  if (best.empty() || tie) return out;
  return out + "; did you mean '" + std::string(best) + "'?";
}

}  // namespace ptc::coercion
