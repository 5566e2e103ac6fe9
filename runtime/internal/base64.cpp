#include "base64.hpp"

#include <cstdint>

namespace ptc::text {
namespace {

std::string_view alphabet_of(Base64Alphabet alphabet) {
  return alphabet == Base64Alphabet::Url ? "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
                                         : "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
}

int sextet(char c, Base64Alphabet alphabet) {
  if (c >= 'A' && c <= 'Z') return c - 'A';
  if (c >= 'a' && c <= 'z') return c - 'a' + 26;
  if (c >= '0' && c <= '9') return c - '0' + 52;
  const std::string_view last_two = alphabet_of(alphabet).substr(62);
  if (c == last_two[0]) return 62;
  if (c == last_two[1]) return 63;
  return -1;
}

}  // namespace

std::string base64_encode(std::string_view bytes, Base64Alphabet alphabet) {
  const std::string_view digits = alphabet_of(alphabet);
  std::string out;
  out.reserve((bytes.size() + 2) / 3 * 4);
  std::uint32_t bits = 0;
  int count = 0;
  for (char c : bytes) {
    bits = ((bits << 8) | static_cast<unsigned char>(c)) & 0xFFFFFF;
    count += 8;
    while (count >= 6) {
      count -= 6;
      out.push_back(digits[(bits >> count) & 0x3F]);
    }
  }
  if (count > 0) out.push_back(digits[(bits << (6 - count)) & 0x3F]);
  if (alphabet == Base64Alphabet::Standard) out.append((4 - out.size() % 4) % 4, '=');
  return out;
}

std::optional<std::string> base64_decode(std::string_view text, Base64Alphabet alphabet, std::size_t max_bytes) {
  if (alphabet == Base64Alphabet::Standard) {
    if (text.size() % 4 != 0) return std::nullopt;
    for (int padding = 0; padding < 2 && !text.empty() && text.back() == '='; ++padding) text.remove_suffix(1);
  } else if (text.size() % 4 == 1) {
    return std::nullopt;
  }
  if (text.size() / 4 * 3 + text.size() % 4 * 3 / 4 > max_bytes) return std::nullopt;
  std::string out;
  out.reserve(text.size() / 4 * 3 + 2);
  std::uint32_t bits = 0;
  int count = 0;
  for (char c : text) {
    const int d = sextet(c, alphabet);
    if (d < 0) return std::nullopt;
    bits = ((bits << 6) | static_cast<std::uint32_t>(d)) & 0xFFFFFF;
    count += 6;
    if (count >= 8) {
      count -= 8;
      out.push_back(static_cast<char>((bits >> count) & 0xFF));
    }
  }
  // Left-over bits must be zero: otherwise "AB" and "AC" would decode alike, and a signed token could
  // be altered without changing what it says.
  if ((bits & ((1u << count) - 1)) != 0) return std::nullopt;
  return out;
}

}  // namespace ptc::text
