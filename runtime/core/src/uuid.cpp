#include <array>
#include <cstdint>
#include <random>
#include <string>

#include <ptc/uuid.hpp>

namespace ptc {

std::string make_uuid() {
  // Seeded from 256 bits of the OS's entropy: one 32-bit seed would allow only 2^32 sequences.
  thread_local std::mt19937_64 engine = [] {
    std::random_device device;
    std::seed_seq seed{device(), device(), device(), device(), device(), device(), device(), device()};
    return std::mt19937_64(seed);
  }();
  std::array<std::uint8_t, 16> bytes{};
  for (std::size_t i = 0; i < bytes.size(); i += 8) {
    std::uint64_t r = engine();
    for (std::size_t j = 0; j < 8; ++j) bytes[i + j] = static_cast<std::uint8_t>(r >> (8 * j));
  }
  bytes[6] = static_cast<std::uint8_t>((bytes[6] & 0x0f) | 0x40);  // version 4
  bytes[8] = static_cast<std::uint8_t>((bytes[8] & 0x3f) | 0x80);  // RFC 4122 variant
  static constexpr char kHex[] = "0123456789abcdef";
  char text[36];
  char* at = text;
  for (std::size_t i = 0; i < bytes.size(); ++i) {
    if (i == 4 || i == 6 || i == 8 || i == 10) *at++ = '-';
    *at++ = kHex[bytes[i] >> 4];
    *at++ = kHex[bytes[i] & 0x0f];
  }
  return std::string(text, sizeof text);  // one allocation, no growth checks per character
}

}  // namespace ptc
