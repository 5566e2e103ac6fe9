// RE2 syntax (https://github.com/google/re2/wiki/Syntax) read one token at a time and written as the
// ECMA-262 pattern with the same meaning. The rules where the two differ:
// - `.` is any character but `\n` in RE2, but also excludes `\r`, U+2028 and U+2029 in ECMA: `[^\n]`.
// - `\s` is `[\t\n\f\r ]` in RE2, and also `\v` and Unicode spaces in ECMA: spelled out.
// - `\A`, `\z`, `\Q...\E`, `\a`, `\x{...}` and POSIX classes have no ECMA spelling: rewritten.
// - A `{` that is no repetition (`{,3}`, `{05}`, `{1234567890}`), and a `]` or `}` outside a class, are literal in RE2:
//   escaped.
// - Capture groups do not change what matches, so `(?P<name>...)` becomes `(...)`.
// - Flags, `\p{...}`, `\C`, octal escapes and characters beyond U+FFFF (whose meaning depends on ECMA's
//   `u` flag) are refused. ASCII classes (\d, \w, \b) mean the same in both.
// Escapes are written so that the pattern is valid with and without the `u` flag (which forbids
// escaping characters that are not syntax characters).

#include "ecma_regex.hpp"

#include <cctype>
#include <cstdint>
#include <cstdio>
#include <optional>

namespace ptc::detail {

namespace {

struct Posix {
  std::string_view name;
  std::string_view ranges;  // as ECMA class contents
};

// RE2's POSIX classes are ASCII.
constexpr Posix kPosix[] = {
    {"alnum", "0-9A-Za-z"},        {"alpha", "A-Za-z"},
    {"ascii", "\\x00-\\x7F"},      {"blank", "\\t "},
    {"cntrl", "\\x00-\\x1F\\x7F"}, {"digit", "0-9"},
    {"graph", "\\x21-\\x7E"},      {"lower", "a-z"},
    {"print", "\\x20-\\x7E"},      {"punct", "\\x21-\\x2F\\x3A-\\x40\\x5B-\\x60\\x7B-\\x7E"},
    {"space", "\\t\\n\\v\\f\\r "}, {"upper", "A-Z"},
    {"word", "0-9A-Za-z_"},        {"xdigit", "0-9A-Fa-f"},
};

constexpr std::string_view kSyntaxOutside = "^$\\.*+?()[]{}|/";
constexpr std::string_view kSyntaxInside = "\\]-^[";

std::string hex(std::uint32_t cp, int digits) {
  char buf[8];
  std::snprintf(buf, sizeof buf, "%0*X", digits, static_cast<unsigned>(cp));
  return buf;
}

bool is_digit(char c) { return c >= '0' && c <= '9'; }

class Translator {
 public:
  explicit Translator(std::string_view in) : in_(in) {}

  std::variant<std::string, PatternRefusal> run() {
    while (i_ < in_.size() && !refusal_) outside();
    if (refusal_) return *refusal_;
    return std::move(out_);
  }

 private:
  void refuse(std::string why, std::size_t at) {
    if (!refusal_) refusal_ = PatternRefusal{std::move(why) + " at offset " + std::to_string(at)};
  }
  char peek(std::size_t ahead = 0) const { return i_ + ahead < in_.size() ? in_[i_ + ahead] : '\0'; }

