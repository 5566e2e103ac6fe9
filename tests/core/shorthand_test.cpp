// The shorthand signature parser and the canonical shorthand printer
// (spec/signature-syntax.md, docs/signatures.md).

#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <ptc/error.hpp>
#include <ptc/firewall.hpp>
#include <ptc/schema.hpp>
#include <ptc/signature.hpp>

#include "parse_helpers.hpp"

// Readable gtest failure output.
namespace ptc {
inline void PrintTo(const Schema& s, std::ostream* os) { *os << to_malli(s); }
inline void PrintTo(const Signature& s, std::ostream* os) { *os << s.to_malli() << " / " << s.render(); }
}  // namespace ptc

namespace {

using ptc::test::parse_error;
using ptc::test::sig;
using ptc::test::type;

using ::testing::HasSubstr;
using ::testing::StartsWith;
using ptc::Kind;
using ptc::MapEntry;
using ptc::Refine;
using ptc::Schema;
using ptc::Signature;

// Canonical shorthand of a signature, or "error: <to_string()>".
std::string canon(std::string_view text) {
  auto r = Signature::parse(text);
  if (!r) return "error: " + r.error().to_string();
  return r->render();
}

Schema gt(std::int64_t n) { return Schema::refinement(Refine::Gt, n); }
Schema ge(std::int64_t n) { return Schema::refinement(Refine::Ge, n); }
Schema le(std::int64_t n) { return Schema::refinement(Refine::Le, n); }

// ---------------------------------------------------------------------------------------------
// Primitives and aliases

TEST(ShorthandPrimitives, EachPrimitiveParsesToItsKind) {
  EXPECT_EQ(type(":string"), Schema::string());
  EXPECT_EQ(type(":int"), Schema::integer());
  EXPECT_EQ(type(":float"), Schema::number());
  EXPECT_EQ(type(":bool"), Schema::boolean());
  EXPECT_EQ(type(":keyword"), Schema::keyword());
  EXPECT_EQ(type(":any"), Schema::any());
  EXPECT_EQ(type(":nil"), Schema::nil());
  EXPECT_EQ(type(":map"), Schema::any_map());
  EXPECT_EQ(type(":map").kind(), Kind::MapOf);
  EXPECT_EQ(type(":map").key(), Schema::keyword());
  EXPECT_EQ(type(":map").value(), Schema::any());
}

TEST(ShorthandPrimitives, AliasesNormalise) {
  EXPECT_EQ(type(":boolean"), Schema::boolean());
  EXPECT_EQ(type(":double"), Schema::number());
  EXPECT_EQ(canon(":boolean"), "() -> :bool");
  EXPECT_EQ(canon(":double"), "() -> :float");
  EXPECT_EQ(ptc::render(type(":double")), ":float");
}

TEST(ShorthandPrimitives, CanonicalRendering) {
  EXPECT_EQ(canon(":string"), "() -> :string");
  EXPECT_EQ(canon(":int"), "() -> :int");
  EXPECT_EQ(canon(":float"), "() -> :float");
  EXPECT_EQ(canon(":bool"), "() -> :bool");
  EXPECT_EQ(canon(":keyword"), "() -> :keyword");
  EXPECT_EQ(canon(":any"), "() -> :any");
  EXPECT_EQ(canon(":nil"), "() -> :nil");
  EXPECT_EQ(canon(":map"), "() -> :map");
}

// ---------------------------------------------------------------------------------------------
// Spec "Edge Cases" table

TEST(ShorthandEdgeCases, AnyAndArrowAnyAreValidAndEqual) {
  auto a = Signature::parse(":any");
  auto b = Signature::parse("() -> :any");
  ASSERT_TRUE(a.ok());
  ASSERT_TRUE(b.ok());
  EXPECT_EQ(*a, *b);
  EXPECT_TRUE(a->params().empty());
  EXPECT_EQ(a->output(), Schema::any());
  EXPECT_EQ(*a, Signature());
  EXPECT_EQ(a->render(), "() -> :any");
}

TEST(ShorthandEdgeCases, EmptyMapIsValid) {
  auto s = sig("{}");
  EXPECT_EQ(s.output(), Schema::map({}));
  EXPECT_EQ(s.output().kind(), Kind::Map);
  EXPECT_TRUE(s.output().entries().empty());
  EXPECT_EQ(s.render(), "() -> {}");
}

TEST(ShorthandEdgeCases, EmptyListIsInvalid) {
  EXPECT_EQ(parse_error("[]"), "column 1: empty list type []; write [:any] for a list of anything");
  EXPECT_EQ(parse_error("[ ]"), "column 1: empty list type []; write [:any] for a list of anything");
  EXPECT_EQ(parse_error("{items []}"), "column 8: empty list type []; write [:any] for a list of anything");
}

TEST(ShorthandEdgeCases, ListOfAnyAndListOfEmptyMaps) {
  EXPECT_EQ(sig("[:any]").output(), Schema::vector(Schema::any()));
  EXPECT_EQ(sig("[{}]").output(), Schema::vector(Schema::map({})));
  EXPECT_EQ(canon("[:any]"), "() -> [:any]");
  EXPECT_EQ(canon("[{}]"), "() -> [{}]");
}

TEST(ShorthandEdgeCases, EmptyStringIsInvalid) {
  EXPECT_EQ(parse_error(""), "column 1: empty signature; expected a type such as {count :int} or (params) -> type");
  EXPECT_EQ(parse_error("   "), "column 4: empty signature; expected a type such as {count :int} or (params) -> type");
  auto t = ptc::parse_type("");
  ASSERT_FALSE(t.ok());
  EXPECT_EQ(t.error().to_string(), "column 1: empty type; expected a type such as :int or {id :int}");
}

TEST(ShorthandEdgeCases, BareTypeMeansNoInputs) {
  EXPECT_EQ(sig("{count :int}"), sig("() -> {count :int}"));
  EXPECT_EQ(canon("{count :int}"), "() -> {count :int}");
  EXPECT_EQ(sig("{summary :string, count :int}"), sig("() -> {summary :string, count :int}"));
  EXPECT_TRUE(sig("{count :int}").params().empty());
}

TEST(ShorthandEdgeCases, DeepButValidNesting) {
  EXPECT_EQ(canon("{user {profile {settings {theme {colors {primary :string}}}}}}"),
            "() -> {user {profile {settings {theme {colors {primary :string}}}}}}");
  EXPECT_EQ(canon("{user {profile :map}}"), "() -> {user {profile :map}}");
}

// ---------------------------------------------------------------------------------------------
// Signatures, params, maps and lists

TEST(ShorthandSignature, ParamsAndResult) {
  auto s = sig("(query :string, limit :int) -> [{id :int, title :string}]");
  ASSERT_EQ(s.params().size(), 2u);
  EXPECT_EQ(s.params()[0], MapEntry("query", Schema::string()));
  EXPECT_EQ(s.params()[1], MapEntry("limit", Schema::integer()));
  EXPECT_EQ(s.output(),
            Schema::vector(Schema::map({MapEntry{"id", Schema::integer()}, MapEntry{"title", Schema::string()}})));
  EXPECT_EQ(s.input(), Schema::map({MapEntry{"query", Schema::string()}, MapEntry{"limit", Schema::integer()}}));
  EXPECT_EQ(s.render(), "(query :string, limit :int) -> [{id :int, title :string}]");
}

TEST(ShorthandSignature, EmptyParams) {
  auto s = sig("() -> {count :int}");
  EXPECT_TRUE(s.params().empty());
  EXPECT_EQ(s.input(), Schema::map({}));
  EXPECT_EQ(s.output(), Schema::map({MapEntry{"count", Schema::integer()}}));
}

TEST(ShorthandSignature, WhitespaceIsFlexible) {
  EXPECT_EQ(canon("( a :int ) -> :int"), "(a :int) -> :int");
  EXPECT_EQ(canon("(a :int)->:int"), "(a :int) -> :int");
  EXPECT_EQ(canon("{ a :int }"), "() -> {a :int}");
  EXPECT_EQ(canon("\n\t(a\t:int,\n b :string)\n->\n{x :int}\n"), "(a :int, b :string) -> {x :int}");
}

TEST(ShorthandSignature, CommasAreOptional) {
  EXPECT_EQ(canon("(a :int b :string) -> :nil"), "(a :int, b :string) -> :nil");
  EXPECT_EQ(canon("{:id :int :name :string}"), "() -> {id :int, name :string}");
  EXPECT_EQ(sig("{id :int name :string}"), sig("{id :int, name :string}"));
  EXPECT_EQ(sig("(a :int b :string) -> :nil"), sig("(a :int, b :string) -> :nil"));
}

TEST(ShorthandSignature, LeadingColonOnNames) {
  EXPECT_EQ(sig("{:id :int, :name :string}"), sig("{id :int, name :string}"));
  EXPECT_EQ(sig("(:id :int) -> :int"), sig("(id :int) -> :int"));
  EXPECT_EQ(canon("(user {:id :int, :name :string}, limit :int) -> [{order_id :int}]"),
            "(user {id :int, name :string}, limit :int) -> [{order_id :int}]");
}

TEST(ShorthandSignature, MapEntriesKeepOrder) {
  auto t = type("{b :int, a :string, c :bool}");
  ASSERT_EQ(t.entries().size(), 3u);
  EXPECT_EQ(t.entries()[0].name, "b");
  EXPECT_EQ(t.entries()[1].name, "a");
  EXPECT_EQ(t.entries()[2].name, "c");
  EXPECT_EQ(ptc::render(t), "{b :int, a :string, c :bool}");
}

TEST(ShorthandSignature, NamesWithHyphensAndUnderscores) {
  EXPECT_EQ(canon("{a-b :int, c_d :int, x1 :int}"), "() -> {a-b :int, c_d :int, x1 :int}");
}

TEST(ShorthandSignature, ListsOfLists) {
  EXPECT_EQ(type("[[:int]]"), Schema::vector(Schema::vector(Schema::integer())));
  EXPECT_EQ(canon("[[[:string]]]"), "() -> [[[:string]]]");
}

TEST(ShorthandSignature, ListOfAnyMap) {
  // `[:map]` is a shorthand list of `:map`, not the Malli form.
  EXPECT_EQ(type("[:map]"), Schema::vector(Schema::any_map()));
  EXPECT_EQ(canon("[:map]"), "() -> [:map]");
  EXPECT_EQ(canon("() -> {count :int, items [:map]}"), "() -> {count :int, items [:map]}");
}

TEST(ShorthandSignature, NestedStructures) {
  auto t = type("{user {id :int, profile {bio :string, avatar :string?}}}");
  auto profile =
      Schema::map({MapEntry{"bio", Schema::string()}, MapEntry{"avatar", Schema::maybe(Schema::string()), true}});
  auto expected =
      Schema::map({MapEntry{"user", Schema::map({MapEntry{"id", Schema::integer()}, MapEntry{"profile", profile}})}});
  EXPECT_EQ(t, expected);
  EXPECT_EQ(canon("{user {id :int, profile {bio :string, avatar :string?}}}"),
            "() -> {user {id :int, profile {bio :string, avatar :string?}}}");
  EXPECT_EQ(canon("{user {id :int, address {city :string, zip :string}}}"),
            "() -> {user {id :int, address {city :string, zip :string}}}");
  EXPECT_EQ(canon("(user_id :int, limit :int) -> {items [{:id :int :name :string}]}"),
            "(user_id :int, limit :int) -> {items [{id :int, name :string}]}");
}

// ---------------------------------------------------------------------------------------------
// Optional `?`

TEST(ShorthandOptional, FieldQuestionMarkIsOptionalAndNullable) {
  auto t = type("{id :int, email :string?}");
  ASSERT_EQ(t.entries().size(), 2u);
  EXPECT_FALSE(t.entries()[0].optional);
  EXPECT_TRUE(t.entries()[1].optional);
  EXPECT_EQ(t.entries()[1].schema, Schema::maybe(Schema::string()));
  EXPECT_EQ(ptc::render(t), "{id :int, email :string?}");
}

TEST(ShorthandOptional, ParamQuestionMarkIsOptional) {
  auto s = sig("(q :string, limit :int?) -> :any");
  ASSERT_EQ(s.params().size(), 2u);
  EXPECT_FALSE(s.params()[0].optional);
  EXPECT_TRUE(s.params()[1].optional);
  EXPECT_EQ(s.params()[1].schema, Schema::maybe(Schema::integer()));
  EXPECT_EQ(s.render(), "(q :string, limit :int?) -> :any");
}

TEST(ShorthandOptional, QuestionMarkAfterAnyType) {
  EXPECT_EQ(type("{user {id :int}?}"),
            Schema::map({MapEntry{"user", Schema::maybe(Schema::map({MapEntry{"id", Schema::integer()}})), true}}));
  EXPECT_EQ(type("[:int]?"), Schema::maybe(Schema::vector(Schema::integer())));
  EXPECT_EQ(type("{a :int}?"), Schema::maybe(Schema::map({MapEntry{"a", Schema::integer()}})));
  EXPECT_EQ(type(":map?"), Schema::maybe(Schema::any_map()));
  EXPECT_EQ(type(":nil?"), Schema::maybe(Schema::nil()));
  EXPECT_EQ(canon("{user {id :int}?}"), "() -> {user {id :int}?}");
  EXPECT_EQ(canon("[:int]?"), "() -> [:int]?");
  EXPECT_EQ(canon("[:int?]"), "() -> [:int?]");
  EXPECT_EQ(canon("{a :enum[x y]?}"), "() -> {a :enum[\"x\" \"y\"]?}");
  EXPECT_EQ(canon(":int[>0]?"), "() -> :int[>0]?");
  EXPECT_EQ(canon("[:set :int]?"), "() -> [:set :int]?");
}

TEST(ShorthandOptional, QuestionMarkInsideList) {
  EXPECT_EQ(type("[:string?]"), Schema::vector(Schema::maybe(Schema::string())));
}

TEST(ShorthandOptional, DoubleQuestionMarkIsAnError) {
  EXPECT_EQ(parse_error(":int??"), "column 6: '?' may appear only once after a type");
}

// ---------------------------------------------------------------------------------------------
// Firewall

TEST(ShorthandFirewall, UnderscoreFieldsAreFirewalled) {
  auto s = sig("() -> {summary :string, count :int, _email_ids [:int]}");
  const auto& e = s.output().entries();
  ASSERT_EQ(e.size(), 3u);
  EXPECT_FALSE(e[0].firewalled());
  EXPECT_FALSE(e[1].firewalled());
  EXPECT_TRUE(e[2].firewalled());
  EXPECT_EQ(e[2].name, "_email_ids");
  EXPECT_EQ(e[2].schema, Schema::vector(Schema::integer()));
  EXPECT_EQ(s.render(), "() -> {summary :string, count :int, _email_ids [:int]}");
  ASSERT_NE(s.output().find("_email_ids"), nullptr);
  EXPECT_TRUE(s.output().find("_email_ids")->firewalled());
}

TEST(ShorthandFirewall, LeadingColonUnderscore) {
  auto t = type("{:_secret :string}");
  ASSERT_EQ(t.entries().size(), 1u);
  EXPECT_EQ(t.entries()[0].name, "_secret");
  EXPECT_TRUE(t.entries()[0].firewalled());
}

TEST(ShorthandFirewall, NestedFirewalledField) {
  auto t = type("{user {_token :string, name :string}}");
  const auto& inner = t.entries()[0].schema.entries();
  EXPECT_TRUE(inner[0].firewalled());
  EXPECT_FALSE(inner[1].firewalled());
}

// ---------------------------------------------------------------------------------------------
// Enums, unions, refinements

TEST(ShorthandEnum, BareWordsAndStrings) {
  auto expected = Schema::enumeration({"pending", "active"});
  EXPECT_EQ(type(":enum[pending active]"), expected);
  EXPECT_EQ(type(":enum[\"pending\" \"active\"]"), expected);
  EXPECT_EQ(type(":enum[pending, active]"), expected);
  EXPECT_EQ(type(":enum[ pending \"active\" ]"), expected);
  EXPECT_EQ(ptc::render(expected), ":enum[\"pending\" \"active\"]");
  EXPECT_EQ(canon(":enum[pending active]"), "() -> :enum[\"pending\" \"active\"]");
  EXPECT_EQ(canon(":enum[\"low\" \"high\"]"), "() -> :enum[\"low\" \"high\"]");
  EXPECT_EQ(canon("(status :enum[pending active closed]) -> {ok :bool}"),
            "(status :enum[\"pending\" \"active\" \"closed\"]) -> {ok :bool}");
}

TEST(ShorthandEnum, ValuesAreStrings) {
  auto t = type(":enum[1 2.5 a-b c_d e.f]");
  ASSERT_EQ(t.kind(), Kind::Enum);
  std::vector<nlohmann::json> expected{"1", "2.5", "a-b", "c_d", "e.f"};
  EXPECT_EQ(t.values(), expected);
}

TEST(ShorthandEnum, EscapesAndUnicode) {
  auto t = type(R"(:enum["a\"b" "c\\d" "\u00e9" "日本"])");
  std::vector<nlohmann::json> expected{"a\"b", "c\\d", "\xc3\xa9", "日本"};
  EXPECT_EQ(t.values(), expected);
  EXPECT_EQ(ptc::render(t), R"(:enum["a\"b" "c\\d" "é" "日本"])");
  EXPECT_EQ(type(ptc::render(t)), t);
}

