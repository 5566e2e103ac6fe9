// `jido.schema` of a command file as the params schema: field names, types, required, docs and
// defaults, and an error at the path of the first thing wrong.
#include <string>

#include <gtest/gtest.h>

#include <ptc/signature.hpp>

#include "command_schema.hpp"

namespace {

using nlohmann::ordered_json;
using ptc::Kind;
using ptc::commands::params_schema;

ptc::Schema schema_of(const char* fields) {
  auto schema = params_schema(ordered_json::parse(fields));
  EXPECT_TRUE(schema) << schema.error().message;
  return schema ? *schema : ptc::Schema();
}

std::string error_of(const char* fields) {
  auto schema = params_schema(ordered_json::parse(fields));
  return schema ? "accepted: " + ptc::render(*schema) : schema.error().message;
}

TEST(CommandSchema, FieldsAreOptionalStringsUnlessTheySayOtherwise) {
  const auto schema = schema_of(R"({"title": {}, "pr": {"type": "integer", "required": true, "doc": "  The PR.\n"}})");
  EXPECT_EQ(ptc::render(schema), "{title :string?, pr :int}");
  ASSERT_EQ(schema.entries().size(), 2u);
  EXPECT_TRUE(schema.entries()[0].optional);
  EXPECT_FALSE(schema.entries()[1].optional);
  EXPECT_EQ(schema.entries()[1].doc, "The PR.");
  EXPECT_EQ(schema.entries()[0].doc, "");
}

TEST(CommandSchema, EachTypeNameMapsToItsSchemaWhateverItsCase) {
  const auto schema = schema_of(
      R"({"s": {"type": "string", "required": true}, "i": {"type": "INTEGER", "required": true},
          "f": {"type": "Float", "required": true}, "b": {"type": "boolean", "required": true},
          "m": {"type": "map", "required": true}, "a": {"type": "atom", "required": true},
          "l": {"type": "list", "required": true}})");
  EXPECT_EQ(ptc::render(schema), "{s :string, i :int, f :float, b :bool, m :map, a :keyword, l [:any]}");
}

TEST(CommandSchema, AnEmptyMapHasNoFields) { EXPECT_TRUE(schema_of("{}").entries().empty()); }

TEST(CommandSchema, TheFieldsMustBeAMap) {
  EXPECT_EQ(error_of("[]"), "jido.schema: must be a map of fields");
  EXPECT_EQ(error_of("null"), "jido.schema: must be a map of fields");
  EXPECT_EQ(error_of(R"("pr")"), "jido.schema: must be a map of fields");
}

TEST(CommandSchema, FieldNamesAreLowerIdentifiers) {
  const std::string rule = ": field names must match ^[a-z][a-zA-Z0-9_]*$";
  EXPECT_EQ(error_of(R"({"Title": {}})"), "jido.schema.Title" + rule);
  EXPECT_EQ(error_of(R"({"_x": {}})"), "jido.schema._x" + rule);
  EXPECT_EQ(error_of(R"({"a-b": {}})"), "jido.schema.a-b" + rule);
  EXPECT_EQ(error_of(R"({"1st": {}})"), R"(jido.schema["1st"])" + rule);
  EXPECT_EQ(error_of(R"({"": {}})"), R"(jido.schema[""])" + rule);
  EXPECT_EQ(error_of(R"({"a\nb": {}})"), R"(jido.schema["a\nb"])" + rule);
  EXPECT_EQ(error_of(R"({"prNumber_2": {}})"), "accepted: {prNumber_2 :string?}");
}

TEST(CommandSchema, NamesAreTrimmedSoTwoSpellingsOfOneNameAreARepeat) {
  EXPECT_EQ(error_of(R"({" pr ": {"type": "integer"}})"), "accepted: {pr :int?}");
  EXPECT_EQ(error_of(R"({"pr": {}, " pr": {}})"), R"(jido.schema[" pr"]: field pr is declared twice)");
}

