// The validator walk: one pass over schema and value that checks, coerces (input direction), and
// collects every error and warning with its path.

#include <ptc/validate.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <variant>

#include <ptc/coercion.hpp>

#include "text.hpp"

namespace ptc {
namespace {

using json = nlohmann::json;
using Segment = std::variant<std::string, std::size_t>;

std::string format_path(const std::vector<Segment>& path) {
  if (path.empty()) return "(root)";
  std::string out;
  for (const auto& seg : path) {
    if (const auto* key = std::get_if<std::string>(&seg)) {
      if (text::is_identifier(*key)) {
        if (!out.empty()) out += '.';
        out += *key;
      } else {
        out += '[' + text::quote(*key) + ']';
      }
    } else {
      out += '[' + std::to_string(std::get<std::size_t>(seg)) + ']';
    }
  }
  return out;
}

// Which kinds of JSON value a schema could accept at all (used to pick the alternative of an [:or ...]
// whose errors are worth showing).
bool same_family(const Schema& s, const json& v) {
  switch (s.kind()) {
    case Kind::String: case Kind::Keyword: return v.is_string();
    case Kind::Int: case Kind::Float: return v.is_number();
    case Kind::Bool: return v.is_boolean();
    case Kind::Nil: return v.is_null();
    case Kind::Any: return true;
    case Kind::Vector: case Kind::Sequential: case Kind::Set: case Kind::Tuple: return v.is_array();
    case Kind::Map: case Kind::MapOf: return v.is_object();
    case Kind::Enum: return !v.is_structured();
    case Kind::Maybe: return v.is_null() || same_family(s.item(), v);
    case Kind::And: return same_family(s.children().front(), v);
    case Kind::Or:
      for (const auto& c : s.children())
        if (same_family(c, v)) return true;
      return false;
    case Kind::Refinement: return true;
  }
  return false;
}

std::string type_name(const Schema& s) {
  switch (s.kind()) {
    case Kind::Maybe: return type_name(s.item()) + " or nil";
    case Kind::And: return type_name(s.children().front());
    case Kind::Enum: return "enum";
    case Kind::Or: {
      std::vector<std::string> names;
      for (const auto& c : s.children()) {
        auto n = type_name(c);
        if (std::find(names.begin(), names.end(), n) == names.end()) names.push_back(std::move(n));
      }
      std::string out;
      for (std::size_t i = 0; i < names.size(); ++i) {
        if (i) out += i + 1 == names.size() ? " or " : ", ";
        out += names[i];
      }
      return out;
    }
    default: return std::string(kind_name(s.kind()));
  }
}

std::string enum_list(const std::vector<json>& values) {
  std::string out = "[";
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (i) out += ", ";
    out += values[i].dump(-1, ' ', false, json::error_handler_t::replace);
  }
  return out + "]";
}

std::string short_value(const json& v) {
  if (v.is_array()) return "list";
  if (v.is_object()) return "map";
  if (v.is_null()) return "nil";
  if (v.is_string()) return text::quote(text::excerpt(v.get_ref<const std::string&>(), 64));
  std::string described = coercion::describe(v);  // "int 5" -> "5"
  return described.substr(described.find(' ') + 1);
}

class Walker {
 public:
  explicit Walker(ValidateOptions options, std::vector<Segment> path = {})
      : options_(options), path_(std::move(path)) {}

  bool coercing() const { return options_.direction == Direction::Input && options_.mode != Mode::Strict; }

  // Validates `v` against `s`; writes the (coerced) value to *out when building.
  bool walk(const Schema& s, const json& v, json* out) {
    switch (s.kind()) {
      case Kind::Any: return accept(v, out);
      case Kind::Nil: return v.is_null() ? accept(v, out) : fail(coercion::expected("nil", v), v, out);
      case Kind::String:
      case Kind::Keyword:
        return v.is_string() ? accept(v, out) : fail(coercion::expected(kind_name(s.kind()), v), v, out);
      case Kind::Int: return integer(v, out);
      case Kind::Float: return number(v, out);
      case Kind::Bool: return boolean(v, out);
      case Kind::Maybe: return v.is_null() ? accept(v, out) : walk(s.item(), v, out);
      case Kind::Vector: case Kind::Sequential: case Kind::Set: return list(s, v, out);
      case Kind::Tuple: return tuple(s, v, out);
      case Kind::Map: return map(s, v, out);
      case Kind::MapOf: return map_of(s, v, out);
      case Kind::Enum: return enumeration(s, v, out);
      case Kind::Or: return one_of(s, v, out);
      case Kind::And: return all_of(s, v, out);
      case Kind::Refinement: return refine(s, v, out);
    }
    return false;
  }

