// Authorization through the Streamable HTTP endpoint (src/auth/authorizer.cpp, driven by McpHttpEndpoint
// without sockets): the 401 and its exact challenge, the metadata at both well-known paths, static
// tokens and JWTs, and that no answer ever holds the token.
#include <condition_variable>
#include <map>
#include <mutex>

#include <gtest/gtest.h>

#include <ptc/registry.hpp>
#include <ptc/tool.hpp>

#include "../http_fixtures.hpp"
#include "http_transport.hpp"
#include "test_keys.hpp"

namespace {

using nlohmann::json;
using ptc::mcp::HttpRequest;
using ptc::mcp::HttpResponse;

const std::string kToken = "tok-0123456789abcdefghij";
const std::string kMetadataUrl = "http://127.0.0.1:8000/.well-known/oauth-protected-resource/mcp";

using ptc_test::CollectingStream;
using ptc_test::header_of;

/// The tests' request: a ping, unless a test says otherwise.
struct Req : ptc_test::Req {
  Req() : ptc_test::Req(R"({"jsonrpc":"2.0","id":1,"method":"ping"})") {}
};

class AuthorizedEndpoint : public ::testing::Test {
 protected:
  void SetUp() override {
    registry.add(ptc::make_tool("add", "Adds.", "(a :int, b :int) -> :int", [](const json& args, ptc::ToolContext&) {
      return ptc::ToolResult<json>::ok(args["a"].get<int>() + args["b"].get<int>());
    }));
    protocol =
        std::make_unique<ptc::mcp::Protocol>(registry, ptc::mcp::ServerInfo{"s", "1"}, ptc::mcp::ServerOptions{});
    ptc::mcp::HttpAuth auth;
    auth.tokens = {ptc::mcp::token_digest(kToken)};
    serve(auth);
  }
  void serve(ptc::mcp::HttpAuth auth) {
    ptc::mcp::HttpOptions options;
    options.auth = std::move(auth);
    endpoint.reset();
    endpoint = std::make_unique<ptc::mcp::McpHttpEndpoint>(*protocol, options);
  }
  HttpResponse send(const ptc_test::Req& r) { return endpoint->handle(r.build()); }
  static Req well_known(const std::string& path) {
    Req r;
    r.method = "GET";
    r.path = path;
    r.body.clear();
    return r;
  }

  ptc::ToolRegistry registry;
  std::unique_ptr<ptc::mcp::Protocol> protocol;
  std::unique_ptr<ptc::mcp::McpHttpEndpoint> endpoint;
};

TEST_F(AuthorizedEndpoint, ARequestWithoutATokenGets401AndTheChallenge) {
  auto response = send(Req{});
  EXPECT_EQ(response.status, 401);
  EXPECT_EQ(header_of(response, "WWW-Authenticate"), "Bearer resource_metadata=\"" + kMetadataUrl + "\"");
  EXPECT_EQ(response.body,
            R"({"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Unauthorized: this server needs an )"
            R"(access token, sent as Authorization: Bearer <token>; how to obtain one is in the resource metadata )"
            R"(at )" +
                kMetadataUrl + R"("}})");
}

TEST_F(AuthorizedEndpoint, EveryMethodOfTheEndpointNeedsTheToken) {
  for (const char* method : {"POST", "GET", "DELETE"}) {
    Req r;
    r.method = method;
    EXPECT_EQ(send(r).status, 401) << method;
    r.bearer(kToken);
    EXPECT_NE(send(r).status, 401) << method;
  }
}

TEST_F(AuthorizedEndpoint, TheRightTokenReachesTheServer) {
  auto pong = send(Req{}.bearer(kToken));
  EXPECT_EQ(pong.status, 200);
  EXPECT_EQ(json::parse(pong.body)["result"], json::object());
  Req lower;
  lower.set("authorization", "bearer   " + kToken);  // the scheme is case-insensitive
  EXPECT_EQ(send(lower).status, 200);
}

TEST_F(AuthorizedEndpoint, AnAuthorizedToolCallIsAnswered) {
  Req init;
  init.body =
      R"({"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{}}})";
  auto opened = send(init.bearer(kToken));
  ASSERT_EQ(opened.status, 200);
  Req call;
  call.body = R"({"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"add","arguments":{"a":2,"b":3}}})";
  call.set("mcp-session-id", header_of(opened, "Mcp-Session-Id")).bearer(kToken);
  auto response = send(call);
  ASSERT_EQ(response.status, 200);
  auto stream = std::make_shared<CollectingStream>();
  response.open(stream);
  EXPECT_NE(stream->wait_closed().find(R"("structuredContent":{"result":5})"), std::string::npos);
}