TEST(ShorthandEnum, EmptyStringValue) {
  auto t = type(R"(:enum["" x])");
  std::vector<nlohmann::json> expected{"", "x"};
  EXPECT_EQ(t.values(), expected);
  EXPECT_EQ(type(ptc::render(t)), t);
}

TEST(ShorthandEnum, Errors) {
  EXPECT_EQ(parse_error(":enum[]"), "column 1: :enum[] needs at least one value");
  EXPECT_EQ(parse_error(":enum[ ]"), "column 1: :enum[] needs at least one value");
  EXPECT_EQ(parse_error(":enum"), "column 6: expected '[' right after :enum, e.g. :enum[low high]");
  EXPECT_EQ(parse_error(":enum[a \"a\"]"), "column 9: duplicate enum value \"a\"");
  EXPECT_EQ(parse_error(":enum[a"), "column 8: unexpected end of input, expected an enum value or ']'");
  EXPECT_EQ(parse_error(":enum[\"a]"), "column 7: unterminated string");
}

TEST(ShorthandUnion, TwoAndThreeAlternatives) {
  EXPECT_EQ(type(":string|:int"), Schema::one_of({Schema::string(), Schema::integer()}));
  EXPECT_EQ(type(":string|:int|:nil"), Schema::one_of({Schema::string(), Schema::integer(), Schema::nil()}));
  EXPECT_EQ(canon(":string|:int"), "() -> :string|:int");
  EXPECT_EQ(canon("(value :string|:int) -> {result :any}"), "(value :string|:int) -> {result :any}");
}

