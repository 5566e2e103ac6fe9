#pragma once
// Rank files made in the test: the 256 single bytes (rank = byte), then the tokens given, in order.
#include <string>
#include <vector>

namespace ptc_test {

inline std::string base64(const std::string& bytes) {
  static constexpr char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  std::size_t i = 0;
  for (; i + 3 <= bytes.size(); i += 3) {
    const unsigned v = (static_cast<unsigned char>(bytes[i]) << 16) | (static_cast<unsigned char>(bytes[i + 1]) << 8) |
                       static_cast<unsigned char>(bytes[i + 2]);
    for (int shift = 18; shift >= 0; shift -= 6) out += kAlphabet[(v >> shift) & 63];
  }
  if (bytes.size() - i == 1) {
    const unsigned v = static_cast<unsigned char>(bytes[i]) << 16;
    out += std::string{kAlphabet[v >> 18], kAlphabet[(v >> 12) & 63], '=', '='};
  } else if (bytes.size() - i == 2) {
    const unsigned v = (static_cast<unsigned char>(bytes[i]) << 16) | (static_cast<unsigned char>(bytes[i + 1]) << 8);
    out += std::string{kAlphabet[v >> 18], kAlphabet[(v >> 12) & 63], kAlphabet[(v >> 6) & 63], '='};
  }
  return out;
}

inline std::string rank_file(const std::vector<std::string>& merges) {
  std::string text;
  unsigned rank = 0;
  for (int byte = 0; byte < 256; ++byte)
    text += base64(std::string(1, static_cast<char>(byte))) + " " + std::to_string(rank++) + "\n";
  for (const std::string& token : merges) text += base64(token) + " " + std::to_string(rank++) + "\n";
  return text;
}

}  // namespace ptc_test
