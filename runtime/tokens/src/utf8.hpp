#pragma once
// UTF-8 as the splitter needs it: where a well-formed character ends, and what JavaScript's `\s`
// matches (gpt-tokenizer's regexes are JavaScript's, and RE2's own `\s` is ASCII only).

#include <cstddef>
#include <string_view>

namespace ptc::tokens {

/// The byte length (1 to 4) of the well-formed UTF-8 character at `s[i]`, or 0 when the bytes there
/// are not one: a stray continuation byte, a truncated sequence, an overlong form, a surrogate or a
/// code point above U+10FFFF. What a JavaScript string can hold, so what the oracle can see.
inline std::size_t utf8_length(std::string_view s, std::size_t i) {
  const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
  const unsigned c = byte(i);
  if (c < 0x80) return 1;
  std::size_t len = 0;
  unsigned lo = 0x80, hi = 0xBF;  // the range of the second byte, narrowed where forms are forbidden
  if (c >= 0xC2 && c <= 0xDF) {
    len = 2;
  } else if (c >= 0xE0 && c <= 0xEF) {
    len = 3;
    if (c == 0xE0) lo = 0xA0;  // overlong
    if (c == 0xED) hi = 0x9F;  // surrogates
  } else if (c >= 0xF0 && c <= 0xF4) {
    len = 4;
    if (c == 0xF0) lo = 0x90;  // overlong
    if (c == 0xF4) hi = 0x8F;  // above U+10FFFF
  } else {
    return 0;
  }
  if (s.size() - i < len) return 0;
  if (byte(i + 1) < lo || byte(i + 1) > hi) return 0;
  for (std::size_t k = 2; k < len; ++k)
    if ((byte(i + k) & 0xC0) != 0x80) return 0;
  return len;
}

/// The code point of the well-formed character of `len` bytes at `s[i]`.
inline char32_t utf8_decode(std::string_view s, std::size_t i, std::size_t len) {
  static constexpr unsigned kLeadMask[] = {0, 0x7F, 0x1F, 0x0F, 0x07};
  char32_t cp = static_cast<unsigned char>(s[i]) & kLeadMask[len];
  for (std::size_t k = 1; k < len; ++k) cp = (cp << 6) | (static_cast<unsigned char>(s[i + k]) & 0x3F);
  return cp;
}

/// JavaScript's `\s` (ECMA-262 WhiteSpace and LineTerminator) as the inside of an RE2 character class.
/// Unicode's White_Space differs in two places: it has U+0085, JavaScript has U+FEFF instead.
inline constexpr std::string_view kJsSpaceClass =
    "\\t\\n\\x0B\\f\\r \\x{A0}\\x{1680}\\x{2000}-\\x{200A}\\x{2028}\\x{2029}\\x{202F}\\x{205F}\\x{3000}\\x{FEFF}";

/// Whether `cp` is in kJsSpaceClass.
constexpr bool is_js_space(char32_t cp) {
  return (cp >= 0x09 && cp <= 0x0D) || cp == 0x20 || cp == 0xA0 || cp == 0x1680 || (cp >= 0x2000 && cp <= 0x200A) ||
         cp == 0x2028 || cp == 0x2029 || cp == 0x202F || cp == 0x205F || cp == 0x3000 || cp == 0xFEFF;
}

}  // namespace ptc::tokens
