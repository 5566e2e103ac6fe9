#pragma once
// The codec differential harness: random JSON text for a schema (valid documents, the quirks LLMs
// produce, broken ones), decoded by a codec and validated with ptc::validate_and_coerce, which must
// agree on ok, errors and warnings (texts, paths, order) in every mode, and on the value when it is
// ok. tests/unit/codec_differential_test.cpp holds hand-written traits to it (no generator needed),
// tests/generator/differential the code ptc-gen generates.
//
// Known, documented differences (docs/codecs.md) are applied to the validator's side before comparing:
// - narrow integers must fit their C++ type: the caller bounds them in the reference schema with
//   refinements (NarrowRange), whose messages become the codec's range message;
// - a number the C++ type cannot hold is refused in every mode (docs/codecs.md, "Modes"), where the
//   validator, which sees only the schema, refuses only what :int and :float cannot hold: in warn_only
//   and disabled the validator's errors that name a narrow integer's range, or a value beyond the range
//   of the integer at their path (HeldRange), become errors (refusals) too;
// - the codec's value holds the declared fields only (absent optional fields as null), and a set's
//   items in the set's order.

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <limits>
#include <optional>
#include <random>
#include <regex>
#include <sstream>
#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <ptc/codec/codec.hpp>
#include <ptc/json_input.hpp>
#include <ptc/schema.hpp>
#include <ptc/validate.hpp>

#include "codec_normalized.hpp"

namespace ptc::test {

/// Random documents, driven by the schema.
class DocumentGenerator {
 public:
  explicit DocumentGenerator(std::uint64_t seed) : rng_(seed) {}

  std::string document(const Schema& s) {
    std::string text = value(s, 0);
    if (chance(0.04)) text = corrupt(std::move(text));
    if (chance(0.002)) text = deep_inside(text);
    return text;
  }

 private:
  bool chance(double p) { return std::uniform_real_distribution<double>(0, 1)(rng_) < p; }
  std::size_t pick(std::size_t n) { return std::uniform_int_distribution<std::size_t>(0, n - 1)(rng_); }
  template <class T>
  const T& one(const std::vector<T>& options) {
    return options[pick(options.size())];
  }

  std::string ws() {
    if (!chance(0.15)) return "";
    static const std::vector<std::string> spaces{" ", "\n", "  ", "\t", "\r\n "};
    return one(spaces);
  }

  static std::string quote(const std::string& s) { return nlohmann::json(s).dump(); }

  std::string value(const Schema& s, int depth) {
    if (depth > 6 || chance(0.03)) return wrong(depth);
    const bool container = s.kind() == Kind::Vector || s.kind() == Kind::Sequential || s.kind() == Kind::Set ||
                           s.kind() == Kind::Tuple || s.kind() == Kind::Map || s.kind() == Kind::MapOf;
    // A list or map sent as a string holding its JSON text, as models do; sometimes cut short.
    if (container && depth > 0 && chance(0.03)) {
      std::string text = container_value(s, depth);
      if (chance(0.2)) text.resize(text.size() / 2);  // may cut a UTF-8 sequence: replaced below
      return nlohmann::json(text).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    }
    if (container) return container_value(s, depth);
    switch (s.kind()) {
      case Kind::Int: return integer();
      case Kind::Float: return floating();
      case Kind::Bool: return boolean();
      case Kind::String:
      case Kind::Keyword: return string();
      case Kind::Nil: return "null";
      case Kind::Any: return any(depth);
      case Kind::Enum: return enumeration(s);
      case Kind::Maybe: return chance(0.3) ? "null" : value(s.item(), depth);
      case Kind::And: return refined(s, depth);
      case Kind::Or: return value(s.children()[pick(s.children().size())], depth);
      case Kind::Refinement: return any(depth);
      default: break;
    }
    return "null";
  }

  std::string container_value(const Schema& s, int depth) {
    switch (s.kind()) {
      case Kind::Tuple: return tuple(s, depth);
      case Kind::Map: return map(s, depth);
      case Kind::MapOf: return map_of(s, depth);
      default: return list(s, depth);
    }
  }

