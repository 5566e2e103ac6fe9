#pragma once
// JWT access tokens (RFC 7519, JWS compact form) verified against a JWKS: RS256 or ES256 only.

#include <chrono>
#include <string_view>

#include <nlohmann/json.hpp>

#include <ptc/error.hpp>
#include <ptc/mcp/auth.hpp>

#include "jwks.hpp"

namespace ptc::mcp::auth {

/// The token's claims once its signature, `exp`, `nbf`, `aud` and (when `settings.issuer` is set) `iss`
/// pass at `now`. Otherwise an Error whose message says why in words that never quote the token, fit
/// for an error_description ("the token has expired"). `settings.jwks` is not read: `keys` is.
Result<nlohmann::json> verify_jwt(std::string_view token, const KeySet& keys, const JwtSettings& settings,
                                  std::chrono::system_clock::time_point now);

}  // namespace ptc::mcp::auth
