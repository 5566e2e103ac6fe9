// The shorthand signature parser: `(query :string, limit :int[1..100]) -> [{id :int, email :string?}]`.
// Hand-written recursive descent so every error can name its column and what was expected.

#include <charconv>
#include <cmath>
#include <set>

#include <nlohmann/json.hpp>

#include <ptc/signature.hpp>

#include "edn_reader.hpp"
#include "malli_reader.hpp"
#include "text.hpp"

namespace ptc {
namespace {

constexpr std::string_view kValidTypes =
    ":string :int :float :bool :keyword :any :nil :map (aliases :boolean :double), [T], {field T, ...}, "
    ":enum[a b], T?, A|B, :int[>0] :int[1..100], or a Malli form such as [:set T]";

bool word_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
}

class Parser {
 public:
  explicit Parser(std::string_view src) : src_(src) {}

  Result<Signature> signature() {
    if (auto bad = text::invalid_utf8_at(src_)) return err(*bad, "invalid UTF-8");
    skip_ws();
    if (at_end()) return err(pos_, "empty signature; expected a type such as {count :int} or (params) -> type");
    std::vector<MapEntry> params;
    Schema result;
    if (peek() == '(') {
      ++pos_;
      auto p = fields(')', "parameter", 0);
      if (!p) return p.error();
      params = std::move(p).value();
      skip_ws();
      if (!src_.substr(pos_).starts_with("->")) return err(pos_, "expected '->' after the parameter list");
      pos_ += 2;
      skip_ws();
      if (at_end()) return err(pos_, "expected a result type after '->'");
      auto t = type(0);
      if (!t) return t.error();
      result = *t;
    } else {
      auto t = type(0);
      if (!t) return t.error();
      result = *t;
    }
    skip_ws();
    if (!at_end()) return err(pos_, "unexpected " + describe_here() + " after the signature");
    return Signature(std::move(params), result);
  }

  Result<Schema> lone_type() {
    if (auto bad = text::invalid_utf8_at(src_)) return err(*bad, "invalid UTF-8");
    skip_ws();
    if (at_end()) return err(pos_, "empty type; expected a type such as :int or {id :int}");
    auto t = type(0);
    if (!t) return t;
    skip_ws();
    if (!at_end()) return err(pos_, "unexpected " + describe_here() + " after the type");
    return t;
  }

 private:
  bool at_end() const { return pos_ >= src_.size(); }
  char peek() const { return at_end() ? '\0' : src_[pos_]; }
  void skip_ws() {
    while (!at_end() && (src_[pos_] == ' ' || src_[pos_] == '\t' || src_[pos_] == '\n' || src_[pos_] == '\r')) ++pos_;
  }
  Error err(std::size_t at, std::string message) const { return text::error_at(src_, at, std::move(message)); }

  std::string describe_here() const {
    if (at_end()) return "end of input";
    auto c = static_cast<unsigned char>(src_[pos_]);
    if (c >= 0x80) return "a non-ASCII character";
    if (text::is_control(static_cast<char>(c))) return "a control character";
    return std::string("'") + static_cast<char>(c) + "'";
  }