  std::string integer() {
    static const std::vector<std::string> exact{"0",
                                                "1",
                                                "-1",
                                                "7",
                                                "42",
                                                "-5",
                                                "10",
                                                "50",
                                                "51",
                                                "127",
                                                "128",
                                                "255",
                                                "256",
                                                "2147483647",
                                                "2147483648",
                                                "-2147483648",
                                                "-2147483649",
                                                "9223372036854775807",
                                                "-9223372036854775808",
                                                "-0",
                                                "1000000"};
    static const std::vector<std::string> quirky{"\"42\"",
                                                 "\"-5\"",
                                                 "\"0\"",
                                                 "\"300\"",
                                                 "\"-1\"",
                                                 "\"2147483648\"",
                                                 "\"9223372036854775808\"",
                                                 "\"99999999999999999999\"",
                                                 "\"007\"",
                                                 "\" 42\"",
                                                 "\"+5\"",
                                                 "\"4.0\"",
                                                 "\"1e3\"",
                                                 "\"abc\"",
                                                 "\"\""};
    static const std::vector<std::string> broken{"42.0",
                                                 "1e2",
                                                 "3.5",
                                                 "-2.9",
                                                 "1e19",
                                                 "1e300",
                                                 "-0.0",
                                                 "9223372036854775808",
                                                 "-9223372036854775809",
                                                 "18446744073709551615",
                                                 "18446744073709551616",
                                                 "123456789012345678901234567890",
                                                 "-123456789012345678901234567890",
                                                 "1E400",
                                                 "true",
                                                 "null",
                                                 "[]",
                                                 "{}",
                                                 "[1]"};
    const double r = std::uniform_real_distribution<double>(0, 1)(rng_);
    if (r < 0.86) return one(exact);
    if (r < 0.94) return one(quirky);
    return one(broken);
  }

  std::string floating() {
    static const std::vector<std::string> exact{"0.5",
                                                "1.5",
                                                "-2.25",
                                                "0",
                                                "1",
                                                "5",
                                                "-0",
                                                "-0.0",
                                                "0.0",
                                                "1e3",
                                                "2.5E-3",
                                                "1e308",
                                                "4.9e-324",
                                                "1e-400",
                                                "0.1",
                                                "123456789012345678901234567890",
                                                "9007199254740993",
                                                "0.30000000000000004"};
    static const std::vector<std::string> quirky{"\"3.14\"", "\"1e3\"", "\"-0\"",  "\"42\"",    "\"abc\"",
                                                 "\"\"",     "\"1.\"",  "\"NaN\"", "\"1e400\"", "\" 1\""};
    static const std::vector<std::string> broken{"true", "null", "[]", "{\"a\":1}", "\"x\""};
    const double r = std::uniform_real_distribution<double>(0, 1)(rng_);
    if (r < 0.86) return one(exact);
    if (r < 0.94) return one(quirky);
    return one(broken);
  }

  std::string boolean() {
    static const std::vector<std::string> exact{"true", "false"};
    static const std::vector<std::string> other{"\"true\"", "\"false\"", "\"True\"", "1", "0", "null", "\"yes\"", "[]"};
    return chance(0.85) ? one(exact) : one(other);
  }

  std::string string() {
    static const std::vector<std::string> exact{
        "\"abc\"",
        "\"\"",
        "\"hello world\"",
        "\"h\\u00e9llo\"",
        "\"a\\\"b\\\\c\\n\"",
        "\"\\ud83d\\ude00\"",
        "\"caf\xc3\xa9\"",
        "\"x/y\\/z\"",
        "\"" + std::string(70, 'a') + "\"",
        "\"" + std::string(63, 'b') + "\xc3\xa9tail and more text to pass the cut\"",
        "\"low\"",
        "\"relevance\"",
        "\"search terms\""};
    static const std::vector<std::string> other{"42", "-1", "4.5", "true", "null", "[]", "{}", "[\"a\"]"};
    return chance(0.88) ? one(exact) : one(other);
  }

  std::string enumeration(const Schema& s) {
    static const std::vector<std::string> other{
        "\"medium\"", "\"LOW\"", "\"\"", "1", "true", "null", "[]", "{}", "2.5", "\"" + std::string(80, 'z') + "\""};
    if (chance(0.85)) return s.values()[pick(s.values().size())].dump();
    return one(other);
  }

