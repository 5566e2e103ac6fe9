#include <gtest/gtest.h>

#include <ptc/firewall.hpp>
#include <ptc/json_text.hpp>
#include <ptc/signature.hpp>

namespace {

using nlohmann::json;

TEST(Firewall, HidesUnderscoreFieldsAtEveryDepth) {
  auto s = ptc::parse_type(
               "{summary :string, _email_ids [:int], items [{id :int, _secret :string}], user {_token :string}?}")
               .value();
  auto v = json::parse(
      R"({"summary":"s","_email_ids":[1,2],"items":[{"id":1,"_secret":"x"}],"user":{"_token":"t"},"extra":1})");
  EXPECT_EQ(ptc::firewall(s, v),
            json::parse(R"({"summary":"s","_email_ids":"<Firewalled>","items":[{"id":1,"_secret":"<Firewalled>"}],)"
                        R"("user":{"_token":"<Firewalled>"},"extra":1})"));
  EXPECT_EQ(v["_email_ids"], json::parse("[1,2]")) << "the original value stays intact for C++ code";
}

TEST(Firewall, UnionsUseTheMatchingAlternative) {
  auto s = ptc::parse_type("{a :int}|{_b :string}").value();
  EXPECT_EQ(ptc::firewall(s, json::parse(R"({"_b":"x"})")), json::parse(R"({"_b":"<Firewalled>"})"));
  EXPECT_EQ(ptc::firewall(s, json::parse(R"({"a":1})")), json::parse(R"({"a":1})"));
}

TEST(Firewall, NullAndMissingStayAsTheyAre) {
  auto s = ptc::parse_type("{_x :string?}").value();
  EXPECT_EQ(ptc::firewall(s, json::parse("{}")), json::parse("{}"));
  EXPECT_EQ(ptc::firewall(s, json::parse("null")), json::parse("null"));
}

// firewall_text is firewall() on compact text: the same bytes as compact_text(firewall(...)).
void expect_same_as_firewall(const ptc::Schema& s, const std::string& value) {
  const json v = json::parse(value);
  const auto hidden = ptc::firewall_text(s, ptc::compact_text(v));
  ASSERT_TRUE(hidden.has_value()) << ptc::to_malli(s) << " " << value;
  EXPECT_EQ(*hidden, ptc::compact_text(ptc::firewall(s, v))) << ptc::to_malli(s) << " " << value;
}

ptc::Schema shorthand(const char* type) { return ptc::parse_type(type).value(); }
ptc::Schema malli(const char* type) { return ptc::parse_malli_type(type).value(); }

TEST(FirewallText, IsFirewallOnCompactText) {
  expect_same_as_firewall(
      shorthand("{summary :string, _email_ids [:int], items [{id :int, _secret :string}], user {_token :string}?}"),
      R"({"summary":"s","_email_ids":[1,2],"items":[{"id":1,"_secret":"x"}],"user":{"_token":"t"},"extra":1})");
  expect_same_as_firewall(shorthand("{_x :string?}"), "{}");
  expect_same_as_firewall(shorthand("{_x :string?}"), "null");
  expect_same_as_firewall(shorthand("{_x :string?}"), R"({"_x":null})");
  expect_same_as_firewall(shorthand("{a {_b :int}?}"), R"({"a":null})");
  // Values with brackets, quotes and escapes inside strings, and nesting the schema does not describe.
  expect_same_as_firewall(malli("[:map [:_a :any] [:b :any] [:c [:map-of :string [:map [:_d :int]]]]]"),
                          R"({"_a":{"x":["]}",{"y":"\"{"}]},"b":[[[{"z":"\u00e9,:"}]]],"c":{"k\"":{"_d":1,"e":2}}})");
  expect_same_as_firewall(malli("[:tuple [:map [:_a :int]] :int]"), R"([{"_a":1},2,{"_a":3}])");
  expect_same_as_firewall(malli("[:and [:map [:_a :int] [:b :int]] [:map [:b :int]]]"), R"({"_a":1,"b":2})");
  // A value of another kind than the schema says is copied, as firewall() leaves it.
  expect_same_as_firewall(shorthand("{_a :int}"), "[1,2]");
  expect_same_as_firewall(shorthand("[{_a :int}]"), R"({"_a":1})");
  // A union without firewalled fields is copied whole.
  expect_same_as_firewall(shorthand("{a :int}|{b :string}"), R"({"b":"x"})");
}

TEST(FirewallText, DeclinesWhatItCannotDoExactly) {
  const auto s = ptc::parse_type("{_a :int, b :int}").value();
  // Not compact: a space, or text after the value.
  EXPECT_FALSE(ptc::firewall_text(s, R"({"_a": 1,"b":2})"));
  EXPECT_FALSE(ptc::firewall_text(s, R"({"_a":1,"b":2} )"));
  // A field name with an escape: firewall() compares names unescaped.
  EXPECT_FALSE(ptc::firewall_text(s, R"({"\u005fa":1,"b":2})"));
  // A union holding a firewalled field: which fields to hide depends on the alternative matched.
  EXPECT_FALSE(ptc::firewall_text(ptc::parse_type("{a :int}|{_b :string}").value(), R"({"_b":"x"})"));
  // Text that is not JSON ends without reading past it.
  for (const char* broken : {"", "{", R"({"_a")", R"({"_a":)", R"({"_a":1,)", R"({"_a":"x)", "[", "]", "{]",
                             R"({"_a":[1})", R"({"b":1}})", ",", R"({"_a":1 "b":2})"})
    EXPECT_FALSE(ptc::firewall_text(s, broken)) << broken;
}

}  // namespace
