#pragma once
// What stands in front of the MCP endpoint when HttpOptions::auth is set: the protected resource
// metadata, served without a token, and the bearer token every request to the endpoint must carry.

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <ptc/mcp/server.hpp>

#include "challenge.hpp"
#include "http_server.hpp"
#include "jwks.hpp"

namespace ptc::mcp::auth {

class Authorizer {
 public:
  /// nullptr when `options.auth` is empty (nothing to check, nothing to serve).
  static std::unique_ptr<Authorizer> make(const HttpOptions& options);
  explicit Authorizer(const HttpOptions& options);

  /// The answer to a request this layer answers itself (the metadata document, a refusal), or nullopt
  /// when the request goes on to the endpoint. Requests to other paths go on untouched. Settings that
  /// check_auth refuses refuse every request with 500, so a misconfigured server is closed, not open.
  std::optional<HttpResponse> screen(const HttpRequest& request) const;

 private:
  std::optional<Refusal> authenticate(const HttpRequest& request) const;
  std::optional<Refusal> check_token(std::string_view token) const;
  HttpResponse metadata(const HttpRequest& request) const;
  /// The resource identifier for this request: auth.resource, or one built from its Host header.
  std::string resource_for(const HttpRequest& request) const;

  HttpAuth auth_;
  std::string path_;
  std::string fallback_authority_;
  std::vector<std::string> metadata_paths_;
  std::optional<KeySet> keys_;
  bool broken_ = false;
};

}  // namespace ptc::mcp::auth
