// The public checks of <ptc/mcp/auth.hpp>: HttpAuth as a whole, and JWKS files.

#include <ptc/file_input.hpp>
#include <ptc/mcp/auth.hpp>

#include "jwks.hpp"
#include "metadata.hpp"
#include "text.hpp"

namespace ptc::mcp {
namespace {

constexpr std::size_t kMaxScopes = 100;
constexpr std::size_t kMaxScopeBytes = 256;
constexpr std::chrono::seconds kMaxLeeway{3600};

/// RFC 6749's scope-token, which can stand in a quoted header value as it is.
bool is_scope_token(std::string_view scope) {
  if (scope.empty() || scope.size() > kMaxScopeBytes) return false;
  for (char c : scope)
    if (c <= 0x20 || c >= 0x7F || c == '"' || c == '\\') return false;
  return true;
}

std::string shown(std::string_view s) { return text::quote(text::excerpt(s, 200)); }

std::optional<Error> check_jwt(const JwtSettings& jwt) {
  if (jwt.audience.empty())
    return Error{"the JWT settings name no audience; tokens issued for any other service would pass"};
  if (jwt.leeway < std::chrono::seconds(0) || jwt.leeway > kMaxLeeway)
    return Error{"the JWT leeway must be between 0 and " + std::to_string(kMaxLeeway.count()) + " seconds"};
  if (auto keys = auth::parse_jwks(jwt.jwks, "JWKS"); !keys) return keys.error();
  return std::nullopt;
}

std::optional<Error> check_metadata(const HttpAuth& auth) {
  if (!auth.resource.empty() && !auth::is_plain_url(auth.resource))
    return Error{"the resource " + shown(auth.resource) + " is not an absolute http(s) URL without query or fragment"};
  for (const auto& server : auth.authorization_servers)
    if (!auth::is_plain_url(server))
      return Error{"the authorization server " + shown(server) +
                   " is not an absolute http(s) URL without query or fragment"};
  if (auth.scopes_supported.size() > kMaxScopes) return Error{"more than " + std::to_string(kMaxScopes) + " scopes"};
  for (const auto& scope : auth.scopes_supported)
    if (!is_scope_token(scope))
      return Error{"the scope " + shown(scope) +
                   " is not a scope token (printable ASCII without spaces, quotes or backslashes)"};
  return std::nullopt;
}

}  // namespace

std::optional<Error> check_auth(const HttpAuth& auth) {
  if (!auth.tokens.empty() && auth.jwt) return Error{"static tokens and JWT settings are both set; use one"};
  if (!auth.enabled() &&
      (!auth.authorization_servers.empty() || !auth.resource.empty() || !auth.scopes_supported.empty()))
    return Error{
        "authorization servers, a resource or scopes are set, but neither tokens nor JWT "
        "settings: no token would be checked"};
  if (auth.jwt)
    if (auto error = check_jwt(*auth.jwt)) return error;
  return check_metadata(auth);
}

Result<std::string> load_jwks_file(const std::string& path) {
  auto text = read_regular_file(path, auth::kMaxJwksBytes);
  if (!text) return text.error();
  if (auto keys = auth::parse_jwks(*text, path); !keys) return keys.error();
  return std::move(*text);
}

}  // namespace ptc::mcp