  // Two rules about what a quantifier follows. An assertion cannot carry one in ECMA-262 (`^{2}` is a
  // syntax error there, valid in RE2), but a group holding one can: `(?:^){2}` means the same. And RE2
  // refuses a quantifier on a quantifier only when they touch, so `a*\Q\E*` reaches us: refused, as
  // ECMA would need the repeated atom grouped. A token that writes nothing (`\Q\E`) changes neither.
  void outside() {
    const std::size_t start = out_.size();
    const std::size_t at = i_;
    const char c = in_[i_];
    const bool quantifier = c == '*' || c == '+' || c == '?' || (c == '{' && repeat_end());
    const bool lazy = c == '?' && last_ == Last::Quantifier && at == quantifier_end_;
    if (quantifier && !lazy && last_ != Last::Other) {
      if (last_ == Last::Assertion) {
        out_.insert(assertion_at_, "(?:");
        out_ += ')';
      } else {
        return refuse("a quantifier on a quantifier", at);
      }
    }
    const bool assertion =
        c == '^' || c == '$' || (c == '\\' && std::string_view("bBAz").find(peek(1)) != std::string_view::npos);
    token(c);
    if (out_.size() == start) return;
    if (lazy) {
      last_ = Last::Lazy;
    } else if (quantifier) {
      last_ = Last::Quantifier;
      quantifier_end_ = i_;
    } else if (assertion) {
      last_ = Last::Assertion;
      assertion_at_ = start;
    } else {
      last_ = Last::Other;
    }
  }

  void token(char c) {
    switch (c) {
      case '\\': escape(false); return;
      case '[': klass(); return;
      case '.':
        out_ += "[^\\n]";
        ++i_;
        return;
      case '(': group(); return;
      case '{': brace(); return;
      case ']':
      case '}':
        out_ += '\\';
        out_ += c;
        ++i_;
        return;
      case ')':
      case '|':
      case '*':
      case '+':
      case '?':
      case '^':
      case '$':
        out_ += c;
        ++i_;
        return;
      default: literal(false); return;
    }
  }

  // Captures do not change what matches: every group becomes a plain or non-capturing one.
  void group() {
    const std::size_t at = i_;
    if (peek(1) != '?') {
      out_ += '(';
      ++i_;
      return;
    }
    std::size_t name_start = 0;
    if (peek(2) == 'P' && peek(3) == '<') {
      name_start = i_ + 4;
    } else if (peek(2) == '<' && peek(3) != '=' && peek(3) != '!') {
      name_start = i_ + 3;
    } else if (peek(2) == ':') {
      out_ += "(?:";
      i_ += 3;
      return;
    } else {
      refuse("flags such as (?i) have no ECMA-262 form", at);
      return;
    }
    const std::size_t end = in_.find('>', name_start);
    if (end == std::string_view::npos) {
      refuse("an unterminated group name", at);
      return;
    }
    out_ += '(';
    i_ = end + 1;
  }

  // Where the `{` at i_ starts `{n}`, `{n,}` or `{n,m}`, the offset of its `}`; else 0.
  std::size_t repeat_end() const {
    std::size_t j = i_ + 1;
    // RE2 reads a count with a leading zero (`{05}`) or of more than 9 digits as text, not as a count.
    bool no_count = false;
    const auto digits = [&] {
      const std::size_t from = j;
      while (j < in_.size() && is_digit(in_[j])) ++j;
      no_count = no_count || (j - from > 1 && in_[from] == '0') || j - from > 9;
      return j > from;
    };
    bool repeat = digits();
    if (repeat && j < in_.size() && in_[j] == ',') {
      ++j;
      digits();
    }
    return repeat && !no_count && j < in_.size() && in_[j] == '}' ? j : 0;
  }

  // `{n}`, `{n,}`, `{n,m}` repeat; any other `{` is a literal in RE2.
  void brace() {
    if (const std::size_t j = repeat_end()) {
      out_.append(in_.substr(i_, j + 1 - i_));
      i_ = j + 1;
    } else {
      out_ += "\\{";
      ++i_;
    }
  }

  // One character as written (ASCII or a whole UTF-8 sequence), escaped where ECMA would read it as
  // syntax.
  void literal(bool in_class) {
    const auto c = static_cast<unsigned char>(in_[i_]);
    if (c < 0x80) {
      char_literal(static_cast<char>(c), in_class);
      ++i_;
      return;
    }
    const std::size_t length = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC0 ? 2 : 0;
    if (length == 0 || i_ + length > in_.size()) {
      refuse("invalid UTF-8", i_);
      return;
    }
    if (length == 4) {
      refuse("characters beyond U+FFFF mean different things with and without ECMA's u flag", i_);
      return;
    }
    out_.append(in_.substr(i_, length));
    i_ += length;
  }

