#include "challenge.hpp"

#include "jsonrpc.hpp"

namespace ptc::mcp::auth {

std::string www_authenticate(std::string_view metadata_url, const std::vector<std::string>& scopes,
                             const Refusal& refusal) {
  std::string value = "Bearer resource_metadata=\"";
  value += metadata_url;
  value += '"';
  if (!scopes.empty()) {
    value += ", scope=\"";
    for (std::size_t i = 0; i < scopes.size(); ++i) value += (i ? " " : "") + scopes[i];
    value += '"';
  }
  if (!refusal.error.empty()) value += ", error=\"" + refusal.error + '"';
  if (!refusal.description.empty()) value += ", error_description=\"" + refusal.description + '"';
  return value;
}

HttpResponse refusal_response(const Refusal& refusal, std::string_view metadata_url,
                              const std::vector<std::string>& scopes) {
  std::string message;
  if (refusal.status == 400)
    message = "Bad Request: " + refusal.description;
  else if (refusal.description.empty())
    message = "Unauthorized: " + refusal.hint + "; how to obtain one is in the resource metadata at " +
              std::string(metadata_url);
  else
    message = "Unauthorized: " + refusal.description;
  return HttpResponse{refusal.status,
                      "application/json",
                      jsonrpc::line(jsonrpc::error(nullptr, jsonrpc::kInvalidRequest, message)),
                      {{"WWW-Authenticate", www_authenticate(metadata_url, scopes, refusal)}},
                      {}};
}

}  // namespace ptc::mcp::auth
