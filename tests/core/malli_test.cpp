// The Malli reader (Signature::from_malli, parse_malli_type) and the canonical Malli printer
// (spec/malli-lite-schema.md, docs/signatures.md).

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

using ptc::test::malli_error;
constexpr auto mtype = ptc::test::malli_type;
constexpr auto msig = ptc::test::malli_sig;

using ::testing::HasSubstr;
using ::testing::StartsWith;
using ptc::Kind;
using ptc::MapEntry;
using ptc::Refine;
using ptc::Schema;
using ptc::Signature;

const std::string kValidMalli = ":string :int :double :boolean :keyword :any :nil :map";

// Canonical Malli of a shorthand type.
std::string type_to_malli(std::string_view shorthand) {
  auto r = ptc::parse_type(shorthand);
  if (!r) return "error: " + r.error().to_string();
  return ptc::to_malli(*r);
}

// Canonical Malli of a shorthand signature.
std::string sig_to_malli(std::string_view shorthand) {
  auto r = Signature::parse(shorthand);
  if (!r) return "error: " + r.error().to_string();
  return r->to_malli();
}

// Canonical Malli of Malli text.
std::string malli_canon(std::string_view malli) {
  auto r = Signature::from_malli(malli);
  if (!r) return "error: " + r.error().to_string();
  return r->to_malli();
}

// ---------------------------------------------------------------------------------------------
// Spec "Shorthand to Malli Transpilation" table, row by row.

struct Row {
  const char* shorthand;
  const char* malli;
};

class TranspileType : public ::testing::TestWithParam<Row> {};

TEST_P(TranspileType, CanonicalMalli) {
  EXPECT_EQ(type_to_malli(GetParam().shorthand), GetParam().malli);
  // A bare type used as a signature means `() -> T`.
  EXPECT_EQ(sig_to_malli(GetParam().shorthand), std::string("[:=> [:cat] ") + GetParam().malli + "]");
  // And the Malli reads back to the same schema.
  EXPECT_EQ(mtype(GetParam().malli), *ptc::parse_type(GetParam().shorthand));
}

INSTANTIATE_TEST_SUITE_P(
    SpecTable, TranspileType,
    ::testing::Values(
        Row{":string", ":string"}, Row{":int", ":int"}, Row{":float", ":double"}, Row{":bool", ":boolean"},
        Row{":keyword", ":keyword"}, Row{":any", ":any"}, Row{"[:int]", "[:vector :int]"},
        Row{"[:string]", "[:vector :string]"}, Row{"[{:id :int}]", "[:vector [:map [:id :int]]]"},
        Row{"{:id :int :name :string}", "[:map [:id :int] [:name :string]]"}, Row{":map", "[:map-of :keyword :any]"},
        Row{":string?", "[:maybe :string]"},
        Row{"{:id :int :email :string?}", "[:map [:id :int] [:email {:optional true} [:maybe :string]]]"},
        // DESIGN section 4 additions
        Row{":nil", ":nil"}, Row{":boolean", ":boolean"}, Row{":double", ":double"},
        Row{":enum[pending active]", "[:enum \"pending\" \"active\"]"},
        Row{":enum[\"low\" \"high\"]", "[:enum \"low\" \"high\"]"}, Row{":string|:int", "[:or :string :int]"},
        Row{":string|:int|:nil", "[:or :string :int :nil]"}, Row{":int[>0]", "[:and :int [:> 0]]"},
        Row{":int[>=1]", "[:and :int [:>= 1]]"}, Row{":int[<100]", "[:and :int [:< 100]]"},
        Row{":int[<=10]", "[:and :int [:<= 10]]"}, Row{":int[1..100]", "[:and :int [:>= 1] [:<= 100]]"},
        Row{":float[0.0..1.0]", "[:and :double [:>= 0.0] [:<= 1.0]]"}, Row{"[:int]?", "[:maybe [:vector :int]]"},
        Row{"{user {id :int}?}", "[:map [:user {:optional true} [:maybe [:map [:id :int]]]]]"}, Row{"{}", "[:map]"},
        Row{"[:any]", "[:vector :any]"}, Row{"[{}]", "[:vector [:map]]"},
        Row{"{_ids [:int]}", "[:map [:_ids [:vector :int]]]"}, Row{"[:set :keyword]", "[:set :keyword]"},
        Row{"[:tuple :string :int]", "[:tuple :string :int]"}, Row{"[:sequential :string]", "[:sequential :string]"},
        Row{"[:map-of :string :int]", "[:map-of :string :int]"}));

class TranspileSignature : public ::testing::TestWithParam<Row> {};

TEST_P(TranspileSignature, CanonicalMalli) { EXPECT_EQ(sig_to_malli(GetParam().shorthand), GetParam().malli); }

INSTANTIATE_TEST_SUITE_P(
    SpecTable, TranspileSignature,
    ::testing::Values(
        Row{"(a :int, b :string) -> :bool", "[:=> [:cat :int :string] :boolean]"},
        Row{"() -> {:count :int}", "[:=> [:cat] [:map [:count :int]]]"},
        // The spec's "Examples" section.
        Row{"(query :string) -> {count :int}", "[:=> [:cat :string] [:map [:count :int]]]"},
        Row{"(user_id :int, limit :int) -> {items [{:id :int :name :string}]}",
            "[:=> [:cat :int :int] [:map [:items [:vector [:map [:id :int] [:name :string]]]]]]"},
        // Where the examples and the table disagree, the table wins (DESIGN section 5).
        Row{"() -> {data :map, error :string?}",
            "[:=> [:cat] [:map [:data [:map-of :keyword :any]] [:error {:optional true} [:maybe :string]]]]"},
        Row{"{count :int}", "[:=> [:cat] [:map [:count :int]]]"}, Row{":any", "[:=> [:cat] :any]"},
        Row{"(q :string, limit :int?) -> :any", "[:=> [:cat :string [:maybe :int]] :any]"},
        Row{"(query :string, limit :int) -> {count :int, _ids [:int]}",
            "[:=> [:cat :string :int] [:map [:count :int] [:_ids [:vector :int]]]]"},
        Row{"(t [:set :int]) -> [:tuple :string :int]", "[:=> [:cat [:set :int]] [:tuple :string :int]]"}));

