// Protected resource metadata (src/auth/metadata.cpp): which Host headers may go into a URL, where the
// metadata of a resource lives, and the document.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "auth/metadata.hpp"

namespace {

using nlohmann::json;
using namespace ptc::mcp::auth;

TEST(UrlAuthority, AcceptsNamesAddressesAndPorts) {
  for (const char* host : {"localhost", "127.0.0.1:8000", "[::1]", "[::1]:8000", "mcp.example.com", "a-b_c.d:1"})
    EXPECT_EQ(url_authority(host), std::optional<std::string_view>(host)) << host;
}

TEST(UrlAuthority, RefusesWhatCouldBreakAUrlOrAQuotedHeader) {
  for (const char* host : {"", "localhost:\"x", "localhost:80/x", "a b", "[::1", "[::1]x", "[zz]",
                           "host:", "host:123456", "ho\"st", "host\\", "user@host"})
    EXPECT_EQ(url_authority(host), std::nullopt) << host;
  EXPECT_EQ(url_authority(std::string(300, 'a')), std::nullopt);
}

TEST(PlainUrl, IsAnAbsoluteHttpUrlWithoutQueryOrFragment) {
  EXPECT_TRUE(is_plain_url("https://mcp.example.com/mcp"));
  EXPECT_TRUE(is_plain_url("http://127.0.0.1:8000"));
  EXPECT_FALSE(is_plain_url("ftp://example.com"));
  EXPECT_FALSE(is_plain_url("https://"));
  EXPECT_FALSE(is_plain_url("https:///path"));
  EXPECT_FALSE(is_plain_url("https://example.com/a?b"));
  EXPECT_FALSE(is_plain_url("https://example.com/#f"));
  EXPECT_FALSE(is_plain_url("https://example.com/a b"));
  EXPECT_FALSE(is_plain_url("https://example.com/\""));
  EXPECT_FALSE(is_plain_url("https://example.com/" + std::string(2048, 'a')));
}

TEST(MetadataUrl, InsertsTheWellKnownPathBeforeTheResourcePath) {
  EXPECT_EQ(metadata_url("https://mcp.example.com/mcp"),
            "https://mcp.example.com/.well-known/oauth-protected-resource/mcp");
  EXPECT_EQ(metadata_url("http://127.0.0.1:8000/a/b"),
            "http://127.0.0.1:8000/.well-known/oauth-protected-resource/a/b");
  EXPECT_EQ(metadata_url("https://mcp.example.com/"), "https://mcp.example.com/.well-known/oauth-protected-resource");
  EXPECT_EQ(metadata_url("https://mcp.example.com"), "https://mcp.example.com/.well-known/oauth-protected-resource");
}

TEST(MetadataDocument, ListsTheResourceServersScopesAndTheHeaderMethod) {
  ptc::mcp::HttpAuth auth;
  auth.authorization_servers = {"https://auth.example.com"};
  auth.scopes_supported = {"tools.read", "tools.call"};
  EXPECT_EQ(json::parse(metadata_document(auth, "https://mcp.example.com/mcp")),
            (json{{"resource", "https://mcp.example.com/mcp"},
                  {"authorization_servers", {"https://auth.example.com"}},
                  {"scopes_supported", {"tools.read", "tools.call"}},
                  {"bearer_methods_supported", {"header"}}}));
}

TEST(MetadataDocument, NamesTheIssuerWhenNoServerIsSetAndNothingWhenThereIsNone) {
  ptc::mcp::HttpAuth auth;
  EXPECT_EQ(metadata_document(auth, "http://h/mcp"),
            R"({"resource":"http://h/mcp","bearer_methods_supported":["header"]})");
  auth.jwt = ptc::mcp::JwtSettings{"{}", "aud", "https://auth.example.com"};
  EXPECT_EQ(json::parse(metadata_document(auth, "http://h/mcp"))["authorization_servers"],
            json({"https://auth.example.com"}));
  auth.jwt->issuer = "not a url";
  EXPECT_FALSE(json::parse(metadata_document(auth, "http://h/mcp")).contains("authorization_servers"));
}

}  // namespace