TEST(ShorthandUnion, QuestionMarkBindsToTheLastAlternative) {
  EXPECT_EQ(type(":string|:int?"), Schema::one_of({Schema::string(), Schema::maybe(Schema::integer())}));
  EXPECT_EQ(canon(":string|:int?"), "() -> :string|:int?");
}

TEST(ShorthandUnion, NullableUnionRendersAsInlineMalli) {
  auto t = Schema::maybe(Schema::one_of({Schema::string(), Schema::integer()}));
  EXPECT_EQ(ptc::render(t), "[:or :string :int]?");
  EXPECT_EQ(type("[:or :string :int]?"), t);
}

TEST(ShorthandUnion, UnionsOfCompositeTypes) {
  EXPECT_EQ(type("{a :int}|:nil"), Schema::one_of({Schema::map({MapEntry{"a", Schema::integer()}}), Schema::nil()}));
  EXPECT_EQ(canon("[:int]|:string"), "() -> [:int]|:string");
  EXPECT_EQ(canon(":enum[x y]|:int"), "() -> :enum[\"x\" \"y\"]|:int");
  EXPECT_EQ(canon(":int[>0]|:string"), "() -> :int[>0]|:string");
  EXPECT_EQ(parse_error(":string|"), "column 9: expected a type after '|'");
}