// ---------------------------------------------------------------------------------------------
// Supported Malli subset: reading

TEST(MalliPrimitives, AllPrimitives) {
  EXPECT_EQ(mtype(":string"), Schema::string());
  EXPECT_EQ(mtype(":int"), Schema::integer());
  EXPECT_EQ(mtype(":double"), Schema::number());
  EXPECT_EQ(mtype(":boolean"), Schema::boolean());
  EXPECT_EQ(mtype(":keyword"), Schema::keyword());
  EXPECT_EQ(mtype(":any"), Schema::any());
  EXPECT_EQ(mtype(":nil"), Schema::nil());
  EXPECT_EQ(mtype(":map"), Schema::any_map());
}

TEST(MalliPrimitives, ShorthandSpellingsAreAccepted) {
  EXPECT_EQ(mtype(":float"), Schema::number());
  EXPECT_EQ(mtype(":bool"), Schema::boolean());
}

TEST(MalliPrimitives, PrintedCanonically) {
  EXPECT_EQ(ptc::to_malli(Schema::string()), ":string");
  EXPECT_EQ(ptc::to_malli(Schema::integer()), ":int");
  EXPECT_EQ(ptc::to_malli(Schema::number()), ":double");
  EXPECT_EQ(ptc::to_malli(Schema::boolean()), ":boolean");
  EXPECT_EQ(ptc::to_malli(Schema::keyword()), ":keyword");
  EXPECT_EQ(ptc::to_malli(Schema::any()), ":any");
  EXPECT_EQ(ptc::to_malli(Schema::nil()), ":nil");
  EXPECT_EQ(ptc::to_malli(Schema::any_map()), "[:map-of :keyword :any]");
}

// Time types' text: an annotation JSON Schema shows as `format`; shorthand has no spelling for it.
TEST(MalliPrimitives, StringFormats) {
  EXPECT_EQ(mtype(R"([:string {:format "date-time"}])"), Schema::string("date-time"));
  EXPECT_EQ(mtype(R"([:string {:format "date"}])"), Schema::string("date"));
  EXPECT_NE(Schema::string("date"), Schema::string());
  EXPECT_EQ(ptc::to_malli(Schema::string("date-time")), R"([:string {:format "date-time"}])");
  EXPECT_EQ(ptc::render(Schema::string("date-time")), ":string");
  EXPECT_EQ(malli_error(R"([:string {:format "email"}])"),
            R"(column 19: :format takes "date-time" or "date", got string "email")");
  EXPECT_EQ(malli_error(R"([:string {:min 1}])"),
            "column 11: unknown property :min of :string; the one property is :format");
  EXPECT_EQ(malli_error(R"([:int {:format "date"}])"), "column 7: schema properties are not supported on [:int ...]");
  EXPECT_THROW(Schema::string("uuid"), ptc::Exception);
}

// std::array<T, N>: a list of exactly N items; shorthand has no spelling, so it falls back to Malli.
TEST(MalliCollections, FixedLengthVector) {
  EXPECT_EQ(mtype("[:vector {:min 3 :max 3} :int]"), Schema::vector(Schema::integer(), 3));
  EXPECT_NE(Schema::vector(Schema::integer(), 3), Schema::vector(Schema::integer()));
  EXPECT_EQ(ptc::to_malli(Schema::vector(Schema::integer(), 3)), "[:vector {:min 3 :max 3} :int]");
  EXPECT_EQ(ptc::render(Schema::vector(Schema::integer(), 3)), "[:vector {:min 3 :max 3} :int]");
  EXPECT_EQ(malli_error("[:vector {:min 1 :max 3} :int]"),
            "column 10: [:vector {...} T] takes :min and :max equal (a list of exactly N items)");
  EXPECT_EQ(malli_error("[:vector {:min -1 :max -1} :int]"),
            "column 16: :min takes a count of items from 0 to 1000000, got number -1");
}

TEST(MalliCollections, VectorSequentialSet) {
  EXPECT_EQ(mtype("[:vector :int]"), Schema::vector(Schema::integer()));
  EXPECT_EQ(mtype("[:sequential :string]"), Schema::sequential(Schema::string()));
  EXPECT_EQ(mtype("[:set :keyword]"), Schema::set(Schema::keyword()));
  EXPECT_EQ(mtype("[:vector [:vector :double]]"), Schema::vector(Schema::vector(Schema::number())));
  EXPECT_EQ(malli_canon("[:sequential :string]"), "[:=> [:cat] [:sequential :string]]");
  EXPECT_EQ(malli_canon("[:set :keyword]"), "[:=> [:cat] [:set :keyword]]");
}

TEST(MalliCollections, Map) {
  auto t = mtype("[:map [:id :int] [:name :string]]");
  EXPECT_EQ(t, Schema::map({MapEntry{"id", Schema::integer()}, MapEntry{"name", Schema::string()}}));
  EXPECT_EQ(mtype("[:map]"), Schema::map({}));
  EXPECT_EQ(mtype("[:map [:user [:map [:id :int]]]]"),
            Schema::map({MapEntry{"user", Schema::map({MapEntry{"id", Schema::integer()}})}}));
}

TEST(MalliCollections, MapKeysMayBeStrings) {
  auto t = mtype("[:map [\"id\" :int] [\"first name\" :string]]");
  ASSERT_EQ(t.entries().size(), 2u);
  EXPECT_EQ(t.entries()[0].name, "id");
  EXPECT_EQ(t.entries()[1].name, "first name");
  EXPECT_EQ(ptc::to_malli(t), "[:map [:id :int] [\"first name\" :string]]");
}