TEST_F(AuthorizedEndpoint, AWrongTokenIsInvalidAndNeverEchoed) {
  const std::string wrong = "wrong-token-9876543210zyxw";
  auto response = send(Req{}.bearer(wrong));
  EXPECT_EQ(response.status, 401);
  EXPECT_EQ(header_of(response, "WWW-Authenticate"),
            "Bearer resource_metadata=\"" + kMetadataUrl +
                "\", error=\"invalid_token\", error_description=\"the token is not one this server accepts\"");
  EXPECT_EQ(json::parse(response.body)["error"]["message"], "Unauthorized: the token is not one this server accepts");
  EXPECT_EQ(response.body.find(wrong), std::string::npos);
  for (const auto& [name, value] : response.headers) EXPECT_EQ(value.find(wrong), std::string::npos);
}

TEST_F(AuthorizedEndpoint, AnEmptyOrMalformedTokenIsInvalid) {
  Req empty;
  empty.set("authorization", "Bearer");
  auto none = send(empty);
  EXPECT_EQ(none.status, 401);
  EXPECT_EQ(header_of(none, "WWW-Authenticate"),
            "Bearer resource_metadata=\"" + kMetadataUrl +
                "\", error=\"invalid_token\", error_description=\"the Authorization header holds no token after "
                "Bearer\"");
  auto odd = send(Req{}.bearer("tok\"en, x=1"));
  EXPECT_EQ(odd.status, 401);
  EXPECT_EQ(json::parse(odd.body)["error"]["message"],
            "Unauthorized: the token holds characters a bearer token cannot have");
  auto huge = send(Req{}.bearer(std::string(8193, 'a')));
  EXPECT_EQ(json::parse(huge.body)["error"]["message"], "Unauthorized: the token is longer than 8192 bytes");
}

TEST_F(AuthorizedEndpoint, AnotherSchemeGetsTheChallengeWithoutAnErrorCode) {
  Req basic;
  basic.set("authorization", "Basic dXNlcjpwYXNz");
  auto response = send(basic);
  EXPECT_EQ(response.status, 401);
  EXPECT_EQ(header_of(response, "WWW-Authenticate"), "Bearer resource_metadata=\"" + kMetadataUrl + "\"");
  EXPECT_EQ(json::parse(response.body)["error"]["message"],
            "Unauthorized: this server takes an access token as Authorization: Bearer <token>, not another scheme; "
            "how to obtain one is in the resource metadata at " +
                kMetadataUrl);
  EXPECT_EQ(response.body.find("dXNlcjpwYXNz"), std::string::npos);
}

TEST_F(AuthorizedEndpoint, TwoAuthorizationHeadersAreABadRequest) {
  Req twice;
  twice.headers.emplace("authorization", "Bearer " + kToken);
  twice.headers.emplace("authorization", "Bearer " + kToken);
  auto response = send(twice);
  EXPECT_EQ(response.status, 400);
  EXPECT_EQ(header_of(response, "WWW-Authenticate"),
            "Bearer resource_metadata=\"" + kMetadataUrl +
                "\", error=\"invalid_request\", error_description=\"the request has more than one Authorization "
                "header\"");
  EXPECT_EQ(json::parse(response.body)["error"]["message"],
            "Bad Request: the request has more than one Authorization header");
}

TEST_F(AuthorizedEndpoint, TheMetadataIsServedAtBothWellKnownPathsWithoutAToken) {
  const json expected{{"resource", "http://127.0.0.1:8000/mcp"}, {"bearer_methods_supported", {"header"}}};
  for (const char* path : {"/.well-known/oauth-protected-resource", "/.well-known/oauth-protected-resource/mcp"}) {
    auto response = send(well_known(path));
    EXPECT_EQ(response.status, 200) << path;
    EXPECT_EQ(response.content_type, "application/json");
    EXPECT_EQ(json::parse(response.body), expected) << path;
  }
  Req post = well_known("/.well-known/oauth-protected-resource/mcp");
  post.method = "POST";
  auto refused = send(post);
  EXPECT_EQ(refused.status, 405);
  EXPECT_EQ(header_of(refused, "Allow"), "GET");
  EXPECT_EQ(send(well_known("/.well-known/oauth-protected-resource/other")).status, 404);
}