  // [:and T refinements...], nested when the caller bounded a refined integer: strings and floats that
  // some patterns and ranges accept and others do not; integers inside the bounds, on them and next to
  // them.
  std::string refined(const Schema& s, int depth) {
    const Schema* base = &s;
    std::int64_t lo = std::numeric_limits<std::int64_t>::min();
    std::int64_t hi = std::numeric_limits<std::int64_t>::max();
    for (; base->kind() == Kind::And; base = &base->children().front()) {
      for (const auto& r : base->children()) {
        if (r.kind() != Kind::Refinement || !r.bound().is_number_integer()) continue;
        if (r.op() == Refine::Ge) lo = std::max(lo, r.bound().get<std::int64_t>());
        if (r.op() == Refine::Le) hi = std::min(hi, r.bound().get<std::int64_t>());
      }
    }
    if (base->kind() == Kind::String && chance(0.6)) {
      static const std::vector<std::string> texts{"\"red shoes\"", "\"abc\"", "\"ABC\"", "\"a1\"", "\"\"", "\"x y z\""};
      return one(texts);
    }
    if (base->kind() == Kind::Float && chance(0.6)) {
      static const std::vector<std::string> numbers{"0.5", "0", "1", "1.5", "-0.1", "\"0.25\"", "\"2\"", "0.999"};
      return one(numbers);
    }
    if (base->kind() == Kind::Int) {
      if (lo <= hi && chance(0.7)) return std::to_string(std::uniform_int_distribution<std::int64_t>(lo, hi)(rng_));
      if (chance(0.4)) {
        std::vector<std::string> numbers{"1", "50", "0", "51", "-1", "255", "256", "\"25\"", "\"0\""};
        if (lo > std::numeric_limits<std::int64_t>::min()) {
          numbers.push_back(std::to_string(lo - 1));
          numbers.push_back("\"" + std::to_string(lo) + "\"");
        }
        if (hi < std::numeric_limits<std::int64_t>::max()) {
          numbers.push_back(std::to_string(hi));
          numbers.push_back(std::to_string(hi + 1));
        }
        return one(numbers);
      }
    }
    return value(*base, depth);
  }

  std::string list(const Schema& s, int depth) {
    const std::size_t n = pick(5);
    std::vector<std::string> items;
    for (std::size_t i = 0; i < n; ++i) {
      if (!items.empty() && chance(0.2)) {
        items.push_back(one(items));  // a repeat: sets must notice it
      } else {
        items.push_back(value(s.item(), depth + 1));
      }
    }
    return join('[', items, ']');
  }

  std::string tuple(const Schema& s, int depth) {
    std::vector<std::string> items;
    for (const auto& c : s.children()) items.push_back(value(c, depth + 1));
    if (chance(0.08)) items.push_back(any(depth + 1));
    if (chance(0.08) && !items.empty()) items.pop_back();
    return join('[', items, ']');
  }

  // Up to n names of `pool`, none twice, in a random order.
  std::vector<std::string> distinct(std::vector<std::string> pool, std::size_t n) {
    std::shuffle(pool.begin(), pool.end(), rng_);
    pool.resize(std::min(n, pool.size()));
    return pool;
  }

  std::string key(const std::string& name) {
    // An escaped spelling of the same key is the same key.
    if (!name.empty() && chance(0.05)) {
      char hex[8];
      std::snprintf(hex, sizeof hex, "\\u%04x", static_cast<unsigned char>(name[0]));
      return "\"" + std::string(hex) + name.substr(1) + "\"";
    }
    return quote(name);
  }

  std::string map(const Schema& s, int depth) {
    std::vector<std::string> members;
    std::set<std::string> used;
    for (const auto& e : s.entries()) {
      const bool leave_out = (e.optional || e.has_default()) ? chance(0.3) : chance(0.04);
      if (leave_out) continue;
      const std::string v = (e.optional || e.has_default()) && chance(0.1) ? "null" : value(e.schema, depth + 1);
      members.push_back(key(e.name) + ws() + ":" + ws() + v);
      used.insert(e.name);
      // A repeated key: invalid JSON to both sides. Rare, so that most nested documents stay JSON.
      if (chance(0.01)) members.push_back(key(e.name) + ":" + value(e.schema, depth + 1));
    }
    static const std::vector<std::string> extras{"extra", "zeta", "a",  "odd key", "Z", "_hidden", "\xc3\xa9t\xc3\xa9",
                                                 "a\"b",  "",     "id", "title"};
    // Undeclared keys are drawn without repeats (a repeat is the rare case above, not an accident).
    while (chance(0.15)) {
      const std::string& name = one(extras);
      if (used.insert(name).second) members.push_back(quote(name) + ":" + any(depth + 1));
    }
    std::shuffle(members.begin(), members.end(), rng_);
    return join('{', members, '}');
  }