TEST(CommandSchema, OptionsAreAMapOfTheFourKnownOnes) {
  EXPECT_EQ(error_of(R"({"pr": "integer"})"),
            "jido.schema.pr: must be a map of options (type, required, doc, default)");
  EXPECT_EQ(error_of(R"({"pr": null})"), "jido.schema.pr: must be a map of options (type, required, doc, default)");
  EXPECT_EQ(error_of(R"({"pr": {"typ": "integer"}})"),
            "jido.schema.pr.typ: unknown option; expected type, required, doc or default");
}

TEST(CommandSchema, EachOptionHasItsType) {
  const std::string types = "must be one of string, integer, float, boolean, map, atom, list";
  EXPECT_EQ(error_of(R"({"pr": {"type": "number"}})"), "jido.schema.pr.type: " + types);
  EXPECT_EQ(error_of(R"({"pr": {"type": ""}})"), "jido.schema.pr.type: " + types);
  EXPECT_EQ(error_of(R"({"pr": {"type": 1}})"), "jido.schema.pr.type: " + types);
  EXPECT_EQ(error_of(R"({"pr": {"type": ["integer"]}})"), "jido.schema.pr.type: " + types);
  EXPECT_EQ(error_of(R"({"pr": {"required": "yes"}})"), "jido.schema.pr.required: must be true or false");
  EXPECT_EQ(error_of(R"({"pr": {"required": 1}})"), "jido.schema.pr.required: must be true or false");
  EXPECT_EQ(error_of(R"({"pr": {"doc": 5}})"), "jido.schema.pr.doc: must be a string");
  EXPECT_EQ(error_of(R"({"pr": {"required": false}})"), "accepted: {pr :string?}");
}

TEST(CommandSchema, ADefaultOfTheFieldsTypeIsKept) {
  const auto schema = schema_of(R"({"n": {"type": "integer", "default": 3}, "tags": {"type": "list", "default": []}})");
  ASSERT_EQ(schema.entries().size(), 2u);
  ASSERT_TRUE(schema.entries()[0].has_default());
  EXPECT_EQ(*schema.entries()[0].default_value, 3);
  ASSERT_TRUE(schema.entries()[1].has_default());
  EXPECT_EQ(*schema.entries()[1].default_value, nlohmann::json::array());
}

TEST(CommandSchema, ADefaultMustMatchTheTypeAndTheFieldMustBeOptional) {
  EXPECT_EQ(error_of(R"({"n": {"type": "integer", "required": true, "default": 3}})"),
            "jido.schema.n: a required field cannot have a default");
  const std::string mismatch = error_of(R"({"n": {"type": "integer", "default": "three"}})");
  EXPECT_EQ(mismatch.rfind("jido.schema.n.default: does not match type integer: ", 0), 0u) << mismatch;
  const std::string as_text = error_of(R"({"on": {"type": "boolean", "default": "true"}})");
  EXPECT_EQ(as_text.rfind("jido.schema.on.default: does not match type boolean: ", 0), 0u) << as_text;
}

TEST(CommandSchema, AnAtomDefaultIsANameWithOrWithoutItsColon) {
  const auto schema =
      schema_of(R"({"a": {"type": "atom", "default": ":draft"}, "b": {"type": "atom", "default": " open "}})");
  EXPECT_EQ(*schema.entries()[0].default_value, "draft");
  EXPECT_EQ(*schema.entries()[1].default_value, "open");
  const std::string rule = "jido.schema.a.default: must be an atom name matching ^[a-z][a-zA-Z0-9_]*$";
  EXPECT_EQ(error_of(R"({"a": {"type": "atom", "default": "Draft"}})"), rule);
  EXPECT_EQ(error_of(R"({"a": {"type": "atom", "default": ":"}})"), rule);
  EXPECT_EQ(error_of(R"({"a": {"type": "atom", "default": "::x"}})"), rule);
  EXPECT_EQ(error_of(R"({"a": {"type": "atom", "default": 1}})"), rule);
  EXPECT_EQ(error_of(R"({"a": {"type": "atom", "default": null}})"), rule);
}

TEST(CommandSchema, TheFirstBadFieldInOrderIsReported) {
  EXPECT_EQ(error_of(R"({"ok": {}, "bad": {"type": "x"}, "Worse": {}})"),
            "jido.schema.bad.type: must be one of string, integer, float, boolean, map, atom, list");
}

}  // namespace
