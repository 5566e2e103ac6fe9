// JSON Schema 2020-12 renderings per provider profile (docs/json-schema.md): exact output for
// representative signatures, refusals that name the path, property order, determinism, tool names.
// tests/conformance/json_schema_conformance.py checks the same renderings against python's jsonschema.

#include <string>
#include <string_view>

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <ptc/json_schema.hpp>
#include <ptc/error.hpp>
#include <ptc/firewall.hpp>
#include <ptc/schema.hpp>
#include <ptc/signature.hpp>

#include "parse_helpers.hpp"

namespace {

using ptc::OrderedJson;
using ptc::Profile;
using testing::HasSubstr;

constexpr std::string_view kDialect = R"("$schema":"https://json-schema.org/draft/2020-12/schema",)";

using ptc::test::malli_sig;
using ptc::test::sig;

ptc::SignatureSchemas schemas(const ptc::Signature& s, Profile p) {
  auto r = ptc::to_json_schemas(s, p);
  EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().message);
  return r.ok() ? *r : ptc::SignatureSchemas{};
}
std::string input(std::string_view shorthand, Profile p = Profile::Portable) {
  return schemas(sig(shorthand), p).input.dump();
}
std::string output(std::string_view shorthand, Profile p = Profile::Portable) {
  return schemas(sig(shorthand), p).output.dump();
}
/// Compact form of a JSON literal, keeping its key order.
std::string j(std::string_view text) { return OrderedJson::parse(text).dump(); }
/// Portable roots carry "$schema" first.
std::string rooted(std::string_view text) {
  std::string compact = j(text);
  return "{" + std::string(kDialect) + compact.substr(1);
}
/// The error message of a refused rendering (empty if it rendered).
std::string refusal(std::string_view shorthand, Profile p) {
  auto r = ptc::to_json_schemas(sig(shorthand), p);
  return r.ok() ? std::string() : r.error().message;
}

// ---------------------------------------------------------------------------------------------------
// portable

TEST(Portable, PrimitivesClosedObjectAndDialectAtBothRoots) {
  auto s = schemas(sig("(a :string, b :int, c :float, d :bool, e :keyword) -> :nil"), Profile::Portable);
  EXPECT_EQ(s.input.dump(), rooted(R"({"type":"object","properties":{
      "a":{"type":"string"},"b":{"type":"integer"},"c":{"type":"number"},"d":{"type":"boolean"},
      "e":{"type":"string"}},
      "required":["a","b","c","d","e"],"additionalProperties":false})"));
  EXPECT_EQ(s.output.dump(), rooted(R"({"type":"null"})"));
}

TEST(Portable, StringFormatsOfTimeTypes) {
  const auto s = ptc::Signature::from_malli(
                     R"([:=> [:catn [:at [:string {:format "date-time"}]] [:on [:string {:format "date"}]]] :nil])")
                     .value();
  const std::string both = j(R"({"type":"object","properties":{"at":{"type":"string","format":"date-time"},
      "on":{"type":"string","format":"date"}},"required":["at","on"],"additionalProperties":false})");
  EXPECT_EQ(schemas(s, Profile::OpenAI).input.dump(), both);
  EXPECT_EQ(schemas(s, Profile::Anthropic).input.dump(), both);
  // Gemini's schemas know "date-time" only.
  EXPECT_EQ(schemas(s, Profile::Gemini).input.dump(),
            j(R"({"type":"object","properties":{"at":{"type":"string","format":"date-time"},
      "on":{"type":"string"}},"required":["at","on"]})"));
}

TEST(Portable, FixedLengthListsHaveMinAndMaxItems) {
  const auto s = ptc::Signature::from_malli("[:=> [:catn [:rgb [:vector {:min 3 :max 3} :int]]] :nil]").value();
  for (Profile p : {Profile::OpenAI, Profile::Anthropic, Profile::Gemini, Profile::Mcp})
    EXPECT_EQ(schemas(s, p).input["properties"]["rgb"].dump(),
              j(R"({"type":"array","items":{"type":"integer"},"minItems":3,"maxItems":3})"))
        << ptc::profile_name(p);
}