TEST_F(AuthorizedEndpoint, TheResourceFollowsTheHostHeaderUnlessConfigured) {
  Req v6 = well_known("/.well-known/oauth-protected-resource/mcp");
  v6.set("host", "[::1]:9000");
  EXPECT_EQ(json::parse(send(v6).body)["resource"], "http://[::1]:9000/mcp");
  Req odd = well_known("/.well-known/oauth-protected-resource/mcp");
  odd.set("host", "localhost:\"x");  // allowed as a local host, but no part of a URL
  EXPECT_EQ(json::parse(send(odd).body)["resource"], "http://127.0.0.1:8000/mcp");

  ptc::mcp::HttpAuth auth;
  auth.tokens = {ptc::mcp::token_digest(kToken)};
  auth.resource = "https://mcp.example.com/tools/mcp";
  auth.authorization_servers = {"https://auth.example.com"};
  auth.scopes_supported = {"mcp:tools", "mcp:read"};
  serve(auth);
  auto challenge = send(Req{});
  EXPECT_EQ(header_of(challenge, "WWW-Authenticate"),
            "Bearer resource_metadata=\"https://mcp.example.com/.well-known/oauth-protected-resource/tools/mcp\", "
            "scope=\"mcp:tools mcp:read\"");
  for (const char* path : {"/.well-known/oauth-protected-resource", "/.well-known/oauth-protected-resource/mcp",
                           "/.well-known/oauth-protected-resource/tools/mcp"}) {
    auto response = send(well_known(path));
    ASSERT_EQ(response.status, 200) << path;
    EXPECT_EQ(response.body,
              R"({"resource":"https://mcp.example.com/tools/mcp","authorization_servers":["https://auth.example.com"],)"
              R"("scopes_supported":["mcp:tools","mcp:read"],"bearer_methods_supported":["header"]})");
  }
}

TEST_F(AuthorizedEndpoint, HostAndOriginChecksStillComeFirst) {
  Req evil_host = well_known("/.well-known/oauth-protected-resource");
  evil_host.set("host", "evil.example");
  EXPECT_EQ(send(evil_host).status, 403);
  Req evil_origin;
  evil_origin.set("origin", "https://evil.example").bearer(kToken);
  EXPECT_EQ(send(evil_origin).status, 403);
  Req elsewhere;
  elsewhere.path = "/other";
  EXPECT_EQ(send(elsewhere).status, 404);
}

TEST_F(AuthorizedEndpoint, WithoutAuthorizationThereIsNoMetadataAndNoChallenge) {
  serve({});
  EXPECT_EQ(send(well_known("/.well-known/oauth-protected-resource")).status, 404);
  EXPECT_EQ(send(Req{}).status, 200);
}

TEST_F(AuthorizedEndpoint, UnusableSettingsCloseTheEndpoint) {
  ptc::mcp::HttpAuth auth;
  auth.scopes_supported = {"mcp:tools"};  // metadata, but nothing to check tokens with
  serve(auth);
  auto response = send(Req{}.bearer(kToken));
  EXPECT_EQ(response.status, 500);
  EXPECT_EQ(json::parse(response.body)["error"]["message"],
            "Internal Server Error: the server's authorization settings are unusable");
}

TEST_F(AuthorizedEndpoint, JwtsAreVerifiedAndTheirFaultsNamed) {
  const auto key = ptc::test::TestKey::ec("k1");
  ptc::mcp::HttpAuth auth;
  auth.jwt = ptc::mcp::JwtSettings{ptc::test::jwks_text({&key}), "http://127.0.0.1:8000/mcp"};
  serve(auth);
  const auto now = ptc::test::now_seconds();
  const json claims{{"aud", "http://127.0.0.1:8000/mcp"}, {"exp", now + 300}, {"sub", "u"}};
  EXPECT_EQ(send(Req{}.bearer(signed_jwt(key, claims, "k1"))).status, 200);
  auto expired_claims = claims;
  expired_claims["exp"] = now - 3600;
  const auto expired = signed_jwt(key, expired_claims, "k1");
  auto response = send(Req{}.bearer(expired));
  EXPECT_EQ(response.status, 401);
  EXPECT_EQ(header_of(response, "WWW-Authenticate"),
            "Bearer resource_metadata=\"" + kMetadataUrl +
                "\", error=\"invalid_token\", error_description=\"the token has expired\"");
  EXPECT_EQ(json::parse(response.body)["error"]["message"], "Unauthorized: the token has expired");
  for (std::string_view part : {std::string_view(expired), std::string_view(expired).substr(0, expired.find('.'))})
    EXPECT_EQ(response.body.find(part), std::string::npos);
  auto other = claims;
  other["aud"] = "https://elsewhere.example.com";
  EXPECT_EQ(json::parse(send(Req{}.bearer(signed_jwt(key, other, "k1"))).body)["error"]["message"],
            "Unauthorized: the token is not meant for this server (aud)");
}

}  // namespace
