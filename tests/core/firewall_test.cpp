#include <gtest/gtest.h>

#include <ptc/firewall.hpp>
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

}  // namespace