TEST(Portable, OptionalFieldIsNotRequiredAndNullable) {
  EXPECT_EQ(input("(q :string, email :string?) -> :int"), rooted(R"({"type":"object","properties":{
      "q":{"type":"string"},"email":{"anyOf":[{"type":"string"},{"type":"null"}]}},
      "required":["q"],"additionalProperties":false})"));
}

TEST(Portable, NoRequiredKeyWhenEverythingIsOptional) {
  EXPECT_EQ(input("(x :int?) -> :int"),
            rooted(R"({"type":"object","properties":{"x":{"anyOf":[{"type":"integer"},{"type":"null"}]}},
                       "additionalProperties":false})"));
  EXPECT_EQ(input("() -> :int"), rooted(R"({"type":"object","properties":{},"additionalProperties":false})"));
}

TEST(Portable, NestedMapsAndListsAreClosedAtEveryLevel) {
  EXPECT_EQ(input("(user {id :int, address {zip :string}}, items [{sku :string, tags [:string]?}]) -> :int"),
            rooted(R"({"type":"object","properties":{
      "user":{"type":"object","properties":{
          "id":{"type":"integer"},
          "address":{"type":"object","properties":{"zip":{"type":"string"}},"required":["zip"],
                     "additionalProperties":false}},
        "required":["id","address"],"additionalProperties":false},
      "items":{"type":"array","items":{"type":"object","properties":{
          "sku":{"type":"string"},
          "tags":{"anyOf":[{"type":"array","items":{"type":"string"}},{"type":"null"}]}},
        "required":["sku"],"additionalProperties":false}}},
      "required":["user","items"],"additionalProperties":false})"));
}

TEST(Portable, OutputListOfMaps) {
  EXPECT_EQ(output("(q :string) -> [{id :int, title :string?}]"), rooted(R"({"type":"array","items":{
      "type":"object","properties":{"id":{"type":"integer"},"title":{"anyOf":[{"type":"string"},{"type":"null"}]}},
      "required":["id"],"additionalProperties":false}})"));
}

TEST(Portable, EnumsUnionsAndMaybe) {
  EXPECT_EQ(input("(s :enum[pending active], v :string|:int, e :enum[a b]?) -> :int"),
            rooted(R"({"type":"object","properties":{
      "s":{"type":"string","enum":["pending","active"]},
      "v":{"anyOf":[{"type":"string"},{"type":"integer"}]},
      "e":{"anyOf":[{"type":"string","enum":["a","b"]},{"type":"null"}]}},
      "required":["s","v"],"additionalProperties":false})"));
  // Non-string enum values: no "type".
  EXPECT_EQ(schemas(malli_sig(R"([:=> [:catn [:x [:enum 1 "a" true]]] :int])"), Profile::Portable).input.dump(),
            rooted(R"({"type":"object","properties":{"x":{"enum":[1,"a",true]}},"required":["x"],
                       "additionalProperties":false})"));
}

TEST(Portable, RefinementsMergeIntoTheBaseType) {
  EXPECT_EQ(
      input(
          R"((a :int[1..100], b :int[>0], c :int[<10], d :float[0.0..1.0], e [:and :string [:re "^[a-z]+$"]]) -> :int)"),
      rooted(R"({"type":"object","properties":{
      "a":{"type":"integer","minimum":1,"maximum":100},
      "b":{"type":"integer","exclusiveMinimum":0},
      "c":{"type":"integer","exclusiveMaximum":10},
      "d":{"type":"number","minimum":0.0,"maximum":1.0},
      "e":{"type":"string","pattern":"^[a-z]+$"}},
      "required":["a","b","c","d","e"],"additionalProperties":false})"));
}

