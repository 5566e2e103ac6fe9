// JWT verification (src/auth/jwt.cpp) with keys made at test time: what is accepted, and every reason a
// token is refused, in the words sent back as error_description.
#include <atomic>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include <openssl/hmac.h>

#include "auth/base64url.hpp"
#include "auth/jwt.hpp"
#include "test_keys.hpp"

namespace {

using nlohmann::json;
using ptc::mcp::auth::base64url_encode;
using ptc::test::TestKey;

const TestKey& rsa() {
  static const TestKey key = TestKey::rsa("rsa-1");
  return key;
}
const TestKey& ec() {
  static const TestKey key = TestKey::ec("ec-1");
  return key;
}

class JwtTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto parsed = ptc::mcp::auth::parse_jwks(ptc::test::jwks_text({&rsa(), &ec()}), "JWKS");
    ASSERT_TRUE(parsed) << parsed.error().message;
    keys = std::move(*parsed);
    settings.audience = "https://mcp.example.com/mcp";
    settings.issuer = "https://auth.example.com";
  }

  json claims(long long exp_in = 600) const {
    const auto now = ptc::test::now_seconds();
    return {{"iss", "https://auth.example.com"},
            {"sub", "user-1"},
            {"aud", "https://mcp.example.com/mcp"},
            {"iat", now},
            {"exp", now + exp_in}};
  }

  /// "(accepted)" or the reason the token is refused.
  std::string verdict(const std::string& token) const {
    auto result = ptc::mcp::auth::verify_jwt(token, keys, settings, std::chrono::system_clock::now());
    return result ? "(accepted)" : result.error().message;
  }

  ptc::mcp::auth::KeySet keys;
  ptc::mcp::JwtSettings settings;
};

TEST_F(JwtTest, AcceptsValidRs256AndEs256Tokens) {
  EXPECT_EQ(verdict(signed_jwt(rsa(), claims(), "rsa-1")), "(accepted)");
  EXPECT_EQ(verdict(signed_jwt(ec(), claims(), "ec-1")), "(accepted)");
  auto result =
      ptc::mcp::auth::verify_jwt(signed_jwt(ec(), claims(), "ec-1"), keys, settings, std::chrono::system_clock::now());
  ASSERT_TRUE(result);
  EXPECT_EQ((*result)["sub"], "user-1");
}

TEST_F(JwtTest, AcceptsAnAudienceArrayThatHoldsTheAudience) {
  auto c = claims();
  c["aud"] = {"https://other.example.com", "https://mcp.example.com/mcp"};
  EXPECT_EQ(verdict(signed_jwt(rsa(), c, "rsa-1")), "(accepted)");
  c["aud"] = {"https://other.example.com"};
  EXPECT_EQ(verdict(signed_jwt(rsa(), c, "rsa-1")), "the token is not meant for this server (aud)");
}

TEST_F(JwtTest, RefusesAnExpiredTokenPastTheLeeway) {
  EXPECT_EQ(verdict(signed_jwt(rsa(), claims(-120), "rsa-1")), "the token has expired");
  EXPECT_EQ(verdict(signed_jwt(rsa(), claims(-30), "rsa-1")), "(accepted)");  // within the 60 s leeway
  settings.leeway = std::chrono::seconds(0);
  EXPECT_EQ(verdict(signed_jwt(rsa(), claims(-30), "rsa-1")), "the token has expired");
}

TEST_F(JwtTest, RefusesATokenNotValidYet) {
  auto c = claims();
  c["nbf"] = ptc::test::now_seconds() + 300;
  EXPECT_EQ(verdict(signed_jwt(ec(), c, "ec-1")), "the token is not valid yet (nbf)");
  c["nbf"] = ptc::test::now_seconds() + 30;
  EXPECT_EQ(verdict(signed_jwt(ec(), c, "ec-1")), "(accepted)");
  c["nbf"] = "soon";
  EXPECT_EQ(verdict(signed_jwt(ec(), c, "ec-1")), "the token's nbf claim is not a number");
}

TEST_F(JwtTest, RefusesAWrongOrMissingAudience) {
  auto c = claims();
  c["aud"] = "https://other.example.com";
  EXPECT_EQ(verdict(signed_jwt(rsa(), c, "rsa-1")), "the token is not meant for this server (aud)");
  c.erase("aud");
  EXPECT_EQ(verdict(signed_jwt(rsa(), c, "rsa-1")), "the token is not meant for this server (aud)");
}

