#pragma once
// The answer to a request without a usable token: status, WWW-Authenticate challenge (RFC 6750 §3, with
// RFC 9728's resource_metadata) and a JSON-RPC error body.

#include <string>
#include <string_view>
#include <vector>

#include "http_server.hpp"

namespace ptc::mcp::auth {

struct Refusal {
  int status = 401;
  /// RFC 6750's error code (invalid_request, invalid_token); empty when no token was offered.
  std::string error{};
  /// Why, for error_description and the body: never quotes the token, and holds no `"` or `\`.
  std::string description{};
  /// For a refusal without an error code (no token offered): what the body tells the client to do.
  std::string hint{};
};

/// `Bearer resource_metadata="<url>"`, then `scope="<scopes>"` when there are any, then `error` and
/// `error_description` when the refusal has them.
std::string www_authenticate(std::string_view metadata_url, const std::vector<std::string>& scopes,
                             const Refusal& refusal);

/// The response: the challenge, and a JSON-RPC error (id null) whose message says what to send.
HttpResponse refusal_response(const Refusal& refusal, std::string_view metadata_url,
                              const std::vector<std::string>& scopes);

}  // namespace ptc::mcp::auth
