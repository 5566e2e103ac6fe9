// Keys of the command runtime's JSON: `name` and `:name` are one key, so an object holding both is
// refused wherever it sits, and lookups and copies see keys without their ':'.
#include <string>

#include <gtest/gtest.h>

#include "json_keys.hpp"

namespace {

using nlohmann::json;
using namespace ptc::commands;

TEST(JsonKeys, NormalizingDropsOneLeadingColon) {
  EXPECT_EQ(normalized_key(":name"), "name");
  EXPECT_EQ(normalized_key("name"), "name");
  EXPECT_EQ(normalized_key("::name"), ":name");
  EXPECT_EQ(normalized_key(":"), "");
  EXPECT_EQ(normalized_key(""), "");
  EXPECT_EQ(normalized_key("a:b"), "a:b");
}

TEST(JsonKeys, ARuleAtThePathOrAloneAtTheRoot) {
  EXPECT_EQ(at_path("", "must be a map"), "must be a map");
  EXPECT_EQ(at_path("jido.schema", "must be a map"), "jido.schema: must be a map");
}

TEST(JsonKeys, ObjectsWithoutConflictsPass) {
  EXPECT_EQ(find_conflicting_keys(json::parse(R"({"a": 1, "b": {":c": 2, "d": [1, {":e": 3}]}})"), ""), std::nullopt);
  EXPECT_EQ(find_conflicting_keys(json(5), ""), std::nullopt);
  EXPECT_EQ(find_conflicting_keys(json::array(), "x"), std::nullopt);
  EXPECT_EQ(find_conflicting_keys(json::object(), "x"), std::nullopt);
}

TEST(JsonKeys, AConflictIsNamedWithItsPathAndBothSpellings) {
  // nlohmann::json orders keys, so ":name" comes first.
  EXPECT_EQ(find_conflicting_keys(json::parse(R"({"name": 1, ":name": 2})"), ""),
            R"(conflicting keys ":name" and "name")");
  EXPECT_EQ(find_conflicting_keys(json::parse(R"({"name": 1, ":name": 2})"), "opts"),
            R"(opts: conflicting keys ":name" and "name")");
  // The path below a key uses the key without its ':'.
  EXPECT_EQ(find_conflicting_keys(json::parse(R"({":outer": {"x": 1, ":x": 2}})"), "p"),
            R"(p.outer: conflicting keys ":x" and "x")");
}

TEST(JsonKeys, ConflictsInsideListsAreFoundWithTheirIndex) {
  const auto value = json::parse(R"({"list": [{"a": 1}, [{"b": 1, ":b": 2}]]})");
  EXPECT_EQ(find_conflicting_keys(value, ""), R"(list[1][0]: conflicting keys ":b" and "b")");
  EXPECT_EQ(find_conflicting_keys(json::parse(R"([{"k": 1, ":k": 1}])"), ""), R"([0]: conflicting keys ":k" and "k")");
}

TEST(JsonKeys, TheFirstConflictOfAnObjectIsReportedBeforeThoseOfItsMembers) {
  const auto value = json::parse(R"({"a": {"x": 1, ":x": 2}, "b": 1, ":b": 2})");
  EXPECT_EQ(find_conflicting_keys(value, ""), R"(conflicting keys ":b" and "b")");
}

TEST(JsonKeys, FindKeyMatchesEitherSpelling) {
  const auto object = json::parse(R"({":bus": "a", "registry": "b"})");
  ASSERT_NE(find_key(object, "bus"), nullptr);
  EXPECT_EQ(*find_key(object, "bus"), "a");
  ASSERT_NE(find_key(object, "registry"), nullptr);
  EXPECT_EQ(*find_key(object, "registry"), "b");
  EXPECT_EQ(find_key(object, ":bus"), nullptr);  // the key asked for is already normalized
  EXPECT_EQ(find_key(object, "missing"), nullptr);
  EXPECT_EQ(find_key(json::array({"bus"}), "bus"), nullptr);
  EXPECT_EQ(find_key(json("bus"), "bus"), nullptr);
}

TEST(JsonKeys, NormalizedCopiesRenameKeysAtEveryDepth) {
  const auto value = json::parse(R"({":a": [{":b": 1}, 2], "c": {"::d": null}, "e": ":f"})");
  EXPECT_EQ(with_normalized_keys(value), json::parse(R"({"a": [{"b": 1}, 2], "c": {":d": null}, "e": ":f"})"));
  EXPECT_EQ(with_normalized_keys(json(":x")), json(":x"));  // values are not keys
  EXPECT_EQ(with_normalized_keys(json::array()), json::array());
}

TEST(JsonKeys, ParsingRefusesRepeatedAndConflictingKeys) {
  auto ok = parse_json_checking_keys(R"({"a": [1, {"b": true}]})");
  ASSERT_TRUE(ok) << ok.error().message;
  EXPECT_EQ(*ok, json::parse(R"({"a": [1, {"b": true}]})"));

  auto repeated = parse_json_checking_keys(R"({"a": 1, "a": 2})");
  ASSERT_FALSE(repeated);
  EXPECT_NE(repeated.error().message.find(R"(duplicate key "a")"), std::string::npos) << repeated.error().message;

  auto conflicting = parse_json_checking_keys(R"({"x": [{"a": 1, ":a": 2}]})");
  ASSERT_FALSE(conflicting);
  EXPECT_EQ(conflicting.error().message, R"(x[0]: conflicting keys ":a" and "a")");
}

TEST(JsonKeys, ParsingRefusesMalformedAndHostileText) {
  for (const char* text : {"", "{", "{\"a\":}", "[1,]", "nul", "{\"a\" 1}", "\"\xff\"", "1 2"})
    EXPECT_FALSE(parse_json_checking_keys(text)) << text;
  // Nesting far beyond the limit is an error, not a stack overflow in the key check.
  const std::string deep = std::string(100000, '[') + std::string(100000, ']');
  EXPECT_FALSE(parse_json_checking_keys(deep));
  const std::string deep_objects = [] {
    std::string s;
    for (int i = 0; i < 100000; ++i) s += "{\"a\":";
    s += "1";
    s += std::string(100000, '}');
    return s;
  }();
  EXPECT_FALSE(parse_json_checking_keys(deep_objects));
}

TEST(JsonKeys, NonBlankStringsAreTrimmed) {
  const json text("  x y \t"), blank(" \t\n"), empty(""), number(1), null;
  EXPECT_EQ(non_blank_string(&text), "x y");
  EXPECT_EQ(non_blank_string(&blank), std::nullopt);
  EXPECT_EQ(non_blank_string(&empty), std::nullopt);
  EXPECT_EQ(non_blank_string(&number), std::nullopt);
  EXPECT_EQ(non_blank_string(&null), std::nullopt);
  EXPECT_EQ(non_blank_string(nullptr), std::nullopt);
}

TEST(JsonKeys, TypeNamesUseTheVocabularyOfCommandSchemas) {
  EXPECT_EQ(json_type_name(json(nullptr)), "null");
  EXPECT_EQ(json_type_name(json::object()), "object");
  EXPECT_EQ(json_type_name(json::array()), "list");
  EXPECT_EQ(json_type_name(json("s")), "string");
  EXPECT_EQ(json_type_name(json(false)), "boolean");
  EXPECT_EQ(json_type_name(json(-1)), "integer");
  EXPECT_EQ(json_type_name(json(1u)), "integer");
  EXPECT_EQ(json_type_name(json(1.5)), "float");
  EXPECT_EQ(json_type_name(json::binary({1, 2})), "binary");
}

}  // namespace
