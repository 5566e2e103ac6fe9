#include "metadata.hpp"

#include <nlohmann/json.hpp>

namespace ptc::mcp::auth {
namespace {

constexpr std::size_t kMaxUrlBytes = 2048;
constexpr std::size_t kMaxAuthorityBytes = 262;

bool is_name_char(char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '.' || c == '_';
}
bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_hex_or_colon(char c) {
  return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F') || c == ':' || c == '.';
}

template <class Pred>
bool all_of(std::string_view s, Pred pred) {
  for (char c : s)
    if (!pred(c)) return false;
  return true;
}

/// "http://" or "https://", whichever `url` starts with; empty for neither.
std::string_view scheme_of(std::string_view url) {
  for (std::string_view scheme : {"http://", "https://"})
    if (url.substr(0, scheme.size()) == scheme) return scheme;
  return {};
}

}  // namespace

std::optional<std::string_view> url_authority(std::string_view host_header) {
  if (host_header.empty() || host_header.size() > kMaxAuthorityBytes) return std::nullopt;
  std::string_view host = host_header, port;
  if (host.front() == '[') {
    const auto close = host.find(']');
    if (close == std::string_view::npos || !all_of(host.substr(1, close - 1), is_hex_or_colon)) return std::nullopt;
    port = host.substr(close + 1);
    host = host.substr(0, close + 1);
  } else {
    const auto colon = host.find(':');
    if (colon != std::string_view::npos) port = host.substr(colon);
    host = host.substr(0, colon);
    if (host.empty() || !all_of(host, is_name_char)) return std::nullopt;
  }
  if (!port.empty() && (port.front() != ':' || port.size() < 2 || port.size() > 6 || !all_of(port.substr(1), is_digit)))
    return std::nullopt;
  return host_header;
}

bool is_plain_url(std::string_view url) {
  const auto scheme = scheme_of(url);
  if (scheme.empty() || url.size() > kMaxUrlBytes || url.size() == scheme.size()) return false;
  const auto rest = url.substr(scheme.size());
  if (rest.front() == '/') return false;  // no authority
  return all_of(rest, [](char c) { return c > 0x20 && c < 0x7F && c != '"' && c != '\\' && c != '?' && c != '#'; });
}

std::string_view url_path(std::string_view url) {
  const auto scheme = scheme_of(url);
  const auto slash = url.find('/', scheme.size());
  return slash == std::string_view::npos ? std::string_view() : url.substr(slash);
}

std::string metadata_url(std::string_view resource) {
  const auto path = url_path(resource);
  std::string url(resource.substr(0, resource.size() - path.size()));
  url += kWellKnown;
  if (path != "/") url += path;
  return url;
}

std::string metadata_document(const HttpAuth& auth, const std::string& resource) {
  nlohmann::ordered_json doc;
  doc["resource"] = resource;
  auto servers = auth.authorization_servers;
  if (servers.empty() && auth.jwt && is_plain_url(auth.jwt->issuer)) servers.push_back(auth.jwt->issuer);
  if (!servers.empty()) doc["authorization_servers"] = servers;
  if (!auth.scopes_supported.empty()) doc["scopes_supported"] = auth.scopes_supported;
  doc["bearer_methods_supported"] = {"header"};
  return doc.dump();
}

}  // namespace ptc::mcp::auth
