#include "test_keys.hpp"

#include <chrono>
#include <stdexcept>

#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/ec.h>

#include "auth/base64url.hpp"

namespace ptc::test {
namespace {

using ptc::mcp::auth::base64url_encode;

std::string bn_bytes(const EVP_PKEY* key, const char* name, int pad) {
  BIGNUM* bn = nullptr;
  if (EVP_PKEY_get_bn_param(key, name, &bn) != 1) throw std::runtime_error("EVP_PKEY_get_bn_param");
  const int size = pad > 0 ? pad : BN_num_bytes(bn);
  std::string out(static_cast<std::size_t>(size), '\0');
  BN_bn2binpad(bn, reinterpret_cast<unsigned char*>(out.data()), size);
  BN_free(bn);
  return out;
}

}  // namespace

TestKey::TestKey(EVP_PKEY* key, std::string kid, std::string alg)
    : key_(key, EVP_PKEY_free), kid_(std::move(kid)), alg_(std::move(alg)) {
  if (!key) throw std::runtime_error("key generation failed");
}

TestKey TestKey::rsa(std::string kid, int bits) {
  return TestKey(EVP_PKEY_Q_keygen(nullptr, nullptr, "RSA", static_cast<std::size_t>(bits)), std::move(kid), "RS256");
}

TestKey TestKey::ec(std::string kid) {
  return TestKey(EVP_PKEY_Q_keygen(nullptr, nullptr, "EC", "P-256"), std::move(kid), "ES256");
}

nlohmann::json TestKey::jwk() const {
  nlohmann::json jwk;
  if (alg_ == "RS256") {
    jwk = {{"kty", "RSA"},
           {"n", base64url_encode(bn_bytes(key_.get(), OSSL_PKEY_PARAM_RSA_N, 0))},
           {"e", base64url_encode(bn_bytes(key_.get(), OSSL_PKEY_PARAM_RSA_E, 0))}};
  } else {
    jwk = {{"kty", "EC"},
           {"crv", "P-256"},
           {"x", base64url_encode(bn_bytes(key_.get(), OSSL_PKEY_PARAM_EC_PUB_X, 32))},
           {"y", base64url_encode(bn_bytes(key_.get(), OSSL_PKEY_PARAM_EC_PUB_Y, 32))}};
  }
  jwk["use"] = "sig";
  jwk["alg"] = alg_;
  if (!kid_.empty()) jwk["kid"] = kid_;
  return jwk;
}

std::string TestKey::sign(std::string_view input) const {
  std::unique_ptr<EVP_MD_CTX, void (*)(EVP_MD_CTX*)> ctx(EVP_MD_CTX_new(), EVP_MD_CTX_free);
  std::size_t size = 0;
  const auto* data = reinterpret_cast<const unsigned char*>(input.data());
  if (EVP_DigestSignInit(ctx.get(), nullptr, EVP_sha256(), nullptr, key_.get()) != 1 ||
      EVP_DigestSign(ctx.get(), nullptr, &size, data, input.size()) != 1)
    throw std::runtime_error("EVP_DigestSign");
  std::string signature(size, '\0');
  if (EVP_DigestSign(ctx.get(), reinterpret_cast<unsigned char*>(signature.data()), &size, data, input.size()) != 1)
    throw std::runtime_error("EVP_DigestSign");
  signature.resize(size);
  if (alg_ == "ES256") {  // DER to JWS's r||s
    const auto* der = reinterpret_cast<const unsigned char*>(signature.data());
    ECDSA_SIG* sig = d2i_ECDSA_SIG(nullptr, &der, static_cast<long>(signature.size()));
    std::string raw(64, '\0');
    BN_bn2binpad(ECDSA_SIG_get0_r(sig), reinterpret_cast<unsigned char*>(raw.data()), 32);
    BN_bn2binpad(ECDSA_SIG_get0_s(sig), reinterpret_cast<unsigned char*>(raw.data()) + 32, 32);
    ECDSA_SIG_free(sig);
    signature = raw;
  }
  return base64url_encode(signature);
}

std::string jwks_text(std::initializer_list<const TestKey*> keys) {
  nlohmann::json list = nlohmann::json::array();
  for (const auto* key : keys) list.push_back(key->jwk());
  return nlohmann::json{{"keys", list}}.dump();
}

std::string unsigned_jwt(const nlohmann::json& header, const nlohmann::json& claims) {
  return base64url_encode(header.dump()) + "." + base64url_encode(claims.dump());
}

std::string signed_jwt_with_header(const TestKey& key, const nlohmann::json& header, const nlohmann::json& claims) {
  const std::string input = unsigned_jwt(header, claims);
  return input + "." + key.sign(input);
}

std::string signed_jwt(const TestKey& key, const nlohmann::json& claims, std::string_view kid) {
  nlohmann::json header{{"alg", key.alg()}, {"typ", "JWT"}};
  if (!kid.empty()) header["kid"] = kid;
  return signed_jwt_with_header(key, header, claims);
}

long long now_seconds() {
  return std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::now().time_since_epoch()).count();
}

}  // namespace ptc::test