TEST(Portable, RepeatedKeywordGoesToAllOf) {
  EXPECT_EQ(input(R"((r [:and :string [:re "^a"] [:re "z$"]]) -> :int)"), rooted(R"({"type":"object","properties":{
      "r":{"allOf":[{"type":"string","pattern":"^a"},{"pattern":"z$"}]}},
      "required":["r"],"additionalProperties":false})"));
}

TEST(Portable, SetsTuplesMapsAndAny) {
  EXPECT_EQ(input("(s [:set :int], t [:tuple :int :string], m [:map-of :string :float], o :map, x :any) -> :int"),
            rooted(R"({"type":"object","properties":{
      "s":{"type":"array","items":{"type":"integer"},"uniqueItems":true},
      "t":{"type":"array","prefixItems":[{"type":"integer"},{"type":"string"}],"items":false,"minItems":2,"maxItems":2},
      "m":{"type":"object","additionalProperties":{"type":"number"}},
      "o":{"type":"object","additionalProperties":{}},
      "x":{}},
      "required":["s","t","m","o","x"],"additionalProperties":false})"));
}

TEST(Portable, MapOfWithRestrictedKeysUsesPropertyNames) {
  EXPECT_EQ(input(R"((m [:map-of [:enum "a" "b"] :int]) -> :int)"),
            rooted(R"({"type":"object","properties":{"m":{"type":"object","additionalProperties":{"type":"integer"},
      "propertyNames":{"type":"string","enum":["a","b"]}}},"required":["m"],"additionalProperties":false})"));
}

TEST(Portable, MalliDefaultAndDoc) {
  auto s = schemas(malli_sig(R"([:=> [:catn [:q {:doc "The query"} :string]
                                             [:limit {:default 10} [:and :int [:>= 1] [:<= 100]]]]
                                     [:vector [:map [:id :int] [:title {:doc "Title"} :string]]]])"),
                   Profile::Portable);
  EXPECT_EQ(s.input.dump(), rooted(R"({"type":"object","properties":{
      "q":{"type":"string","description":"The query"},
      "limit":{"anyOf":[{"type":"integer","minimum":1,"maximum":100},{"type":"null"}],"default":10}},
      "required":["q"],"additionalProperties":false})"));
  EXPECT_EQ(s.output.dump(), rooted(R"({"type":"array","items":{"type":"object","properties":{
      "id":{"type":"integer"},"title":{"type":"string","description":"Title"}},
      "required":["id","title"],"additionalProperties":false}})"));
}

TEST(Portable, SingleTypeHasDialectOnlyInPortable) {
  auto t = ptc::parse_type("[:int]").value();
  EXPECT_EQ(ptc::to_json_schema(t).value().dump(), rooted(R"({"type":"array","items":{"type":"integer"}})"));
  for (Profile p : {Profile::OpenAI, Profile::Anthropic, Profile::Gemini, Profile::Mcp})
    EXPECT_EQ(ptc::to_json_schema(t, p).value().dump(), j(R"({"type":"array","items":{"type":"integer"}})"))
        << ptc::profile_name(p);
}

// A property may be `:nil?` (std::optional<std::monostate>): the type array must not repeat "null"
// (the 2020-12 metaschema requires unique entries in "type").
TEST(Portable, MaybeNilIsJustNull) {
  for (Profile p : {Profile::Portable, Profile::OpenAI, Profile::Anthropic, Profile::Mcp}) {
    auto s = schemas(sig("(x :nil?) -> :int"), p);
    EXPECT_EQ(s.input["properties"]["x"].dump(), j(R"({"type":"null"})")) << ptc::profile_name(p);
  }
}