  std::vector<Issue> errors;
  std::vector<Issue> warnings;

 private:
  bool accept(const json& v, json* out) {
    if (out) *out = v;
    return true;
  }

  bool fail(std::string message, const json& v, json* out) {
    error(std::move(message));
    if (out) *out = v;
    return false;
  }

  void error(std::string message) { adopt(Issue{format_path(path_), std::move(message)}); }

  void warn(std::string message) { warnings.push_back({format_path(path_), std::move(message)}); }

  bool integer(const json& v, json* out) {
    if (v.is_number_integer() && !v.is_number_unsigned()) return accept(v, out);
    if (v.is_number_unsigned()) {
      if (v.get<std::uint64_t>() <= static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) {
        if (out) *out = static_cast<std::int64_t>(v.get<std::uint64_t>());
        return true;
      }
      return fail(coercion::expected("int in range " + coercion::int64_range(), v), v, out);
    }
    if (v.is_number_float()) {
      // nlohmann reads integers beyond 64 bits as floats: say the range rather than "got float".
      double d = v.get<double>();
      if (std::isfinite(d) && std::trunc(d) == d && (d <= -9223372036854775808.0 || d >= 9223372036854775808.0))
        return fail(coercion::expected("int in range " + coercion::int64_range(), v), v, out);
    }
    if (v.is_string() && coercing()) {
      const auto& s = v.get_ref<const std::string&>();
      auto r = coercion::int_from_string(s);
      if (r.status == coercion::Status::Ok) {
        warn(coercion::coerced(s, "int"));
        if (out) *out = r.value;
        return true;
      }
      if (r.status == coercion::Status::OutOfRange)
        return fail(coercion::expected("int in range " + coercion::int64_range(), v), v, out);
    }
    return fail(coercion::expected("int", v), v, out);
  }

  bool number(const json& v, json* out) {
    if (v.is_number_float()) {
      if (!std::isfinite(v.get<double>())) return fail(coercion::expected("finite float", v), v, out);
      return accept(v, out);
    }
    if (v.is_number()) {
      // int -> float widening is silent; in the input direction the value becomes a float.
      if (out) *out = coercing() ? json(v.get<double>()) : v;
      return true;
    }
    if (v.is_string() && coercing()) {
      const auto& s = v.get_ref<const std::string&>();
      if (auto d = coercion::float_from_string(s)) {
        warn(coercion::coerced(s, "float"));
        if (out) *out = *d;
        return true;
      }
    }
    return fail(coercion::expected("float", v), v, out);
  }

  bool boolean(const json& v, json* out) {
    if (v.is_boolean()) return accept(v, out);
    if (v.is_string() && coercing()) {
      const auto& s = v.get_ref<const std::string&>();
      if (auto b = coercion::bool_from_string(s)) {
        warn(coercion::coerced(s, "bool"));
        if (out) *out = *b;
        return true;
      }
    }
    return fail(coercion::expected("bool", v), v, out);
  }

  bool list(const Schema& s, const json& v, json* out) {
    if (!v.is_array()) return fail(coercion::expected(s.kind() == Kind::Set ? "set (a list of unique items)" : "list", v), v, out);
    bool ok = true;
    // A set compares its coerced items, so it builds them even when the caller did not ask.
    json local;
    json* items = out ? out : (s.kind() == Kind::Set ? &local : nullptr);
    if (items) *items = json::array();
    for (std::size_t i = 0; i < v.size(); ++i) {
      path_.emplace_back(i);
      json item;
      ok &= walk(s.item(), v[i], items ? &item : nullptr);
      if (items) items->push_back(std::move(item));
      path_.pop_back();
    }
    if (s.kind() == Kind::Set) ok &= unique(*items);
    return ok;
  }

  // Sorting keeps a million-item set at n log n; json's operator< treats 1 and 1.0 as equal, as
  // JSON Schema's uniqueItems does.
  bool unique(const json& items) {
    std::vector<std::size_t> order(items.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
    // Ties broken by index: a stable order without std::stable_sort (deprecated internals in clang).
    std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
      if (items[a] < items[b]) return true;
      if (items[b] < items[a]) return false;
      return a < b;
    });
    std::vector<std::pair<std::size_t, std::size_t>> dups;  // (index, index of its first equal)
    std::size_t group = 0;  // ties are in index order: a group's first element has the smallest index
    for (std::size_t k = 1; k < order.size(); ++k) {
      if (items[order[k - 1]] < items[order[k]]) {
        group = k;
      } else {
        dups.emplace_back(order[k], order[group]);
      }
    }
    std::sort(dups.begin(), dups.end());
    for (const auto& [i, j] : dups) {
      path_.emplace_back(i);
      error("duplicate item (same as [" + std::to_string(j) + "])");
      path_.pop_back();
    }
    return dups.empty();
  }