TEST(ShorthandRefinement, GreaterThan) {
  EXPECT_EQ(type(":int[>0]"), Schema::all_of({Schema::integer(), gt(0)}));
  EXPECT_EQ(ptc::to_malli(type(":int[>0]")), "[:and :int [:> 0]]");
  EXPECT_EQ(canon(":int[>0]"), "() -> :int[>0]");
}

TEST(ShorthandRefinement, AllComparisons) {
  EXPECT_EQ(type(":int[>=1]"), Schema::all_of({Schema::integer(), ge(1)}));
  EXPECT_EQ(type(":int[<10]"), Schema::all_of({Schema::integer(), Schema::refinement(Refine::Lt, std::int64_t{10})}));
  EXPECT_EQ(type(":int[<=10]"), Schema::all_of({Schema::integer(), le(10)}));
  EXPECT_EQ(ptc::to_malli(type(":int[>=1]")), "[:and :int [:>= 1]]");
  EXPECT_EQ(ptc::to_malli(type(":int[<10]")), "[:and :int [:< 10]]");
  EXPECT_EQ(ptc::to_malli(type(":int[<=10]")), "[:and :int [:<= 10]]");
  EXPECT_EQ(canon(":int[>=1]"), "() -> :int[>=1]");
  EXPECT_EQ(canon(":int[<10]"), "() -> :int[<10]");
  EXPECT_EQ(canon(":int[<=10]"), "() -> :int[<=10]");
  EXPECT_EQ(canon(":int[>-5]"), "() -> :int[>-5]");
}

