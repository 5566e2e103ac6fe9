#pragma once
// What serve_http checks before it listens: authorization settings it can use, and a loud warning when
// it is about to serve other machines with no authorization at all.

#include <iosfwd>
#include <string>
#include <string_view>

#include <ptc/mcp/server.hpp>

namespace ptc::mcp::auth {

/// localhost, 127.0.0.0/8 and ::1 (bracketed or not, IPv4-mapped too): addresses only this machine
/// reaches.
bool is_loopback_host(std::string_view host);

/// The banner for serving `host` without authorization: several lines, each starting with "WARNING:".
std::string exposure_warning(std::string_view host);

/// Writes "ptc mcp: <why>" and returns false when options.auth is unusable; writes the banner when the
/// host is not loopback and authorization is off. True: go on.
bool preflight(const HttpOptions& options, std::ostream& err);

}  // namespace ptc::mcp::auth
