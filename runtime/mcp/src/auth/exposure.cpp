#include "exposure.hpp"

#include <arpa/inet.h>

#include <algorithm>
#include <ostream>

#include <ptc/mcp/auth.hpp>

#include "text.hpp"

namespace ptc::mcp::auth {

bool is_loopback_host(std::string_view host) {
  if (host.size() > 2 && host.front() == '[' && host.back() == ']') host = host.substr(1, host.size() - 2);
  if (host.size() > 64) return false;
  if (text::ascii_lower(host) == "localhost") return true;
  const std::string text(host);
  unsigned char bytes[16];
  if (::inet_pton(AF_INET, text.c_str(), bytes) == 1) return bytes[0] == 127;
  if (::inet_pton(AF_INET6, text.c_str(), bytes) != 1) return false;
  static constexpr unsigned char kLoopback[16] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1};
  static constexpr unsigned char kMapped[12] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF};
  if (std::equal(bytes, bytes + 16, kLoopback)) return true;
  return std::equal(bytes, bytes + 12, kMapped) && bytes[12] == 127;
}

std::string exposure_warning(std::string_view host) {
  return "WARNING: this MCP server listens on " + text::printable(host) +
         ", which other machines may reach, and it has no authorization:\n"
         "WARNING: anyone who can connect can list and call every tool it serves.\n"
         "WARNING: Require bearer tokens (HttpOptions::auth, or the mcp subcommand's --auth-tokens-file,\n"
         "WARNING: --auth-tokens-env or --auth-jwks), or listen on 127.0.0.1 behind a proxy that authenticates.\n";
}

bool preflight(const HttpOptions& options, std::ostream& err) {
  if (auto error = check_auth(options.auth)) {
    err << "ptc mcp: " << error->message << "\n";
    return false;
  }
  if (!options.auth.enabled() && !is_loopback_host(options.host)) err << exposure_warning(options.host) << std::flush;
  return true;
}

}  // namespace ptc::mcp::auth