TEST(ShorthandRefinement, IntRange) {
  EXPECT_EQ(type(":int[1..100]"), Schema::all_of({Schema::integer(), ge(1), le(100)}));
  EXPECT_EQ(ptc::to_malli(type(":int[1..100]")), "[:and :int [:>= 1] [:<= 100]]");
  EXPECT_EQ(canon(":int[1..100]"), "() -> :int[1..100]");
  EXPECT_EQ(canon(":int[-5..5]"), "() -> :int[-5..5]");
  EXPECT_EQ(canon(":int[3..3]"), "() -> :int[3..3]");
  EXPECT_EQ(canon("(page :int[>0], limit :int[1..100]) -> [{id :int}]"),
            "(page :int[>0], limit :int[1..100]) -> [{id :int}]");
}

TEST(ShorthandRefinement, FloatRange) {
  auto t = type(":float[0.0..1.0]");
  EXPECT_EQ(t, Schema::all_of({Schema::number(), Schema::refinement(Refine::Ge, 0.0),
                               Schema::refinement(Refine::Le, 1.0)}));
  EXPECT_EQ(ptc::to_malli(t), "[:and :double [:>= 0.0] [:<= 1.0]]");
  EXPECT_EQ(ptc::render(t), ":float[0.0..1.0]");
  EXPECT_EQ(canon(":float[-1.5..-0.5]"), "() -> :float[-1.5..-0.5]");
  EXPECT_EQ(canon(":float[>0.5]"), "() -> :float[>0.5]");
  EXPECT_EQ(ptc::to_malli(type(":double[>0.5]")), "[:and :double [:> 0.5]]");
}

TEST(ShorthandRefinement, Errors) {
  EXPECT_EQ(parse_error(":int[5..1]"), "column 6: empty range: 5 is greater than 1");
  EXPECT_EQ(parse_error(":int[>0.5]"), "column 7: bounds of :int must be integers, got 0.5");
  EXPECT_EQ(parse_error(":int[1..]"), "column 9: expected a number, got ']'");
  EXPECT_EQ(parse_error(":int[1.."), "column 9: expected a number, got end of input");
  EXPECT_EQ(parse_error(":int[>]"), "column 7: expected a number, got ']'");
  EXPECT_EQ(parse_error(":float[a]"), "column 8: expected a number, got 'a'");
  EXPECT_EQ(parse_error(":int[1..100"),
            "column 12: expected ']' to close the refinement opened at column 5, got end of input");
  EXPECT_EQ(parse_error(":int[1 ..2]"), "column 7: expected '..' in a range such as [1..100], got ' '");
}

// ---------------------------------------------------------------------------------------------
// Unknown types, duplicates, and other errors

TEST(ShorthandErrors, UnknownTypesNameColumnAndListValidTypes) {
  const std::string valid = ":string :int :float :bool :keyword :any :nil :map";
  std::string e1 = parse_error(":integer");
  EXPECT_THAT(e1, StartsWith("column 1: unknown type :integer; valid types are "));
  EXPECT_THAT(e1, HasSubstr(valid));
  std::string e2 = parse_error(":list");
  EXPECT_THAT(e2, StartsWith("column 1: unknown type :list; valid types are "));
  EXPECT_THAT(e2, HasSubstr(valid));
  std::string e3 = parse_error("(q :string, n :integer) -> :int");
  EXPECT_THAT(e3, StartsWith("column 15: unknown type :integer; "));
  EXPECT_THAT(e3, HasSubstr(valid));
  std::string e4 = parse_error("{items [:list]}");
  EXPECT_THAT(e4, StartsWith("column 9: unknown type :list; "));
  EXPECT_THAT(e4, HasSubstr(valid));
  EXPECT_THAT(parse_error(":Int"), StartsWith("column 1: unknown type :Int; valid types are "));
  EXPECT_THAT(parse_error(":"), StartsWith("column 1: expected a type name after ':'; valid types are "));
}

TEST(ShorthandErrors, DuplicateNames) {
  EXPECT_EQ(parse_error("(a :int, a :string) -> :int"), "column 10: duplicate parameter name 'a'");
  EXPECT_EQ(parse_error("{a :int a :int}"), "column 9: duplicate field name 'a'");
  EXPECT_EQ(parse_error("{a :int, :a :int}"), "column 10: duplicate field name 'a'");
  EXPECT_EQ(parse_error("{x {a :int, b :int, a :int}}"), "column 21: duplicate field name 'a'");
  // The same name at different levels is fine.
  EXPECT_EQ(canon("(a {a :int}) -> {a {a :int}}"), "(a {a :int}) -> {a {a :int}}");
}

TEST(ShorthandErrors, BadNames) {
  EXPECT_EQ(parse_error("{1a :int}"), "column 2: field names start with a letter or '_', got '1a'");
  EXPECT_EQ(parse_error("(-x :int) -> :int"), "column 2: parameter names start with a letter or '_', got '-x'");
}

TEST(ShorthandErrors, MultiLineErrorsNameTheLine) {
  EXPECT_THAT(parse_error("(a :int,\n b :intx) -> :int"), StartsWith("line 2, column 4: unknown type :intx; "));
  EXPECT_EQ(parse_error("{a :int\n b :int\n a :int}"), "line 3, column 2: duplicate field name 'a'");
}

TEST(ShorthandErrors, ErrorFieldsMatchToString) {
  auto r = Signature::parse("(a :int, a :string) -> :int");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().line, 1u);
  EXPECT_EQ(r.error().column, 10u);
  EXPECT_EQ(r.error().message, "duplicate parameter name 'a'");
  EXPECT_THROW((void)r.value(), ptc::Exception);
}

struct ErrorCase {
  const char* input;
  const char* error;  // exact to_string()
};

class ShorthandErrorColumn : public ::testing::TestWithParam<ErrorCase> {};

