#include <array>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <system_error>

#include <sys/random.h>

#include <ptc/uuid.hpp>

namespace ptc {

namespace {

/// Each byte's two hex digits, so that formatting writes two characters per lookup.
constexpr std::array<char, 512> kHexPairs = [] {
  constexpr char kHex[] = "0123456789abcdef";
  std::array<char, 512> out{};
  for (std::size_t i = 0; i < 256; ++i) {
    out[2 * i] = kHex[i >> 4];
    out[2 * i + 1] = kHex[i & 0x0f];
  }
  return out;
}();

/// `bytes` as a version 4 UUID's text, in `text`: the version and variant bits set, the rest as they are.
void format_uuid(std::array<std::uint8_t, 16> bytes, std::string& text) {
  bytes[6] = static_cast<std::uint8_t>((bytes[6] & 0x0f) | 0x40);  // version 4
  bytes[8] = static_cast<std::uint8_t>((bytes[8] & 0x3f) | 0x80);  // RFC 4122 variant
  // Where each byte's digits go in 8-4-4-4-12; the dashes sit between the groups.
  static constexpr std::array<std::uint8_t, 16> kAt = {0, 2, 4, 6, 9, 11, 14, 16, 19, 21, 24, 26, 28, 30, 32, 34};
  text.assign(36, '-');
  for (std::size_t i = 0; i < bytes.size(); ++i) std::memcpy(&text[kAt[i]], &kHexPairs[2 * bytes[i]], 2);
}

}  // namespace

void assign_uuid(std::string& out) {
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
  format_uuid(bytes, out);
}

std::string make_uuid() {
  std::string text;
  assign_uuid(text);
  return text;
}

std::string make_secret_uuid() {
  std::array<std::uint8_t, 16> bytes{};
  std::size_t filled = 0;
  while (filled < bytes.size()) {
    // Up to 256 bytes come whole once the kernel's generator is ready; a signal may still interrupt.
    const ssize_t n = getrandom(bytes.data() + filled, bytes.size() - filled, 0);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) throw std::system_error(errno, std::generic_category(), "getrandom");
    filled += static_cast<std::size_t>(n);
  }
  std::string text;
  format_uuid(bytes, text);
  return text;
}

}  // namespace ptc