// Every nullable value has one form outside openai and gemini: hosts that map schemas onto a one-type
// dialect drop type arrays, and the MCP Inspector's strict check (rule type-union) warns on them.
TEST(Portable, EveryNullableIsAnyOfWithANullBranch) {
  const auto s = malli_sig(R"([:=> [:catn [:s [:maybe :string]] [:b {:optional true} :boolean]
                                           [:n {:default 5} [:and :int [:>= 1] [:<= 50]]]
                                           [:u [:maybe [:map [:nick {:optional true} :string]]]]]
                                   [:maybe :string]])");
  for (Profile p : {Profile::Portable, Profile::Anthropic, Profile::Mcp}) {
    auto rendered = schemas(s, p);
    const auto& props = rendered.input["properties"];
    EXPECT_EQ(props["s"].dump(), j(R"({"anyOf":[{"type":"string"},{"type":"null"}]})")) << ptc::profile_name(p);
    EXPECT_EQ(props["b"].dump(), j(R"({"anyOf":[{"type":"boolean"},{"type":"null"}]})")) << ptc::profile_name(p);
    EXPECT_EQ(props["n"].dump(), j(R"({"anyOf":[{"type":"integer","minimum":1,"maximum":50},{"type":"null"}],
                                       "default":5})"))
        << ptc::profile_name(p);
    EXPECT_EQ(props["u"]["anyOf"][0]["properties"]["nick"].dump(),
              j(R"({"anyOf":[{"type":"string"},{"type":"null"}]})"))
        << ptc::profile_name(p);
    EXPECT_FALSE(rendered.input.contains("required")) << ptc::profile_name(p);  // each one may be left out
    EXPECT_THAT(rendered.input.dump() + rendered.output.dump(), testing::Not(HasSubstr(R"("type":[)")))
        << ptc::profile_name(p);
  }
}

// ---------------------------------------------------------------------------------------------------
// openai (strict function calling)

TEST(OpenAI, EveryPropertyRequiredOptionalBecomesNullable) {
  EXPECT_EQ(input("(q :string, limit :int?, user {id :int, nick :string?}?) -> :int", Profile::OpenAI),
            j(R"({"type":"object","properties":{
      "q":{"type":"string"},
      "limit":{"type":["integer","null"]},
      "user":{"anyOf":[{"type":"object","properties":{"id":{"type":"integer"},"nick":{"type":["string","null"]}},
                        "required":["id","nick"],"additionalProperties":false},{"type":"null"}]}},
      "required":["q","limit","user"],"additionalProperties":false})"));
}

TEST(OpenAI, NoParamsStillHasRequiredArray) {
  EXPECT_EQ(input("() -> :int", Profile::OpenAI),
            j(R"({"type":"object","properties":{},"required":[],"additionalProperties":false})"));
}

TEST(OpenAI, DefaultMovesIntoDescriptionAndFieldBecomesNullable) {
  auto s = schemas(malli_sig(R"([:=> [:catn [:q :string] [:n {:default 5 :doc "How many"} :int]
                                            [:mode {:default "fast"} [:enum "fast" "slow"]]] :int])"),
                   Profile::OpenAI);
  EXPECT_EQ(s.input.dump(), j(R"({"type":"object","properties":{
      "q":{"type":"string"},
      "n":{"type":["integer","null"],"description":"How many. Default: 5."},
      "mode":{"anyOf":[{"type":"string","enum":["fast","slow"]},{"type":"null"}],"description":"Default: \"fast\"."}},
      "required":["q","n","mode"],"additionalProperties":false})"));
  EXPECT_EQ(s.input.dump().find("\"default\""), std::string::npos);
}

TEST(OpenAI, OptionalMalliFieldWithoutMaybeBecomesNullable) {
  auto s = schemas(malli_sig("[:=> [:catn [:a [:map [:x {:optional true} :int]]]] :int]"), Profile::OpenAI);
  EXPECT_EQ(s.input["properties"]["a"].dump(), j(R"({"type":"object","properties":{"x":{"type":["integer","null"]}},
      "required":["x"],"additionalProperties":false})"));
}