TEST_P(ShorthandErrorColumn, ExactMessage) {
  EXPECT_EQ(parse_error(GetParam().input), GetParam().error) << "input: " << GetParam().input;
}

INSTANTIATE_TEST_SUITE_P(
    Malformed, ShorthandErrorColumn,
    ::testing::Values(ErrorCase{"(a :int", "column 8: unexpected end of input, expected ',' or ')'"},
                      ErrorCase{"(a :int) ->", "column 12: expected a result type after '->'"},
                      ErrorCase{"() ->", "column 6: expected a result type after '->'"},
                      ErrorCase{"()", "column 3: expected '->' after the parameter list"},
                      ErrorCase{"(a :int) :int", "column 10: expected '->' after the parameter list"},
                      ErrorCase{"(", "column 2: unexpected end of input, expected a parameter name or ')'"},
                      ErrorCase{"(a", "column 3: unexpected end of input, expected a type for 'a'"},
                      ErrorCase{"{x :int", "column 8: unexpected end of input, expected ',' or '}'"},
                      ErrorCase{"[:int",
                                "column 6: expected ']' to close the list opened at column 1, got end of input"},
                      ErrorCase{"{a [:int}", "column 9: expected ']' to close the list opened at column 4, got '}'"},
                      ErrorCase{"(a :int,)", "column 9: expected a parameter name after ','"},
                      ErrorCase{"{a :int, b :string,}", "column 20: expected a field name after ','"},
                      ErrorCase{"{a :int,, b :int}", "column 9: expected a field name, got ','"},
                      ErrorCase{"{a :int} x", "column 10: unexpected 'x' after the signature"},
                      ErrorCase{"{a :int}}", "column 9: unexpected '}' after the signature"},
                      ErrorCase{"[:int]]", "column 7: unexpected ']' after the signature"},
                      ErrorCase{"(a :int) -> :int extra", "column 18: unexpected 'e' after the signature"},
                      ErrorCase{":enum[]", "column 1: :enum[] needs at least one value"},
                      ErrorCase{":int[5..1]", "column 6: empty range: 5 is greater than 1"},
                      ErrorCase{":int[>0.5]", "column 7: bounds of :int must be integers, got 0.5"},
                      ErrorCase{"(a :int, b :string, a :bool) -> :nil", "column 21: duplicate parameter name 'a'"}));

TEST(ShorthandErrors, MissingTypeNamesTheColumnAndValidTypes) {
  EXPECT_THAT(parse_error("{x}"), StartsWith("column 3: expected a type, got '}'; valid types are :string :int"));
  EXPECT_THAT(parse_error("(a) -> :int"), StartsWith("column 3: expected a type, got ')'; valid types are"));
  EXPECT_THAT(parse_error("{:a :int :b}"), StartsWith("column 12: expected a type, got '}'"));
}

TEST(ShorthandErrors, ParseTypeRejectsSignatures) {
  auto r = ptc::parse_type("(a :int) -> :int");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().column, 1u);
  auto t = ptc::parse_type("{a :int} x");
  ASSERT_FALSE(t.ok());
  EXPECT_EQ(t.error().to_string(), "column 10: unexpected 'x' after the type");
}

// ---------------------------------------------------------------------------------------------
// Inline Malli inside shorthand, and constructs the shorthand prints as Malli

TEST(ShorthandInlineMalli, SetAndTuple) {
  auto s = sig("(t [:set :int]) -> [:tuple :string :int]");
  ASSERT_EQ(s.params().size(), 1u);
  EXPECT_EQ(s.params()[0].schema, Schema::set(Schema::integer()));
  EXPECT_EQ(s.output(), Schema::tuple({Schema::string(), Schema::integer()}));
  EXPECT_EQ(s.render(), "(t [:set :int]) -> [:tuple :string :int]");
  EXPECT_EQ(s.to_malli(), "[:=> [:cat [:set :int]] [:tuple :string :int]]");
}

TEST(ShorthandInlineMalli, InlineFormsThatShorthandCanSayRenderAsShorthand) {
  EXPECT_EQ(canon("[:vector :int]"), "() -> [:int]");
  EXPECT_EQ(canon("[:maybe :int]"), "() -> :int?");
  EXPECT_EQ(canon("[:enum \"a\" \"b\"]"), "() -> :enum[\"a\" \"b\"]");
  EXPECT_EQ(canon("[:or :int :string]"), "() -> :int|:string");
  EXPECT_EQ(canon("[:map [:id :int]]"), "() -> {id :int}");
  EXPECT_EQ(canon("[:and :int [:> 0]]"), "() -> :int[>0]");
  EXPECT_EQ(canon("[:map-of :keyword :any]"), "() -> :map");
}

TEST(ShorthandInlineMalli, InexpressibleConstructsRenderAsMalli) {
  EXPECT_EQ(ptc::render(Schema::set(Schema::keyword())), "[:set :keyword]");
  EXPECT_EQ(ptc::render(Schema::tuple({Schema::string(), Schema::integer()})), "[:tuple :string :int]");
  EXPECT_EQ(ptc::render(Schema::sequential(Schema::string())), "[:sequential :string]");
  EXPECT_EQ(ptc::render(Schema::map_of(Schema::string(), Schema::integer())), "[:map-of :string :int]");
  EXPECT_EQ(ptc::render(Schema::all_of({Schema::string(), Schema::pattern("^[A-Z]+$")})),
            "[:and :string [:re \"^[A-Z]+$\"]]");
  EXPECT_EQ(ptc::render(Schema::enumeration({1, 2, 3})), "[:enum 1 2 3]");
  EXPECT_EQ(ptc::render(Schema::one_of({Schema::integer()})), "[:or :int]");
  EXPECT_EQ(ptc::render(Schema::maybe(Schema::maybe(Schema::integer()))), "[:maybe [:maybe :int]]");
  EXPECT_EQ(ptc::render(Schema::all_of({Schema::integer(), gt(0), Schema::refinement(Refine::Lt, std::int64_t{10})})),
            "[:and :int [:> 0] [:< 10]]");
}

