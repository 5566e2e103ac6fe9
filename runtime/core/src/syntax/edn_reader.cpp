#include "edn_reader.hpp"

#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdlib>

#include "text.hpp"

namespace ptc::edn {
namespace {

bool symbol_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
         std::string_view("*+!_?<>=/.-&'#").find(c) != std::string_view::npos;
}

class Reader {
 public:
  Reader(std::string_view src, std::size_t pos) : src_(src), pos_(pos) {}

  Result<Value> value(std::size_t depth) {
    skip_space();
    if (pos_ >= src_.size()) return err(pos_, "unexpected end of input, expected a value");
    if (depth > kMaxDepth) return err(pos_, "nesting deeper than " + std::to_string(kMaxDepth) + " levels");
    char c = src_[pos_];
    if (c == '[') return collection(Value::Type::Vector, ']', depth);
    if (c == '{') return collection(Value::Type::Map, '}', depth);
    if (c == '"') return string();
    if (c == ':') return keyword();
    if (c == ']' || c == '}' || c == ')') return err(pos_, std::string("unexpected '") + c + "'");
    if ((c >= '0' && c <= '9') ||
        ((c == '-' || c == '+') && pos_ + 1 < src_.size() && src_[pos_ + 1] >= '0' && src_[pos_ + 1] <= '9'))
      return number();
    if (symbol_char(c)) return symbol();
    return err(pos_, std::string("unexpected character '") + printable(c) + "'");
  }

  std::size_t pos() const { return pos_; }
  void skip_space() {
    while (pos_ < src_.size()) {
      char c = src_[pos_];
      if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == ',') {
        ++pos_;
      } else if (c == ';') {
        while (pos_ < src_.size() && src_[pos_] != '\n') ++pos_;
      } else {
        break;
      }
    }
  }