  std::string map_of(const Schema& s, int depth) {
    static const std::vector<std::string> keys{"a", "b", "zz", "odd key", "", "\xc3\xa9", "A", "10", "a b"};
    std::vector<std::string> members;
    for (const auto& k : distinct(keys, pick(5))) members.push_back(key(k) + ":" + value(s.value(), depth + 1));
    if (!members.empty() && chance(0.01)) members.push_back(members.front());  // a repeated key, rarely
    return join('{', members, '}');
  }

  // Any JSON: the wrong kind for most schemas, or garbage nested deep.
  std::string any(int depth) {
    const std::size_t kind = pick(depth > 4 ? 6 : 8);
    switch (kind) {
      case 0: return "null";
      case 1: return chance(0.5) ? "true" : "false";
      case 2: return integer();
      case 3: return floating();
      case 4: return string();
      case 5: return "\"" + std::to_string(pick(1000)) + "\"";
      case 6: {
        std::vector<std::string> items;
        for (std::size_t i = 0, n = pick(4); i < n; ++i) items.push_back(any(depth + 1));
        return join('[', items, ']');
      }
      default: {
        static const std::vector<std::string> keys{"a", "b", "c"};
        std::vector<std::string> members;
        for (const auto& k : distinct(keys, pick(4))) members.push_back(quote(k) + ":" + any(depth + 1));
        return join('{', members, '}');
      }
    }
  }

  std::string wrong(int depth) {
    if (chance(0.05)) {  // deep garbage, within the nesting limit
      std::string text = "0";
      for (std::size_t i = 0, n = 20 + pick(40); i < n; ++i)
        text = chance(0.5) ? "[" + text + "]" : "{\"k\":" + text + "}";
      return text;
    }
    return any(depth);
  }

  std::string join(char open, const std::vector<std::string>& parts, char close) {
    std::string out(1, open);
    out += ws();
    for (std::size_t i = 0; i < parts.size(); ++i) {
      if (i) out += "," + ws();
      out += parts[i];
    }
    return out + ws() + close;
  }

  // Text that is (most likely) not JSON any more.
  std::string corrupt(std::string text) {
    static const std::vector<std::string> junk{"{",    "}",    "[",         "]",   ",",  ":", "\"",      "\\",
                                               "x",    "tru",  "nul",       "01",  "1.", "-", "\"\\q\"", "\"\\ud800\"",
                                               "\x01", "\xff", "\"a\x02\"", "NaN", ",,", " "};
    const std::size_t at = pick(text.size() + 1);
    switch (pick(5)) {
      case 0: return text.substr(0, at);
      case 1: return text.insert(at, one(junk));
      case 2: return at < text.size() ? text.erase(at, 1) : text + "}";
      case 3: return text + one(junk);
      default: return text.insert(at, " " + one(junk) + " ");
    }
  }

  // Nesting beyond the 512 levels ptc::parse_json accepts, as the value of an undeclared field.
  std::string deep_inside(const std::string& text) {
    if (text.empty() || text[0] != '{') return text;
    std::string deep(600, '[');
    deep += std::string(600, ']');
    return "{\"deep\":" + deep + (text.size() > 2 ? "," + text.substr(1) : "}");
  }

