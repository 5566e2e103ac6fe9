#pragma once
// OAuth 2.0 Protected Resource Metadata (RFC 9728): the resource identifier, where its metadata lives,
// and the document itself.

#include <optional>
#include <string>
#include <string_view>

#include <ptc/mcp/auth.hpp>

namespace ptc::mcp::auth {

inline constexpr std::string_view kWellKnown = "/.well-known/oauth-protected-resource";

/// The Host header when it is `host[:port]` (a name, an IPv4 address or a bracketed IPv6 address, and
/// digits): fit to go into a URL and a quoted header value. nullopt otherwise.
std::optional<std::string_view> url_authority(std::string_view host_header);

/// An absolute http(s) URL without query, fragment, spaces, quotes, backslashes or control characters,
/// of at most 2048 bytes: what a resource or an authorization server may be.
bool is_plain_url(std::string_view url);

/// The path of an absolute URL, "" when it has none.
std::string_view url_path(std::string_view url);

/// Where the metadata of `resource` lives: the well-known path inserted between its authority and its
/// path (RFC 9728 §3.1), e.g. https://h/mcp -> https://h/.well-known/oauth-protected-resource/mcp.
std::string metadata_url(std::string_view resource);

/// The metadata document for `resource`: resource, authorization_servers (the issuer when none is set and
/// it is a URL), scopes_supported when set, bearer_methods_supported ["header"].
std::string metadata_document(const HttpAuth& auth, const std::string& resource);

}  // namespace ptc::mcp::auth