TEST(MalliCollections, MapKeysWithPunctuation) {
  auto t = mtype("[:map [:active? :boolean] [:a/b :int] [:_x :int]]");
  EXPECT_EQ(t.entries()[0].name, "active?");
  EXPECT_EQ(t.entries()[1].name, "a/b");
  EXPECT_TRUE(t.entries()[2].firewalled());
  EXPECT_EQ(mtype(ptc::to_malli(t)), t);
}

TEST(MalliCollections, MapOf) {
  EXPECT_EQ(mtype("[:map-of :string :int]"), Schema::map_of(Schema::string(), Schema::integer()));
  EXPECT_EQ(mtype("[:map-of :keyword :any]"), Schema::any_map());
  EXPECT_EQ(mtype("[:map-of :string [:set :keyword]]"),
            Schema::map_of(Schema::string(), Schema::set(Schema::keyword())));
  EXPECT_EQ(malli_canon("[:map-of :string [:set :keyword]]"), "[:=> [:cat] [:map-of :string [:set :keyword]]]");
  EXPECT_EQ(mtype("[:map-of [:enum \"a\" \"b\"] :int]").key(), Schema::enumeration({"a", "b"}));
  EXPECT_EQ(mtype("[:map-of [:and :string [:re \"^x\"]] :int]").kind(), Kind::MapOf);
}

TEST(MalliCollections, MapOfRejectsNonStringKeys) {
  EXPECT_EQ(malli_error("[:map-of :int :int]"),
            "column 10: map-of keys must be :string, :keyword, a string enum or [:and :string [:re ...]] "
            "(JSON object keys are strings)");
}

TEST(MalliCollections, Tuple) {
  EXPECT_EQ(mtype("[:tuple :string :int]"), Schema::tuple({Schema::string(), Schema::integer()}));
  EXPECT_EQ(mtype("[:tuple :string]"), Schema::tuple({Schema::string()}));
  EXPECT_EQ(malli_error("[:tuple]"), "column 1: [:tuple T ...] needs at least one schema");
}

TEST(MalliComposite, Enum) {
  EXPECT_EQ(mtype("[:enum \"low\" \"medium\" \"high\"]"), Schema::enumeration({"low", "medium", "high"}));
  auto mixed = mtype("[:enum 1 2.5 \"b\" true]");
  std::vector<nlohmann::json> expected{1, 2.5, "b", true};
  EXPECT_EQ(mixed.values(), expected);
  EXPECT_EQ(ptc::to_malli(mixed), "[:enum 1 2.5 \"b\" true]");
  // Keyword values become strings (JSON has no keywords).
  EXPECT_EQ(mtype("[:enum :a :b]"), Schema::enumeration({"a", "b"}));
  EXPECT_EQ(malli_canon("[:enum :a :b]"), "[:=> [:cat] [:enum \"a\" \"b\"]]");
}

TEST(MalliComposite, EnumErrors) {
  EXPECT_EQ(malli_error("[:enum]"), "column 1: [:enum v ...] needs at least one value");
  EXPECT_EQ(malli_error("[:enum \"a\" \"a\"]"), "column 12: duplicate enum value \"a\"");
  EXPECT_EQ(malli_error("[:enum :a \"a\"]"), "column 11: duplicate enum value \"a\"");
  EXPECT_EQ(malli_error("[:enum [1]]"),
            "column 8: enum values must be strings, keywords, numbers or booleans, got a vector");
  EXPECT_EQ(malli_error("[:enum nil]"),
            "column 8: enum values must be strings, keywords, numbers or booleans, got nil");
}

TEST(MalliComposite, OrAndMaybe) {
  EXPECT_EQ(mtype("[:or :string :int]"), Schema::one_of({Schema::string(), Schema::integer()}));
  EXPECT_EQ(mtype("[:or :int :nil]"), Schema::one_of({Schema::integer(), Schema::nil()}));
  EXPECT_EQ(mtype("[:maybe :string]"), Schema::maybe(Schema::string()));
  EXPECT_EQ(mtype("[:and :int [:> 0]]"),
            Schema::all_of({Schema::integer(), Schema::refinement(Refine::Gt, std::int64_t{0})}));
  EXPECT_EQ(mtype("[:and :int :any]"), Schema::all_of({Schema::integer(), Schema::any()}));
  EXPECT_EQ(malli_error("[:or]"), "column 1: [:or T ...] needs at least one schema");
  EXPECT_EQ(malli_error("[:and]"), "column 1: [:and T ...] needs at least one schema");
  EXPECT_EQ(malli_error("[:maybe]"), "column 1: [:maybe T] takes exactly one schema, got 0");
  EXPECT_EQ(malli_error("[:maybe :int :string]"), "column 1: [:maybe T] takes exactly one schema, got 2");
}

TEST(MalliRefinements, AllComparisons) {
  auto i = [](Refine op, std::int64_t n) { return Schema::refinement(op, n); };
  EXPECT_EQ(mtype("[:and :int [:> 0]]"), Schema::all_of({Schema::integer(), i(Refine::Gt, 0)}));
  EXPECT_EQ(mtype("[:and :int [:< 100]]"), Schema::all_of({Schema::integer(), i(Refine::Lt, 100)}));
  EXPECT_EQ(mtype("[:and :int [:>= 1]]"), Schema::all_of({Schema::integer(), i(Refine::Ge, 1)}));
  EXPECT_EQ(mtype("[:and :int [:<= 10]]"), Schema::all_of({Schema::integer(), i(Refine::Le, 10)}));
  EXPECT_EQ(mtype("[:and :int [:> 0] [:< 100]]"),
            Schema::all_of({Schema::integer(), i(Refine::Gt, 0), i(Refine::Lt, 100)}));
  auto d = mtype("[:and :double [:>= 0.0] [:<= 1.0]]");
  EXPECT_EQ(d, Schema::all_of({Schema::number(), Schema::refinement(Refine::Ge, 0.0),
                               Schema::refinement(Refine::Le, 1.0)}));
  EXPECT_EQ(ptc::to_malli(d), "[:and :double [:>= 0.0] [:<= 1.0]]");
  EXPECT_EQ(ptc::to_malli(mtype("[:and :int [:> -5]]")), "[:and :int [:> -5]]");
  EXPECT_EQ(ptc::to_malli(mtype("[:and :double [:< 2.5]]")), "[:and :double [:< 2.5]]");
}