  void char_literal(char c, bool in_class) {
    const auto u = static_cast<unsigned char>(c);
    if (u < 0x20 || u == 0x7F) {
      out_ += "\\x" + hex(u, 2);
      return;
    }
    if ((in_class ? kSyntaxInside : kSyntaxOutside).find(c) != std::string_view::npos) out_ += '\\';
    out_ += c;
  }

  void code_point(std::uint32_t cp, bool in_class, std::size_t at) {
    if (cp < 0x80) {
      char_literal(static_cast<char>(cp), in_class);
    } else if (cp <= 0xFF) {
      out_ += "\\x" + hex(cp, 2);
    } else if (cp >= 0xD800 && cp <= 0xDFFF) {
      refuse("a surrogate code point", at);
    } else if (cp <= 0xFFFF) {
      out_ += "\\u" + hex(cp, 4);
    } else {
      refuse("characters beyond U+FFFF mean different things with and without ECMA's u flag", at);
    }
  }

  // \x41 or \x{41}.
  void hex_escape(bool in_class, std::size_t at) {
    std::size_t j = i_ + 2;
    std::size_t end = 0;
    const bool braced = j < in_.size() && in_[j] == '{';
    if (braced) {
      end = in_.find('}', j);
      if (end == std::string_view::npos) return refuse("an unterminated \\x{...}", at);
      ++j;
    } else {
      end = j + 2;
    }
    if (end > in_.size() || end == j || end - j > 8) return refuse("a malformed \\x escape", at);
    std::uint32_t cp = 0;
    for (std::size_t k = j; k < end; ++k) {
      const char h = in_[k];
      const int v = is_digit(h)              ? h - '0'
                    : (h >= 'a' && h <= 'f') ? h - 'a' + 10
                    : (h >= 'A' && h <= 'F') ? h - 'A' + 10
                                             : -1;
      if (v < 0) return refuse("a malformed \\x escape", at);
      cp = cp * 16 + static_cast<std::uint32_t>(v);
      if (cp > 0x10FFFF) return refuse("a code point beyond U+10FFFF", at);
    }
    i_ = braced ? end + 1 : end;
    code_point(cp, in_class, at);
  }

  void escape(bool in_class) {
    const std::size_t at = i_;
    if (i_ + 1 >= in_.size()) return refuse("a trailing backslash", at);
    const char e = in_[i_ + 1];
    const auto emit = [&](std::string_view text) {
      out_ += text;
      i_ += 2;
    };
    switch (e) {
      case 'd':
      case 'D':
      case 'w':
      case 'W': return emit(in_.substr(i_, 2));
      case 'b':
      case 'B':
        if (in_class) return refuse("\\b inside a class", at);
        return emit(in_.substr(i_, 2));
      case 's': return emit(in_class ? "\\t\\n\\f\\r " : "[\\t\\n\\f\\r ]");
      case 'S':
        if (in_class) return refuse("\\S inside a class has no exact ECMA-262 form", at);
        return emit("[^\\t\\n\\f\\r ]");
      case 'A':
      case 'z':
        if (in_class) return refuse("\\" + std::string(1, e) + " inside a class", at);
        return emit(e == 'A' ? "^" : "$");
      case 'n':
      case 't':
      case 'r':
      case 'f':
      case 'v': return emit(in_.substr(i_, 2));
      case 'a': return emit("\\x07");
      case 'x': return hex_escape(in_class, at);
      case 'p':
      case 'P': return refuse("Unicode classes (\\p) need ECMA's u flag", at);
      case 'C': return refuse("\\C (any byte) has no ECMA-262 form", at);
      case 'Q': return quoted(in_class);
      case 'E': i_ += 2; return;  // a \E without \Q ends nothing
      default: break;
    }
    if (is_digit(e)) return refuse("octal escapes and back references have no exact ECMA-262 form", at);
    const auto u = static_cast<unsigned char>(e);
    if (u < 0x80 && !std::isalnum(u)) {
      // An escaped punctuation character is that character.
      char_literal(e, in_class);
      i_ += 2;
      return;
    }
    refuse("\\" + std::string(1, e) + " has no ECMA-262 form", at);
  }