TEST(OpenAI, RefusesWhatStrictModeCannotExpressNamingThePath) {
  EXPECT_EQ(
      refusal("(meta :map) -> :int", Profile::OpenAI),
      "openai cannot express a map with dynamic keys (:map / [:map-of K V]); use a map with named fields at meta");
  EXPECT_EQ(refusal("(x :any) -> :int", Profile::OpenAI), "openai cannot express :any (every value needs a type) at x");
  EXPECT_EQ(refusal("(tags [:set :string]) -> :int", Profile::OpenAI),
            "openai cannot express [:set T] (uniqueItems) at tags");
  EXPECT_EQ(refusal("(pt [:tuple :int :int]) -> :int", Profile::OpenAI),
            "openai cannot express [:tuple ...] (prefixItems) at pt");
  EXPECT_EQ(refusal("(r [:and :int [:>= 0] [:>= 5]]) -> :int", Profile::OpenAI),
            "openai cannot express [:and ...] that needs allOf at r");
  // Nested paths: fields with dots, list items with [].
  EXPECT_THAT(refusal("(u {prefs {tags [:set :int]}}) -> :int", Profile::OpenAI), HasSubstr(" at u.prefs.tags"));
  EXPECT_THAT(refusal("(xs [{m [:map-of :string :int]}]) -> :int", Profile::OpenAI), HasSubstr(" at xs[].m"));
  EXPECT_THAT(refusal("(xs [[:set :int]]) -> :int", Profile::OpenAI), HasSubstr(" at xs[]"));
}

TEST(OpenAI, OutputIsRenderedWithPortableRulesWithoutDialect) {
  // Chat providers do not consume result schemas: the output is informational, so :any is fine there.
  auto s = schemas(sig("(q :string) -> {data :any, tags [:set :string]}"), Profile::OpenAI);
  EXPECT_EQ(s.output.dump(), j(R"({"type":"object","properties":{"data":{},
      "tags":{"type":"array","items":{"type":"string"},"uniqueItems":true}},
      "required":["data","tags"],"additionalProperties":false})"));
}

TEST(OpenAI, PropertyNamesAreChecked) {
  auto r = ptc::to_json_schemas(malli_sig(R"([:=> [:catn [:x [:map ["a b" :int]]]] :int])"), Profile::OpenAI);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().message, "openai: property name at x.a b must match ^[a-zA-Z0-9_.-]{1,64}$");
}

// ---------------------------------------------------------------------------------------------------
// anthropic

TEST(Anthropic, LikePortableWithoutDialect) {
  EXPECT_EQ(input("(q :string, email :string?, tags [:set :string]) -> :int", Profile::Anthropic),
            j(R"({"type":"object","properties":{
      "q":{"type":"string"},"email":{"anyOf":[{"type":"string"},{"type":"null"}]},
      "tags":{"type":"array","items":{"type":"string"},"uniqueItems":true}},
      "required":["q","tags"],"additionalProperties":false})"));
  auto r =
      ptc::to_json_schemas(malli_sig(R"([:=> [:catn [:user [:map ["bad name" :int]]]] :int])"), Profile::Anthropic);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().message, "anthropic: property name at user.bad name must match ^[a-zA-Z0-9_.-]{1,64}$");
}

// ---------------------------------------------------------------------------------------------------
// gemini (OpenAPI 3.0 subset)

TEST(Gemini, NullableInsteadOfTypeArraysAndNoAdditionalProperties) {
  EXPECT_EQ(input("(q :string, limit :int?, user {id :int}?) -> :int", Profile::Gemini),
            j(R"({"type":"object","properties":{
      "q":{"type":"string"},
      "limit":{"type":"integer","nullable":true},
      "user":{"type":"object","properties":{"id":{"type":"integer"}},"required":["id"],"nullable":true}},
      "required":["q"]})"));
}

