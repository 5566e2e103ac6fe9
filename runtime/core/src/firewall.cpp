#include <ptc/firewall.hpp>

#include <ptc/validate.hpp>

#include <algorithm>
#include <array>
#include <cstring>

namespace ptc {
namespace {

void hide(const Schema& s, nlohmann::json& v) {
  switch (s.kind()) {
    case Kind::Map:
      if (!v.is_object()) return;
      for (const auto& e : s.entries()) {
        auto it = v.find(e.name);
        if (it == v.end()) continue;
        if (e.firewalled()) {
          *it = kFirewalled;
        } else {
          hide(e.schema, *it);
        }
      }
      return;
    case Kind::Vector:
    case Kind::Sequential:
    case Kind::Set:
      if (!v.is_array()) return;
      for (auto& item : v) hide(s.item(), item);
      return;
    case Kind::Tuple:
      if (!v.is_array()) return;
      for (std::size_t i = 0; i < v.size() && i < s.children().size(); ++i) hide(s.children()[i], v[i]);
      return;
    case Kind::MapOf:
      if (!v.is_object()) return;
      for (auto& [k, item] : v.items()) hide(s.value(), item);
      return;
    case Kind::Maybe:
      if (!v.is_null()) hide(s.item(), v);
      return;
    case Kind::And: hide(s.children().front(), v); return;
    case Kind::Or:
      // Hide through the alternative the value actually matches.
      for (const auto& alt : s.children()) {
        if (validate(alt, v, {Direction::Output, Mode::Enabled}).ok) {
          hide(alt, v);
          return;
        }
      }
      return;
    default: return;
  }
}

/// The bytes that end a number or a literal in compact JSON text, and the spaces it does not have.
constexpr std::array<bool, 256> kEndsScalar = [] {
  std::array<bool, 256> out{};
  for (const unsigned char c : std::string_view(",:]}[{\" \t\n\r")) out[c] = true;
  return out;
}();

/// Reads compact JSON text along a schema and writes it out with each firewalled field's value
/// replaced. Text between replacements is copied in one piece. Each call reads one value at `at_`;
/// recursion follows the schema, whose depth is bounded, and values the schema does not describe
/// further are passed over by a loop.
class TextHider {
 public:
  // The placeholder is about as long as a short value: the text keeps about its length.
  explicit TextHider(std::string_view in) : in_(in) { out_.reserve(in.size()); }

  std::optional<std::string> run(const Schema& s) {
    if (!value(s) || at_ != in_.size()) return std::nullopt;
    out_.append(in_.substr(copied_));
    return std::move(out_);
  }

 private:
  [[gnu::always_inline]] char peek() const { return at_ < in_.size() ? in_[at_] : '\0'; }
  [[gnu::always_inline]] bool take(char c) {
    if (peek() != c) return false;
    ++at_;
    return true;
  }

  /// Where the string starting at `at` (its opening quote) ends, past its closing quote; npos if it
  /// does not. A quote closes it when an even number of backslashes precede it.
  std::size_t string_end(std::size_t at) const {
    for (std::size_t from = at + 1;;) {
      const void* hit = std::memchr(in_.data() + from, '"', in_.size() - from);
      if (hit == nullptr) return std::string_view::npos;
      const auto quote = static_cast<std::size_t>(static_cast<const char*>(hit) - in_.data());
      std::size_t backslashes = 0;
      while (quote - backslashes > at + 1 && in_[quote - backslashes - 1] == '\\') ++backslashes;
      if (backslashes % 2 == 0) return quote + 1;
      from = quote + 1;
    }
  }

  /// Passes over the value at `at_`, nested ones included; false if the text ends inside it, brackets
  /// do not match or a space shows it is not compact.
  bool skip() {
    std::size_t depth = 0;
    do {
      const char c = peek();
      if (c == '"') {
        const std::size_t end = string_end(at_);
        if (end == std::string_view::npos) return false;
        at_ = end;
      } else if (c == '{' || c == '[') {
        ++depth;
        ++at_;
      } else if (c == '}' || c == ']') {
        if (depth == 0) return false;
        --depth;
        ++at_;
      } else if (c == ',' || c == ':') {
        if (depth == 0) return false;
        ++at_;
      } else {
        const std::size_t begin = at_;
        while (at_ < in_.size() && !kEndsScalar[static_cast<unsigned char>(in_[at_])]) ++at_;
        if (at_ == begin) return false;
      }
    } while (depth > 0);
    return true;
  }

