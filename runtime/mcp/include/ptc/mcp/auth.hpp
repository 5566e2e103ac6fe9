#pragma once
// Authorization for the Streamable HTTP server, as MCP's "Authorization" describes it for a resource
// server: every request to the endpoint carries `Authorization: Bearer <token>`, checked against static
// tokens (kept as SHA-256 digests) or verified as a JWT against a JWKS; the OAuth protected resource
// metadata (RFC 9728) tells clients which authorization servers issue the tokens. docs/mcp.md,
// "Authorization", describes what is checked.
//
//   ptc::mcp::HttpOptions http;
//   auto tokens = ptc::mcp::load_tokens_file("/etc/tracker/tokens");   // one token per line
//   if (!tokens) return fail(tokens.error());
//   http.auth.tokens = tokens->digests;
//   server.serve_http(http);

#include <array>
#include <chrono>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <ptc/error.hpp>

namespace ptc::mcp {

/// The SHA-256 digest of a static bearer token: what the server keeps instead of the token, so that a
/// core dump or a debugger shows no usable secret.
using TokenDigest = std::array<unsigned char, 32>;

/// Tokens read from a file or a variable, and what their source should fix but is not refused for.
struct TokenSet {
  std::vector<TokenDigest> digests;
  /// e.g. "tokens.txt: other users may read it (mode 0644); chmod 600 it"
  std::vector<std::string> warnings;
};

/// JWT access tokens verified locally: signature (RS256 or ES256) by a key of the JWKS, `exp` (required),
/// `nbf`, `aud` and, when set, `iss`.
struct JwtSettings {
  /// The JSON text of a JWKS ({"keys": [...]}); RSA keys of 2048 bits or more and P-256 keys are used,
  /// other keys (encryption keys, other curves) are skipped.
  std::string jwks;
  /// The audience a token must name in `aud` (a string, or an array that holds it): this server's
  /// resource identifier as the authorization server knows it. Required, so that a token issued for
  /// another service is not accepted here.
  std::string audience;
  /// The `iss` a token must carry; empty: not checked.
  std::string issuer{};
  /// How far `exp` and `nbf` may be off, for clocks that disagree.
  std::chrono::seconds leeway{60};
};

/// What HttpOptions::auth holds. Authorization is on when `tokens` or `jwt` is set (one of them, not
/// both); then every request to the endpoint needs a bearer token, and the metadata document is served
/// at /.well-known/oauth-protected-resource and at that path followed by the endpoint's path.
struct HttpAuth {
  /// Digests of the static tokens accepted (token_digest, load_tokens_file); compared in constant time.
  std::vector<TokenDigest> tokens{};
  std::optional<JwtSettings> jwt{};
  /// The authorization servers the metadata lists (`authorization_servers`), for clients that obtain
  /// tokens by OAuth. Empty with `jwt`: the issuer, when set.
  std::vector<std::string> authorization_servers{};
  /// The canonical URL of the endpoint (`resource` in the metadata), e.g. https://mcp.example.com/mcp
  /// behind a proxy that terminates TLS. Empty: http://<Host header><path>, from each request.
  std::string resource{};
  /// `scopes_supported` in the metadata, and `scope` in the challenge of a 401; empty: neither.
  std::vector<std::string> scopes_supported{};

  bool enabled() const { return !tokens.empty() || jwt.has_value(); }
};

/// The digest HttpAuth::tokens holds for `token`.
TokenDigest token_digest(std::string_view token);

/// Tokens from text: one per line, or several on a line separated by commas; blank lines and lines
/// starting with `#` are skipped. Each must be a bearer token of 16 to 4096 characters (letters, digits
/// and -._~+/, then any `=`). Errors name `source` and the line ("tokens.txt:3: ...") and never quote a
/// token; no token at all is an error too.
Result<TokenSet> parse_tokens(std::string_view text, std::string_view source);

/// parse_tokens over a regular file of at most 1 MiB; a file that other users may read is warned about.
Result<TokenSet> load_tokens_file(const std::string& path);

/// The text of a JWKS file of at most 1 MiB, checked as the server will read it (at least one usable
/// key, every key it would use well-formed). Errors start with the path.
Result<std::string> load_jwks_file(const std::string& path);

/// What makes `auth` unusable: both tokens and jwt, a JWKS without a usable key, no audience, a
/// resource or authorization server that is not an absolute http(s) URL, a scope with a space or a
/// quote, metadata set while authorization is off. serve_http refuses to start with it.
std::optional<Error> check_auth(const HttpAuth& auth);

}  // namespace ptc::mcp