TEST(Gemini, IntegerExclusiveBoundsBecomeInclusive) {
  EXPECT_EQ(input("(a :int[>0], b :int[<10], c :int[>=2]) -> :int", Profile::Gemini),
            j(R"({"type":"object","properties":{
      "a":{"type":"integer","minimum":1},"b":{"type":"integer","maximum":9},"c":{"type":"integer","minimum":2}},
      "required":["a","b","c"]})"));
}

TEST(Gemini, RefusesWhatItCannotExpressNamingThePath) {
  EXPECT_EQ(refusal("(t :float[>0.5]) -> :int", Profile::Gemini),
            "gemini cannot express an exclusive bound ([:> n] / [:< n]) on a float at t");
  EXPECT_EQ(refusal("(v :nil) -> :int", Profile::Gemini),
            "gemini cannot express :nil on its own (use T? for a nullable value) at v");
  EXPECT_EQ(refusal("(x [:or :int :nil]) -> :int", Profile::Gemini),
            "gemini cannot express :nil on its own (use T? for a nullable value) at x");
  EXPECT_EQ(
      refusal("(meta :map) -> :int", Profile::Gemini),
      "gemini cannot express a map with dynamic keys (:map / [:map-of K V]); use a map with named fields at meta");
  EXPECT_EQ(refusal("(x :any) -> :int", Profile::Gemini), "gemini cannot express :any (every value needs a type) at x");
  EXPECT_EQ(refusal("(u {tags [:set :int]}) -> :int", Profile::Gemini),
            "gemini cannot express [:set T] (uniqueItems) at u.tags");
  EXPECT_EQ(refusal("(pt [:tuple :int :int]) -> :int", Profile::Gemini),
            "gemini cannot express [:tuple ...] (prefixItems) at pt");
  auto r = ptc::to_json_schemas(malli_sig("[:=> [:catn [:x [:enum 1 2]]] :int]"), Profile::Gemini);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().message, "gemini cannot express non-string :enum values at x");
}

// ---------------------------------------------------------------------------------------------------
// mcp

TEST(Mcp, NonObjectResultIsWrapped) {
  EXPECT_EQ(output("(q :string) -> [:int]", Profile::Mcp), j(R"({"type":"object","properties":{
      "result":{"type":"array","items":{"type":"integer"}}},"required":["result"],"additionalProperties":false})"));
  EXPECT_EQ(output("() -> :string?", Profile::Mcp), j(R"({"type":"object","properties":{
      "result":{"anyOf":[{"type":"string"},{"type":"null"}]}},"required":["result"],"additionalProperties":false})"));
  // :map is an object with dynamic keys, not a record: it is wrapped too.
  EXPECT_EQ(output("() -> :map", Profile::Mcp), j(R"({"type":"object","properties":{
      "result":{"type":"object","additionalProperties":{}}},"required":["result"],"additionalProperties":false})"));
}

TEST(Mcp, ObjectResultIsNotWrappedAndInputIsAnObject) {
  auto s = schemas(sig("(q :string, tags [:set :string]) -> {count :int}"), Profile::Mcp);
  EXPECT_EQ(s.input.dump(), j(R"({"type":"object","properties":{"q":{"type":"string"},
      "tags":{"type":"array","items":{"type":"string"},"uniqueItems":true}},"required":["q","tags"],
      "additionalProperties":false})"));
  EXPECT_EQ(s.output.dump(), j(R"({"type":"object","properties":{"count":{"type":"integer"}},"required":["count"],
      "additionalProperties":false})"));
}

