#include "mcp_auth.hpp"

#include <stdlib.h>

#include <cstdlib>
#include <ostream>

namespace ptc::cli::detail {
namespace {

/// Which of the combinations the options allow this is not, in words; empty when it is one.
std::string wrong_combination(const McpAuthRequest& r, bool http) {
  if (!http) return "the --auth-* options need --http (standard input and output need no authorization)";
  const int sources = !r.tokens_file.empty() + !r.tokens_env.empty() + !r.jwks_file.empty();
  if (sources > 1) return "give one of --auth-tokens-file, --auth-tokens-env and --auth-jwks";
  if (!r.jwks_file.empty() && r.audience.empty())
    return "--auth-jwks needs --auth-audience, the audience its tokens must name";
  if (r.jwks_file.empty() && (!r.audience.empty() || !r.issuer.empty()))
    return "--auth-audience and --auth-issuer go with --auth-jwks";
  if (sources == 0)
    return "--auth-server, --auth-resource and --auth-scope need --auth-tokens-file, --auth-tokens-env or "
           "--auth-jwks";
  return {};
}

Result<mcp::TokenSet> tokens_from_env(const std::string& name) {
  const char* value = std::getenv(name.c_str());
  if (!value) return Error{"environment variable " + name + " is not set"};
  auto tokens = mcp::parse_tokens(value, "$" + name);
  // Tools, and the processes they start, inherit the environment: the tokens leave it once read.
  ::unsetenv(name.c_str());
  return tokens;
}

}  // namespace

bool McpAuthRequest::any() const {
  return !tokens_file.empty() || !tokens_env.empty() || !jwks_file.empty() || !audience.empty() || !issuer.empty() ||
         !resource.empty() || !servers.empty() || !scopes.empty();
}

void define_mcp_auth(CLI::App& mcp, McpAuthRequest& r) {
  mcp.add_option("--auth-tokens-file", r.tokens_file,
                 "Require a bearer token from this file (one per line; # comments; mode 0600)");
  mcp.add_option("--auth-tokens-env", r.tokens_env,
                 "Require a bearer token from this environment variable (newline- or comma-separated)");
  mcp.add_option("--auth-jwks", r.jwks_file, "Require a JWT (RS256 or ES256) signed by a key of this JWKS file");
  mcp.add_option("--auth-audience", r.audience, "The aud a JWT must name (with --auth-jwks)");
  mcp.add_option("--auth-issuer", r.issuer, "The iss a JWT must carry (with --auth-jwks)");
  mcp.add_option("--auth-server", r.servers,
                 "An authorization server the resource metadata lists (repeatable; default: the issuer)");
  mcp.add_option("--auth-resource", r.resource,
                 "The endpoint's public URL, e.g. https://mcp.example.com/mcp behind a TLS proxy");
  mcp.add_option("--auth-scope", r.scopes, "A scope the resource metadata lists (repeatable)");
}

Result<mcp::HttpAuth> mcp_auth(const McpAuthRequest& r, bool http, std::ostream& err) {
  mcp::HttpAuth auth;
  if (!r.any()) return auth;
  if (auto wrong = wrong_combination(r, http); !wrong.empty()) return Error{wrong};
  if (!r.jwks_file.empty()) {
    auto jwks = mcp::load_jwks_file(r.jwks_file);
    if (!jwks) return jwks.error();
    auth.jwt = mcp::JwtSettings{std::move(*jwks), r.audience, r.issuer};
  } else {
    auto tokens = r.tokens_file.empty() ? tokens_from_env(r.tokens_env) : mcp::load_tokens_file(r.tokens_file);
    if (!tokens) return tokens.error();
    for (const auto& warning : tokens->warnings) err << "warning: " << warning << "\n";
    auth.tokens = std::move(tokens->digests);
  }
  auth.authorization_servers = r.servers;
  auth.resource = r.resource;
  auth.scopes_supported = r.scopes;
  if (auto error = mcp::check_auth(auth)) return *error;
  return auth;
}

}  // namespace ptc::cli::detail