TEST(MalliRefinements, Regex) {
  auto t = mtype("[:and :string [:re \"^[A-Z]\"]]");
  ASSERT_EQ(t.kind(), Kind::And);
  ASSERT_EQ(t.children().size(), 2u);
  EXPECT_EQ(t.children()[1].kind(), Kind::Refinement);
  EXPECT_EQ(t.children()[1].op(), Refine::Re);
  EXPECT_EQ(t.children()[1].bound(), "^[A-Z]");
  EXPECT_TRUE(t.children()[1].matches("Alice"));
  EXPECT_FALSE(t.children()[1].matches("alice"));
  EXPECT_EQ(t, Schema::all_of({Schema::string(), Schema::pattern("^[A-Z]")}));
  EXPECT_EQ(ptc::to_malli(t), "[:and :string [:re \"^[A-Z]\"]]");
}

TEST(MalliRefinements, RegexEscapesRoundTrip) {
  auto t = mtype(R"([:and :string [:re "^\\d+\"x\"$"]])");
  EXPECT_EQ(t.children()[1].bound(), "^\\d+\"x\"$");
  EXPECT_EQ(ptc::to_malli(t), R"([:and :string [:re "^\\d+\"x\"$"]])");
  EXPECT_EQ(mtype(ptc::to_malli(t)), t);
}

TEST(MalliRefinements, InvalidRegexNamesTheColumn) {
  auto e = malli_error("[:and :string [:re \"[\"]]");
  EXPECT_THAT(e, StartsWith("column 20: invalid regular expression: "));
  auto e2 = malli_error("[:map [:code [:and :string [:re \"a(b\"]]]]");
  EXPECT_THAT(e2, StartsWith("column 33: invalid regular expression: "));
}

TEST(MalliRefinements, RefinementOutsideAndIsAnError) {
  EXPECT_EQ(malli_error("[:> 0]"), "column 1: [:> n] is a refinement; use it inside [:and T ...]");
  EXPECT_EQ(malli_error("[:<= 0]"), "column 1: [:<= n] is a refinement; use it inside [:and T ...]");
  EXPECT_EQ(malli_error("[:re \"x\"]"),
            "column 1: [:re \"pattern\"] is a refinement; use it inside [:and :string ...]");
  EXPECT_EQ(malli_error("[:vector [:> 0]]"), "column 10: [:> n] is a refinement; use it inside [:and T ...]");
  EXPECT_EQ(malli_error("[:or :int [:> 0]]"), "column 11: [:> n] is a refinement; use it inside [:and T ...]");
  EXPECT_EQ(malli_error("[:and [:> 0]]"), "column 7: [:and ...] must start with a type, e.g. [:and :int [:> 0]]");
}

TEST(MalliRefinements, BadRefinementArguments) {
  EXPECT_EQ(malli_error("[:and :int [:> \"a\"]]"), "column 16: expected a number, got string \"a\"");
  EXPECT_EQ(malli_error("[:and :int [:>]]"), "column 12: [:> n] takes exactly one number");
  EXPECT_EQ(malli_error("[:and :int [:> 1 2]]"), "column 12: [:> n] takes exactly one number");
  EXPECT_EQ(malli_error("[:and :string [:re 5]]"), "column 15: [:re \"pattern\"] takes exactly one string");
}

// ---------------------------------------------------------------------------------------------
// Map entry options

TEST(MalliEntryOptions, Optional) {
  auto t = mtype("[:map [:email {:optional true} [:maybe :string]]]");
  ASSERT_EQ(t.entries().size(), 1u);
  EXPECT_TRUE(t.entries()[0].optional);
  EXPECT_EQ(t.entries()[0].schema, Schema::maybe(Schema::string()));
  EXPECT_EQ(t, *ptc::parse_type("{email :string?}"));
  auto u = mtype("[:map [:a {:optional true} :int]]");
  EXPECT_TRUE(u.entries()[0].optional);
  EXPECT_EQ(u.entries()[0].schema, Schema::maybe(Schema::integer())) << "optional entries are stored nullable";
  EXPECT_EQ(ptc::to_malli(u), "[:map [:a {:optional true} [:maybe :int]]]");
  auto f = mtype("[:map [:a {:optional false} :int]]");
  EXPECT_FALSE(f.entries()[0].optional);
  EXPECT_EQ(ptc::to_malli(f), "[:map [:a :int]]");
  EXPECT_EQ(ptc::to_malli(mtype("[:map [:a {} :int]]")), "[:map [:a :int]]");
}

TEST(MalliEntryOptions, Default) {
  auto t = mtype("[:map [:count {:default 0} :int]]");
  ASSERT_TRUE(t.entries()[0].has_default());
  EXPECT_EQ(*t.entries()[0].default_value, nlohmann::json(0));
  EXPECT_EQ(ptc::to_malli(t), "[:map [:count {:default 0} :int]]");
  MapEntry expected{"count", Schema::integer()};
  expected.with_default(0);
  EXPECT_EQ(t, Schema::map({expected}));
}

