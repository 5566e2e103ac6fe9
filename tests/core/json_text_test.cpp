// ptc::compact_text: the one form of JSON text ptc writes.
#include <string>

#include <gtest/gtest.h>

#include <ptc/json_text.hpp>

namespace {

TEST(CompactText, IsTheCompactDump) {
  const nlohmann::json value = {{"b", {1, 2.5, nullptr}}, {"a", "x y"}};
  EXPECT_EQ(ptc::compact_text(value), R"({"a":"x y","b":[1,2.5,null]})");
}

TEST(CompactText, ReplacesInvalidUtf8InsteadOfThrowing) {
  const nlohmann::json value = std::string("ok\xff");
  EXPECT_THROW((void)value.dump(), nlohmann::json::type_error);
  EXPECT_EQ(ptc::compact_text(value), "\"ok\xEF\xBF\xBD\"");
}

TEST(CompactText, KeepsAnOrderedObjectsOrder) {
  nlohmann::ordered_json value;
  value["z"] = 1;
  value["a"] = 2;
  EXPECT_EQ(ptc::compact_text(value), R"({"z":1,"a":2})");
}

TEST(PlainText, IsAStringsOwnCharactersAndAnyOtherValuesCompactText) {
  EXPECT_EQ(ptc::plain_text(nlohmann::json("a \"b\"")), "a \"b\"");
  EXPECT_EQ(ptc::plain_text(nlohmann::json("")), "");
  EXPECT_EQ(ptc::plain_text(nlohmann::json({{"k", "v"}})), R"({"k":"v"})");
  EXPECT_EQ(ptc::plain_text(nlohmann::json(nullptr)), "null");
  EXPECT_EQ(ptc::plain_text(nlohmann::json(std::string("x\xff"))), "x\xff");  // a string's bytes as they are
}

}  // namespace