  // Parameters `(a :int, b :string)` or fields `{a :int b :string}`: commas are optional separators.
  Result<std::vector<MapEntry>> fields(char close, std::string_view what, std::size_t depth) {
    std::vector<MapEntry> out;
    std::set<std::string> seen;
    skip_ws();
    if (peek() == close) {
      ++pos_;
      return out;
    }
    for (;;) {
      skip_ws();
      std::size_t name_at = pos_;
      if (peek() == ':') ++pos_;
      std::size_t start = pos_;
      while (!at_end() && word_char(src_[pos_])) ++pos_;
      std::string name(src_.substr(start, pos_ - start));
      if (!at_end() && static_cast<unsigned char>(src_[pos_]) >= 0x80)
        return err(pos_, std::string(what) +
                             " names are ASCII identifiers (letters, digits, '_'), got a non-ASCII character");
      if (name.empty()) {
        if (at_end())
          return err(pos_, "unexpected end of input, expected a " + std::string(what) + " name or '" + close + "'");
        return err(name_at, "expected a " + std::string(what) + " name, got " + describe_here());
      }
      if (!text::is_identifier(name))
        return err(start, std::string(what) + " names start with a letter or '_', got '" + name + "'");
      if (!seen.insert(name).second) return err(name_at, "duplicate " + std::string(what) + " name '" + name + "'");
      skip_ws();
      if (at_end()) return err(pos_, "unexpected end of input, expected a type for '" + name + "'");
      auto t = type(depth);
      if (!t) return t.error();
      out.emplace_back(std::move(name), *t, t->kind() == Kind::Maybe);
      skip_ws();
      if (peek() == ',') {
        ++pos_;
        skip_ws();
        if (peek() == close) return err(pos_, std::string("expected a ") + std::string(what) + " name after ','");
        continue;
      }
      if (peek() == close) {
        ++pos_;
        return out;
      }
      if (at_end()) return err(pos_, std::string("unexpected end of input, expected ',' or '") + close + "'");
      if (!(word_char(peek()) || peek() == ':'))
        return err(pos_, std::string("expected ',' or '") + close + "', got " + describe_here());
    }
  }

  Result<Schema> too_deep(std::size_t at) const {
    return err(at, "types nest deeper than " + std::to_string(kMaxSchemaDepth) + " levels");
  }

  // `depth` counts brackets, which guards the recursion; the schema's own depth (which also counts
  // `?`, unions and refinements) is checked as nodes are built, the same way the Malli reader does.
  Result<Schema> type(std::size_t depth) {
    if (depth > kMaxSchemaDepth) return too_deep(pos_);
    std::size_t start = pos_;
    auto first = postfix(depth);
    if (!first) return first;
    if (!bar_ahead()) return first;
    std::vector<Schema> alternatives{*first};
    while (bar_ahead()) {
      skip_ws();
      ++pos_;
      skip_ws();
      if (at_end()) return err(pos_, "expected a type after '|'");
      auto next = postfix(depth);
      if (!next) return next;
      alternatives.push_back(*next);
    }
    auto u = Schema::one_of(std::move(alternatives));
    if (u.depth() > kMaxSchemaDepth) return too_deep(start);
    return u;
  }

  // `A|B` and `A | B` both separate alternatives.
  bool bar_ahead() const {
    std::size_t i = pos_;
    while (i < src_.size() && (src_[i] == ' ' || src_[i] == '\t' || src_[i] == '\n' || src_[i] == '\r')) ++i;
    return i < src_.size() && src_[i] == '|';
  }

  Result<Schema> postfix(std::size_t depth) {
    std::size_t start = pos_;
    auto p = primary(depth);
    if (!p) return p;
    Schema s = *p;
    if (peek() == '[' && (s.kind() == Kind::Int || s.kind() == Kind::Float)) {
      auto r = refinement(s);
      if (!r) return r;
      s = *r;
    }
    if (peek() == '?') {
      ++pos_;
      s = Schema::maybe(s);
      if (peek() == '?') return err(pos_, "'?' may appear only once after a type");
    }
    if (s.depth() > kMaxSchemaDepth) return too_deep(start);
    return s;
  }