TEST(ShorthandInlineMalli, FieldWithDefaultRendersTheMapAsMalli) {
  MapEntry count{"count", Schema::integer()};
  count.with_default(0);
  auto t = Schema::map({MapEntry{"id", Schema::integer()}, count});
  EXPECT_EQ(ptc::render(t), "[:map [:id :int] [:count {:default 0} :int]]");
  EXPECT_EQ(type(ptc::render(t)), t);
}

TEST(ShorthandInlineMalli, OptionalFieldsAreStoredNullable) {
  // An optional field accepts null anyway, so the model stores it as [:maybe T]: plain shorthand.
  auto t = Schema::map({MapEntry{"a", Schema::integer(), true}});
  EXPECT_EQ(t.entries()[0].schema, Schema::maybe(Schema::integer()));
  EXPECT_EQ(ptc::render(t), "{a :int?}");
  EXPECT_EQ(type(ptc::render(t)), t);
}

TEST(ShorthandInlineMalli, NullableButRequiredFieldRendersAsMalli) {
  auto u = Schema::map({MapEntry{"a", Schema::maybe(Schema::integer()), false}});
  EXPECT_EQ(ptc::render(u), "[:map [:a [:maybe :int]]]");
  EXPECT_EQ(type(ptc::render(u)), u);
}

TEST(ShorthandInlineMalli, NonIdentifierFieldNameRendersAsMalli) {
  auto t = Schema::map({MapEntry{"first name", Schema::string()}});
  EXPECT_EQ(ptc::render(t), "[:map [\"first name\" :string]]");
  EXPECT_EQ(type(ptc::render(t)), t);
}

TEST(ShorthandInlineMalli, NestedInsideShorthand) {
  EXPECT_EQ(canon("{tags [:set :keyword], pair [:tuple :string :int], seq [:sequential :int], "
                  "counts [:map-of :string :int], code [:and :string [:re \"^[A-Z]+$\"]]}"),
            "() -> {tags [:set :keyword], pair [:tuple :string :int], seq [:sequential :int], "
            "counts [:map-of :string :int], code [:and :string [:re \"^[A-Z]+$\"]]}");
  EXPECT_EQ(canon("{a [:map [:b {:default 1} :int]]}"), "() -> {a [:map [:b {:default 1} :int]]}");
  EXPECT_EQ(canon("[[:set :int]]"), "() -> [[:set :int]]");
  EXPECT_EQ(canon("{s [:set :int]?}"), "() -> {s [:set :int]?}");
}

TEST(ShorthandInlineMalli, MalliInsideInlineMalliIsMalli) {
  // Inside an inline Malli form, `[:int]` is not shorthand.
  auto r = ptc::parse_type("[:set [:int]]");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().column, 8u);
  EXPECT_THAT(r.error().message, StartsWith("unknown schema operator :int;"));
}

TEST(ShorthandInlineMalli, BareSetIsAnUnknownType) {
  EXPECT_THAT(parse_error("[:set]"), StartsWith("column 2: unknown type :set; valid types are "));
}

// ---------------------------------------------------------------------------------------------
// Bad input

TEST(ShorthandBadInput, DeeplyNestedListsAreAnErrorNotACrash) {
  std::string s(100000, '[');
  s += ":int";
  s += std::string(100000, ']');
  auto r = Signature::parse(s);
  ASSERT_FALSE(r.ok());
  EXPECT_THAT(r.error().message, HasSubstr("nest"));
  EXPECT_GT(r.error().column, 0u);
}

TEST(ShorthandBadInput, UnclosedNestedListsAreAnError) {
  std::string s(100000, '[');
  auto r = Signature::parse(s);
  ASSERT_FALSE(r.ok());
  EXPECT_THAT(r.error().message, HasSubstr("nest"));
}

TEST(ShorthandBadInput, NestedBracesWithoutNamesAreAnError) {
  std::string s(100000, '{');
  auto r = Signature::parse(s);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().to_string(), "column 2: expected a field name, got '{'");
}

TEST(ShorthandBadInput, DeeplyNestedInlineMalliIsAnError) {
  std::string s;
  for (int i = 0; i < 100000; ++i) s += "[:vector ";
  s += ":int";
  s += std::string(100000, ']');
  auto r = Signature::parse(s);
  ASSERT_FALSE(r.ok());
  EXPECT_THAT(r.error().message, HasSubstr("nest"));
}

TEST(ShorthandBadInput, DeeplyNestedMapsAreAnErrorNotACrash) {
  std::string s;
  for (int i = 0; i < 100000; ++i) s += "{a ";
  s += ":int";
  s += std::string(100000, '}');
  auto r = Signature::parse(s);
  ASSERT_FALSE(r.ok());
  EXPECT_THAT(r.error().message, HasSubstr("nest"));
}

TEST(ShorthandBadInput, DeeplyNestedListsOfMapsAreAnErrorNotACrash) {
  std::string s;
  for (int i = 0; i < 100000; ++i) s += "[{a ";
  s += ":int";
  for (int i = 0; i < 100000; ++i) s += "}]";
  auto r = Signature::parse(s);
  ASSERT_FALSE(r.ok());
  EXPECT_THAT(r.error().message, HasSubstr("nest"));
}

