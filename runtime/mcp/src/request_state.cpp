#include "request_state.hpp"

#include <fcntl.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <optional>
#include <stdexcept>
#include <system_error>

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>

#include "auth/base64url.hpp"

namespace ptc::mcp {
namespace {

constexpr unsigned char kVersion = 1;
constexpr std::size_t kExpiryBytes = 8;
constexpr std::size_t kMacBytes = 32;
constexpr std::size_t kHeaderBytes = 1 + kExpiryBytes;
/// A key file is 64 hex digits and a newline; anything much longer is not a key file.
constexpr std::size_t kMaxKeyFileBytes = 4096;
constexpr std::size_t kMinKeyHexDigits = 2 * StateKey::kBytes;
/// Separates this use of the file's secret from any other the operator gives the same file.
constexpr std::string_view kKeyLabel = "ptc mcp request state v1";

void put_u64(std::string& out, std::uint64_t v) {
  for (int shift = 56; shift >= 0; shift -= 8) out.push_back(static_cast<char>((v >> shift) & 0xff));
}

std::uint64_t get_u64(std::string_view in) {
  std::uint64_t v = 0;
  for (std::size_t i = 0; i < kExpiryBytes; ++i) v = (v << 8) | static_cast<unsigned char>(in[i]);
  return v;
}

std::int64_t unix_millis(std::chrono::system_clock::time_point t) {
  return std::chrono::duration_cast<std::chrono::milliseconds>(t.time_since_epoch()).count();
}

void hmac_sha256(const unsigned char* key, std::size_t key_size, std::string_view data, unsigned char* out) {
  unsigned int size = 0;
  if (HMAC(EVP_sha256(), key, static_cast<int>(key_size), reinterpret_cast<const unsigned char*>(data.data()),
           data.size(), out, &size) == nullptr ||
      size != kMacBytes)
    throw std::runtime_error("HMAC-SHA256 is not available from OpenSSL");
}

/// Wipes a string that held secret bytes before its memory goes back to the allocator.
struct Wiped {
  std::string text;
  ~Wiped() { OPENSSL_cleanse(text.data(), text.size()); }
};

std::string key_file_error(const std::string& path, std::string_view problem) {
  return "state key file " + path + " " + std::string(problem);
}

/// At most kMaxKeyFileBytes + 1 bytes of `fd`, so a huge file is seen to be too long without being read.
bool read_bounded(int fd, std::string& out) {
  out.resize(kMaxKeyFileBytes + 1);
  std::size_t got = 0;
  while (got < out.size()) {
    const auto n = ::read(fd, out.data() + got, out.size() - got);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return false;
    if (n == 0) break;
    got += static_cast<std::size_t>(n);
  }
  out.resize(got);
  return true;
}

/// Fills `contents` once the file is known to be a private regular file; else the reason it is not.
std::optional<Error> read_private_file(const std::string& path, Wiped& contents) {
  const auto unreadable = [&path] { return Error{"cannot read state key file " + path + ": " + std::strerror(errno)}; };
  // O_NONBLOCK: a FIFO named as the key file must not hang the server's start.
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
  if (fd < 0) return unreadable();
  struct stat st {};
  std::optional<Error> problem;
  if (::fstat(fd, &st) != 0) {
    problem = unreadable();
  } else if (!S_ISREG(st.st_mode)) {
    problem = Error{key_file_error(path, "is not a regular file")};
  } else if ((st.st_mode & (S_IRWXG | S_IRWXO)) != 0) {
    char mode[8];
    std::snprintf(mode, sizeof mode, "%04o", static_cast<unsigned>(st.st_mode & 07777));
    problem = Error{key_file_error(path, std::string("is open to group or others (mode ") + mode +
                                             "); make it private: chmod 600 " + path)};
  } else if (!read_bounded(fd, contents.text)) {
    problem = unreadable();
  }
  ::close(fd);
  return problem;
}

int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

/// The secret bytes the hex text spells, or false when it is not a whole number of hex bytes.
bool unhex(std::string_view text, std::string& out) {
  if (text.size() % 2 != 0) return false;
  out.resize(text.size() / 2);
  for (std::size_t i = 0; i < out.size(); ++i) {
    const int hi = hex_digit(text[2 * i]), lo = hex_digit(text[2 * i + 1]);
    if (hi < 0 || lo < 0) return false;
    out[i] = static_cast<char>(hi << 4 | lo);
  }
  return true;
}

}  // namespace

StateKey::~StateKey() { OPENSSL_cleanse(bytes_.data(), bytes_.size()); }

StateKey StateKey::random() {
  StateKey key;
  std::size_t got = 0;
  while (got < key.bytes_.size()) {
    const auto n = ::getrandom(key.bytes_.data() + got, key.bytes_.size() - got, 0);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) throw std::system_error(errno, std::generic_category(), "getrandom");
    got += static_cast<std::size_t>(n);
  }
  return key;
}

