// ptc::parse_json: untrusted JSON text, with a nesting limit and no repeated keys.
#include <string>

#include <gtest/gtest.h>

#include <ptc/json_input.hpp>

namespace {

TEST(ParseJson, ARepeatedKeyIsRefusedNamingTheObject) {
  auto root = ptc::parse_json(R"({"days": 1, "days": 2})");
  ASSERT_FALSE(root);
  EXPECT_EQ(root.error().message, R"(invalid JSON: duplicate key "days" at (root))");
  auto nested = ptc::parse_json(R"({"filter": [{"a b": {"x": 1, "y": 2, "x": 3}}]})");
  ASSERT_FALSE(nested);
  EXPECT_EQ(nested.error().message, R"(invalid JSON: duplicate key "x" at filter[0]["a b"])");
  EXPECT_TRUE(ptc::parse_json(R"({"a": {"x": 1}, "b": {"x": 1}})"));
}

}  // namespace

namespace {

TEST(ParseJson, NestingPastTheLimitIsRefusedBeforeItIsBuilt) {
  const std::string deep = std::string(600, '[') + std::string(600, ']');
  auto r = ptc::parse_json(deep);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().message, "invalid JSON: nesting deeper than 512 levels");
  EXPECT_TRUE(ptc::parse_json(std::string(100, '[') + std::string(100, ']')));
}

TEST(ParseJson, MalformedTextNamesTheColumn) {
  auto r = ptc::parse_json(R"({"a": tru})");
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().column, 10u);
}

}  // namespace

namespace {

TEST(ParseJson, ANulByteEndsNothing) {
  auto r = ptc::parse_json(std::string("{\"a\": 1}\0 trailing", 18));
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().message, "invalid JSON: NUL byte");
  EXPECT_EQ(r.error().column, 9u);
  EXPECT_FALSE(ptc::parse_json(std::string("{\"a\": \"x\0y\"}", 13)));
}

}  // namespace