TEST_F(JwtTest, RefusesATokenWithoutExp) {
  auto c = claims();
  c.erase("exp");
  EXPECT_EQ(verdict(signed_jwt(rsa(), c, "rsa-1")), "the token has no exp claim");
  c["exp"] = "tomorrow";
  EXPECT_EQ(verdict(signed_jwt(rsa(), c, "rsa-1")), "the token's exp claim is not a number");
}

TEST_F(JwtTest, RefusesAnotherIssuerWhenOneIsConfigured) {
  auto c = claims();
  c["iss"] = "https://evil.example.com";
  EXPECT_EQ(verdict(signed_jwt(rsa(), c, "rsa-1")), "the token is from another issuer (iss)");
  c.erase("iss");
  EXPECT_EQ(verdict(signed_jwt(rsa(), c, "rsa-1")), "the token is from another issuer (iss)");
  settings.issuer.clear();
  EXPECT_EQ(verdict(signed_jwt(rsa(), c, "rsa-1")), "(accepted)");
}

TEST_F(JwtTest, RefusesASignatureByAnotherKey) {
  const TestKey other_rsa = TestKey::rsa("rsa-1");
  const TestKey other_ec = TestKey::ec("ec-1");
  EXPECT_EQ(verdict(signed_jwt(other_rsa, claims(), "rsa-1")), "the token's signature does not verify");
  EXPECT_EQ(verdict(signed_jwt(other_ec, claims(), "ec-1")), "the token's signature does not verify");
}

TEST_F(JwtTest, RefusesAlgNone) {
  const auto token = ptc::test::unsigned_jwt({{"alg", "none"}, {"typ", "JWT"}}, claims()) + ".";
  EXPECT_EQ(verdict(token), "the token's algorithm is not accepted (RS256 or ES256 only)");
  EXPECT_EQ(verdict(ptc::test::unsigned_jwt({{"typ", "JWT"}}, claims()) + "."),
            "the token's algorithm is not accepted (RS256 or ES256 only)");
}

// The classic confusion: HS256 "signed" with the RSA public key as the HMAC secret.
TEST_F(JwtTest, RefusesHs256EvenKeyedWithThePublicKey) {
  const std::string input = ptc::test::unsigned_jwt({{"alg", "HS256"}, {"kid", "rsa-1"}}, claims());
  const std::string secret = rsa().jwk()["n"].get<std::string>();
  unsigned char mac[32];
  unsigned int size = 0;
  HMAC(EVP_sha256(), secret.data(), static_cast<int>(secret.size()),
       reinterpret_cast<const unsigned char*>(input.data()), input.size(), mac, &size);
  const auto token = input + "." + base64url_encode(std::string(reinterpret_cast<char*>(mac), size));
  EXPECT_EQ(verdict(token), "the token's algorithm is not accepted (RS256 or ES256 only)");
}

TEST_F(JwtTest, RefusesATamperedPayload) {
  const auto token = signed_jwt(rsa(), claims(), "rsa-1");
  auto c = claims();
  c["sub"] = "admin";
  const auto first = token.find('.'), second = token.rfind('.');
  const auto tampered = token.substr(0, first + 1) + base64url_encode(c.dump()) + token.substr(second);
  EXPECT_EQ(verdict(tampered), "the token's signature does not verify");
  const auto es = signed_jwt(ec(), claims(), "ec-1");
  EXPECT_EQ(verdict(es.substr(0, es.find('.') + 1) + base64url_encode(c.dump()) + es.substr(es.rfind('.'))),
            "the token's signature does not verify");
}

TEST_F(JwtTest, RefusesMalformedBase64AndShapes) {
  const auto token = signed_jwt(rsa(), claims(), "rsa-1");
  const auto first = token.find('.'), second = token.rfind('.');
  EXPECT_EQ(verdict("!!" + token.substr(2)), "the token's header is not base64url-encoded JSON");
  EXPECT_EQ(verdict(token.substr(0, first + 1) + "%%%" + token.substr(second)),
            "the token's signature does not verify");  // the signature covers the payload's text as sent
  EXPECT_EQ(verdict(token.substr(0, second + 1) + "***"), "the token's signature does not verify");
  EXPECT_EQ(verdict(token + "="), "the token's signature does not verify");
  EXPECT_EQ(verdict(token.substr(0, second)), "the token is not a JWT (three base64url parts separated by dots)");
  EXPECT_EQ(verdict(token + ".x"), "the token is not a JWT (three base64url parts separated by dots)");
  EXPECT_EQ(verdict("no-dots-at-all"), "the token is not a JWT (three base64url parts separated by dots)");
  EXPECT_EQ(verdict(base64url_encode("[1]") + ".e30.sig"), "the token's header is not base64url-encoded JSON");
  EXPECT_EQ(verdict(base64url_encode("{\"alg\":\"RS256\",\"alg\":\"none\"}") + ".e30.sig"),
            "the token's header is not base64url-encoded JSON");  // a repeated key is refused
}