  bool tuple(const Schema& s, const json& v, json* out) {
    const auto& types = s.children();
    if (!v.is_array()) return fail(coercion::expected("list of " + std::to_string(types.size()) + " items", v), v, out);
    bool ok = true;
    if (v.size() != types.size()) {
      error("expected list of " + std::to_string(types.size()) + " items, got " + std::to_string(v.size()));
      ok = false;
    }
    if (out) *out = json::array();
    for (std::size_t i = 0; i < v.size(); ++i) {
      json item;
      if (i < types.size()) {
        path_.emplace_back(i);
        ok &= walk(types[i], v[i], out ? &item : nullptr);
        path_.pop_back();
      } else {
        item = v[i];
      }
      if (out) out->push_back(std::move(item));
    }
    return ok;
  }

  bool map(const Schema& s, const json& v, json* out) {
    if (!v.is_object()) return fail(coercion::expected("map", v), v, out);
    bool ok = true;
    if (out) *out = json::object();
    for (const auto& e : s.entries()) {
      path_.emplace_back(e.name);
      auto it = v.find(e.name);
      bool absent = it == v.end();
      if ((absent || it->is_null()) && e.default_value) {
        if (out) (*out)[e.name] = *e.default_value;
      } else if (absent) {
        if (!e.optional) {
          error("missing required field");
          ok = false;
        }
      } else if (it->is_null() && e.optional) {
        if (out) (*out)[e.name] = nullptr;
      } else {
        json item;
        ok &= walk(e.schema, *it, out ? &item : nullptr);
        if (out) (*out)[e.name] = std::move(item);
      }
      path_.pop_back();
    }
    for (auto it = v.begin(); it != v.end(); ++it) {
      if (s.find(it.key())) continue;
      if (options_.mode == Mode::Strict) {
        path_.emplace_back(it.key());
        error("unexpected field");
        path_.pop_back();
        ok = false;
      }
      if (out) (*out)[it.key()] = it.value();
    }
    return ok;
  }

  bool map_of(const Schema& s, const json& v, json* out) {
    if (!v.is_object()) return fail(coercion::expected("map", v), v, out);
    bool ok = true;
    if (out) *out = json::object();
    for (auto it = v.begin(); it != v.end(); ++it) {
      path_.emplace_back(it.key());
      Walker keys(options_, path_);
      keys.trial_ = true;
      if (!keys.walk(s.key(), json(it.key()), nullptr)) {
        error("invalid key: " + keys.errors.front().message);
        ok = false;
      }
      json item;
      ok &= walk(s.value(), it.value(), out ? &item : nullptr);
      if (out) (*out)[it.key()] = std::move(item);
      path_.pop_back();
    }
    return ok;
  }

  bool enumeration(const Schema& s, const json& v, json* out) {
    for (const auto& allowed : s.values())
      if (allowed == v && allowed.is_boolean() == v.is_boolean()) return accept(v, out);
    return fail("expected one of " + enum_list(s.values()) + ", got " + short_value(v), v, out);
  }

  // The first alternative that matches without coercion wins; otherwise the first that matches with
  // it. When none does, the errors of the closest alternative of the value's shape are reported.
  // Each alternative is walked once, so nested unions cost no more than their size.
  bool one_of(const Schema& s, const json& v, json* out) {
    ValidateOptions lenient{options_.direction, options_.mode == Mode::Strict ? Mode::Strict : Mode::Enabled};
    std::optional<Walker> coerced, closest;
    json coerced_value;
    for (const auto& alt : s.children()) {
      Walker trial(lenient, path_);
      trial.trial_ = true;
      json value;
      bool ok = trial.walk(alt, v, out ? &value : nullptr);
      if (ok && trial.warnings.empty()) {  // exact: no coercion needed
        if (out) *out = std::move(value);
        return true;
      }
      if (ok && !coerced) {
        coerced.emplace(std::move(trial));
        coerced_value = std::move(value);
      } else if (!ok && same_family(alt, v) && !alt.is_primitive() && alt.kind() != Kind::Enum &&
                 (!closest || trial.errors.size() < closest->errors.size())) {
        closest.emplace(std::move(trial));
      }
    }
    if (coerced) {
      for (auto& w : coerced->warnings) warnings.push_back(std::move(w));
      if (out) *out = std::move(coerced_value);
      return true;
    }
    if (closest) {
      for (auto& w : closest->warnings) warnings.push_back(std::move(w));
      for (auto& e : closest->errors) adopt(std::move(e));
      if (out) *out = v;
      return false;
    }
    return fail(coercion::expected(type_name(s), v), v, out);
  }

