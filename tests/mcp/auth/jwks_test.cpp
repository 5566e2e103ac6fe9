// JWKS (src/auth/jwks.cpp): RSA and P-256 keys made at test time are read; keys meant for other uses are
// skipped; malformed keys, weak keys and repeated kids are refused with their place named.
#include <gtest/gtest.h>

#include "auth/base64url.hpp"
#include "auth/jwks.hpp"
#include "test_keys.hpp"

namespace {

using nlohmann::json;
using ptc::mcp::auth::Algorithm;
using ptc::mcp::auth::parse_jwks;
using ptc::test::TestKey;

const TestKey& rsa() {
  static const TestKey key = TestKey::rsa("r1");
  return key;
}
const TestKey& ec() {
  static const TestKey key = TestKey::ec("e1");
  return key;
}

std::string error_of(const json& jwks) {
  auto keys = parse_jwks(jwks.dump(), "jwks.json");
  return keys ? "(accepted)" : keys.error().message;
}

TEST(Jwks, ReadsRsaAndP256Keys) {
  auto keys = parse_jwks(ptc::test::jwks_text({&rsa(), &ec()}), "jwks.json");
  ASSERT_TRUE(keys) << keys.error().message;
  ASSERT_EQ(keys->keys.size(), 2u);
  EXPECT_EQ(keys->keys[0].kid, "r1");
  EXPECT_EQ(keys->keys[0].algorithm, Algorithm::RS256);
  EXPECT_EQ(keys->keys[1].kid, "e1");
  EXPECT_EQ(keys->keys[1].algorithm, Algorithm::ES256);
}

TEST(Jwks, SkipsKeysForOtherUsesAlgorithmsAndCurves) {
  auto enc = rsa().jwk();
  enc["use"] = "enc";
  auto ps256 = rsa().jwk();
  ps256["alg"] = "PS256";
  ps256["kid"] = "ps";
  auto p384 = json{{"kty", "EC"}, {"crv", "P-384"}, {"x", "AA"}, {"y", "AA"}};
  auto oct = json{{"kty", "oct"}, {"k", "c2VjcmV0"}};
  auto wrap_only = ec().jwk();
  wrap_only["key_ops"] = {"wrapKey"};
  auto keys = parse_jwks(json{{"keys", {enc, ps256, p384, oct, wrap_only, ec().jwk()}}}.dump(), "jwks.json");
  ASSERT_TRUE(keys) << keys.error().message;
  ASSERT_EQ(keys->keys.size(), 1u);
  EXPECT_EQ(keys->keys[0].kid, "e1");
  EXPECT_EQ(error_of(json{{"keys", {enc, oct}}}),
            "jwks.json: no key to verify RS256 or ES256 signatures with (an RSA key, or an EC key on P-256, meant for "
            "signing)");
}

TEST(Jwks, RefusesWhatIsNotAJwks) {
  EXPECT_EQ(error_of(json::array()), "jwks.json: not a JWKS (an object with a \"keys\" array)");
  EXPECT_EQ(error_of(json{{"keys", json::object()}}), "jwks.json: not a JWKS (an object with a \"keys\" array)");
  EXPECT_EQ(error_of(json{{"keys", {1}}}), "jwks.json: keys[0]: not an object");
  EXPECT_EQ(error_of(json{{"keys", {json{{"kid", "k"}}}}}), "jwks.json: keys[0] (kid \"k\"): has no kty");
}

TEST(Jwks, NamesTheLineAndColumnOfMalformedJson) {
  auto keys = parse_jwks("{\n  \"keys\": [,]\n}", "jwks.json");
  ASSERT_FALSE(keys);
  EXPECT_EQ(keys.error().message,
            "jwks.json:2:12: invalid JSON: syntax error while parsing value - unexpected ','; expected '[', '{', or a "
            "literal");
}

TEST(Jwks, RefusesRsaKeysShorterThan2048Bits) {
  const TestKey small = TestKey::rsa("small", 1024);
  EXPECT_EQ(error_of(json{{"keys", {small.jwk()}}}),
            "jwks.json: keys[0] (kid \"small\"): an RSA key of 1024 bits; at least 2048 are needed");
}

TEST(Jwks, RefusesMalformedKeyMembers) {
  auto bad_n = rsa().jwk();
  bad_n["n"] = "not base64url!";
  EXPECT_EQ(error_of(json{{"keys", {bad_n}}}),
            "jwks.json: keys[0] (kid \"r1\"): n is not base64url of at most 1024 bytes");
  auto no_e = rsa().jwk();
  no_e.erase("e");
  EXPECT_EQ(error_of(json{{"keys", {no_e}}}), "jwks.json: keys[0] (kid \"r1\"): e is not base64url of at most 8 bytes");
  auto short_x = ec().jwk();
  short_x["x"] = ptc::mcp::auth::base64url_encode(std::string(31, 'x'));
  EXPECT_EQ(error_of(json{{"keys", {short_x}}}),
            "jwks.json: keys[0] (kid \"e1\"): x and y must be base64url of 32 bytes each");
  auto off_curve = ec().jwk();
  off_curve["y"] = ptc::mcp::auth::base64url_encode(std::string(32, '\x01'));
  EXPECT_EQ(error_of(json{{"keys", {off_curve}}}), "jwks.json: keys[0] (kid \"e1\"): not a point on P-256");
  auto mismatch = rsa().jwk();
  mismatch["alg"] = "ES256";
  EXPECT_EQ(error_of(json{{"keys", {mismatch}}}), "jwks.json: keys[0] (kid \"r1\"): alg ES256 does not fit kty RSA");
  auto numeric_kid = ec().jwk();
  numeric_kid["kid"] = 7;
  EXPECT_EQ(error_of(json{{"keys", {numeric_kid}}}), "jwks.json: keys[0]: kid is not a string of at most 256 bytes");
}

TEST(Jwks, RefusesAKidUsedTwice) {
  auto a = rsa().jwk(), b = ec().jwk();
  b["kid"] = "r1";
  EXPECT_EQ(error_of(json{{"keys", {a, b}}}),
            "jwks.json: keys[0] and keys[1] have the same kid; a token could not say which it means");
  a.erase("kid");
  b.erase("kid");
  EXPECT_EQ(error_of(json{{"keys", {a, b}}}),
            "jwks.json: keys[0] and keys[1] both have no kid; a token could not say which it means");
}

TEST(Jwks, BoundsItsSizeAndItsKeys) {
  EXPECT_EQ(parse_jwks(std::string((1 << 20) + 1, ' '), "j").error().message, "j: larger than 1048576 bytes");
  json many = json::array();
  for (int i = 0; i < 101; ++i) many.push_back(json{{"kty", "oct"}});
  EXPECT_EQ(error_of(json{{"keys", many}}), "jwks.json: more than 100 keys");
}

}  // namespace
