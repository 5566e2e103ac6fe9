// What serve_http checks before listening (src/auth/exposure.cpp): which hosts are loopback, the banner
// for serving others without authorization, and refusing settings it cannot use.
#include <sstream>

#include <gtest/gtest.h>

#include "auth/exposure.hpp"

namespace {

using namespace ptc::mcp::auth;

TEST(LoopbackHost, IsLocalhost127SlashEightAndColonColonOne) {
  for (const char* host : {"localhost", "LocalHost", "127.0.0.1", "127.1.2.3", "::1", "[::1]", "::ffff:127.0.0.1"})
    EXPECT_TRUE(is_loopback_host(host)) << host;
  for (const char* host : {"0.0.0.0", "::", "[::]", "192.168.1.10", "10.0.0.1", "mcp.example.com", "", "128.0.0.1",
                           "::2", "::ffff:10.0.0.1", "localhost.example.com"})
    EXPECT_FALSE(is_loopback_host(host)) << host;
}

TEST(ExposureWarning, IsABannerOfWarningLines) {
  EXPECT_EQ(exposure_warning("0.0.0.0"),
            "WARNING: this MCP server listens on 0.0.0.0, which other machines may reach, and it has no "
            "authorization:\n"
            "WARNING: anyone who can connect can list and call every tool it serves.\n"
            "WARNING: Require bearer tokens (HttpOptions::auth, or the mcp subcommand's --auth-tokens-file,\n"
            "WARNING: --auth-tokens-env or --auth-jwks), or listen on 127.0.0.1 behind a proxy that "
            "authenticates.\n");
}

TEST(Preflight, WarnsOnlyForAnExposedHostWithoutAuthorization) {
  ptc::mcp::HttpOptions options;
  std::ostringstream quiet;
  EXPECT_TRUE(preflight(options, quiet));
  EXPECT_EQ(quiet.str(), "");
  options.host = "0.0.0.0";
  std::ostringstream loud;
  EXPECT_TRUE(preflight(options, loud));
  EXPECT_EQ(loud.str(), exposure_warning("0.0.0.0"));
  options.auth.tokens = {ptc::mcp::token_digest("0123456789abcdef")};
  std::ostringstream guarded;
  EXPECT_TRUE(preflight(options, guarded));
  EXPECT_EQ(guarded.str(), "");
}

TEST(Preflight, RefusesUnusableSettings) {
  ptc::mcp::HttpOptions options;
  options.auth.scopes_supported = {"s"};
  std::ostringstream err;
  EXPECT_FALSE(preflight(options, err));
  EXPECT_EQ(err.str(),
            "ptc mcp: authorization servers, a resource or scopes are set, but neither tokens nor JWT settings: no "
            "token would be checked\n");
}

}  // namespace