  Result<Schema> primary(std::size_t depth) {
    char c = peek();
    if (c == ':') return keyword_type();
    if (c == '[') {
      if (inline_malli()) {
        std::size_t at = pos_;
        auto v = edn::read_one(src_, at);
        if (!v) return v.error();
        auto s = malli::schema_from_edn(*v, src_);
        if (!s) return s;
        pos_ = at;
        return s;
      }
      std::size_t open = pos_++;
      skip_ws();
      if (peek() == ']') return err(open, "empty list type []; write [:any] for a list of anything");
      if (at_end()) return err(pos_, "unexpected end of input, expected a list item type");
      auto item = type(depth + 1);
      if (!item) return item;
      skip_ws();
      if (peek() != ']')
        return err(pos_, "expected ']' to close the list opened at column " + std::to_string(open + 1) + ", got " +
                             describe_here());
      ++pos_;
      return Schema::vector(*item);
    }
    if (c == '{') {
      ++pos_;
      auto f = fields('}', "field", depth + 1);
      if (!f) return f.error();
      return Schema::map(std::move(f).value());
    }
    if (at_end()) return err(pos_, "unexpected end of input, expected a type");
    return err(pos_, "expected a type, got " + describe_here() + "; valid types are " + std::string(kValidTypes));
  }