TEST(MalliEntryOptions, DefaultsOfEveryKind) {
  EXPECT_EQ(*mtype("[:map [:a {:default \"x\"} :string]]").entries()[0].default_value, "x");
  EXPECT_EQ(*mtype("[:map [:a {:default 1.5} :double]]").entries()[0].default_value, 1.5);
  EXPECT_EQ(*mtype("[:map [:a {:default true} :boolean]]").entries()[0].default_value, true);
  EXPECT_EQ(*mtype("[:map [:a {:default nil} [:maybe :int]]]").entries()[0].default_value, nullptr);
  EXPECT_EQ(*mtype("[:map [:a {:default :low} [:enum \"low\" \"high\"]]]").entries()[0].default_value, "low");
  EXPECT_EQ(*mtype("[:map [:a {:default [1 2]} [:vector :int]]]").entries()[0].default_value,
            nlohmann::json::array({1, 2}));
  auto nested = mtype("[:map [:d {:default {:a [1 2.5 nil true]}} :any]]");
  EXPECT_EQ(*nested.entries()[0].default_value, nlohmann::json::parse(R"({"a":[1,2.5,null,true]})"));
  EXPECT_EQ(ptc::to_malli(nested), "[:map [:d {:default {\"a\" [1 2.5 nil true]}} :any]]");
  EXPECT_EQ(mtype(ptc::to_malli(nested)), nested);
}

TEST(MalliEntryOptions, DefaultThatDoesNotMatchIsAnError) {
  EXPECT_EQ(malli_error("[:map [:count {:default \"x\"} :int]]"),
            "column 15: default value \"x\" does not match the field's type: expected int, got string \"x\"");
  auto e = malli_error("[:map [:a {:default 1.5} :int]]");
  EXPECT_THAT(e, StartsWith("column 11: default value 1.5 does not match the field's type: "));
  auto e2 = malli_error("[:map [:a {:default nil} :int]]");
  EXPECT_THAT(e2, StartsWith("column 11: default value null does not match the field's type: "));
  auto e3 = malli_error("[:map [:a {:default 0} [:and :int [:> 0]]]]");
  EXPECT_THAT(e3, StartsWith("column 11: default value 0 does not match the field's type: "));
  auto e4 = malli_error("[:map [:a {:default \"c\"} [:enum \"a\" \"b\"]]]");
  EXPECT_THAT(e4, StartsWith("column 11: default value \"c\" does not match the field's type: "));
  auto e5 = malli_error("[:map [:a {:default [1 \"x\"]} [:vector :int]]]");
  EXPECT_THAT(e5, StartsWith("column 11: default value [1,\"x\"] does not match the field's type: "));
}

TEST(MalliEntryOptions, Doc) {
  auto t = mtype("[:map [:a {:doc \"hello\"} :int]]");
  EXPECT_EQ(t.entries()[0].doc, "hello");
  EXPECT_EQ(ptc::to_malli(t), "[:map [:a {:doc \"hello\"} :int]]");
  EXPECT_EQ(mtype("[:map [:a {:description \"hi\"} :int]]").entries()[0].doc, "hi");
}

TEST(MalliEntryOptions, AllOptionsTogether) {
  auto t = mtype("[:map [:a {:doc \"d\" :default 5 :optional true} :int]]");
  const auto& e = t.entries()[0];
  EXPECT_TRUE(e.optional);
  EXPECT_EQ(*e.default_value, 5);
  EXPECT_EQ(e.doc, "d");
  EXPECT_EQ(ptc::to_malli(t), "[:map [:a {:optional true :default 5 :doc \"d\"} [:maybe :int]]]");
}

TEST(MalliEntryOptions, Errors) {
  EXPECT_EQ(malli_error("[:map [:a {:optional \"yes\"} :int]]"), "column 22: :optional takes true or false");
  EXPECT_EQ(malli_error("[:map [:a {:doc 5} :int]]"), "column 17: :doc takes a string");
  EXPECT_EQ(malli_error("[:map [:a {:foo 1} :int]]"),
            "column 12: unknown entry option keyword :foo; valid options are :optional, :default, :doc");
  EXPECT_EQ(malli_error("[:map [:a {:optional} :int]]"),
            "column 11: a map needs an even number of forms (key value pairs)");
  EXPECT_EQ(malli_error("[:map [:a :int :string]]"),
            "column 11: expected an options map {:optional true}, got keyword :int");
}

TEST(MalliEntries, Errors) {
  EXPECT_EQ(malli_error("[:map [:a]]"), "column 7: expected a map entry [name T] or [name {options} T], got a vector");
  EXPECT_EQ(malli_error("[:map :a]"), "column 7: expected a map entry [name T] or [name {options} T], got keyword :a");
  EXPECT_EQ(malli_error("[:map [1 :int]]"), "column 8: expected a keyword or string name, got number 1");
  EXPECT_EQ(malli_error("[:map [\"\" :int]]"), "column 8: names must not be empty");
  EXPECT_EQ(malli_error("[:map [:a :int] [:a :string]]"), "column 17: duplicate field name 'a'");
  EXPECT_EQ(malli_error("[:map [:a :int] [\"a\" :string]]"), "column 17: duplicate field name 'a'");
  EXPECT_EQ(malli_error("[:map {:closed true} [:a :int]]"),
            "column 7: schema properties are not supported on [:map ...]");
}

// ---------------------------------------------------------------------------------------------
// Function signatures

TEST(MalliSignature, CatNamesParamsArgN) {
  auto s = msig("[:=> [:cat :string :int] [:map [:result :boolean]]]");
  ASSERT_EQ(s.params().size(), 2u);
  EXPECT_EQ(s.params()[0], MapEntry("arg0", Schema::string()));
  EXPECT_EQ(s.params()[1], MapEntry("arg1", Schema::integer()));
  EXPECT_EQ(s.output(), Schema::map({MapEntry{"result", Schema::boolean()}}));
  EXPECT_EQ(s.render(), "(arg0 :string, arg1 :int) -> {result :bool}");
  EXPECT_EQ(s.to_malli(), "[:=> [:cat :string :int] [:map [:result :boolean]]]");
}

TEST(MalliSignature, SingleAndZeroParams) {
  auto one = msig("[:=> [:cat :string] :int]");
  ASSERT_EQ(one.params().size(), 1u);
  EXPECT_EQ(one.params()[0].name, "arg0");
  EXPECT_EQ(one.output(), Schema::integer());
  auto zero = msig("[:=> [:cat] [:map [:timestamp :string]]]");
  EXPECT_TRUE(zero.params().empty());
  EXPECT_EQ(zero.render(), "() -> {timestamp :string}");
  EXPECT_EQ(msig("[:=> [:catn] :int]"), msig("[:=> [:cat] :int]"));
}