  // An error found by a trial walk, reported as this walker reports its own.
  void adopt(Issue issue) {
    if (options_.mode == Mode::WarnOnly && !trial_) {
      warnings.push_back(std::move(issue));
    } else {
      errors.push_back(std::move(issue));
    }
  }

  bool all_of(const Schema& s, const json& v, json* out) {
    json current;
    if (!walk(s.children().front(), v, &current)) {
      if (out) *out = v;
      return false;
    }
    bool ok = true;
    for (std::size_t i = 1; i < s.children().size(); ++i) {
      json next;
      ok &= walk(s.children()[i], current, &next);
      current = std::move(next);
    }
    if (out) *out = std::move(current);
    return ok;
  }

  bool refine(const Schema& s, const json& v, json* out) {
    if (s.op() == Refine::Re) {
      if (!v.is_string()) return fail(coercion::expected("string", v), v, out);
      if (s.matches(v.get_ref<const std::string&>())) return accept(v, out);
      return fail("expected string matching " + text::quote(s.bound().get_ref<const std::string&>()) + ", got " +
                      short_value(v), v, out);
    }
    if (!v.is_number()) return fail(coercion::expected("number", v), v, out);
    if (v.is_number_float() && std::isnan(v.get<double>())) return fail(coercion::expected("number", v), v, out);
    const json& b = s.bound();
    int cmp;  // sign of (v - b)
    if (v.is_number_integer() && b.is_number_integer() && !v.is_number_unsigned()) {
      auto x = v.get<std::int64_t>(), y = b.get<std::int64_t>();
      cmp = (x > y) - (x < y);
    } else if (v.is_number_unsigned() && b.is_number_integer()) {
      cmp = b.get<std::int64_t>() < 0 ? 1 : (v.get<std::uint64_t>() > b.get<std::uint64_t>()) - (v.get<std::uint64_t>() < b.get<std::uint64_t>());
    } else {
      double x = v.get<double>(), y = b.get<double>();
      cmp = (x > y) - (x < y);
    }
    static constexpr std::string_view ops[] = {">", "<", ">=", "<="};
    bool pass = s.op() == Refine::Gt ? cmp > 0 : s.op() == Refine::Lt ? cmp < 0 : s.op() == Refine::Ge ? cmp >= 0 : cmp <= 0;
    if (pass) return accept(v, out);
    return fail("expected value " + std::string(ops[static_cast<int>(s.op())]) + " " + text::number(b) + ", got " +
                    short_value(v), v, out);
  }

  ValidateOptions options_;
  bool trial_ = false;  // a trial run for [:or ...]: errors stay errors so the caller can judge
  std::vector<Segment> path_;
};

Validation run(const Schema& schema, const json& value, ValidateOptions options, bool build) {
  Validation r;
  if (options.mode == Mode::Disabled) {
    if (build) r.value = value;
    return r;
  }
  Walker w(options);
  json out;
  bool ok = w.walk(schema, value, build ? &out : nullptr);
  r.ok = ok && w.errors.empty();
  if (options.mode == Mode::WarnOnly) r.ok = true;
  r.errors = std::move(w.errors);
  r.warnings = std::move(w.warnings);
  if (build) r.value = std::move(out);
  return r;
}

}  // namespace

Validation validate(const Schema& schema, const json& value, ValidateOptions options) {
  return run(schema, value, options, false);
}

Validation validate_and_coerce(const Schema& schema, const json& value, ValidateOptions options) {
  return run(schema, value, options, true);
}

std::string Validation::report() const {
  std::string out;
  auto section = [&](std::string_view title, const std::vector<Issue>& issues) {
    if (issues.empty()) return;
    if (!out.empty()) out += '\n';
    out += title;
    out += '\n';
    for (const auto& i : issues) out += "- " + i.path + ": " + i.message + "\n";
  };
  section("Tool validation errors:", errors);
  section("Tool validation warnings:", warnings);
  return out;
}

std::string_view mode_name(Mode m) {
  switch (m) {
    case Mode::Enabled: return "enabled";
    case Mode::WarnOnly: return "warn_only";
    case Mode::Strict: return "strict";
    case Mode::Disabled: return "disabled";
  }
  return "enabled";
}

std::optional<Mode> mode_from_name(std::string_view name) {
  for (Mode m : {Mode::Enabled, Mode::WarnOnly, Mode::Strict, Mode::Disabled})
    if (mode_name(m) == name) return m;
  return std::nullopt;
}

}  // namespace ptc
