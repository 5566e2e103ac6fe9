#include "authorizer.hpp"

#include <algorithm>
#include <chrono>

#include "jsonrpc.hpp"
#include "jwt.hpp"
#include "metadata.hpp"
#include "tokens.hpp"

namespace ptc::mcp::auth {
namespace {

HttpResponse plain_error(int status, std::string message, std::vector<std::pair<std::string, std::string>> headers) {
  return HttpResponse{status,
                      "application/json",
                      jsonrpc::line(jsonrpc::error(nullptr, jsonrpc::kInvalidRequest, std::move(message))),
                      std::move(headers),
                      {}};
}

bool iequals(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return (x >= 'A' && x <= 'Z' ? x + 32 : x) == (y >= 'A' && y <= 'Z' ? y + 32 : y);
         });
}

Refusal invalid_token(std::string description) { return Refusal{401, "invalid_token", std::move(description), {}}; }

}  // namespace

std::unique_ptr<Authorizer> Authorizer::make(const HttpOptions& options) {
  const auto& a = options.auth;
  if (!a.enabled() && a.authorization_servers.empty() && a.resource.empty() && a.scopes_supported.empty())
    return nullptr;
  return std::make_unique<Authorizer>(options);
}

Authorizer::Authorizer(const HttpOptions& options) : auth_(options.auth), path_(options.path) {
  broken_ = check_auth(auth_).has_value();
  if (!broken_ && auth_.jwt) {
    auto keys = parse_jwks(auth_.jwt->jwks, "JWKS");
    broken_ = !keys;
    if (keys) keys_ = std::move(*keys);
  }
  // Appended piece by piece: g++ 12 at -O3 warns (-Wrestrict, GCC bug 105651) on `"literal" + string`.
  const bool v6 = options.host.find(':') != std::string::npos;
  if (v6) fallback_authority_.append("[");
  fallback_authority_.append(options.host);
  if (v6) fallback_authority_.append("]");
  if (options.port > 0) fallback_authority_.append(":").append(std::to_string(options.port));
  metadata_paths_.emplace_back(kWellKnown);
  if (path_ != "/") metadata_paths_.push_back(std::string(kWellKnown) + path_);
  if (const auto own = url_path(auth_.resource); !own.empty() && own != "/")
    metadata_paths_.push_back(std::string(kWellKnown) + std::string(own));
}

std::optional<HttpResponse> Authorizer::screen(const HttpRequest& request) const {
  if (broken_) return plain_error(500, "Internal Server Error: the server's authorization settings are unusable", {});
  if (std::find(metadata_paths_.begin(), metadata_paths_.end(), request.path) != metadata_paths_.end())
    return metadata(request);
  if (request.path != path_) return std::nullopt;
  if (auto refusal = authenticate(request))
    return refusal_response(*refusal, metadata_url(resource_for(request)), auth_.scopes_supported);
  return std::nullopt;
}

HttpResponse Authorizer::metadata(const HttpRequest& request) const {
  if (request.method != "GET")
    return plain_error(405, "Method Not Allowed: the resource metadata is read with GET", {{"Allow", "GET"}});
  return HttpResponse{200, "application/json", metadata_document(auth_, resource_for(request)), {}, {}};
}

std::string Authorizer::resource_for(const HttpRequest& request) const {
  if (!auth_.resource.empty()) return auth_.resource;
  const auto host = request.header("Host");
  const auto authority = host ? url_authority(*host) : std::nullopt;
  return "http://" + (authority ? std::string(*authority) : fallback_authority_) + path_;
}

std::optional<Refusal> Authorizer::authenticate(const HttpRequest& request) const {
  bool repeated = false;
  const auto header = request.header("Authorization", &repeated);
  if (repeated) return Refusal{400, "invalid_request", "the request has more than one Authorization header", {}};
  if (!header) return Refusal{401, {}, {}, "this server needs an access token, sent as Authorization: Bearer <token>"};
  std::string_view value = *header;
  const auto space = value.find(' ');
  if (!iequals(value.substr(0, space), "Bearer"))
    return Refusal{
        401, {}, {}, "this server takes an access token as Authorization: Bearer <token>, not another scheme"};
  std::string_view token = space == std::string_view::npos ? std::string_view() : value.substr(space);
  while (!token.empty() && token.front() == ' ') token.remove_prefix(1);
  if (token.empty()) return invalid_token("the Authorization header holds no token after Bearer");
  if (token.size() > kMaxTokenBytes)
    return invalid_token("the token is longer than " + std::to_string(kMaxTokenBytes) + " bytes");
  if (!is_b64token(token)) return invalid_token("the token holds characters a bearer token cannot have");
  return check_token(token);
}

std::optional<Refusal> Authorizer::check_token(std::string_view token) const {
  if (keys_ && auth_.jwt) {
    auto claims = verify_jwt(token, *keys_, *auth_.jwt, std::chrono::system_clock::now());
    if (!claims) return invalid_token(claims.error().message);
    return std::nullopt;
  }
  if (!token_matches(token, auth_.tokens)) return invalid_token("the token is not one this server accepts");
  return std::nullopt;
}

}  // namespace ptc::mcp::auth