TEST(MalliSignature, MaybeParamIsOptional) {
  auto s = msig("[:=> [:cat [:maybe :int]] :nil]");
  EXPECT_TRUE(s.params()[0].optional);
  EXPECT_EQ(s.render(), "(arg0 :int?) -> :nil");
}

TEST(MalliSignature, CatnKeepsNames) {
  auto s = msig("[:=> [:catn [:query :string] [:limit :int]] [:vector :int]]");
  ASSERT_EQ(s.params().size(), 2u);
  EXPECT_EQ(s.params()[0], MapEntry("query", Schema::string()));
  EXPECT_EQ(s.params()[1], MapEntry("limit", Schema::integer()));
  EXPECT_EQ(s, *Signature::parse("(query :string, limit :int) -> [:int]"));
  EXPECT_EQ(s.render(), "(query :string, limit :int) -> [:int]");
  // Canonical printing drops the names, as the spec does.
  EXPECT_EQ(s.to_malli(), "[:=> [:cat :string :int] [:vector :int]]");
}

TEST(MalliSignature, CatnWithOptionsPrintsAsCatn) {
  auto s = msig("[:=> [:catn [:q :string] [:limit {:optional true :default 10} [:maybe :int]]] :any]");
  ASSERT_EQ(s.params().size(), 2u);
  EXPECT_TRUE(s.params()[1].optional);
  EXPECT_EQ(*s.params()[1].default_value, 10);
  EXPECT_EQ(s.to_malli(), "[:=> [:catn [:q :string] [:limit {:optional true :default 10} [:maybe :int]]] :any]");
  EXPECT_EQ(msig(s.to_malli()), s);
}

TEST(MalliSignature, BareSchemaMeansNoInputs) {
  auto s = msig("[:map [:count :int]]");
  EXPECT_TRUE(s.params().empty());
  EXPECT_EQ(s, *Signature::parse("{count :int}"));
  EXPECT_EQ(s.to_malli(), "[:=> [:cat] [:map [:count :int]]]");
  EXPECT_EQ(msig(":any"), Signature());
}

TEST(MalliSignature, SpecExamples) {
  EXPECT_EQ(malli_canon("[:=> [:cat :string] [:map [:count :int] [:items [:vector [:map [:id :int]]]]]]"),
            "[:=> [:cat :string] [:map [:count :int] [:items [:vector [:map [:id :int]]]]]]");
  EXPECT_EQ(msig("[:=> [:cat :string] [:map [:status [:enum \"pending\" \"active\" \"closed\"]] "
                 "[:score [:and :int [:> 0] [:< 100]]]]]")
                .render(),
            "(arg0 :string) -> {status :enum[\"pending\" \"active\" \"closed\"], score [:and :int [:> 0] [:< 100]]}");
  EXPECT_EQ(
      msig("[:=> [:cat :string] [:map [:priority [:enum \"low\" \"medium\" \"high\" \"critical\"]] "
           "[:confidence [:and :double [:>= 0.0] [:<= 1.0]]]]]")
          .render(),
      "(arg0 :string) -> {priority :enum[\"low\" \"medium\" \"high\" \"critical\"], confidence :float[0.0..1.0]}");
  EXPECT_EQ(msig("[:=> [:cat :string] [:or :int :nil]]").render(), "(arg0 :string) -> :int|:nil");
  EXPECT_EQ(msig("[:=> [:cat] [:map [:page [:and :int [:> 0]]]]]").render(), "() -> {page :int[>0]}");
}

TEST(MalliSignature, MultiLineText) {
  auto s = msig("[:=>\n  [:cat :int :int]\n  [:map [:items [:vector [:map [:id :int] [:name :string]]]]]]");
  EXPECT_EQ(s.render(), "(arg0 :int, arg1 :int) -> {items [{id :int, name :string}]}");
}

TEST(MalliSignature, CommentsAndCommasAreWhitespace) {
  auto s = msig("; a tool\n[:=> [:cat :int, :string] ; params\n :boolean]");
  EXPECT_EQ(s.to_malli(), "[:=> [:cat :int :string] :boolean]");
}

TEST(MalliSignature, Errors) {
  EXPECT_EQ(malli_error("[:=> [:cat :int] :int :x]"),
            "column 1: [:=> [:cat ...] R] takes a parameter list and a result schema");
  EXPECT_EQ(malli_error("[:=> [:cat :int]]"),
            "column 1: [:=> [:cat ...] R] takes a parameter list and a result schema");
  EXPECT_EQ(malli_error("[:=> :int :int]"),
            "column 6: expected [:cat T ...] or [:catn [name T] ...], got keyword :int");
  EXPECT_EQ(malli_error("[:=> [:catn [:a :int] [:a :string]] :int]"), "column 23: duplicate parameter name 'a'");
  EXPECT_EQ(malli_error("[:cat :int]"), "column 2: [:cat ...] is only allowed at the top of a signature");
  EXPECT_EQ(malli_error("[:vector [:=> [:cat] :int]]"),
            "column 11: [:=> ...] is only allowed at the top of a signature");
  EXPECT_EQ(malli_error("[:=> [:catn :int] :int]"),
            "column 13: expected a parameter [name T] or [name {options} T], got keyword :int");
  EXPECT_THAT(malli_error("[:=> [:cat :integer] :int]"), StartsWith("column 12: unknown type :integer; "));
  // parse_malli_type does not take signatures.
  auto r = ptc::parse_malli_type("[:=> [:cat] :int]");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().to_string(), "column 2: [:=> ...] is only allowed at the top of a signature");
}

// ---------------------------------------------------------------------------------------------
// Unknown types and operators, and other malformed text