TEST_F(JwtTest, RefusesAPayloadThatIsNotJsonEvenWhenSigned) {
  const std::string input =
      base64url_encode(json{{"alg", "RS256"}, {"kid", "rsa-1"}}.dump()) + "." + base64url_encode("not json");
  EXPECT_EQ(verdict(input + "." + rsa().sign(input)), "the token's payload is not base64url-encoded JSON");
}

TEST_F(JwtTest, RefusesAnOversizedToken) {
  auto c = claims();
  c["padding"] = std::string(8192, 'x');
  EXPECT_EQ(verdict(signed_jwt(rsa(), c, "rsa-1")), "the token is longer than 8192 bytes");
}

TEST_F(JwtTest, RefusesAnUnknownKid) {
  EXPECT_EQ(verdict(signed_jwt(rsa(), claims(), "rsa-2")), "no key of this server has the token's kid");
  EXPECT_EQ(verdict(signed_jwt_with_header(rsa(), {{"alg", "RS256"}, {"kid", 1}}, claims())),
            "the token's kid is not a string");
}

TEST_F(JwtTest, UsesTheOnlyKeyWhenTheTokenNamesNone) {
  EXPECT_EQ(verdict(signed_jwt(rsa(), claims(), "")), "the token names no kid, and this server has several keys");
  auto one = ptc::mcp::auth::parse_jwks(ptc::test::jwks_text({&ec()}), "JWKS");
  ASSERT_TRUE(one);
  keys = std::move(*one);
  EXPECT_EQ(verdict(signed_jwt(ec(), claims(), "")), "(accepted)");
}

TEST_F(JwtTest, RefusesAnAlgorithmThatDoesNotMatchTheKey) {
  // An ES256 header naming the RSA key: the signature must never be checked with the wrong algorithm.
  EXPECT_EQ(verdict(signed_jwt_with_header(ec(), {{"alg", "ES256"}, {"kid", "rsa-1"}}, claims())),
            "the token's algorithm does not match its key");
  EXPECT_EQ(verdict(signed_jwt_with_header(rsa(), {{"alg", "RS256"}, {"kid", "ec-1"}}, claims())),
            "the token's algorithm does not match its key");
}

TEST_F(JwtTest, RefusesCriticalHeaderExtensions) {
  EXPECT_EQ(verdict(signed_jwt_with_header(rsa(), {{"alg", "RS256"}, {"kid", "rsa-1"}, {"crit", {"exp"}}}, claims())),
            "the token's header has critical extensions this server does not know");
}

TEST_F(JwtTest, RefusesSignaturesOfTheWrongLength) {
  const auto rs = signed_jwt(rsa(), claims(), "rsa-1");
  EXPECT_EQ(verdict(rs.substr(0, rs.size() - 4)), "the token's signature does not verify");
  const auto es = signed_jwt(ec(), claims(), "ec-1");
  EXPECT_EQ(verdict(es.substr(0, es.rfind('.') + 1) + base64url_encode(std::string(63, '\x01'))),
            "the token's signature does not verify");
  EXPECT_EQ(verdict(es.substr(0, es.rfind('.') + 1)), "the token's signature does not verify");
}

// The HTTP server verifies on several threads at once with the same keys.
TEST_F(JwtTest, VerifiesConcurrentlyWithSharedKeys) {
  const auto rs = signed_jwt(rsa(), claims(), "rsa-1");
  const auto es = signed_jwt(ec(), claims(), "ec-1");
  const auto forged = signed_jwt(TestKey::ec("ec-1"), claims(), "ec-1");
  std::atomic<int> wrong{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([&] {
      for (int i = 0; i < 50; ++i) {
        if (verdict(rs) != "(accepted)" || verdict(es) != "(accepted)") ++wrong;
        if (verdict(forged) != "the token's signature does not verify") ++wrong;
      }
    });
  for (auto& thread : threads) thread.join();
  EXPECT_EQ(wrong, 0);
}

}  // namespace
