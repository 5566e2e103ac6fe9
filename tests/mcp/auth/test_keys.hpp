#pragma once
// Keys made at test time (none is committed), their JWKS, and JWTs signed with them: what an
// authorization server would hand out, for the tests of src/auth.

#include <memory>
#include <string>
#include <string_view>

#include <openssl/evp.h>

#include <nlohmann/json.hpp>

namespace ptc::test {

class TestKey {
 public:
  /// A fresh RSA key of `bits` bits (RS256) or P-256 key (ES256).
  static TestKey rsa(std::string kid, int bits = 2048);
  static TestKey ec(std::string kid);

  /// The public key as a JWK, with kid (when not empty) and alg.
  nlohmann::json jwk() const;
  /// The JWS signature of `input` (r||s for ES256), base64url-encoded.
  std::string sign(std::string_view input) const;
  const std::string& alg() const { return alg_; }

 private:
  TestKey(EVP_PKEY* key, std::string kid, std::string alg);
  std::shared_ptr<EVP_PKEY> key_;
  std::string kid_;
  std::string alg_;
};

/// {"keys": [jwk...]} as text.
std::string jwks_text(std::initializer_list<const TestKey*> keys);

/// header.payload, each base64url-encoded JSON.
std::string unsigned_jwt(const nlohmann::json& header, const nlohmann::json& claims);

/// A JWT signed by `key`, whose header is {"alg": key.alg(), "typ": "JWT", "kid": kid} (no kid when
/// `kid` is empty) unless `header` is given.
std::string signed_jwt(const TestKey& key, const nlohmann::json& claims, std::string_view kid);
std::string signed_jwt_with_header(const TestKey& key, const nlohmann::json& header, const nlohmann::json& claims);

/// Seconds since the epoch now, for claims.
long long now_seconds();

}  // namespace ptc::test