  /// Passes over the value at `at_` and writes the placeholder in its place.
  bool hide() {
    const std::size_t begin = at_;
    if (!skip()) return false;
    out_.append(in_.substr(copied_, begin - copied_));
    out_ += '"';
    out_ += kFirewalled;
    out_ += '"';
    copied_ = at_;
    return true;
  }

  /// `[` items `]`, each read by `item(index)`.
  template <class Item>
  bool items(Item&& item) {
    if (!take('[')) return false;
    if (take(']')) return true;
    for (std::size_t i = 0;; ++i) {
      if (!item(i)) return false;
      if (take(']')) return true;
      if (!take(',')) return false;
    }
  }

  /// `{` members `}`, each read by `member(key)` past its key and colon; `key` is the raw text between
  /// the quotes.
  template <class Member>
  bool members(Member&& member) {
    if (!take('{')) return false;
    if (take('}')) return true;
    for (;;) {
      if (peek() != '"') return false;
      const std::size_t end = string_end(at_);
      if (end == std::string_view::npos) return false;
      const std::string_view key = in_.substr(at_ + 1, end - at_ - 2);
      at_ = end;
      if (!take(':') || !member(key)) return false;
      if (take('}')) return true;
      if (!take(',')) return false;
    }
  }

  bool value(const Schema& s) {
    // What holds no firewalled field stays as it is, whatever its keys look like.
    if (!has_firewalled_fields(s)) return skip();
    const char c = peek();
    switch (s.kind()) {
      case Kind::Map:
        if (c != '{') return skip();
        return members([&](std::string_view key) {
          if (key.find('\\') != std::string_view::npos) return false;  // firewall() compares unescaped names
          for (const auto& e : s.entries())
            if (e.name == key) return e.firewalled() ? hide() : value(e.schema);
          return skip();
        });
      case Kind::Vector:
      case Kind::Sequential:
      case Kind::Set:
        if (c != '[') return skip();
        return items([&](std::size_t) { return value(s.item()); });
      case Kind::Tuple:
        if (c != '[') return skip();
        return items([&](std::size_t i) { return i < s.children().size() ? value(s.children()[i]) : skip(); });
      case Kind::MapOf:
        if (c != '{') return skip();
        return members([&](std::string_view) { return value(s.value()); });
      case Kind::Maybe: return c == 'n' ? skip() : value(s.item());
      case Kind::And: return value(s.children().front());
      case Kind::Or: return false;  // which fields to hide depends on the alternative the value matches
      default: return skip();
    }
  }

  std::string_view in_;
  std::size_t at_ = 0;      // where reading is
  std::size_t copied_ = 0;  // how much of `in_` is in `out_`
  std::string out_;
};

}  // namespace

bool has_firewalled_fields(const Schema& s) {
  switch (s.kind()) {
    case Kind::Map:
      return std::any_of(s.entries().begin(), s.entries().end(),
                         [](const MapEntry& e) { return e.firewalled() || has_firewalled_fields(e.schema); });
    case Kind::MapOf: return has_firewalled_fields(s.value());
    case Kind::Vector:
    case Kind::Sequential:
    case Kind::Set:
    case Kind::Maybe: return has_firewalled_fields(s.item());
    case Kind::Tuple:
    case Kind::And:
    case Kind::Or: return std::any_of(s.children().begin(), s.children().end(), has_firewalled_fields);
    default: return false;
  }
}

std::optional<std::string> firewall_text(const Schema& schema, std::string_view json) {
  return TextHider(json).run(schema);
}

nlohmann::json firewall(const Schema& schema, const nlohmann::json& value) {
  nlohmann::json copy = value;
  hide(schema, copy);
  return copy;
}

}  // namespace ptc