TEST(Mcp, FirewalledResultFieldsAreDeclaredAsThePlaceholder) {
  // structuredContent carries firewall(value): a client validating it against outputSchema must accept
  // "<Firewalled>" where the field's real type is something else.
  EXPECT_EQ(output("() -> {name :string, _token :int, _note :string?, items [{_id :int}]}", Profile::Mcp),
            j(R"({"type":"object","properties":{"name":{"type":"string"},
      "_token":{"type":"string","const":"<Firewalled>"},"_note":{"type":"string","const":"<Firewalled>"},
      "items":{"type":"array","items":{"type":"object","properties":{"_id":{"type":"string","const":"<Firewalled>"}},
      "required":["_id"],"additionalProperties":false}}},"required":["name","_token","items"],
      "additionalProperties":false})"));
  // Inputs reach C++ code, not the model's view: their firewalled fields keep their types.
  auto s = schemas(sig("(_key :int) -> :nil"), Profile::Mcp);
  EXPECT_EQ(s.input.dump(), j(R"({"type":"object","properties":{"_key":{"type":"integer"}},"required":["_key"],
      "additionalProperties":false})"));
  EXPECT_EQ(output("() -> {_token :int}", Profile::Portable),
            j(R"({"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object",
      "properties":{"_token":{"type":"integer"}},"required":["_token"],"additionalProperties":false})"));
}

// ---------------------------------------------------------------------------------------------------
// order, determinism, names

TEST(JsonSchema, PropertyOrderIsDeclarationOrder) {
  for (Profile p : {Profile::Portable, Profile::OpenAI, Profile::Anthropic, Profile::Gemini, Profile::Mcp}) {
    auto s = schemas(sig("(zeta :int, alpha :string?, mid {z :int, a :int}) -> {zz :int, aa :int}"), p);
    std::vector<std::string> keys;
    for (const auto& [k, v] : s.input["properties"].items()) keys.push_back(k);
    EXPECT_THAT(keys, testing::ElementsAre("zeta", "alpha", "mid")) << ptc::profile_name(p);
    keys.clear();
    for (const auto& [k, v] : s.input["properties"]["mid"]["properties"].items()) keys.push_back(k);
    EXPECT_THAT(keys, testing::ElementsAre("z", "a")) << ptc::profile_name(p);
    keys.clear();
    for (const auto& [k, v] : s.output["properties"].items()) keys.push_back(k);
    EXPECT_THAT(keys, testing::ElementsAre("zz", "aa")) << ptc::profile_name(p);
  }
}

TEST(JsonSchema, DeterministicBytes) {
  constexpr std::string_view text =
      R"((q :string, limit :int[1..100]?, filters {status :enum[open closed], tags [:string]}?, )"
      R"(kind :string|:int) -> [{id :int, score :float[0.0..1.0], meta {owner :string}}])";
  for (Profile p : {Profile::Portable, Profile::OpenAI, Profile::Anthropic, Profile::Gemini, Profile::Mcp}) {
    auto a = schemas(sig(text), p);
    auto b = schemas(sig(text), p);
    EXPECT_EQ(a.input.dump(2), b.input.dump(2)) << ptc::profile_name(p);
    EXPECT_EQ(a.output.dump(2), b.output.dump(2)) << ptc::profile_name(p);
  }
}

TEST(JsonSchema, ProfileNames) {
  for (Profile p : {Profile::Portable, Profile::OpenAI, Profile::Anthropic, Profile::Gemini, Profile::Mcp})
    EXPECT_EQ(ptc::profile_from_name(ptc::profile_name(p)), p);
  EXPECT_EQ(ptc::profile_name(Profile::OpenAI), "openai");
  EXPECT_EQ(ptc::profile_from_name("OpenAI"), std::nullopt);
  EXPECT_EQ(ptc::profile_from_name("claude"), std::nullopt);
  EXPECT_EQ(ptc::profile_from_name(""), std::nullopt);
}

bool name_ok(std::string_view name, Profile p) { return !ptc::check_tool_name(name, p).has_value(); }

