// check_auth and load_jwks_file (src/auth/settings.cpp): each setting that would leave the server open or
// unusable is refused, in these words.
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>

#include <gtest/gtest.h>

#include <ptc/mcp/auth.hpp>

#include "test_keys.hpp"

namespace {

using ptc::mcp::check_auth;
using ptc::mcp::HttpAuth;
using ptc::mcp::JwtSettings;

const ptc::test::TestKey& ec() {
  static const ptc::test::TestKey key = ptc::test::TestKey::ec("k");
  return key;
}

std::string problem(const HttpAuth& auth) {
  auto error = check_auth(auth);
  return error ? error->message : "(usable)";
}

HttpAuth with_tokens() {
  HttpAuth auth;
  auth.tokens = {ptc::mcp::token_digest("0123456789abcdef")};
  return auth;
}

TEST(CheckAuth, AcceptsNothingTokensOrJwt) {
  EXPECT_EQ(problem(HttpAuth{}), "(usable)");
  EXPECT_EQ(problem(with_tokens()), "(usable)");
  HttpAuth jwt;
  jwt.jwt = JwtSettings{ptc::test::jwks_text({&ec()}), "https://mcp.example.com/mcp"};
  jwt.authorization_servers = {"https://auth.example.com"};
  jwt.resource = "https://mcp.example.com/mcp";
  jwt.scopes_supported = {"mcp:tools"};
  EXPECT_EQ(problem(jwt), "(usable)");
}

TEST(CheckAuth, RefusesBothSources) {
  auto auth = with_tokens();
  auth.jwt = JwtSettings{ptc::test::jwks_text({&ec()}), "aud"};
  EXPECT_EQ(problem(auth), "static tokens and JWT settings are both set; use one");
}

TEST(CheckAuth, RefusesMetadataWithoutAnythingToCheck) {
  HttpAuth auth;
  auth.authorization_servers = {"https://auth.example.com"};
  EXPECT_EQ(problem(auth),
            "authorization servers, a resource or scopes are set, but neither tokens nor JWT settings: no token would "
            "be checked");
}

TEST(CheckAuth, RefusesJwtSettingsWithoutAudienceOrKeys) {
  HttpAuth auth;
  auth.jwt = JwtSettings{ptc::test::jwks_text({&ec()}), ""};
  EXPECT_EQ(problem(auth), "the JWT settings name no audience; tokens issued for any other service would pass");
  auth.jwt->audience = "aud";
  auth.jwt->leeway = std::chrono::seconds(-1);
  EXPECT_EQ(problem(auth), "the JWT leeway must be between 0 and 3600 seconds");
  auth.jwt->leeway = std::chrono::seconds(60);
  auth.jwt->jwks = R"({"keys":[]})";
  EXPECT_EQ(problem(auth),
            "JWKS: no key to verify RS256 or ES256 signatures with (an RSA key, or an EC key on P-256, meant for "
            "signing)");
}

TEST(CheckAuth, RefusesUrlsAndScopesThatCannotGoIntoTheMetadataOrTheChallenge) {
  auto auth = with_tokens();
  auth.resource = "mcp.example.com/mcp";
  EXPECT_EQ(problem(auth),
            "the resource \"mcp.example.com/mcp\" is not an absolute http(s) URL without query or fragment");
  auth.resource = "https://mcp.example.com/mcp";
  auth.authorization_servers = {"https://auth.example.com", "https://a\"b"};
  EXPECT_EQ(problem(auth),
            "the authorization server \"https://a\\\"b\" is not an absolute http(s) URL without query or fragment");
  auth.authorization_servers.clear();
  auth.scopes_supported = {"read write"};
  EXPECT_EQ(problem(auth),
            "the scope \"read write\" is not a scope token (printable ASCII without spaces, quotes or backslashes)");
  auth.scopes_supported.assign(101, "s");
  EXPECT_EQ(problem(auth), "more than 100 scopes");
}

TEST(LoadJwksFile, ReturnsTheTextOfAUsableFileAndNamesTheFileOtherwise) {
  char dir[] = "/tmp/ptc-jwks-XXXXXX";
  ASSERT_NE(::mkdtemp(dir), nullptr);
  const std::string good = std::string(dir) + "/good.json", bad = std::string(dir) + "/bad.json";
  std::ofstream(good) << ptc::test::jwks_text({&ec()});
  std::ofstream(bad) << "{\"keys\": [\n  {\"kty\": \"EC\", \"crv\": \"P-256\", \"x\": \"AA\", \"y\": \"AA\"}\n]}";
  auto text = ptc::mcp::load_jwks_file(good);
  ASSERT_TRUE(text) << text.error().message;
  EXPECT_EQ(*text, ptc::test::jwks_text({&ec()}));
  auto refused = ptc::mcp::load_jwks_file(bad);
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().message, bad + ": keys[0]: x and y must be base64url of 32 bytes each");
  EXPECT_EQ(ptc::mcp::load_jwks_file(std::string(dir) + "/none.json").error().message,
            std::string(dir) + "/none.json: No such file or directory");
  std::remove(good.c_str());
  std::remove(bad.c_str());
  ::rmdir(dir);
}

}  // namespace