  std::mt19937_64 rng_;
};

/// The bounds of a narrow integer type, as the reference schema states them with refinements.
struct NarrowRange {
  std::int64_t min;
  std::int64_t max;
  bool is_unsigned;
};

/// The refinement message the reference schema gives for a narrow type's bound, as the codec says it.
inline std::string as_codec_says(const std::string& message, const std::vector<NarrowRange>& narrow) {
  static const std::regex bound(R"(^expected value (>=|<=) (-?[0-9]+), got (-?[0-9]+)$)");
  std::smatch m;
  if (!std::regex_match(message, m, bound)) return message;
  const std::int64_t b = std::stoll(m[2]);
  for (const auto& r : narrow) {
    const bool upper = m[1] == "<=" && b == r.max;
    const bool lower = m[1] == ">=" && b == r.min && !r.is_unsigned;
    if (upper || lower)
      return "expected int in range " + std::to_string(r.min) + ".." + std::to_string(r.max) + ", got int " +
             m[3].str();
  }
  return message;
}

inline void map_issues(std::vector<Issue>& issues, const std::vector<NarrowRange>& narrow) {
  for (auto& i : issues) i.message = as_codec_says(i.message, narrow);
}

/// The C++ integer type at the paths `path` (an ECMAScript regex over an issue's path) holds
/// `min..max`: a number beyond, or fractional, is refused by its codec in every mode.
struct HeldRange {
  std::string path;
  std::int64_t min;
  std::uint64_t max;
};

/// Whether the codec refuses what the validator reports as `issue` (in Enabled mode, narrow messages
/// mapped): a type's range in the message, or a number the integer type at the issue's path cannot hold.
inline bool refused_by_type(const Issue& issue, const std::vector<HeldRange>& held) {
  if (issue.message.rfind("expected int in range ", 0) == 0) return true;
  static const std::regex got(R"(, got (?:int |float )?(-?[0-9]+(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?)$)");
  std::smatch m;
  if (!std::regex_search(issue.message, m, got)) return false;
  const long double x = std::stold(m[1].str());
  for (const auto& h : held) {
    if (!std::regex_match(issue.path, std::regex(h.path))) continue;
    if (x < static_cast<long double>(h.min) || x > static_cast<long double>(h.max) || x != std::floor(x)) return true;
  }
  return false;
}

/// What the codec reports in `mode` (warn_only or disabled) for a document the validator reports as
/// `lenient` in that mode and as `enabled` in Enabled mode (narrow messages mapped in both): the
/// validator's refusals (its errors in `lenient`) and the errors refused_by_type, in traversal order,
/// are errors; the other errors are warnings in warn_only (as the validator reports them) and nothing in
/// disabled.
inline Validation as_codec_refuses(Validation lenient, const Validation& enabled, Mode mode,
                                   const std::vector<HeldRange>& held) {
  std::vector<Issue> errors;
  std::size_t next = 0;  // lenient.errors is a subsequence of enabled.errors
  for (const auto& e : enabled.errors) {
    if (next < lenient.errors.size() && lenient.errors[next] == e) {
      errors.push_back(e);
      ++next;
    } else if (refused_by_type(e, held)) {
      errors.push_back(e);
      if (mode == Mode::WarnOnly) {
        auto demoted = std::find(lenient.warnings.begin(), lenient.warnings.end(), e);
        if (demoted != lenient.warnings.end()) lenient.warnings.erase(demoted);
      }
    }
  }
  lenient.errors = std::move(errors);
  lenient.ok = lenient.errors.empty();
  return lenient;
}

inline std::string show(const Validation& r) {
  if (r.more_errors != 0 || r.more_warnings != 0)
    return "ok=" + std::string(r.ok ? "true" : "false") + ", " + std::to_string(r.error_count()) + " errors, " +
           std::to_string(r.warning_count()) + " warnings\n" + r.report();
  std::ostringstream out;
  out << "ok=" << r.ok << "\n  value=" << r.value.dump() << "\n";
  for (const auto& e : r.errors) out << "  error   " << e.path << ": " << e.message << "\n";
  for (const auto& w : r.warnings) out << "  warning " << w.path << ": " << w.message << "\n";
  return out.str();
}

inline bool is_invalid_json(const Validation& r) {
  return r.errors.size() == 1 && r.errors[0].path == "(root)" && r.errors[0].message.rfind("invalid JSON: ", 0) == 0;
}

struct Tally {
  std::size_t documents = 0, valid = 0, invalid_json = 0, mismatches = 0;
  std::size_t refused = 0;  ///< documents refused in warn_only (numbers their types cannot hold)
};

/// A decoder under test: its results for `text` in `mode`, or nullopt when it declines the text (a
/// text path that leaves what is not a JSON object to dispatch, as Invoker::prepare does).
using Decode = std::function<std::optional<Validation>(const std::string& text, Mode mode)>;

/// ptc::codec::decode_text into a fresh T.
template <class T>
Decode decode_text_into() {
  return [](const std::string& text, Mode mode) {
    T out{};
    return std::optional<Validation>(codec::decode_text(text, out, mode));
  };
}

/// `count` documents of `schema` from DocumentGenerator(seed), each decoded in every mode and compared
/// with validate_and_coerce(schema, ...) (narrow integers bounded in `schema`, their messages mapped with
/// `narrow`). The first mismatches are test failures showing the document and both results.
inline Tally compare_with_validator(const Schema& schema, std::uint64_t seed, std::size_t count,
                                    const std::vector<NarrowRange>& narrow, const Decode& decode,
                                    const std::vector<HeldRange>& held = {}) {
  DocumentGenerator gen(seed);
  Tally tally;
  auto mismatch = [&](const std::string& text, Mode mode, const std::string& what, const Validation& codec,
                      const Validation& ref) {
    if (++tally.mismatches <= 5)
      ADD_FAILURE() << what << " in mode " << mode_name(mode) << " for\n  " << text << "\ncodec:     " << show(codec)
                    << "validator: " << show(ref);
  };
  for (std::size_t n = 0; n < count; ++n) {
    const std::string text = gen.document(schema);
    ++tally.documents;
    auto parsed = parse_json(text);
    std::optional<Validation> enabled_ref;
    for (Mode mode : {Mode::Enabled, Mode::WarnOnly, Mode::Strict, Mode::Disabled}) {
      std::optional<Validation> decoded = decode(text, mode);
      if (!decoded) {
        if (parsed && parsed->is_object()) mismatch(text, mode, "the codec declines a JSON object", {}, {});
        continue;
      }
      const Validation& codec = *decoded;
      if (!parsed) {
        if (!is_invalid_json(codec)) mismatch(text, mode, "nlohmann refuses the text, the codec does not", codec, {});
        if (mode == Mode::Enabled) ++tally.invalid_json;
        continue;
      }
      if (is_invalid_json(codec)) {
        mismatch(text, mode, "the codec refuses text nlohmann reads", codec, {});
        continue;
      }
      Validation ref = validate_and_coerce(schema, *parsed, {Direction::Input, mode, /*drop_undeclared=*/true});
      map_issues(ref.errors, narrow);
      map_issues(ref.warnings, narrow);
      if (mode == Mode::Enabled) {
        enabled_ref = ref;
        if (ref.ok) ++tally.valid;
      }
      // Both store the first limits::kStoredIssues issues of a list and count the rest; the lenient
      // modes' reference is made from all of Enabled's errors, so past the cap it is not made.
      const bool lenient = mode == Mode::WarnOnly || mode == Mode::Disabled;
      if (lenient && enabled_ref && (enabled_ref->more_errors != 0 || ref.more_errors != 0 || ref.more_warnings != 0))
        continue;
      if (lenient && enabled_ref) ref = as_codec_refuses(std::move(ref), *enabled_ref, mode, held);
      if (mode == Mode::WarnOnly && !ref.ok) ++tally.refused;
      if (codec.ok != ref.ok || codec.errors != ref.errors || codec.warnings != ref.warnings ||
          codec.more_errors != ref.more_errors || codec.more_warnings != ref.more_warnings ||
          codec.report() != ref.report()) {
        mismatch(text, mode, "different results", codec, ref);
        continue;
      }
      // The value: where the validator's is the decoded one (in WarnOnly and Disabled the values agree
      // with Enabled's when Enabled found no error).
      const Validation* reference = nullptr;
      if ((mode == Mode::Enabled || mode == Mode::Strict) && ref.ok) reference = &ref;
      if (lenient && enabled_ref && enabled_ref->error_count() == 0) reference = &*enabled_ref;
      if (reference && normalized(schema, codec.value) != normalized(schema, reference->value))
        mismatch(text, mode, "different values", codec, *reference);
    }
  }
  return tally;
}

/// Prints the tally; no mismatch, and enough valid and invalid documents to mean something.
inline void report(const char* shape, const Tally& t) {
  std::printf("%s: %zu documents, %zu valid (enabled), %zu not JSON, %zu refused (warn_only), %zu mismatches\n", shape,
              t.documents, t.valid, t.invalid_json, t.refused, t.mismatches);
  EXPECT_EQ(t.mismatches, 0u);
  EXPECT_GT(t.valid, t.documents / 20) << "the generator should produce valid documents too";
  EXPECT_GT(t.documents - t.valid - t.invalid_json, t.documents / 10) << "and invalid ones";
}

}  // namespace ptc::test
