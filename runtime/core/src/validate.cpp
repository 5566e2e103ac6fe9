// The validator walk: one pass over schema and value that checks, coerces (input direction), and
// collects every error and warning with its path.

#include <ptc/validate.hpp>

#include <algorithm>
#include <optional>
#include <utility>
#include <variant>

#include <ptc/coercion.hpp>
#include <ptc/json_input.hpp>
#include <ptc/limits.hpp>

namespace ptc {
namespace {

using json = nlohmann::json;
using Segment = std::variant<std::string, std::size_t>;

std::string format_path(const std::vector<Segment>& path) {
  if (path.empty()) return std::string(coercion::kRootPath);
  std::string out;
  for (const auto& seg : path) {
    if (const auto* key = std::get_if<std::string>(&seg)) {
      coercion::append_key(out, *key);
    } else {
      coercion::append_index(out, std::get<std::size_t>(seg));
    }
  }
  return out;
}

std::string type_name(const Schema& s) {
  switch (s.kind()) {
    case Kind::Maybe: return type_name(s.item()) + " or nil";
    case Kind::And: return type_name(s.children().front());
    case Kind::Enum: return "enum";
    case Kind::Or: {
      std::vector<std::string> names;
      for (const auto& c : s.children()) names.push_back(type_name(c));
      return coercion::union_name(names);
    }
    default: return std::string(kind_name(s.kind()));
  }
}

class Walker {
 public:
  explicit Walker(ValidateOptions options, std::vector<Segment> path = {})
      : options_(options), path_(std::move(path)) {}

  bool coercing() const { return options_.direction == Direction::Input && options_.mode != Mode::Strict; }