  // `[:set :int]` is Malli; `[:int]` and `[:map]` are shorthand lists.
  bool inline_malli() const {
    static const std::set<std::string_view> ops = {"vector", "sequential", "set", "map", "map-of",
                                                   "tuple",  "enum",       "or",  "and", "maybe"};
    std::size_t i = pos_ + 1;
    auto ws = [&](char ch) { return ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r' || ch == ','; };
    while (i < src_.size() && ws(src_[i])) ++i;
    if (i >= src_.size() || src_[i] != ':') return false;
    std::size_t start = ++i;
    while (i < src_.size() && word_char(src_[i])) ++i;
    if (!ops.count(src_.substr(start, i - start))) return false;
    if (i >= src_.size() || !ws(src_[i])) return false;
    while (i < src_.size() && ws(src_[i])) ++i;
    return i < src_.size() && src_[i] != ']';
  }

  Result<Schema> keyword_type() {
    std::size_t at = pos_++;
    std::size_t start = pos_;
    while (!at_end() && word_char(src_[pos_])) ++pos_;
    std::string_view name = src_.substr(start, pos_ - start);
    if (auto s = malli::primitive_type(name)) return *s;
    if (name == "enum") return enumeration(at);
    if (name.empty()) return err(at, "expected a type name after ':'; valid types are " + std::string(kValidTypes));
    return err(at, "unknown type :" + std::string(name) + "; valid types are " + std::string(kValidTypes));
  }

  Result<Schema> enumeration(std::size_t at) {
    if (peek() != '[') return err(pos_, "expected '[' right after :enum, e.g. :enum[low high]");
    ++pos_;
    std::vector<nlohmann::json> values;
    std::set<std::string, std::less<>> seen;  // a scan per value made 20 000 values take seconds
    for (;;) {
      while (!at_end() &&
             (src_[pos_] == ' ' || src_[pos_] == ',' || src_[pos_] == '\t' || src_[pos_] == '\n' || src_[pos_] == '\r'))
        ++pos_;
      if (at_end()) return err(pos_, "unexpected end of input, expected an enum value or ']'");
      if (peek() == ']') {
        ++pos_;
        break;
      }
      std::size_t value_at = pos_;
      std::string value;
      if (peek() == '"') {
        std::size_t p = pos_;
        auto v = edn::read_one(src_, p);
        if (!v) return v.error();
        value = v->text;
        pos_ = p;
      } else {
        while (!at_end() && (word_char(src_[pos_]) || src_[pos_] == '.')) ++pos_;
        if (pos_ == value_at)
          return err(pos_, "expected an enum value (a word or a \"string\"), got " + describe_here());
        value = std::string(src_.substr(value_at, pos_ - value_at));
      }
      if (!seen.insert(value).second) return err(value_at, "duplicate enum value " + text::quote(value));
      values.emplace_back(std::move(value));
    }
    if (values.empty()) return err(at, ":enum[] needs at least one value");
    return Schema::enumeration(std::move(values));
  }

  // `[>0]`, `[>=1]`, `[<10]`, `[<=10]`, `[1..100]`, `[0.0..1.0]` after :int / :float.
  Result<Schema> refinement(const Schema& base) {
    std::size_t open = pos_++;
    bool integral = base.kind() == Kind::Int;
    std::vector<Schema> parts{base};
    auto number = [&](nlohmann::json& out) -> std::optional<Error> {
      std::size_t start = pos_;
      if (peek() == '-') ++pos_;
      while (!at_end() &&
             ((src_[pos_] >= '0' && src_[pos_] <= '9') || src_[pos_] == '.' || src_[pos_] == 'e' || src_[pos_] == 'E' ||
              ((src_[pos_] == '+' || src_[pos_] == '-') && (src_[pos_ - 1] == 'e' || src_[pos_ - 1] == 'E')))) {
        if (src_[pos_] == '.' && pos_ + 1 < src_.size() && src_[pos_ + 1] == '.') break;  // the ".." of a range
        ++pos_;
      }
      std::string_view tok = src_.substr(start, pos_ - start);
      if (tok.empty() || tok == "-") return err(start, "expected a number, got " + describe_here());
      bool is_float = tok.find_first_of(".eE") != std::string_view::npos;
      if (!is_float) {
        std::int64_t i = 0;
        auto [p, ec] = std::from_chars(tok.data(), tok.data() + tok.size(), i);
        if (ec == std::errc::result_out_of_range)
          return err(start,
                     "integer " + std::string(tok) + " is out of range (-9223372036854775808..9223372036854775807)");
        if (ec != std::errc() || p != tok.data() + tok.size())
          return err(start, "malformed number '" + std::string(tok) + "'");
        out = i;
        return std::nullopt;
      }
      if (integral) return err(start, "bounds of :int must be integers, got " + std::string(tok));
      double d = 0;
      auto [p, ec] = std::from_chars(tok.data(), tok.data() + tok.size(), d);
      if (ec != std::errc() || p != tok.data() + tok.size() || !std::isfinite(d))
        return err(start, "malformed number '" + std::string(tok) + "'");
      out = d;
      return std::nullopt;
    };
    auto make = [](Refine op, const nlohmann::json& n) {
      return n.is_number_integer() ? Schema::refinement(op, n.get<std::int64_t>())
                                   : Schema::refinement(op, n.get<double>());
    };
    char c = peek();
    if (c == '>' || c == '<') {
      const std::size_t start = pos_++;
      if (peek() == '=') ++pos_;
      const Refine op = *refine_from_symbol(src_.substr(start, pos_ - start));
      nlohmann::json n;
      if (auto e = number(n)) return *e;
      parts.push_back(make(op, n));
    } else {
      nlohmann::json lo, hi;
      if (auto e = number(lo)) return *e;
      if (!src_.substr(pos_).starts_with(".."))
        return err(pos_, "expected '..' in a range such as [1..100], got " + describe_here());
      pos_ += 2;
      if (auto e = number(hi)) return *e;
      if (lo.get<double>() > hi.get<double>())
        return err(open + 1, "empty range: " + lo.dump() + " is greater than " + hi.dump());
      parts.push_back(make(Refine::Ge, lo));
      parts.push_back(make(Refine::Le, hi));
    }
    if (peek() != ']')
      return err(pos_, "expected ']' to close the refinement opened at column " + std::to_string(open + 1) + ", got " +
                           describe_here());
    ++pos_;
    return Schema::all_of(std::move(parts));
  }

  std::string_view src_;
  std::size_t pos_ = 0;
};

}  // namespace

Result<Signature> Signature::parse(std::string_view shorthand) { return Parser(shorthand).signature(); }

Result<Schema> parse_type(std::string_view shorthand) { return Parser(shorthand).lone_type(); }

Result<Signature> Signature::from_malli(std::string_view malli) {
  auto v = edn::read_all(malli);
  if (!v) return v.error();
  return malli::signature_from_edn(*v, malli);
}

Result<Schema> parse_malli_type(std::string_view malli) {
  auto v = edn::read_all(malli);
  if (!v) return v.error();
  return malli::schema_from_edn(*v, malli);
}

}  // namespace ptc