std::string nested(std::string_view open, std::string_view close, int n) {
  std::string s;
  for (int i = 0; i < n; ++i) s += open;
  s += ":int";
  for (int i = 0; i < n; ++i) s += close;
  return s;
}

TEST(ShorthandBadInput, DepthLimitIs256Levels) {
  // Levels count schema nodes: 255 lists around :int are 256 levels.
  EXPECT_TRUE(Signature::parse(nested("[", "]", 255)).ok());
  EXPECT_EQ(parse_error(nested("[", "]", 256)), "column 1: types nest deeper than 256 levels");
  EXPECT_EQ(parse_error(nested("[", "]", 300)), "column 258: types nest deeper than 256 levels");
  EXPECT_TRUE(Signature::parse(nested("{a ", "}", 255)).ok());
  EXPECT_EQ(parse_error(nested("{a ", "}", 256)), "column 1: types nest deeper than 256 levels");
  EXPECT_EQ(parse_error("(a " + nested("{a ", "}", 256) + ") -> :int"), "column 4: types nest deeper than 256 levels");
  // `?`, unions and refinements are levels too, as they are in Malli.
  EXPECT_EQ(parse_error(nested("[", "]", 255) + "?"), "column 1: types nest deeper than 256 levels");
  EXPECT_EQ(parse_error(nested("[", "]", 255) + "|:nil"), "column 1: types nest deeper than 256 levels");
  EXPECT_TRUE(Signature::parse(nested("[", "]", 254) + "?").ok());
  EXPECT_TRUE(Signature::parse(nested("[", "]", 254) + "|:nil").ok());
}

TEST(ShorthandBadInput, ModerateMapNestingParses) {
  std::string s;
  for (int i = 0; i < 50; ++i) s += "{a ";
  s += ":int";
  s += std::string(50, '}');
  auto r = Signature::parse(s);
  ASSERT_TRUE(r.ok()) << r.error().to_string();
  EXPECT_EQ(r->render(), "() -> " + s);
}

TEST(ShorthandBadInput, InvalidUtf8NamesTheColumn) {
  EXPECT_EQ(parse_error("{a :string}\xff"), "column 12: invalid UTF-8");
  EXPECT_EQ(parse_error("(a :string) -> :enum[\"caf\xc3\" x]"), "column 26: invalid UTF-8");
  EXPECT_EQ(parse_error("\xc0\xaf"), "column 1: invalid UTF-8");                 // overlong '/'
  EXPECT_EQ(parse_error(":enum[\"\xed\xa0\x80\"]"), "column 8: invalid UTF-8");  // surrogate
  EXPECT_EQ(parse_error("{a :int}\n\xfe"), "line 2, column 1: invalid UTF-8");
  auto t = ptc::parse_type(":int\x80");
  ASSERT_FALSE(t.ok());
  EXPECT_EQ(t.error().to_string(), "column 5: invalid UTF-8");
}

TEST(ShorthandBadInput, ValidUtf8OutsideStringsIsAnErrorNotACrash) {
  auto r = Signature::parse("{caf\xc3\xa9 :int}");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().column, 5u);
}

TEST(ShorthandBadInput, ControlCharactersAreErrors) {
  std::string s = "{a :int}";
  s += '\0';
  auto r = Signature::parse(s);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().column, 9u);
  EXPECT_THAT(parse_error(std::string("{a\x01 :int}")),
              StartsWith("column 3: expected a type, got a control character;"));
  EXPECT_EQ(parse_error("(n\xc3\xa4me :int) -> :nil"),
            "column 3: parameter names are ASCII identifiers (letters, digits, '_'), got a non-ASCII character");
  EXPECT_EQ(parse_error("{\xc3\xa9t\xc3\xa9 :int}"),
            "column 2: field names are ASCII identifiers (letters, digits, '_'), got a non-ASCII character");
}

TEST(ShorthandBadInput, HugeEnumStringParses) {
  std::string big(10 * 1024 * 1024, 'x');
  auto r = ptc::parse_type(":enum[\"" + big + "\" y]");
  ASSERT_TRUE(r.ok()) << r.error().message.substr(0, 200);
  ASSERT_EQ(r->values().size(), 2u);
  EXPECT_EQ(r->values()[0].get<std::string>().size(), big.size());
}

TEST(ShorthandBadInput, HugeNumberInRefinementIsAnError) {
  EXPECT_EQ(parse_error(":int[>99999999999999999999]"),
            "column 7: integer 99999999999999999999 is out of range (-9223372036854775808..9223372036854775807)");
  EXPECT_EQ(parse_error(":float[>1e400]"), "column 9: malformed number '1e400'");
}

}  // namespace

namespace {

TEST(ShorthandReview, SpacesAroundUnionBars) {
  auto s = ptc::Signature::parse("(a :string | :int) -> :int |\n :nil");
  ASSERT_TRUE(s.ok()) << s.error().to_string();
  EXPECT_EQ(s->render(), "(a :string|:int) -> :int|:nil");
  EXPECT_TRUE(ptc::Signature::parse("(a :int |) -> :int")
                  .error()
                  .to_string()
                  .starts_with("column 10: expected a type, got ')'"));
}

TEST(ShorthandReview, HugeBoundsSayOutOfRange) {
  EXPECT_EQ(ptc::Signature::parse("(b :int[>99999999999999999999]) -> :int").error().to_string(),
            "column 10: integer 99999999999999999999 is out of range (-9223372036854775808..9223372036854775807)");
}

}  // namespace
