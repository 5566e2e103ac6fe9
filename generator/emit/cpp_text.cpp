#include "emit/cpp_text.hpp"

namespace ptcgen::emit {

std::string string_literal(std::string_view text) {
  static constexpr char digits[] = "01234567";
  std::string out = "\"";
  for (char ch : text) {
    const auto c = static_cast<unsigned char>(ch);
    switch (ch) {
      case '"': out += "\\\""; continue;
      case '\\': out += "\\\\"; continue;
      // `??=` and the like would be trigraphs (C++14 and before) and draw -Wtrigraphs after.
      case '?': out += "\\?"; continue;
      case '\n': out += "\\n"; continue;
      case '\t': out += "\\t"; continue;
      default: break;
    }
    if (c >= 0x20 && c < 0x7f) {
      out += ch;
    } else {
      // Three octal digits always end the escape, so the next character cannot extend it.
      out += '\\';
      out += digits[(c >> 6) & 7];
      out += digits[(c >> 3) & 7];
      out += digits[c & 7];
    }
  }
  return out + "\"";
}

std::string raw_string(std::string_view text) {
  // C++ allows at most 16 characters in a raw string's delimiter. Every delimiter the text could close
  // is collected once (one per ')'), then "ptc", "ptc0", "ptc1", ... is taken up to the first free one:
  // a counter in base 36 needs 13 digits only past 36^13 ')' characters.
  constexpr std::size_t kMaxDelimiter = 16;
  std::set<std::string_view> taken;
  for (auto close = text.find(')'); close != std::string_view::npos; close = text.find(')', close + 1)) {
    const auto quote = text.find('"', close + 1);
    if (quote != std::string_view::npos && quote - close - 1 <= kMaxDelimiter)
      taken.insert(text.substr(close + 1, quote - close - 1));
  }
  static constexpr char kDigits[] = "0123456789abcdefghijklmnopqrstuvwxyz";
  std::string delimiter = "ptc";
  for (unsigned long long n = 0; taken.count(delimiter); ++n) {
    delimiter = "ptc";
    std::string digits;
    for (unsigned long long k = n; digits.empty() || k > 0; k /= 36) digits.insert(digits.begin(), kDigits[k % 36]);
    delimiter += digits;
  }
  return "R\"" + delimiter + "(" + std::string(text) + ")" + delimiter + "\"";
}

std::string IdentifierNamer::make(std::string_view name) {
  std::string base;
  for (char c : name) {
    const bool word = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
    if (word) {
      base += c;
    } else if (!base.empty() && base.back() != '_') {
      base += '_';
    }
  }
  while (!base.empty() && base.back() == '_') base.pop_back();
  if (base.empty() || (base.front() >= '0' && base.front() <= '9')) base.insert(0, "t_");
  std::string id = base;
  for (int n = 2; used_.count(id); ++n) id = base + "_" + std::to_string(n);
  used_.insert(id);
  return id;
}

}  // namespace ptcgen::emit