TEST(MalliErrors, UnknownTypesListValidOnes) {
  auto e = malli_error(":integer");
  EXPECT_THAT(e, StartsWith("column 1: unknown type :integer; valid schemas are "));
  EXPECT_THAT(e, HasSubstr(kValidMalli));
  EXPECT_THAT(e, HasSubstr("[:map-of K V]"));
  auto e2 = malli_error("[:map [:a :list]]");
  EXPECT_THAT(e2, StartsWith("column 11: unknown type :list; valid schemas are "));
  auto e3 = malli_error("[:foo :int]");
  EXPECT_THAT(e3, StartsWith("column 2: unknown schema operator :foo; valid schemas are "));
  EXPECT_THAT(e3, HasSubstr(kValidMalli));
  EXPECT_THAT(e3, HasSubstr("[:re \"pattern\"]"));
  auto e4 = malli_error("[:ref :node]");
  EXPECT_THAT(e4, StartsWith("column 2: unknown schema operator :ref; "));
}

TEST(MalliErrors, NonSchemaValues) {
  EXPECT_THAT(malli_error("42"),
              StartsWith("column 1: expected a schema (a type keyword or a vector form), got number 42; "));
  EXPECT_THAT(malli_error("\"abc\""),
              StartsWith("column 1: expected a schema (a type keyword or a vector form), got string \"abc\"; "));
  EXPECT_THAT(malli_error("[:vector {:a 1}]"), StartsWith("column 10: schema properties are not supported"));
  EXPECT_EQ(malli_error("[]"), "column 1: empty schema form []; expected [:op ...]");
  EXPECT_EQ(malli_error("[\"vector\" :int]"), "column 2: expected a schema operator keyword, got string \"vector\"");
}

TEST(MalliErrors, MultiLineErrorsNameTheLine) {
  auto e = malli_error("[:map\n  [:a :int]\n  [:b :intx]]");
  EXPECT_THAT(e, StartsWith("line 3, column 7: unknown type :intx; "));
  auto r = Signature::from_malli("[:map\n  [:a :int]\n  [:b :intx]]");
  EXPECT_EQ(r.error().line, 3u);
  EXPECT_EQ(r.error().column, 7u);
}

class MalliErrorColumn : public ::testing::TestWithParam<Row> {};

TEST_P(MalliErrorColumn, ExactMessage) {
  EXPECT_EQ(malli_error(GetParam().shorthand), GetParam().malli) << "input: " << GetParam().shorthand;
}

INSTANTIATE_TEST_SUITE_P(
    Malformed, MalliErrorColumn,
    ::testing::Values(
        Row{"", "column 1: empty input, expected a schema"},
        Row{"  ; only a comment", "column 19: empty input, expected a schema"},
        Row{"[:enum \"a", "column 8: unterminated string"}, Row{"[:enum \"a\\q\"]", "column 10: unknown escape '\\q'"},
        Row{"[:vector]", "column 1: [:vector T] takes exactly one schema, got 0"},
        Row{"[:vector :int :string]", "column 1: [:vector T] takes exactly one schema, got 2"},
        Row{"[:map [:a]]", "column 7: expected a map entry [name T] or [name {options} T], got a vector"},
        Row{"[:map [:a :int]", "column 16: unexpected end of input, expected ']'"},
        Row{"[:map [:a :int]] x", "column 18: unexpected text after the schema"},
        Row{"[:map [:a :int]]]", "column 17: unexpected text after the schema"},
        Row{"[:map [:a :int})", "column 15: unexpected '}'"},
        Row{"[:map-of :string]", "column 1: [:map-of K V] takes exactly two schemas, got 1"},
        Row{"[:vector :]", "column 10: expected a keyword name after ':'"},
        Row{"[:and :int [:> 99999999999999999999]]",
            "column 16: integer 99999999999999999999 is out of range (-9223372036854775808..9223372036854775807)"},
        Row{"[:and :double [:> 1e400]]", "column 19: malformed number '1e400'"},
        Row{"[:enum \"\\ud800\"]", "column 9: unpaired UTF-16 surrogate in \\u escape"},
        Row{"[:enum \"\\u12\"]", "column 9: \\u must be followed by four hex digits"},
        Row{"[:map [:a {:optional true} :int] [:a :int]]", "column 34: duplicate field name 'a'"}));

// ---------------------------------------------------------------------------------------------
// Bad input

TEST(MalliBadInput, DeeplyNestedVectorsAreAnError) {
  std::string s;
  for (int i = 0; i < 100000; ++i) s += "[:vector ";
  s += ":int";
  s += std::string(100000, ']');
  auto r = Signature::from_malli(s);
  ASSERT_FALSE(r.ok());
  EXPECT_THAT(r.error().message, HasSubstr("nesting"));
  EXPECT_GT(r.error().column, 0u);
}

TEST(MalliBadInput, DeeplyNestedBracketsAreAnError) {
  std::string s(100000, '[');
  auto r = Signature::from_malli(s);
  ASSERT_FALSE(r.ok());
  EXPECT_THAT(r.error().message, HasSubstr("nesting"));
  auto t = ptc::parse_malli_type(s + std::string(100000, ']'));
  ASSERT_FALSE(t.ok());
  EXPECT_THAT(t.error().message, HasSubstr("nesting"));
}

TEST(MalliBadInput, DeeplyNestedBracesAreAnError) {
  std::string s(100000, '{');
  auto r = Signature::from_malli(s);
  ASSERT_FALSE(r.ok());
  EXPECT_THAT(r.error().message, HasSubstr("nesting"));
  std::string d = "[:map [:a {:default ";
  for (int i = 0; i < 100000; ++i) d += "{:a ";
  auto r2 = Signature::from_malli(d);
  ASSERT_FALSE(r2.ok());
  EXPECT_THAT(r2.error().message, HasSubstr("nesting"));
}

TEST(MalliBadInput, DeeplyNestedMapsInsideMapsAreAnError) {
  std::string s;
  for (int i = 0; i < 100000; ++i) s += "[:map [:a ";
  s += ":int";
  for (int i = 0; i < 100000; ++i) s += "]]";
  auto r = Signature::from_malli(s);
  ASSERT_FALSE(r.ok());
  EXPECT_THAT(r.error().message, HasSubstr("nesting"));
}