Result<StateKey> StateKey::from_file(const std::string& path) {
  Wiped contents, secret;
  if (auto problem = read_private_file(path, contents)) return *std::move(problem);
  if (contents.text.size() > kMaxKeyFileBytes)
    return Error{key_file_error(path, "is too long: a key file holds 64 hex digits (openssl rand -hex 32)")};
  std::string_view text = contents.text;
  if (text.size() >= 1 && text.back() == '\n') text.remove_suffix(1);
  if (text.size() >= 1 && text.back() == '\r') text.remove_suffix(1);
  if (text.size() < kMinKeyHexDigits || !unhex(text, secret.text))
    return Error{
        key_file_error(path, "must hold at least 64 hex digits (32 bytes of secret), e.g. from openssl rand -hex 32")};
  StateKey key;
  hmac_sha256(reinterpret_cast<const unsigned char*>(secret.text.data()), secret.text.size(), kKeyLabel,
              key.bytes_.data());
  return key;
}

Result<StateKey> load_state_key(const std::string& file) {
  if (file.empty()) return StateKey::random();
  return StateKey::from_file(file);
}

std::string seal(const StateKey& key, std::string_view payload, std::chrono::system_clock::time_point expires) {
  if (payload.size() > kMaxRequestStatePayloadBytes)
    throw std::length_error("request state payload over kMaxRequestStatePayloadBytes");
  std::string bytes;
  bytes.reserve(kHeaderBytes + payload.size() + kMacBytes);
  bytes.push_back(static_cast<char>(kVersion));
  put_u64(bytes, static_cast<std::uint64_t>(unix_millis(expires)));
  bytes.append(payload);
  unsigned char mac[kMacBytes];
  hmac_sha256(key.bytes_.data(), key.bytes_.size(), bytes, mac);
  bytes.append(reinterpret_cast<const char*>(mac), kMacBytes);
  return auth::base64url_encode(bytes);
}

Result<std::string> open(const StateKey& key, std::string_view token, std::chrono::system_clock::time_point now) {
  if (token.size() > kMaxRequestStateBytes) return Error{"request state too large"};
  // Only the canonical spelling decodes (no padding, no stray bits), so exactly one token text stands
  // for each sealed byte string and an edit to the text is an edit to the bytes.
  auto decoded = auth::base64url_decode(token, kMaxRequestStateBytes);
  if (!decoded || decoded->size() < kHeaderBytes + kMacBytes || static_cast<unsigned char>((*decoded)[0]) != kVersion)
    return Error{"request state malformed"};
  const std::string& bytes = *decoded;
  const std::string_view sealed = std::string_view(bytes).substr(0, bytes.size() - kMacBytes);
  unsigned char mac[kMacBytes];
  hmac_sha256(key.bytes_.data(), key.bytes_.size(), sealed, mac);
  if (CRYPTO_memcmp(mac, bytes.data() + sealed.size(), kMacBytes) != 0) return Error{"request state tampered with"};
  // Read only once the MAC vouches for it.
  const auto expires = static_cast<std::int64_t>(get_u64(sealed.substr(1)));
  if (unix_millis(now) >= expires) return Error{"request state expired"};
  return std::string(sealed.substr(kHeaderBytes));
}

}  // namespace ptc::mcp
