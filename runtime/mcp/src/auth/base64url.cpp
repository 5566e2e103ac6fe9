#include "base64url.hpp"

#include <cstdint>

namespace ptc::mcp::auth {
namespace {

constexpr char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

int digit(char c) {
  if (c >= 'A' && c <= 'Z') return c - 'A';
  if (c >= 'a' && c <= 'z') return c - 'a' + 26;
  if (c >= '0' && c <= '9') return c - '0' + 52;
  if (c == '-') return 62;
  if (c == '_') return 63;
  return -1;
}

}  // namespace

std::optional<std::string> base64url_decode(std::string_view text, std::size_t max_bytes) {
  if (text.size() % 4 == 1 || text.size() / 4 * 3 + text.size() % 4 * 3 / 4 > max_bytes) return std::nullopt;
  std::string out;
  out.reserve(text.size() / 4 * 3 + 2);
  std::uint32_t bits = 0;
  int count = 0;
  for (char c : text) {
    const int d = digit(c);
    if (d < 0) return std::nullopt;
    bits = ((bits << 6) | static_cast<std::uint32_t>(d)) & 0xFFFFFF;
    count += 6;
    if (count >= 8) {
      count -= 8;
      out.push_back(static_cast<char>((bits >> count) & 0xFF));
    }
  }
  // Left-over bits must be zero: otherwise "AB" and "AC" would decode alike, and a token could be
  // altered without changing what it says.
  if ((bits & ((1u << count) - 1)) != 0) return std::nullopt;
  return out;
}

std::string base64url_encode(std::string_view bytes) {
  std::string out;
  out.reserve((bytes.size() + 2) / 3 * 4);
  std::uint32_t bits = 0;
  int count = 0;
  for (char c : bytes) {
    bits = ((bits << 8) | static_cast<unsigned char>(c)) & 0xFFFFFF;
    count += 8;
    while (count >= 6) {
      count -= 6;
      out.push_back(kAlphabet[(bits >> count) & 0x3F]);
    }
  }
  if (count > 0) out.push_back(kAlphabet[(bits << (6 - count)) & 0x3F]);
  return out;
}

}  // namespace ptc::mcp::auth