TEST(MalliBadInput, DepthLimitIs256SchemaLevels) {
  // The same limit as shorthand, counted in schema nodes: 255 vectors around :int are 256 levels.
  auto nest = [](int n) {
    std::string s;
    for (int i = 0; i < n; ++i) s += "[:vector ";
    return s + ":int" + std::string(n, ']');
  };
  EXPECT_TRUE(ptc::parse_malli_type(nest(255)).ok());
  EXPECT_EQ(ptc::parse_malli_type(nest(256)).error().to_string(), "column 1: types nest deeper than 256 levels");
  // Raw EDN nesting is guarded separately (2 * 256 + 8 levels), before any schema is built.
  EXPECT_EQ(ptc::parse_malli_type(nest(521)).error().to_string(), "column 4682: nesting deeper than 520 levels");
  // Maps spend two EDN levels per schema level; 255 of them still read.
  std::string maps;
  for (int i = 0; i < 255; ++i) maps += "[:map [:a ";
  maps += ":int" + std::string(2 * 255, ']');
  EXPECT_TRUE(ptc::Signature::from_malli("[:=> [:catn [:p " + maps + "]] :int]").ok());
}

TEST(MalliBadInput, ModerateNestingParses) {
  std::string s;
  for (int i = 0; i < 100; ++i) s += "[:vector ";
  s += ":int";
  s += std::string(100, ']');
  auto r = ptc::parse_malli_type(s);
  ASSERT_TRUE(r.ok()) << r.error().to_string();
  EXPECT_EQ(ptc::to_malli(*r), s);
}

TEST(MalliBadInput, HugeEnumString) {
  std::string big(10 * 1024 * 1024, 'x');
  auto r = ptc::parse_malli_type("[:enum \"" + big + "\" \"y\"]");
  ASSERT_TRUE(r.ok()) << r.error().message.substr(0, 200);
  ASSERT_EQ(r->values().size(), 2u);
  EXPECT_EQ(r->values()[0].get_ref<const std::string&>().size(), big.size());
  EXPECT_EQ(ptc::to_malli(*r).size(), big.size() + 14);
}

TEST(MalliBadInput, HugeDefaultThatMatches) {
  std::string big(10 * 1024 * 1024, 'y');
  auto r = ptc::parse_malli_type("[:map [:a {:default \"" + big + "\"} :string]]");
  ASSERT_TRUE(r.ok()) << r.error().message.substr(0, 200);
  EXPECT_EQ(r->entries()[0].default_value->get_ref<const std::string&>().size(), big.size());
}

TEST(MalliBadInput, HugeDefaultThatDoesNotMatchGivesAShortError) {
  std::string big(10 * 1024 * 1024, 'z');
  auto r = ptc::parse_malli_type("[:map [:a {:default \"" + big + "\"} :int]]");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().column, 11u);
  EXPECT_THAT(r.error().message, StartsWith("default value \"zzz"));
  EXPECT_LT(r.error().message.size(), 400u);
}

TEST(MalliBadInput, HugeUnknownTypeGivesAShortError) {
  std::string big(10 * 1024 * 1024, 'k');
  auto r = ptc::parse_malli_type("[:enum [\"" + big + "\"]]");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().column, 8u);
  EXPECT_LT(r.error().message.size(), 400u);
}

TEST(MalliBadInput, HugeUnterminatedString) {
  std::string big(10 * 1024 * 1024, 'q');
  auto r = ptc::parse_malli_type("[:enum \"" + big);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().to_string(), "column 8: unterminated string");
}

TEST(MalliBadInput, InvalidUtf8NamesTheColumn) {
  EXPECT_EQ(malli_error("[:enum \"caf\xc3\"]"), "column 12: invalid UTF-8");
  EXPECT_EQ(malli_error("[:map [:a :int]]\xff"), "column 17: invalid UTF-8");
  EXPECT_EQ(malli_error("[:enum \"\xed\xa0\x80\"]"), "column 9: invalid UTF-8");
  EXPECT_EQ(malli_error("[:enum \"\xf4\x90\x80\x80\"]"), "column 9: invalid UTF-8");  // > U+10FFFF
  EXPECT_EQ(malli_error("[:map\n [:a \x80 :int]]"), "line 2, column 6: invalid UTF-8");
  auto t = ptc::parse_malli_type("\xc3");
  ASSERT_FALSE(t.ok());
  EXPECT_EQ(t.error().to_string(), "column 1: invalid UTF-8");
}

TEST(MalliBadInput, ValidUtf8InStringsIsKept) {
  auto r = ptc::parse_malli_type("[:enum \"café\" \"日本\" \"\\u00e9\" \"\\ud83d\\ude00\"]");
  ASSERT_TRUE(r.ok()) << r.error().to_string();
  std::vector<nlohmann::json> expected{"café", "日本", "é", "😀"};
  EXPECT_EQ(r->values(), expected);
  EXPECT_EQ(ptc::to_malli(*r), "[:enum \"café\" \"日本\" \"é\" \"😀\"]");
}

TEST(MalliBadInput, ControlCharactersAreErrors) {
  EXPECT_EQ(malli_error(std::string("[:int\x01]")), "column 6: unexpected character '\\x01'");
  std::string nul = "[:vector :int]";
  nul += '\0';
  auto r = Signature::from_malli(nul);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().column, 15u);
}

}  // namespace

namespace {

TEST(MalliReview, RefinementsMustFitTheirType) {
  EXPECT_EQ(ptc::parse_malli_type("[:and :string [:> 0]]").error().to_string(),
            "column 15: [:> n] applies to numbers, not :string");
  EXPECT_EQ(ptc::parse_malli_type("[:and :int [:re \"x\"]]").error().to_string(),
            "column 12: [:re ...] applies to strings, not :int");
  EXPECT_TRUE(ptc::parse_malli_type("[:and :any [:> 0]]").ok());
}

}  // namespace
