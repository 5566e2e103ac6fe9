// ptc::parse_json: untrusted JSON text, with a nesting limit and no repeated keys.
#include <string>
#include <string_view>
#include <vector>

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

// nlohmann would read such a literal as the nearest double, whose digits differ: a model's id
// 18446744073709551617 would reach a float parameter, or a message, as 18446744073709551616.
TEST(ParseJson, AnIntegerBeyond64BitsIsRefusedWithItsDigitsAndPlace) {
  auto below = ptc::parse_json(R"({"days": -9223372036854775809})");
  ASSERT_FALSE(below);
  EXPECT_EQ(below.error().message, "invalid JSON: int -9223372036854775809 is beyond 64 bits at days");
  auto above = ptc::parse_json(R"({"a": [1, {"b": [0, 18446744073709551616]}]})");
  ASSERT_FALSE(above);
  EXPECT_EQ(above.error().message, "invalid JSON: int 18446744073709551616 is beyond 64 bits at a[1].b[1]");
  auto root = ptc::parse_json("123456789012345678901234567890");
  ASSERT_FALSE(root);
  EXPECT_EQ(root.error().message, "invalid JSON: int 123456789012345678901234567890 is beyond 64 bits at (root)");
  // The edges of int64 and uint64 are integers; the same magnitude written as a float is a float.
  auto edges = ptc::parse_json(R"([-9223372036854775808, 18446744073709551615, 1.8446744073709551616e19, 1e30])");
  ASSERT_TRUE(edges);
  EXPECT_TRUE((*edges)[0].is_number_integer());
  EXPECT_TRUE((*edges)[1].is_number_unsigned());
  EXPECT_TRUE((*edges)[2].is_number_float());
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

namespace {

// A member `keep` declines is read and checked, but left out of the object (not held as null), and a
// repeat of its key is still refused.
TEST(ParseJson, AMemberKeepDeclinesIsLeftOutButStillChecked) {
  ptc::JsonParseOptions options;
  std::vector<std::string> declined;
  options.keep = [&](std::string_view key) {
    if (key == "a") return true;
    declined.emplace_back(key);
    return false;
  };
  auto r = ptc::parse_json(R"({"b": [1, {"c": 2}], "a": {"b": 1}, "z": null})", options);
  ASSERT_TRUE(r);
  EXPECT_EQ(*r, nlohmann::json::parse(R"({"a": {"b": 1}})"));
  EXPECT_EQ(declined, (std::vector<std::string>{"b", "z"}));
  auto repeated = ptc::parse_json(R"({"b": 1, "a": 2, "b": 3})", options);
  ASSERT_FALSE(repeated);
  EXPECT_EQ(repeated.error().message, R"(invalid JSON: duplicate key "b" at (root))");
  EXPECT_FALSE(ptc::parse_json(R"({"b": [1, {"c": 2, "c": 3}]})", options));
  EXPECT_FALSE(ptc::parse_json(R"({"b": [1, }})", options));
}

}  // namespace
