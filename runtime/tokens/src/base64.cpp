#include "base64.hpp"

#include <array>
#include <cstdint>

namespace ptc::tokens {
namespace {

constexpr std::int8_t kInvalid = -1;

constexpr std::array<std::int8_t, 256> make_sextets() {
  std::array<std::int8_t, 256> table{};
  table.fill(kInvalid);
  constexpr std::string_view alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  for (std::size_t i = 0; i < alphabet.size(); ++i)
    table[static_cast<unsigned char>(alphabet[i])] = static_cast<std::int8_t>(i);
  return table;
}

constexpr auto kSextets = make_sextets();

}  // namespace

std::optional<std::string> base64_decode(std::string_view text) {
  if (text.size() % 4 != 0) return std::nullopt;
  std::size_t padding = 0;
  while (padding < 2 && padding < text.size() && text[text.size() - 1 - padding] == '=') ++padding;
  const std::size_t digits = text.size() - padding;
  std::string out;
  out.reserve(digits * 3 / 4);
  std::uint32_t bits = 0;
  int held = 0;
  for (std::size_t i = 0; i < digits; ++i) {
    const std::int8_t sextet = kSextets[static_cast<unsigned char>(text[i])];
    if (sextet == kInvalid) return std::nullopt;
    bits = ((bits << 6) | static_cast<std::uint32_t>(sextet)) & 0xFFFF;  // at most 14 bits are pending
    held += 6;
    if (held >= 8) {
      held -= 8;
      out.push_back(static_cast<char>((bits >> held) & 0xFF));
    }
  }
  // Bits left over must be zero, or two texts would decode to the same bytes.
  if ((bits & ((1u << held) - 1)) != 0) return std::nullopt;
  return out;
}

}  // namespace ptc::tokens