 private:
  static std::string printable(char c) {
    if (static_cast<unsigned char>(c) < 0x20 || static_cast<unsigned char>(c) >= 0x7f) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02x", static_cast<unsigned char>(c));
      return buf;
    }
    return std::string(1, c);
  }

  Error err(std::size_t at, std::string message) const { return text::error_at(src_, at, std::move(message)); }

  Result<Value> collection(Value::Type type, char close, std::size_t depth) {
    Value v;
    v.type = type;
    v.offset = pos_;
    ++pos_;
    for (;;) {
      skip_space();
      if (pos_ >= src_.size()) return err(pos_, std::string("unexpected end of input, expected '") + close + "'");
      if (src_[pos_] == close) {
        ++pos_;
        break;
      }
      auto item = value(depth + 1);
      if (!item) return item.error();
      v.items.push_back(std::move(item).value());
    }
    if (type == Value::Type::Map && v.items.size() % 2 != 0)
      return err(v.offset, "a map needs an even number of forms (key value pairs)");
    return v;
  }

  Result<Value> string() {
    Value v;
    v.type = Value::Type::String;
    v.offset = pos_;
    ++pos_;
    std::string out;
    while (pos_ < src_.size() && src_[pos_] != '"') {
      char c = src_[pos_];
      if (c != '\\') {
        out += c;
        ++pos_;
        continue;
      }
      if (pos_ + 1 >= src_.size()) break;
      char e = src_[pos_ + 1];
      switch (e) {
        case '"': out += '"'; break;
        case '\\': out += '\\'; break;
        case 'n': out += '\n'; break;
        case 't': out += '\t'; break;
        case 'r': out += '\r'; break;
        case 'b': out += '\b'; break;
        case 'f': out += '\f'; break;
        case '/': out += '/'; break;
        case 'u': {
          auto cp = hex4(pos_ + 2);
          if (cp < 0) return err(pos_, "\\u must be followed by four hex digits");
          std::size_t consumed = 6;
          if (cp >= 0xD800 && cp <= 0xDBFF) {
            // A surrogate pair spells one code point above U+FFFF.
            long lo = (pos_ + 7 < src_.size() && src_[pos_ + 6] == '\\' && src_[pos_ + 7] == 'u') ? hex4(pos_ + 8) : -1;
            if (lo < 0xDC00 || lo > 0xDFFF) return err(pos_, "unpaired UTF-16 surrogate in \\u escape");
            cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
            consumed = 12;
          } else if (cp >= 0xDC00 && cp <= 0xDFFF) {
            return err(pos_, "unpaired UTF-16 surrogate in \\u escape");
          }
          append_utf8(out, static_cast<unsigned long>(cp));
          pos_ += consumed;
          continue;
        }
        default: return err(pos_, std::string("unknown escape '\\") + printable(e) + "'");
      }
      pos_ += 2;
    }
    if (pos_ >= src_.size()) return err(v.offset, "unterminated string");
    ++pos_;
    v.text = std::move(out);
    return v;
  }

  long hex4(std::size_t at) const {
    if (at + 4 > src_.size()) return -1;
    long cp = 0;
    for (std::size_t i = at; i < at + 4; ++i) {
      char c = src_[i];
      int d = (c >= '0' && c <= '9')   ? c - '0'
              : (c >= 'a' && c <= 'f') ? c - 'a' + 10
              : (c >= 'A' && c <= 'F') ? c - 'A' + 10
                                       : -1;
      if (d < 0) return -1;
      cp = cp * 16 + d;
    }
    return cp;
  }

  static void append_utf8(std::string& out, unsigned long cp) {
    if (cp < 0x80) {
      out += static_cast<char>(cp);
    } else if (cp < 0x800) {
      out += static_cast<char>(0xC0 | (cp >> 6));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
      out += static_cast<char>(0xE0 | (cp >> 12));
      out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    } else {
      out += static_cast<char>(0xF0 | (cp >> 18));
      out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
      out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    }
  }

  Result<Value> keyword() {
    Value v;
    v.type = Value::Type::Keyword;
    v.offset = pos_;
    std::size_t start = ++pos_;
    while (pos_ < src_.size() && symbol_char(src_[pos_])) ++pos_;
    if (pos_ == start) return err(v.offset, "expected a keyword name after ':'");
    v.text = std::string(src_.substr(start, pos_ - start));
    return v;
  }

  Result<Value> symbol() {
    Value v;
    v.offset = pos_;
    std::size_t start = pos_;
    while (pos_ < src_.size() && symbol_char(src_[pos_])) ++pos_;
    v.text = std::string(src_.substr(start, pos_ - start));
    if (v.text == "true" || v.text == "false") {
      v.type = Value::Type::Bool;
      v.boolean = v.text == "true";
    } else if (v.text == "nil") {
      v.type = Value::Type::Nil;
    } else {
      v.type = Value::Type::Symbol;
    }
    return v;
  }

  Result<Value> number() {
    Value v;
    v.offset = pos_;
    std::size_t start = pos_;
    while (pos_ < src_.size() && symbol_char(src_[pos_])) ++pos_;
    std::string tok(src_.substr(start, pos_ - start));
    std::string_view digits = tok;
    if (!digits.empty() && digits[0] == '+') digits.remove_prefix(1);
    bool is_float = tok.find_first_of(".eE") != std::string::npos;
    if (!is_float) {
      std::int64_t i = 0;
      auto [p, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), i);
      if (ec == std::errc::result_out_of_range)
        return err(start, "integer " + tok + " is out of range (" +
                              std::string("-9223372036854775808..9223372036854775807") + ")");
      if (ec != std::errc() || p != digits.data() + digits.size()) return err(start, "malformed number '" + tok + "'");
      v.type = Value::Type::Int;
      v.integer = i;
      return v;
    }
    double d = 0;
    auto [p, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), d);
    if (ec != std::errc() || p != digits.data() + digits.size() || !std::isfinite(d))
      return err(start, "malformed number '" + tok + "'");
    v.type = Value::Type::Float;
    v.real = d;
    return v;
  }

  std::string_view src_;
  std::size_t pos_;
};

}  // namespace

Result<Value> read_one(std::string_view source, std::size_t& offset) {
  Reader r(source, offset);
  auto v = r.value(0);
  if (v) offset = r.pos();
  return v;
}

Result<Value> read_all(std::string_view source) {
  if (auto bad = text::invalid_utf8_at(source)) return text::error_at(source, *bad, "invalid UTF-8");
  std::size_t pos = 0;
  Reader r(source, 0);
  r.skip_space();
  if (r.pos() >= source.size()) return text::error_at(source, r.pos(), "empty input, expected a schema");
  pos = r.pos();
  auto v = read_one(source, pos);
  if (!v) return v;
  Reader tail(source, pos);
  tail.skip_space();
  if (tail.pos() < source.size()) return text::error_at(source, tail.pos(), "unexpected text after the schema");
  return v;
}

std::string describe(const Value& v) {
  switch (v.type) {
    case Value::Type::Vector: return "a vector";
    case Value::Type::Map: return "a map";
    case Value::Type::Keyword: return "keyword :" + v.text;
    case Value::Type::String: return "string " + text::quote(text::excerpt(v.text, 40));
    case Value::Type::Int: return "number " + std::to_string(v.integer);
    case Value::Type::Float: return "number";
    case Value::Type::Bool: return v.boolean ? "true" : "false";
    case Value::Type::Nil: return "nil";
    case Value::Type::Symbol: return "symbol " + text::excerpt(v.text, 40);
  }
  return "a value";
}

}  // namespace ptc::edn
