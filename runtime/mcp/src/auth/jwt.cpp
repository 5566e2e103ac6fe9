#include "jwt.hpp"

#include <algorithm>
#include <optional>

#include <ptc/json_input.hpp>

#include "base64url.hpp"
#include "openssl.hpp"
#include "tokens.hpp"

namespace ptc::mcp::auth {
namespace {

using nlohmann::json;

constexpr std::size_t kMaxClaimsDepth = 16;
constexpr std::size_t kMaxSignatureBytes = kMaxRsaBits / 8;

/// A decoded JSON object from one part of the token.
std::optional<json> decode_object(std::string_view part) {
  auto bytes = base64url_decode(part, kMaxTokenBytes);
  if (!bytes) return std::nullopt;
  auto value = parse_json(*bytes, kMaxClaimsDepth);
  if (!value || !value->is_object()) return std::nullopt;
  return std::move(*value);
}

const std::string* string_member(const json& object, const char* name) {
  auto it = object.find(name);
  return it != object.end() && it->is_string() ? &it->get_ref<const std::string&>() : nullptr;
}

/// The key the header names, or why there is none.
Result<const Jwk*> select_key(const json& header, const KeySet& keys) {
  const auto* alg = string_member(header, "alg");
  // `none` and the HMAC algorithms above all: with them, a public key would be all it takes to sign.
  if (!alg || (*alg != "RS256" && *alg != "ES256"))
    return Error{"the token's algorithm is not accepted (RS256 or ES256 only)"};
  if (header.contains("crit")) return Error{"the token's header has critical extensions this server does not know"};
  const Jwk* key = nullptr;
  if (auto kid = header.find("kid"); kid != header.end()) {
    if (!kid->is_string()) return Error{"the token's kid is not a string"};
    auto it = std::find_if(keys.keys.begin(), keys.keys.end(),
                           [&](const Jwk& k) { return k.kid == kid->get_ref<const std::string&>(); });
    if (it == keys.keys.end()) return Error{"no key of this server has the token's kid"};
    key = &*it;
  } else if (keys.keys.size() == 1) {
    key = &keys.keys.front();
  } else {
    return Error{"the token names no kid, and this server has several keys"};
  }
  if (*alg != (key->algorithm == Algorithm::RS256 ? "RS256" : "ES256"))
    return Error{"the token's algorithm does not match its key"};
  return key;
}

/// JWS carries an ECDSA signature as r||s; EVP_DigestVerify takes DER.
std::optional<std::string> ecdsa_der(std::string_view raw) {
  if (raw.size() != 64) return std::nullopt;
  const auto* bytes = reinterpret_cast<const unsigned char*>(raw.data());
  BignumPtr r(BN_bin2bn(bytes, 32, nullptr)), s(BN_bin2bn(bytes + 32, 32, nullptr));
  EcdsaSigPtr sig(ECDSA_SIG_new());
  // set0 takes r and s over; with both non-null it cannot fail.
  if (!r || !s || !sig || ECDSA_SIG_set0(sig.get(), r.release(), s.release()) != 1) return std::nullopt;
  const int size = i2d_ECDSA_SIG(sig.get(), nullptr);
  if (size <= 0) return std::nullopt;
  std::string der(static_cast<std::size_t>(size), '\0');
  auto* out = reinterpret_cast<unsigned char*>(der.data());
  if (i2d_ECDSA_SIG(sig.get(), &out) != size) return std::nullopt;
  return der;
}

bool signature_verifies(const Jwk& key, std::string_view signing_input, std::string_view signature_part) {
  auto signature = base64url_decode(signature_part, kMaxSignatureBytes);
  if (!signature) return false;
  if (key.algorithm == Algorithm::ES256) {
    signature = ecdsa_der(*signature);
    if (!signature) return false;
  } else if (signature->size() != static_cast<std::size_t>(EVP_PKEY_get_size(key.key.get()))) {
    return false;
  }
  MdCtxPtr ctx(EVP_MD_CTX_new());
  const bool ok =
      ctx && EVP_DigestVerifyInit(ctx.get(), nullptr, EVP_sha256(), nullptr, key.key.get()) == 1 &&
      EVP_DigestVerify(ctx.get(), reinterpret_cast<const unsigned char*>(signature->data()), signature->size(),
                       reinterpret_cast<const unsigned char*>(signing_input.data()), signing_input.size()) == 1;
  clear_openssl_errors();
  return ok;
}

bool names_audience(const json& claims, const std::string& audience) {
  auto aud = claims.find("aud");
  if (aud == claims.end()) return false;
  if (aud->is_string()) return *aud == audience;
  return aud->is_array() && std::find(aud->begin(), aud->end(), json(audience)) != aud->end();
}

/// Why the claims are not acceptable at `now` (seconds since the epoch), or nullopt.
std::optional<Error> check_claims(const json& claims, const JwtSettings& settings, double now) {
  const auto leeway = static_cast<double>(settings.leeway.count());
  auto exp = claims.find("exp");
  if (exp == claims.end()) return Error{"the token has no exp claim"};
  if (!exp->is_number()) return Error{"the token's exp claim is not a number"};
  if (now >= exp->get<double>() + leeway) return Error{"the token has expired"};
  if (auto nbf = claims.find("nbf"); nbf != claims.end()) {
    if (!nbf->is_number()) return Error{"the token's nbf claim is not a number"};
    if (now + leeway < nbf->get<double>()) return Error{"the token is not valid yet (nbf)"};
  }
  if (!names_audience(claims, settings.audience)) return Error{"the token is not meant for this server (aud)"};
  if (!settings.issuer.empty()) {
    const auto* iss = string_member(claims, "iss");
    if (!iss || *iss != settings.issuer) return Error{"the token is from another issuer (iss)"};
  }
  return std::nullopt;
}

}  // namespace

Result<json> verify_jwt(std::string_view token, const KeySet& keys, const JwtSettings& settings,
                        std::chrono::system_clock::time_point now) {
  if (token.size() > kMaxTokenBytes)
    return Error{"the token is longer than " + std::to_string(kMaxTokenBytes) + " bytes"};
  const auto first = token.find('.');
  const auto second = first == std::string_view::npos ? first : token.find('.', first + 1);
  if (second == std::string_view::npos || token.find('.', second + 1) != std::string_view::npos)
    return Error{"the token is not a JWT (three base64url parts separated by dots)"};
  auto header = decode_object(token.substr(0, first));
  if (!header) return Error{"the token's header is not base64url-encoded JSON"};
  auto key = select_key(*header, keys);
  if (!key) return key.error();
  if (!signature_verifies(**key, token.substr(0, second), token.substr(second + 1)))
    return Error{"the token's signature does not verify"};
  auto claims = decode_object(token.substr(first + 1, second - first - 1));
  if (!claims) return Error{"the token's payload is not base64url-encoded JSON"};
  const double seconds = std::chrono::duration<double>(now.time_since_epoch()).count();
  if (auto problem = check_claims(*claims, settings, seconds)) return *problem;
  return std::move(*claims);
}

}  // namespace ptc::mcp::auth