  // Validates `v` against `s`; writes the (coerced) value to *out when building.
  bool walk(const Schema& s, const json& v, json* out) {
    if (v.is_string() && coercing() && !path_.empty()) {
      if (auto parsed = from_text(s, v.get_ref<const std::string&>())) return walk(s, *parsed, out);
    }
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
      case Kind::Vector:
      case Kind::Sequential:
      case Kind::Set: return list(s, v, out);
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

  // The issues found, capped (limits::kStoredIssues): each list stores its first issues and counts the
  // rest. Errors are capped per kind, refusals and others apart, so that a union that adopts a trial's
  // errors in WarnOnly (refusals as errors, the others as warnings) still has the first of each.
  std::vector<Issue> errors;
  std::vector<bool> refusals;  // one per error: a refusal (a union adopts its closest's with their flags)
  std::vector<Issue> warnings;
  std::size_t stored_refusals = 0;  // refusals among `errors`
  std::size_t more_plain = 0;       // errors not stored, refusals apart
  std::size_t more_refused = 0;     // refusals not stored
  std::size_t more_warnings = 0;    // warnings not stored

  std::size_t error_count() const { return errors.size() + more_plain + more_refused; }
  bool any_refusal() const { return stored_refusals + more_refused != 0; }
  /// The value walked is the caller's to consume: parts that pass through unchanged are moved to the
  /// result instead of copied, and lists are coerced where they stand. Never in trial walks, which
  /// may be discarded.
  bool consume = false;

 private:
  // `v` as the result's part: moved when the value is ours to consume.
  void take(const json& v, json* out) {
    if (!out) return;
    if (consume)
      *out = std::move(const_cast<json&>(v));
    else
      *out = v;
  }

  bool accept(const json& v, json* out) {
    take(v, out);
    return true;
  }

  bool fail(std::string message, const json& v, json* out) {
    error(std::move(message));
    take(v, out);
    return false;
  }

  // A number the type cannot hold (coercion::Outcome::refused): an error in every mode.
  bool refuse(std::string message, const json& v, json* out) {
    adopt_here(std::move(message), true);
    if (out) *out = v;
    return false;
  }

  // A scalar rule's failure: refused, or an ordinary error.
  template <class T>
  bool failed(coercion::Outcome<T>& r, const json& v, json* out) {
    return r.refused ? refuse(std::move(r.message), v, out) : fail(std::move(r.message), v, out);
  }

  void error(std::string message) {
    if (recording()) adopt_here(std::move(message), false);
  }

  void warn(std::string message) {
    if (!recording()) return;
    if (room(true, false))
      warnings.push_back({format_path(path_), std::move(message)});
    else
      ++more_warnings;
  }

  // Whether an issue of this list (and kind) would be stored, or only counted.
  bool room(bool warning, bool refusal) const {
    if (warning) return warnings.size() < limits::kStoredIssues;
    return (refusal ? stored_refusals : errors.size() - stored_refusals) < limits::kStoredIssues;
  }

  void store(Issue issue, bool warning, bool refusal) {
    if (!room(warning, refusal)) return count(warning, refusal, 1);
    if (warning) return warnings.push_back(std::move(issue));
    errors.push_back(std::move(issue));
    refusals.push_back(refusal);
    if (refusal) ++stored_refusals;
  }

  void count(bool warning, bool refusal, std::size_t n) {
    (warning ? more_warnings : refusal ? more_refused : more_plain) += n;
  }

  // In Disabled mode (input direction) only refusals are recorded: the walk looks for numbers the types
  // cannot hold and reports nothing else. Trials record everything, so that their caller can judge.
  bool recording() const { return trial_ || options_.mode != Mode::Disabled; }

  // A list or map given as its JSON text (coercion::container_from_text), with the warning.
  std::optional<json> from_text(const Schema& s, const std::string& text) {
    coercion::JsonKind want;
    switch (s.kind()) {
      case Kind::Vector:
      case Kind::Sequential:
      case Kind::Set:
      case Kind::Tuple: want = coercion::JsonKind::List; break;
      case Kind::Map:
      case Kind::MapOf: want = coercion::JsonKind::Map; break;
      default: return std::nullopt;
    }
    const std::size_t depth = path_.size();
    auto parsed = coercion::container_from_text(text, want, depth < kMaxJsonDepth ? kMaxJsonDepth - depth : 0);
    if (parsed) warn(coercion::coerced(text, want == coercion::JsonKind::List ? "list" : "map"));
    return parsed;
  }

  bool integer(const json& v, json* out) {
    auto r = coercion::to_int(v, coercing());
    if (r.verdict == coercion::Verdict::Failed) return failed(r, v, out);
    if (r.verdict == coercion::Verdict::Coerced) warn(std::move(r.message));
    if (out) *out = r.value;
    return true;
  }

  bool number(const json& v, json* out) {
    auto r = coercion::to_float(v, coercing());
    if (r.verdict == coercion::Verdict::Failed) return failed(r, v, out);
    if (r.verdict == coercion::Verdict::Coerced) warn(std::move(r.message));
    // int -> float widening: in the input direction the value becomes a float.
    if (out) *out = r.verdict == coercion::Verdict::Exact && !v.is_number_float() && !coercing() ? v : json(r.value);
    return true;
  }

  bool boolean(const json& v, json* out) {
    auto r = coercion::to_bool(v, coercing());
    if (r.verdict == coercion::Verdict::Failed) return fail(std::move(r.message), v, out);
    if (r.verdict == coercion::Verdict::Coerced) warn(std::move(r.message));
    if (out) *out = r.value;
    return true;
  }

  bool list(const Schema& s, const json& v, json* out) {
    if (!v.is_array()) return fail(coercion::expected(s.kind() == Kind::Set ? coercion::kSetOf : "list", v), v, out);
    bool ok = true;
    // A fixed length is reported before the items' issues, as for tuples.
    if (auto n = s.length(); n && v.size() != *n) {
      error(coercion::wrong_length(*n, v.size()));
      ok = false;
    }
    // A set compares its coerced items, so it builds them even when the caller did not ask.
    json local;
    json* items = out ? out : (s.kind() == Kind::Set ? &local : nullptr);
    if (consume && out) {
      // The list is ours: each item is coerced where it stands, and the list becomes the result, so
      // a long list is never held twice.
      json& given = const_cast<json&>(v);
      for (std::size_t i = 0; i < given.size(); ++i) {
        path_.emplace_back(i);
        json item;
        ok &= walk(s.item(), given[i], &item);
        given[i] = std::move(item);
        path_.pop_back();
      }
      *out = std::move(given);
      if (s.kind() == Kind::Set) ok &= unique(*out);
      return ok;
    }
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

  bool unique(const json& items) {
    auto dups = coercion::duplicates(items);
    for (const auto& [i, j] : dups) {
      path_.emplace_back(i);
      error(coercion::duplicate_item(j));
      path_.pop_back();
    }
    return dups.empty();
  }

  bool tuple(const Schema& s, const json& v, json* out) {
    const auto& types = s.children();
    if (!v.is_array()) return fail(coercion::expected(coercion::list_of(types.size()), v), v, out);
    bool ok = true;
    if (v.size() != types.size()) {
      error(coercion::wrong_length(types.size(), v.size()));
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
        take(v[i], &item);
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
          error(std::string(coercion::kMissingField));
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
    std::vector<std::string_view> declared;
    for (auto it = v.begin(); it != v.end(); ++it) {
      if (s.find(it.key())) continue;
      if (options_.mode == Mode::Strict) {
        path_.emplace_back(it.key());
        error(std::string(coercion::kUnexpectedField));
        path_.pop_back();
        ok = false;
      } else if (options_.direction == Direction::Input && options_.drop_undeclared) {
        // Tool arguments the signature does not declare are dropped, so no policy or handler reads them,
        // and the model is told: a misspelled optional argument would otherwise fall back silently.
        if (!recording()) continue;
        if (!room(true, false)) {
          ++more_warnings;  // counted, and neither its path nor its message is built
          continue;
        }
        if (declared.empty())
          for (const auto& e : s.entries()) declared.emplace_back(e.name);
        path_.emplace_back(it.key());
        warn(coercion::ignored_field(it.key(), declared));
        path_.pop_back();
        continue;
      }
      if (out) take(it.value(), &(*out)[it.key()]);
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
    return fail(coercion::not_one_of(s.values(), v), v, out);
  }

  // coercion::UnionChoice picks the alternative. Each alternative is walked once, so nested unions cost
  // no more than their size.
  bool one_of(const Schema& s, const json& v, json* out) {
    ValidateOptions lenient{options_.direction, options_.mode == Mode::Strict ? Mode::Strict : Mode::Enabled,
                            options_.drop_undeclared};
    const unsigned kind = coercion::kind_bit(coercion::json_kind(v));
    coercion::UnionChoice choice;
    std::optional<Walker> coerced, closest;
    json coerced_value;
    bool refused = false;  // an alternative refused a number: the union cannot hold the value either
    for (const auto& alt : s.children()) {
      Walker trial(lenient, path_);
      trial.trial_ = true;
      json value;
      bool ok = trial.walk(alt, v, out ? &value : nullptr);
      refused = refused || trial.any_refusal();
      bool detailed = (coercion::family(alt) & kind) && coercion::detailed(alt);
      switch (choice.offer(ok, !trial.warnings.empty(), detailed, trial.error_count())) {
        case coercion::UnionChoice::Take::Exact:
          if (out) *out = std::move(value);
          return true;
        case coercion::UnionChoice::Take::Coerced:
          coerced.emplace(std::move(trial));
          coerced_value = std::move(value);
          break;
        case coercion::UnionChoice::Take::Closest: closest.emplace(std::move(trial)); break;
        case coercion::UnionChoice::Take::Nothing: break;
      }
    }
    if (coerced) {
      adopt_warnings(*coerced);
      if (out) *out = std::move(coerced_value);
      return true;
    }
    if (closest) {
      adopt_warnings(*closest);
      for (std::size_t i = 0; i < closest->errors.size(); ++i)
        if (closest->refusals[i] || recording()) adopt(std::move(closest->errors[i]), closest->refusals[i]);
      // Those it counted come after those it stored, of each kind: they are counted here too.
      adopt_count(true, closest->more_refused);
      if (recording()) adopt_count(false, closest->more_plain);
      if (out) *out = v;
      return false;
    }
    std::string message = coercion::expected(type_name(s), v);
    return refused ? refuse(std::move(message), v, out) : fail(std::move(message), v, out);
  }

  // An error, or one found by a trial walk, reported as this walker reports its own: in WarnOnly as a
  // warning, unless it is a refusal (in the input direction), which stays an error in every mode.
  void adopt(Issue issue, bool refusal = false) {
    refusal = refusal && options_.direction == Direction::Input;
    store(std::move(issue), as_warning(refusal), refusal);
  }

  // The same for an error at the current path, whose path is built only when it is stored.
  void adopt_here(std::string message, bool refusal) {
    refusal = refusal && options_.direction == Direction::Input;
    const bool warning = as_warning(refusal);
    if (room(warning, refusal))
      store(Issue{format_path(path_), std::move(message)}, warning, refusal);
    else
      count(warning, refusal, 1);
  }

  // `n` errors a trial counted without storing them, adopted as adopt() would.
  void adopt_count(bool refusal, std::size_t n) {
    if (n == 0) return;
    refusal = refusal && options_.direction == Direction::Input;
    count(as_warning(refusal), refusal, n);
  }

  // A trial's warnings (stored and counted), after this walker's own.
  void adopt_warnings(Walker& trial) {
    if (!recording()) return;
    for (auto& w : trial.warnings) store(std::move(w), true, false);
    more_warnings += trial.more_warnings;
  }

  // In WarnOnly an error is reported as a warning, unless it is a refusal; trials keep errors as errors.
  bool as_warning(bool refusal) const { return options_.mode == Mode::WarnOnly && !trial_ && !refusal; }

  bool all_of(const Schema& s, const json& v, json* out) {
    // A failed first child gives back the value as given, so nothing of it may be consumed before.
    const bool consuming = std::exchange(consume, false);
    const bool ok = all_of_children(s, v, out);
    consume = consuming;
    return ok;
  }

  bool all_of_children(const Schema& s, const json& v, json* out) {
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
    if (auto message = coercion::refinement_error(s, v)) return fail(std::move(*message), v, out);
    return accept(v, out);
  }

  ValidateOptions options_;
  bool trial_ = false;  // a trial run for [:or ...]: errors stay errors so the caller can judge
  std::vector<Segment> path_;
};

Validation run(const Schema& schema, const json& value, ValidateOptions options, bool build, bool consume = false) {
  Validation r;
  const bool disabled = options.mode == Mode::Disabled;
  if (disabled && options.direction == Direction::Output) {
    if (build) r.value = consume ? std::move(const_cast<json&>(value)) : value;
    return r;
  }
  // Disabled input is walked for the numbers its types cannot hold only, and passes through untouched.
  Walker w(options);
  w.consume = consume && !disabled;  // disabled input is only looked at, and passes through whole
  json out;
  bool ok = w.walk(schema, value, build && !disabled ? &out : nullptr);
  r.ok = ok && w.error_count() == 0;
  // In the lenient modes only refusals are errors (docs/validation.md, "Numbers a type cannot hold").
  if (options.mode == Mode::WarnOnly || disabled) r.ok = w.error_count() == 0;
  // The walker stores the first errors of each kind; the report keeps the first of them all.
  r.errors = std::move(w.errors);
  r.more_errors = w.more_plain + w.more_refused;
  if (r.errors.size() > limits::kStoredIssues) {
    r.more_errors += r.errors.size() - limits::kStoredIssues;
    r.errors.resize(limits::kStoredIssues);
  }
  r.warnings = std::move(w.warnings);
  r.more_warnings = w.more_warnings;
  if (build) r.value = disabled ? (consume ? std::move(const_cast<json&>(value)) : value) : std::move(out);
  return r;
}

}  // namespace

Validation validate(const Schema& schema, const json& value, ValidateOptions options) {
  return run(schema, value, options, false);
}

Validation validate_and_coerce(const Schema& schema, const json& value, ValidateOptions options) {
  return run(schema, value, options, true);
}

Validation validate_and_coerce(const Schema& schema, json&& value, ValidateOptions options) {
  return run(schema, value, options, true, true);
}

void Validation::add_error(Issue issue) {
  if (errors.size() < limits::kStoredIssues && more_errors == 0)
    errors.push_back(std::move(issue));
  else
    ++more_errors;
}

void Validation::add_warning(Issue issue) {
  if (warnings.size() < limits::kStoredIssues && more_warnings == 0)
    warnings.push_back(std::move(issue));
  else
    ++more_warnings;
}

std::string Validation::report() const {
  std::string out;
  auto section = [&](std::string_view title, const std::vector<Issue>& issues, std::size_t more) {
    const std::size_t total = issues.size() + more;
    if (total == 0) return;
    if (!out.empty()) out += '\n';
    out += title;
    out += '\n';
    // Capped: one bad call must not flood the model's context.
    const std::size_t shown = std::min(issues.size(), limits::kReportedErrors);
    for (std::size_t k = 0; k < shown; ++k) {
      out += "- ";
      out += issues[k].path;
      out += ": ";
      out += issues[k].message;
      out += '\n';
    }
    if (total > shown) {
      out += "- ... and ";
      out += std::to_string(total - shown);
      out += " more\n";
    }
  };
  section("Tool validation errors:", errors, more_errors);
  section("Tool validation warnings:", warnings, more_warnings);
  return out;
}

void DroppedFields::add(std::string_view name) {
  ++count_;
  if (heap_.size() < limits::kStoredIssues) {
    heap_.emplace_back(name);
    std::push_heap(heap_.begin(), heap_.end());
  } else if (name < heap_.front()) {
    std::pop_heap(heap_.begin(), heap_.end());
    heap_.back().assign(name);
    std::push_heap(heap_.begin(), heap_.end());
  }
}

std::vector<std::string> DroppedFields::first() const {
  std::vector<std::string> names = heap_;
  std::sort_heap(names.begin(), names.end());
  return names;
}

void report_dropped_fields(Validation& validation, const Schema& params, const DroppedFields& dropped, Mode mode) {
  if (mode == Mode::Disabled || dropped.size() == 0) return;
  const bool strict = mode == Mode::Strict;
  if (strict) validation.ok = false;
  std::vector<Issue>& list = strict ? validation.errors : validation.warnings;
  std::size_t& more = strict ? validation.more_errors : validation.more_warnings;
  std::vector<std::string_view> declared;
  if (!strict)
    for (const auto& e : params.entries()) declared.emplace_back(e.name);
  const std::vector<std::string> names = dropped.first();
  for (const std::string& name : names) {
    if (list.size() >= limits::kStoredIssues || more != 0) {
      ++more;
      continue;
    }
    std::string path;
    coercion::append_key(path, name);
    list.push_back({std::move(path),
                    strict ? std::string(coercion::kUnexpectedField) : coercion::ignored_field(name, declared)});
  }
  more += dropped.size() - names.size();
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