TEST(ToolNames, PerProfileRules) {
  const std::string n64(64, 'a'), n65(65, 'a'), n128(128, 'a'), n129(129, 'a');
  for (Profile p : {Profile::Portable, Profile::OpenAI, Profile::Anthropic, Profile::Gemini, Profile::Mcp}) {
    SCOPED_TRACE(std::string(ptc::profile_name(p)));
    EXPECT_TRUE(name_ok("get_weather", p));
    EXPECT_TRUE(name_ok("search-docs2", p));
    EXPECT_TRUE(name_ok(n64, p));
    EXPECT_FALSE(name_ok("", p));
    EXPECT_FALSE(name_ok("has space", p));
    EXPECT_FALSE(name_ok("naïve", p));
    EXPECT_FALSE(name_ok(n129, p));
  }
  // Dots: Gemini and MCP only.
  EXPECT_FALSE(name_ok("files.read", Profile::Portable));
  EXPECT_FALSE(name_ok("files.read", Profile::OpenAI));
  EXPECT_FALSE(name_ok("files.read", Profile::Anthropic));
  EXPECT_TRUE(name_ok("files.read", Profile::Gemini));
  EXPECT_TRUE(name_ok("files.read", Profile::Mcp));
  // Gemini names start with a letter or underscore.
  EXPECT_FALSE(name_ok("1tool", Profile::Gemini));
  EXPECT_FALSE(name_ok("-tool", Profile::Gemini));
  EXPECT_TRUE(name_ok("_tool", Profile::Gemini));
  EXPECT_TRUE(name_ok("1tool", Profile::OpenAI));
  // Length: 64 everywhere but MCP (128).
  EXPECT_FALSE(name_ok(n65, Profile::OpenAI));
  EXPECT_FALSE(name_ok(n65, Profile::Anthropic));
  EXPECT_FALSE(name_ok(n65, Profile::Gemini));
  EXPECT_TRUE(name_ok(n65, Profile::Mcp));
  EXPECT_TRUE(name_ok(n128, Profile::Mcp));
}

TEST(ToolNames, ErrorSaysWhichRule) {
  auto e = ptc::check_tool_name("files.read", Profile::OpenAI);
  ASSERT_TRUE(e.has_value());
  EXPECT_EQ(e->message, R"(openai: tool name "files.read" must match ^[a-zA-Z0-9_-]{1,64}$)");
  e = ptc::check_tool_name("1tool", Profile::Gemini);
  ASSERT_TRUE(e.has_value());
  EXPECT_EQ(e->message, R"(gemini: tool name "1tool" must match ^[a-zA-Z_][a-zA-Z0-9_.-]{0,63}$)");
}

}  // namespace

namespace {

TEST(Gemini, FractionalExclusiveBoundsOnIntsBecomeInclusive) {
  auto s =
      ptc::to_json_schemas(
          ptc::Signature::from_malli("[:=> [:catn [:x [:and :int [:> 1.5]]] [:y [:and :int [:< -2.5]]]] :nil]").value(),
          ptc::Profile::Gemini)
          .value();
  EXPECT_EQ(s.input["properties"].dump(),
            R"({"x":{"type":"integer","minimum":2},"y":{"type":"integer","maximum":-3}})");
}

TEST(Gemini, ExclusiveBoundAtTheEndOfInt64IsRefused) {
  auto r = ptc::to_json_schemas(ptc::Signature::parse("(z :int[>9223372036854775807]) -> :nil").value(),
                                ptc::Profile::Gemini);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().message, "gemini cannot express an exclusive bound at the end of the int64 range at z");
}

TEST(Portable, OptionalAndDefaultedFieldsAcceptNullAsTheValidatorDoes) {
  auto s =
      ptc::to_json_schemas(
          ptc::Signature::from_malli("[:=> [:catn [:x {:optional true} :int] [:n {:default 5} :int]] :nil]").value(),
          ptc::Profile::Anthropic)
          .value();
  EXPECT_EQ(s.input["properties"].dump(), R"({"x":{"anyOf":[{"type":"integer"},{"type":"null"}]},)"
                                          R"("n":{"anyOf":[{"type":"integer"},{"type":"null"}],"default":5}})");
}

}  // namespace
