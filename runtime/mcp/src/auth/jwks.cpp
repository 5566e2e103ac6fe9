#include "jwks.hpp"

#include <algorithm>
#include <optional>

#include <openssl/core_names.h>

#include <ptc/json_input.hpp>

#include "base64url.hpp"
#include "openssl.hpp"
#include "text.hpp"

namespace ptc::mcp::auth {
namespace {

using nlohmann::json;

constexpr std::size_t kMaxKidBytes = 256;
constexpr std::size_t kMaxJwksDepth = 16;

/// The bytes of a base64url member; JWKS writers sometimes pad, which changes nothing here.
std::optional<std::string> member_bytes(const json& key, const char* name, std::size_t max_bytes) {
  auto it = key.find(name);
  if (it == key.end() || !it->is_string()) return std::nullopt;
  std::string_view text = it->get_ref<const std::string&>();
  while (!text.empty() && text.back() == '=') text.remove_suffix(1);
  auto bytes = base64url_decode(text, max_bytes);
  if (!bytes || bytes->empty()) return std::nullopt;
  return bytes;
}

/// A public key from parameters; nullptr when OpenSSL refuses them or the key fails its checks.
PkeyPtr key_from(const char* type, const ParamBldPtr& builder) {
  ParamsPtr params(OSSL_PARAM_BLD_to_param(builder.get()));
  PkeyCtxPtr ctx(EVP_PKEY_CTX_new_from_name(nullptr, type, nullptr));
  EVP_PKEY* raw = nullptr;
  if (!params || !ctx || EVP_PKEY_fromdata_init(ctx.get()) <= 0 ||
      EVP_PKEY_fromdata(ctx.get(), &raw, EVP_PKEY_PUBLIC_KEY, params.get()) <= 0)
    return nullptr;
  PkeyPtr key(raw);
  PkeyCtxPtr check(EVP_PKEY_CTX_new_from_pkey(nullptr, key.get(), nullptr));
  if (!check || EVP_PKEY_public_check(check.get()) <= 0) return nullptr;
  return key;
}

Result<PkeyPtr> rsa_key(const json& jwk) {
  const auto n = member_bytes(jwk, "n", kMaxRsaBits / 8);
  if (!n) return Error{"n is not base64url of at most " + std::to_string(kMaxRsaBits / 8) + " bytes"};
  const auto e = member_bytes(jwk, "e", 8);
  if (!e) return Error{"e is not base64url of at most 8 bytes"};
  BignumPtr bn_n(BN_bin2bn(reinterpret_cast<const unsigned char*>(n->data()), static_cast<int>(n->size()), nullptr));
  BignumPtr bn_e(BN_bin2bn(reinterpret_cast<const unsigned char*>(e->data()), static_cast<int>(e->size()), nullptr));
  if (!bn_n || !bn_e) return Error{"not a valid RSA public key"};
  if (const int bits = BN_num_bits(bn_n.get()); bits < kMinRsaBits)
    return Error{"an RSA key of " + std::to_string(bits) + " bits; at least " + std::to_string(kMinRsaBits) +
                 " are needed"};
  ParamBldPtr builder(OSSL_PARAM_BLD_new());
  if (!builder || !OSSL_PARAM_BLD_push_BN(builder.get(), OSSL_PKEY_PARAM_RSA_N, bn_n.get()) ||
      !OSSL_PARAM_BLD_push_BN(builder.get(), OSSL_PKEY_PARAM_RSA_E, bn_e.get()))
    return Error{"not a valid RSA public key"};
  auto key = key_from("RSA", builder);
  if (!key) return Error{"not a valid RSA public key"};
  return key;
}

Result<PkeyPtr> ec_key(const json& jwk) {
  const auto x = member_bytes(jwk, "x", 32);
  const auto y = member_bytes(jwk, "y", 32);
  if (!x || !y || x->size() != 32 || y->size() != 32) return Error{"x and y must be base64url of 32 bytes each"};
  const std::string point = '\x04' + *x + *y;  // uncompressed
  ParamBldPtr builder(OSSL_PARAM_BLD_new());
  if (!builder || !OSSL_PARAM_BLD_push_utf8_string(builder.get(), OSSL_PKEY_PARAM_GROUP_NAME, "prime256v1", 0) ||
      !OSSL_PARAM_BLD_push_octet_string(builder.get(), OSSL_PKEY_PARAM_PUB_KEY, point.data(), point.size()))
    return Error{"not a point on P-256"};
  auto key = key_from("EC", builder);
  if (!key) return Error{"not a point on P-256"};
  return key;
}

const std::string* string_member(const json& object, const char* name) {
  auto it = object.find(name);
  return it != object.end() && it->is_string() ? &it->get_ref<const std::string&>() : nullptr;
}

/// The algorithm `jwk` verifies, nullopt for a key meant for something else (skipped); an Error for a
/// key that contradicts itself.
Result<std::optional<Algorithm>> algorithm_of(const json& jwk) {
  const auto* kty = string_member(jwk, "kty");
  if (!kty) return Error{"has no kty"};
  if (const auto* use = string_member(jwk, "use"); use && *use != "sig") return std::optional<Algorithm>();
  if (auto ops = jwk.find("key_ops");
      ops != jwk.end() && ops->is_array() && std::find(ops->begin(), ops->end(), json("verify")) == ops->end())
    return std::optional<Algorithm>();
  const auto* alg = string_member(jwk, "alg");
  if (alg && *alg != "RS256" && *alg != "ES256") return std::optional<Algorithm>();
  std::optional<Algorithm> algorithm;
  if (*kty == "RSA") algorithm = Algorithm::RS256;
  if (*kty == "EC") {
    const auto* crv = string_member(jwk, "crv");
    if (!crv || *crv != "P-256") return std::optional<Algorithm>();
    algorithm = Algorithm::ES256;
  }
  if (!algorithm) return std::optional<Algorithm>();
  if (alg && *alg != (*algorithm == Algorithm::RS256 ? "RS256" : "ES256"))
    return Error{"alg " + *alg + " does not fit kty " + *kty};
  return algorithm;
}

/// The key, nullopt when it is skipped.
Result<std::optional<Jwk>> read_key(const json& jwk) {
  if (!jwk.is_object()) return Error{"not an object"};
  auto algorithm = algorithm_of(jwk);
  if (!algorithm) return algorithm.error();
  const std::optional<Algorithm> chosen = *algorithm;
  if (!chosen) return std::optional<Jwk>();
  Jwk out{{}, *chosen, nullptr};
  if (auto kid = jwk.find("kid"); kid != jwk.end()) {
    if (!kid->is_string() || kid->get_ref<const std::string&>().size() > kMaxKidBytes)
      return Error{"kid is not a string of at most " + std::to_string(kMaxKidBytes) + " bytes"};
    out.kid = kid->get<std::string>();
  }
  auto key = out.algorithm == Algorithm::RS256 ? rsa_key(jwk) : ec_key(jwk);
  if (!key) return key.error();
  out.key = std::shared_ptr<EVP_PKEY>(std::move(*key));
  return std::optional<Jwk>(std::move(out));
}

std::string key_name(const json& keys, std::size_t index) {
  std::string name = "keys[" + std::to_string(index) + "]";
  if (const auto* kid = keys[index].is_object() ? string_member(keys[index], "kid") : nullptr)
    name += " (kid " + text::quote(text::excerpt(*kid, 64)) + ")";
  return name;
}

}  // namespace

Result<KeySet> parse_jwks(std::string_view jwks, std::string_view source) {
  const std::string where(source);
  if (jwks.size() > kMaxJwksBytes) return Error{where + ": larger than " + std::to_string(kMaxJwksBytes) + " bytes"};
  auto document = parse_json(jwks, kMaxJwksDepth);
  if (!document) {
    const auto& e = document.error();
    if (e.column == 0) return Error{where + ": " + e.message};
    return Error{where + ":" + std::to_string(std::max<std::size_t>(e.line, 1)) + ":" + std::to_string(e.column) +
                 ": " + e.message};
  }
  auto keys = document->find("keys");
  if (!document->is_object() || keys == document->end() || !keys->is_array())
    return Error{where + ": not a JWKS (an object with a \"keys\" array)"};
  if (keys->size() > kMaxJwksKeys) return Error{where + ": more than " + std::to_string(kMaxJwksKeys) + " keys"};
  KeySet set;
  std::vector<std::size_t> indexes;
  for (std::size_t i = 0; i < keys->size(); ++i) {
    auto key = read_key((*keys)[i]);
    clear_openssl_errors();
    if (!key) return Error{where + ": " + key_name(*keys, i) + ": " + key.error().message};
    std::optional<Jwk> jwk = std::move(*key);
    if (!jwk) continue;
    for (std::size_t j = 0; j < set.keys.size(); ++j)
      if (set.keys[j].kid == jwk->kid)
        return Error{where + ": keys[" + std::to_string(indexes[j]) + "] and keys[" + std::to_string(i) + "] " +
                     (set.keys[j].kid.empty() ? "both have no kid" : "have the same kid") +
                     "; a token could not say which it means"};
    set.keys.push_back(std::move(*jwk));
    indexes.push_back(i);
  }
  if (set.keys.empty())
    return Error{where +
                 ": no key to verify RS256 or ES256 signatures with (an RSA key, or an EC key on P-256, "
                 "meant for signing)"};
  return set;
}

}  // namespace ptc::mcp::auth
