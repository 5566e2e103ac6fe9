#pragma once
// A JWKS read into the public keys JWT verification uses: RSA keys (RS256) and EC keys on P-256 (ES256).

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <openssl/evp.h>

#include <ptc/error.hpp>

namespace ptc::mcp::auth {

inline constexpr std::size_t kMaxJwksBytes = std::size_t{1} << 20;
inline constexpr std::size_t kMaxJwksKeys = 100;
inline constexpr int kMinRsaBits = 2048;
inline constexpr int kMaxRsaBits = 8192;

enum class Algorithm { RS256, ES256 };

struct Jwk {
  std::string kid;  ///< empty when the key has none
  Algorithm algorithm;
  std::shared_ptr<EVP_PKEY> key;
};

struct KeySet {
  std::vector<Jwk> keys;
};

/// The keys of `text` that sign with RS256 or ES256. Keys for other uses, algorithms or curves are
/// skipped; a key that would be used but is malformed, a kid used twice, or no usable key at all is an
/// error that starts with `source` ("keys.json: keys[1] (kid \"a\"): ...", "keys.json:3:7: invalid
/// JSON...").
Result<KeySet> parse_jwks(std::string_view jwks, std::string_view source);

}  // namespace ptc::mcp::auth