  // \Q...\E: literal text.
  void quoted(bool in_class) {
    i_ += 2;
    while (i_ < in_.size() && !refusal_) {
      if (in_[i_] == '\\' && peek(1) == 'E') {
        i_ += 2;
        return;
      }
      literal(in_class);
    }
  }

  std::optional<std::string_view> posix_at(std::size_t j, bool& negated, std::size_t& end) const {
    if (in_.substr(j, 2) != "[:") return std::nullopt;
    const std::size_t close = in_.find(":]", j + 2);
    if (close == std::string_view::npos) return std::nullopt;
    std::string_view name = in_.substr(j + 2, close - j - 2);
    negated = name.starts_with('^');
    if (negated) name.remove_prefix(1);
    for (const auto& p : kPosix) {
      if (p.name == name) {
        end = close + 2;
        return p.ranges;
      }
    }
    return std::nullopt;
  }

  void klass() {
    const std::size_t at = i_;
    ++i_;
    bool negated = false;
    if (peek() == '^') {
      negated = true;
      ++i_;
    }
    // [[:^alpha:]] alone is a negated class of the POSIX ranges.
    bool posix_negated = false;
    std::size_t end = 0;
    if (auto ranges = posix_at(i_, posix_negated, end); ranges && posix_negated && peek(end - i_) == ']') {
      out_ += negated ? "[" : "[^";
      out_ += *ranges;
      out_ += ']';
      i_ = end + 1;
      return;
    }
    out_ += negated ? "[^" : "[";
    // Items are read as RE2 reads them: a POSIX class, a class escape (\d), or a character that a `-`
    // not followed by `]` makes the start of a range whose end is one character, even `[` (`[#-[:x]`
    // is the range #-[ then `:x`). A `-` that is not a range operator is written `\-`, so that ECMA
    // never reads a range RE2 did not (`[[:cntrl:]-u]` would end an ECMA range at \x7F).
    bool first = true;
    while (!refusal_) {
      if (i_ >= in_.size()) return refuse("an unterminated class", at);
      if (in_[i_] == ']' && !first) {
        out_ += ']';
        ++i_;
        return;
      }
      first = false;
      if (auto ranges = posix_at(i_, posix_negated, end)) {
        if (posix_negated) return refuse("a negated POSIX class among other items", i_);
        out_ += *ranges;
        i_ = end;
      } else if (peek() == '\\' && std::string_view("dDwWsS").find(peek(1)) != std::string_view::npos) {
        escape(true);
      } else {
        class_char();
        if (peek() == '-' && i_ + 1 < in_.size() && peek(1) != ']') {
          out_ += '-';
          ++i_;
          class_char();
        }
      }
    }
  }

  // One character of a class, as an escape or as written (a `-` as `\-`).
  void class_char() {
    if (peek() == '\\') {
      escape(true);
    } else {
      literal(true);
    }
  }

  std::string_view in_;
  std::size_t i_ = 0;
  std::string out_;
  // What the last token that wrote something was, for the rules in outside().
  enum class Last { Other, Assertion, Quantifier, Lazy };
  Last last_ = Last::Other;
  std::size_t assertion_at_ = 0;    // output offset of that assertion
  std::size_t quantifier_end_ = 0;  // input offset just past that quantifier
  std::optional<PatternRefusal> refusal_;
};

}  // namespace

std::variant<std::string, PatternRefusal> ecma_pattern(std::string_view re2) { return Translator(re2).run(); }

}  // namespace ptc::detail
