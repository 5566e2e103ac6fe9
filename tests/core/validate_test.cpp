// Validation (docs/validation.md, spec/type-coercion-matrix.md "Output Validation Rules",
// spec/signature-syntax.md "Validation Behavior"): messages, paths, modes, every schema kind.

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <ptc/coercion.hpp>
#include <ptc/error.hpp>
#include <ptc/json_input.hpp>
#include <ptc/limits.hpp>
#include <ptc/schema.hpp>
#include <ptc/signature.hpp>
#include <ptc/validate.hpp>

#include "parse_helpers.hpp"

namespace {

using json = nlohmann::json;
using ptc::Direction;
using ptc::Issue;
using ptc::Mode;
using ptc::Validation;
using ptc::ValidateOptions;
using testing::ElementsAre;
using testing::IsEmpty;

using ptc::test::type;
constexpr auto malli = ptc::test::malli_type;

Validation out(const ptc::Schema& s, const json& v, Mode mode = Mode::Enabled) {
  return ptc::validate_and_coerce(s, v, ValidateOptions{Direction::Output, mode});
}
Validation in(const ptc::Schema& s, const json& v, Mode mode = Mode::Enabled) {
  return ptc::validate_and_coerce(s, v, ValidateOptions{Direction::Input, mode});
}

// ---------------------------------------------------------------------------------------------------
// Output Validation table (type-coercion-matrix.md), one test per row.

TEST(OutputTable, ValueMatchesType) {
  auto sig = ptc::Signature::parse("() -> {count :int, items [:string]}").value();
  json v = json::parse(R"({"count":5,"items":["a","b"]})");
  auto r = out(sig.output(), v);
  EXPECT_TRUE(r.ok);
  EXPECT_THAT(r.errors, IsEmpty());
  EXPECT_THAT(r.warnings, IsEmpty());
  EXPECT_EQ(r.value, v);
}

TEST(OutputTable, WrongPrimitiveTypeErrorsWithPath) {
  auto r = out(type("{metadata {timestamp :string}}"), json::parse(R"({"metadata":{"timestamp":1703849400}})"));
  EXPECT_FALSE(r.ok);
  EXPECT_THAT(r.errors, ElementsAre(Issue{"metadata.timestamp", "expected string, got int 1703849400"}));
}

TEST(OutputTable, MissingRequiredField) {
  auto r = out(type("{id :int, name :string}"), json{{"id", 1}});
  EXPECT_FALSE(r.ok);
  EXPECT_THAT(r.errors, ElementsAre(Issue{"name", "missing required field"}));
}

TEST(OutputTable, ExtraFieldAllowedInEnabled) {
  auto r = out(type("{id :int}"), json{{"id", 1}, {"extra", "x"}});
  EXPECT_TRUE(r.ok);
  EXPECT_THAT(r.errors, IsEmpty());
  EXPECT_THAT(r.warnings, IsEmpty());
  EXPECT_EQ(r.value, (json{{"id", 1}, {"extra", "x"}})) << "extra fields are kept";
}

TEST(OutputTable, ExtraFieldRejectedInStrict) {
  auto r = out(type("{id :int}"), json{{"id", 1}, {"extra", "x"}}, Mode::Strict);
  EXPECT_FALSE(r.ok);
  EXPECT_THAT(r.errors, ElementsAre(Issue{"extra", "unexpected field"}));
}

TEST(OutputTable, NilForRequiredField) {
  auto r = out(type("{id :int, amount :float}"), json{{"id", nullptr}, {"amount", nullptr}});
  EXPECT_FALSE(r.ok);
  EXPECT_THAT(r.errors, ElementsAre(Issue{"id", "expected int, got nil"}, Issue{"amount", "expected float, got nil"}));
}

TEST(OutputTable, NilForOptionalField) {
  auto r = out(type("{id :int, email :string?}"), json{{"id", 1}, {"email", nullptr}});
  EXPECT_TRUE(r.ok);
  EXPECT_THAT(r.errors, IsEmpty());
  EXPECT_EQ(r.value, (json{{"id", 1}, {"email", nullptr}}));
}

// ---------------------------------------------------------------------------------------------------
// Messages.

TEST(Messages, Primitives) {
  EXPECT_THAT(out(type(":int"), "abc").errors, ElementsAre(Issue{"(root)", "expected int, got string \"abc\""}));
  EXPECT_THAT(out(type(":float"), nullptr).errors, ElementsAre(Issue{"(root)", "expected float, got nil"}));
  EXPECT_THAT(out(type(":string"), 1.5).errors, ElementsAre(Issue{"(root)", "expected string, got float 1.5"}));
  EXPECT_THAT(out(type(":bool"), "true").errors, ElementsAre(Issue{"(root)", "expected bool, got string \"true\""}));
  EXPECT_THAT(out(type(":keyword"), 3).errors, ElementsAre(Issue{"(root)", "expected keyword, got int 3"}));
  EXPECT_THAT(out(type(":nil"), 0).errors, ElementsAre(Issue{"(root)", "expected nil, got int 0"}));
  EXPECT_THAT(out(type(":int"), json::array()).errors, ElementsAre(Issue{"(root)", "expected int, got list"}));
  EXPECT_THAT(out(type(":int"), json::object()).errors, ElementsAre(Issue{"(root)", "expected int, got map"}));
}

TEST(Messages, ListGotMap) {
  EXPECT_THAT(out(type("[:int]"), json::object()).errors, ElementsAre(Issue{"(root)", "expected list, got map"}));
}

TEST(Messages, MapGotList) {
  EXPECT_THAT(out(type("{id :int}"), json::array()).errors, ElementsAre(Issue{"(root)", "expected map, got list"}));
}

TEST(Messages, WholeFloatForInt) {
  EXPECT_THAT(out(type(":int"), 42.0).errors, ElementsAre(Issue{"(root)", "expected int, got float 42.0"}));
  EXPECT_THAT(out(type(":int"), 42.5).errors, ElementsAre(Issue{"(root)", "expected int, got float 42.5"}));
}

TEST(Messages, AnyAcceptsEverything) {
  for (const json& v : {json(nullptr), json(1), json("s"), json::array({1}), json::object({{"a", 1}}), json(NAN)}) {
    auto r = out(type(":any"), v);
    EXPECT_TRUE(r.ok) << v.dump();
    EXPECT_THAT(r.errors, IsEmpty());
  }
}

TEST(Messages, NilAcceptsNull) { EXPECT_TRUE(out(type(":nil"), nullptr).ok); }

// ---------------------------------------------------------------------------------------------------
// Paths.

TEST(Paths, RootIsNamed) {
  EXPECT_THAT(out(type(":string"), 1).errors, ElementsAre(Issue{"(root)", "expected string, got int 1"}));
}

TEST(Paths, NestedListAndMaps) {
  auto s = type("{results [{customer {id :int}, amount :float}]}");
  json v = json::parse(R"({"results":[{"customer":{"id":"abc"},"amount":1.0},
                                        {"customer":{"id":2},"amount":2.0},
                                        {"customer":{"id":3},"amount":null}]})");
  auto r = out(s, v);
  EXPECT_FALSE(r.ok);
  EXPECT_THAT(r.errors, ElementsAre(Issue{"results[0].customer.id", "expected int, got string \"abc\""},
                                    Issue{"results[2].amount", "expected float, got nil"}));
}

TEST(Paths, NonIdentifierKeysAreQuoted) {
  auto s = malli(R"([:map ["a b" :int] ["1x" :int] ["a.b" :int]])");
  auto r = out(s, json{{"a b", "x"}, {"1x", "y"}, {"a.b", "z"}});
  EXPECT_THAT(r.errors, ElementsAre(Issue{"[\"a b\"]", "expected int, got string \"x\""},
                                    Issue{"[\"1x\"]", "expected int, got string \"y\""},
                                    Issue{"[\"a.b\"]", "expected int, got string \"z\""}));
}

TEST(Paths, EmptyKeyIsQuoted) {
  auto r = out(type("[:map-of :string :int]"), json{{"", "z"}});
  EXPECT_THAT(r.errors, ElementsAre(Issue{"[\"\"]", "expected int, got string \"z\""}));
}

TEST(Paths, NonIdentifierKeyInsideNestedMap) {
  auto s = malli(R"([:map [:outer [:map-of :string :int]]])");
  auto r = out(s, json::parse(R"({"outer":{"a b":"x","ok-key":"y"}})"));
  EXPECT_THAT(r.errors, ElementsAre(Issue{"outer[\"a b\"]", "expected int, got string \"x\""},
                                    Issue{"outer.ok-key", "expected int, got string \"y\""}));
}

TEST(Paths, ListIndexAtRoot) {
  auto r = out(type("[:int]"), json::array({1, "x", 3, nullptr}));
  EXPECT_THAT(r.errors,
              ElementsAre(Issue{"[1]", "expected int, got string \"x\""}, Issue{"[3]", "expected int, got nil"}));
}

TEST(Paths, NestedLists) {
  auto r = out(type("{m [[:int]]}"), json::parse(R"({"m":[[1],[2,"x"]]})"));
  EXPECT_THAT(r.errors, ElementsAre(Issue{"m[1][1]", "expected int, got string \"x\""}));
}

// ---------------------------------------------------------------------------------------------------
// Every error, in traversal order.

TEST(Order, AllErrorsReportedInDeclarationOrderThenUnexpected) {
  auto s = type("{z :int, a :string, m :bool}");
  // JSON object keys iterate alphabetically; errors still follow declaration order.
  auto r = out(s, json{{"a", 1}, {"z", "x"}, {"q", 1}, {"b", 2}}, Mode::Strict);
  EXPECT_FALSE(r.ok);
  EXPECT_THAT(r.errors, ElementsAre(Issue{"z", "expected int, got string \"x\""},
                                    Issue{"a", "expected string, got int 1"}, Issue{"m", "missing required field"},
                                    Issue{"b", "unexpected field"}, Issue{"q", "unexpected field"}));
}

TEST(Order, NestedErrorsDepthFirst) {
  auto s = type("{a {x :int, y :int}, b :int}");
  auto r = out(s, json::parse(R"({"a":{"x":"1","y":"2"},"b":"3"})"));
  EXPECT_THAT(r.errors, ElementsAre(Issue{"a.x", "expected int, got string \"1\""},
                                    Issue{"a.y", "expected int, got string \"2\""},
                                    Issue{"b", "expected int, got string \"3\""}));
}

// ---------------------------------------------------------------------------------------------------
// Modes x directions.

const ptc::Schema& mode_schema() {
  static const ptc::Schema s = type("{id :int, name :string}");
  return s;
}
const json& mode_value() {  // one coercible field, one error, one extra field
  static const json v = json::parse(R"({"id":"42","name":7,"extra":true})");
  return v;
}

TEST(Modes, EnabledInput) {
  auto r = in(mode_schema(), mode_value());
  EXPECT_FALSE(r.ok);
  EXPECT_THAT(r.errors, ElementsAre(Issue{"name", "expected string, got int 7"}));
  EXPECT_THAT(r.warnings, ElementsAre(Issue{"id", "coerced string \"42\" to int"}));
  EXPECT_EQ(r.value, json::parse(R"({"id":42,"name":7,"extra":true})"));
}

TEST(Modes, EnabledOutput) {
  auto r = out(mode_schema(), mode_value());
  EXPECT_FALSE(r.ok);
  EXPECT_THAT(r.errors,
              ElementsAre(Issue{"id", "expected int, got string \"42\""}, Issue{"name", "expected string, got int 7"}));
  EXPECT_THAT(r.warnings, IsEmpty());
  EXPECT_EQ(r.value, mode_value());
}

TEST(Modes, WarnOnlyInput) {
  auto r = in(mode_schema(), mode_value(), Mode::WarnOnly);
  EXPECT_TRUE(r.ok);
  EXPECT_THAT(r.errors, IsEmpty());
  EXPECT_THAT(r.warnings,
              ElementsAre(Issue{"id", "coerced string \"42\" to int"}, Issue{"name", "expected string, got int 7"}));
  EXPECT_EQ(r.value, json::parse(R"({"id":42,"name":7,"extra":true})"));
}

// A fixed-length list (std::array) reports its length before its items' issues, as a tuple does.
TEST(FixedLength, WrongLengthComesFirst) {
  const auto s = malli("[:vector {:min 3 :max 3} :int]");
  EXPECT_TRUE(in(s, json::parse("[1, 2, 3]")).ok);
  auto r = in(s, json::parse(R"([1, "x"])"));
  EXPECT_THAT(r.errors, ElementsAre(Issue{"(root)", "expected list of 3 items, got 2"},
                                    Issue{"[1]", "expected int, got string \"x\""}));
}

// Models often send a list or map parameter as a string holding its JSON: read it, and say so.
TEST(JsonText, AListOrMapSentAsItsJsonTextIsReadWithAWarning) {
  const auto s = type("{tags [:string], where {city :string}, pair [:tuple :int :int], counts [:map-of :string :int]}");
  auto r = in(s, json::parse(R"({"tags": "[\"a\", \"b\"]", "where": " {\"city\": 7}", "pair": "[1, \"2\"]",
                               "counts": "{}"})"));
  EXPECT_FALSE(r.ok);
  EXPECT_THAT(r.errors, ElementsAre(Issue{"where.city", "expected string, got int 7"}));
  EXPECT_THAT(r.warnings, ElementsAre(Issue{"tags", R"(coerced string "[\"a\", \"b\"]" to list)"},
                                      Issue{"where", R"(coerced string " {\"city\": 7}" to map)"},
                                      Issue{"pair", R"(coerced string "[1, \"2\"]" to list)"},
                                      Issue{"pair[1]", R"(coerced string "2" to int)"},
                                      Issue{"counts", R"(coerced string "{}" to map)"}));
  EXPECT_EQ(r.value, json::parse(R"({"tags": ["a", "b"], "where": {"city": 7}, "pair": [1, 2], "counts": {}})"));
}

TEST(JsonText, OnlyTextOfTheExpectedShapeAndNeverForStringsOrInStrictMode) {
  const auto s = malli(
      "[:map [:tags {:optional true} [:vector :string]] [:note {:optional true} :string] "
      "[:pick {:optional true} [:or :string [:vector :int]]]]");
  // Not JSON, the other shape, a repeated key: the usual error.
  for (const char* text : {"[1, 2", "{\"a\": 1}", "tags", "[{\"a\": 1, \"a\": 2}]"}) {
    const json args = {{"tags", text}};
    EXPECT_THAT(in(s, args).errors, ElementsAre(Issue{"tags", ptc::coercion::expected("list", text)})) << text;
  }
  // A :string keeps its text, and a union prefers the alternative the value matches exactly.
  auto kept = in(s, json::parse(R"({"note": "[1]", "pick": "[1]"})"));
  EXPECT_TRUE(kept.ok);
  EXPECT_THAT(kept.warnings, IsEmpty());
  EXPECT_EQ(kept.value["note"], "[1]");
  EXPECT_EQ(kept.value["pick"], "[1]");
  auto strict = in(s, json::parse(R"({"tags": "[\"a\"]"})"), Mode::Strict);
  EXPECT_THAT(strict.errors, ElementsAre(Issue{"tags", R"(expected list, got string "[\"a\"]")"}));
  // The arguments object itself is never read from text, nor an output.
  EXPECT_FALSE(in(s, json("{}")).ok);
  EXPECT_FALSE(out(s, json::parse(R"({"tags": "[\"a\"]"})")).ok);
}

TEST(JsonText, TheTextNestsNoDeeperThanTheDocumentMay) {
  // The arguments object is one level above the text: the text may nest kMaxJsonDepth - 1 levels.
  const auto s = type("{outer {inner :any}}");
  const std::size_t room = ptc::kMaxJsonDepth - 1;
  const auto nested = [](std::size_t levels) {
    return "{\"inner\": " + std::string(levels - 1, '[') + std::string(levels - 1, ']') + "}";
  };
  EXPECT_TRUE(in(s, json{{"outer", nested(room)}}).ok);
  auto r = in(s, json{{"outer", nested(room + 1)}});
  EXPECT_THAT(r.errors, ElementsAre(Issue{"outer", ptc::coercion::expected("map", nested(room + 1))}));
}

TEST(Modes, WarnOnlyOutput) {
  auto r = out(mode_schema(), mode_value(), Mode::WarnOnly);
  EXPECT_TRUE(r.ok);
  EXPECT_THAT(r.errors, IsEmpty());
  EXPECT_THAT(r.warnings,
              ElementsAre(Issue{"id", "expected int, got string \"42\""}, Issue{"name", "expected string, got int 7"}));
  EXPECT_EQ(r.value, mode_value());
}

TEST(Modes, StrictInput) {
  auto r = in(mode_schema(), mode_value(), Mode::Strict);
  EXPECT_FALSE(r.ok);
  EXPECT_THAT(r.errors, ElementsAre(Issue{"id", "expected int, got string \"42\""},
                                    Issue{"name", "expected string, got int 7"}, Issue{"extra", "unexpected field"}));
  EXPECT_THAT(r.warnings, IsEmpty());
}

TEST(Modes, StrictOutput) {
  auto r = out(mode_schema(), mode_value(), Mode::Strict);
  EXPECT_FALSE(r.ok);
  EXPECT_THAT(r.errors, ElementsAre(Issue{"id", "expected int, got string \"42\""},
                                    Issue{"name", "expected string, got int 7"}, Issue{"extra", "unexpected field"}));
  EXPECT_THAT(r.warnings, IsEmpty());
}

TEST(Modes, DisabledInput) {
  auto r = in(mode_schema(), mode_value(), Mode::Disabled);
  EXPECT_TRUE(r.ok);
  EXPECT_THAT(r.errors, IsEmpty());
  EXPECT_THAT(r.warnings, IsEmpty());
  EXPECT_EQ(r.value, mode_value()) << "untouched: no coercion";
}

TEST(Modes, DisabledOutput) {
  auto r = out(mode_schema(), mode_value(), Mode::Disabled);
  EXPECT_TRUE(r.ok);
  EXPECT_THAT(r.errors, IsEmpty());
  EXPECT_THAT(r.warnings, IsEmpty());
  EXPECT_EQ(r.value, mode_value());
}

TEST(Modes, DisabledPassesAnythingThrough) {
  json v = json::array({"not", "a", "map", json(NAN)});
  auto r = in(type("{id :int}"), v, Mode::Disabled);
  EXPECT_TRUE(r.ok);
  ASSERT_TRUE(r.value.is_array());
  EXPECT_EQ(r.value.size(), 4u);
  EXPECT_EQ(r.value[0], json("not"));
  EXPECT_TRUE(std::isnan(r.value[3].get<double>()));
  auto plain = ptc::validate(type("{id :int}"), v, ValidateOptions{Direction::Input, Mode::Disabled});
  EXPECT_TRUE(plain.ok);
  EXPECT_THAT(plain.errors, IsEmpty());
}

TEST(Modes, DefaultOptionsAreOutputEnabled) {
  ValidateOptions o;
  EXPECT_EQ(o.direction, Direction::Output);
  EXPECT_EQ(o.mode, Mode::Enabled);
  auto r = ptc::validate(type("{id :int}"), json{{"id", "1"}, {"x", 1}});
  EXPECT_THAT(r.errors, ElementsAre(Issue{"id", "expected int, got string \"1\""}));
}

TEST(Modes, ValidateAndCoerceCoercesByDefault) {
  auto r = ptc::validate_and_coerce(type("{id :int}"), json{{"id", "1"}, {"x", 1}});
  EXPECT_TRUE(r.ok);
  EXPECT_THAT(r.warnings, ElementsAre(Issue{"id", "coerced string \"1\" to int"}));
  EXPECT_EQ(r.value, (json{{"id", 1}, {"x", 1}}));
  // The output direction is still one option away, strict as before.
  auto out = ptc::validate_and_coerce(type("{id :int}"), json{{"id", "1"}}, {.direction = Direction::Output});
  EXPECT_FALSE(out.ok);
  EXPECT_EQ(out.value, (json{{"id", "1"}}));
}

TEST(Modes, WarnOnlyTurnsEveryKindOfErrorIntoAWarning) {
  auto s = type("{id :int, tags [:string], kind :enum[a b]}");
  json v = json::parse(R"({"tags":["x",1],"kind":"c"})");
  auto r = out(s, v, Mode::WarnOnly);
  EXPECT_TRUE(r.ok);
  EXPECT_THAT(r.errors, IsEmpty());
  EXPECT_THAT(r.warnings,
              ElementsAre(Issue{"id", "missing required field"}, Issue{"tags[1]", "expected string, got int 1"},
                          Issue{"kind", "expected one of [\"a\", \"b\"], got \"c\""}));
}

TEST(Modes, WarnOnlySetDuplicateBecomesWarning) {
  auto r = out(malli("[:set :int]"), json::array({1, 1}), Mode::WarnOnly);
  EXPECT_TRUE(r.ok);
  EXPECT_THAT(r.errors, IsEmpty());
  EXPECT_THAT(r.warnings, ElementsAre(Issue{"[1]", "duplicate item (same as [0])"}));
}

// ---------------------------------------------------------------------------------------------------
// Numbers a type cannot hold (docs/validation.md): in the input direction an error in every mode, so
// that no handler reads `args["n"].get<std::int64_t>()` on 1e300 or 2.9 (undefined behaviour, or a
// truncation); everything else keeps warn_only's and disabled's leniency.

struct BadNumberRow {
  const char* schema;  ///< shorthand
  json value;
  Issue issue;
  bool refused;  ///< the type cannot hold the number: an error in every mode
};

const std::vector<BadNumberRow>& bad_number_rows() {
  const std::string range = "expected int in range -9223372036854775808..9223372036854775807, got ";
  static const std::vector<BadNumberRow> rows{
      {"{n :int}", json{{"n", 1e300}}, {"n", range + "float 1e+300"}, true},
      {"{n :int}", json{{"n", -1e19}}, {"n", range + "float -1e+19"}, true},
      {"{n :int}", json{{"n", 18446744073709551615ull}}, {"n", range + "int 18446744073709551615"}, true},
      {"{n :int}", json{{"n", "99999999999999999999"}}, {"n", range + "string \"99999999999999999999\""}, true},
      {"{n :int}", json{{"n", 2.9}}, {"n", "expected int, got float 2.9"}, true},
      {"{n :int}", json{{"n", -0.5}}, {"n", "expected int, got float -0.5"}, true},
      {"{n :int}", json{{"n", NAN}}, {"n", "expected int, got float NaN"}, true},
      {"{n :int}", json{{"n", -INFINITY}}, {"n", "expected int, got float -Infinity"}, true},
      {"{n :float}", json{{"n", NAN}}, {"n", "expected finite float, got float NaN"}, true},
      {"{n :float}", json{{"n", INFINITY}}, {"n", "expected finite float, got float Infinity"}, true},
      {"{n :int?}", json{{"n", 2.9}}, {"n", "expected int, got float 2.9"}, true},
      {"{n [:int]}", json{{"n", {1, 1e300}}}, {"n[1]", range + "float 1e+300"}, true},
      {"{n [:int]}", json{{"n", "[1, 2.5]"}}, {"n[1]", "expected int, got float 2.5"}, true},
      {"{n {m :int}}", json{{"n", {{"m", 2.9}}}}, {"n.m", "expected int, got float 2.9"}, true},
      {"{n [:map-of :string :int]}", json{{"n", {{"k", 1e19}}}}, {"n.k", range + "float 1e+19"}, true},
      {"{n [:tuple :string :int]}", json{{"n", {"a", 0.5}}}, {"n[1]", "expected int, got float 0.5"}, true},
      {"{n :int|:string}", json{{"n", 2.9}}, {"n", "expected int or string, got float 2.9"}, true},
      {"{n :int|[:int]}", json{{"n", {1e300}}}, {"n[0]", range + "float 1e+300"}, true},
      {"{n :int[0..10]}", json{{"n", 10.5}}, {"n", "expected int, got float 10.5"}, true},
      // What the types hold stays lenient: a refinement (an int64 holds 300), an integral float (an
      // int64 holds 42), a number where no number belongs.
      {"{n :int[0..10]}", json{{"n", 300}}, {"n", "expected value <= 10, got 300"}, false},
      {"{n :int}", json{{"n", 42.0}}, {"n", "expected int, got float 42.0"}, false},
      {"{n :bool}", json{{"n", 2.9}}, {"n", "expected bool, got float 2.9"}, false},
      {"{n :string}", json{{"n", 1e300}}, {"n", "expected string, got float 1e+300"}, false},
      {"{n :enum[a b]}",
       json{{"n", 18446744073709551615ull}},
       {"n", "expected one of [\"a\", \"b\"], got 18446744073709551615"},
       false},
      {"{n :string|:bool}", json{{"n", 2.9}}, {"n", "expected string or bool, got float 2.9"}, false},
  };
  return rows;
}

TEST(Modes, ANumberTheTypeCannotHoldIsAnErrorInEveryModeForInput) {
  for (const auto& row : bad_number_rows()) {
    for (Mode mode : {Mode::Enabled, Mode::WarnOnly, Mode::Strict, Mode::Disabled}) {
      SCOPED_TRACE(std::string(row.schema) + " given " + row.value.dump() + " in " + std::string(ptc::mode_name(mode)));
      const auto r = in(type(row.schema), row.value, mode);
      if (mode == Mode::Strict && row.value["n"].is_string()) {  // strict reads no text as a value
        EXPECT_FALSE(r.ok);
        continue;
      }
      if (row.refused || mode == Mode::Enabled || mode == Mode::Strict) {
        EXPECT_FALSE(r.ok);
        EXPECT_THAT(r.errors, ElementsAre(row.issue));
      } else {
        EXPECT_TRUE(r.ok);
        EXPECT_THAT(r.errors, IsEmpty());
      }
      if (mode == Mode::WarnOnly && !row.refused) {
        EXPECT_THAT(r.warnings, testing::Contains(row.issue));
      } else {
        EXPECT_THAT(r.warnings, testing::Not(testing::Contains(row.issue)));
      }
      if (mode == Mode::Disabled) {
        EXPECT_THAT(r.warnings, IsEmpty());
        EXPECT_EQ(r.value.dump(), row.value.dump()) << "disabled passes the value through untouched";
      }
      // validate() says the same without the value.
      const auto plain = ptc::validate(type(row.schema), row.value, ValidateOptions{Direction::Input, mode});
      EXPECT_EQ(plain.ok, r.ok);
      EXPECT_EQ(plain.errors, r.errors);
    }
  }
}

// Results are not a handler's input: warn_only and disabled keep their leniency for them.
TEST(Modes, RefusalsAreForInputOnly) {
  for (const auto& row : bad_number_rows()) {
    SCOPED_TRACE(std::string(row.schema) + " given " + row.value.dump());
    EXPECT_TRUE(out(type(row.schema), row.value, Mode::WarnOnly).ok);
    EXPECT_TRUE(out(type(row.schema), row.value, Mode::Disabled).ok);
  }
}

// A refusal beside ordinary issues: in warn_only the others stay warnings (coercions, unknown fields,
// errors), in disabled they are not reported, and the value is as each mode leaves it.
TEST(Modes, ARefusalBesideOrdinaryIssues) {
  const auto s = type("{id :int, name :string, tags [:string]?, limit :int?, ratio :float}");
  const json v = json::parse(R"({"id": "42", "name": 7, "limit": 1e300, "ratio": "0.5", "extra": true})");
  const Issue limit{"limit", "expected int in range -9223372036854775808..9223372036854775807, got float 1e+300"};
  auto warn = in(s, v, Mode::WarnOnly);
  EXPECT_FALSE(warn.ok);
  EXPECT_THAT(warn.errors, ElementsAre(limit));
  EXPECT_THAT(warn.warnings,
              ElementsAre(Issue{"id", "coerced string \"42\" to int"}, Issue{"name", "expected string, got int 7"},
                          Issue{"ratio", "coerced string \"0.5\" to float"}));
  EXPECT_EQ(warn.value["id"], json(42));
  auto disabled = in(s, v, Mode::Disabled);
  EXPECT_FALSE(disabled.ok);
  EXPECT_THAT(disabled.errors, ElementsAre(limit));
  EXPECT_THAT(disabled.warnings, IsEmpty());
  EXPECT_EQ(disabled.value, v);
  // Without the refused number both go on as before.
  json fine = v;
  fine["limit"] = 3;
  EXPECT_TRUE(in(s, fine, Mode::WarnOnly).ok);
  EXPECT_TRUE(in(s, fine, Mode::Disabled).ok);
  EXPECT_THAT(in(s, fine, Mode::Disabled).errors, IsEmpty());
}

TEST(Modes, Names) {
  EXPECT_EQ(ptc::mode_name(Mode::Enabled), "enabled");
  EXPECT_EQ(ptc::mode_name(Mode::WarnOnly), "warn_only");
  EXPECT_EQ(ptc::mode_name(Mode::Strict), "strict");
  EXPECT_EQ(ptc::mode_name(Mode::Disabled), "disabled");
  for (Mode m : {Mode::Enabled, Mode::WarnOnly, Mode::Strict, Mode::Disabled})
    EXPECT_EQ(ptc::mode_from_name(ptc::mode_name(m)), m);
  EXPECT_EQ(ptc::mode_from_name("Enabled"), std::nullopt);
  EXPECT_EQ(ptc::mode_from_name("warn-only"), std::nullopt);
  EXPECT_EQ(ptc::mode_from_name(""), std::nullopt);
}

// ---------------------------------------------------------------------------------------------------
// validate() vs validate_and_coerce().

TEST(ValidateVsCoerce, SameIssuesValueOnlyFromCoerce) {
  auto s = type("{id :int, name :string}");
  json v = json::parse(R"({"id":"42","name":1})");
  ValidateOptions o{Direction::Input, Mode::Enabled};
  auto a = ptc::validate(s, v, o);
  auto b = ptc::validate_and_coerce(s, v, o);
  EXPECT_EQ(a.ok, b.ok);
  EXPECT_EQ(a.errors, b.errors);
  EXPECT_EQ(a.warnings, b.warnings);
  EXPECT_TRUE(a.value.is_null());
  EXPECT_EQ(b.value, json::parse(R"({"id":42,"name":1})"));
}

TEST(ValidateVsCoerce, ValidValueNullAfterValidate) {
  auto r = ptc::validate(type("[:int]"), json::array({1, 2}));
  EXPECT_TRUE(r.ok);
  EXPECT_TRUE(r.value.is_null());
}

// ---------------------------------------------------------------------------------------------------
// Optional fields and defaults.

TEST(Optional, MissingOptionalFieldIsFine) {
  auto r = out(type("{id :int, email :string?}"), json{{"id", 1}});
  EXPECT_TRUE(r.ok);
  EXPECT_EQ(r.value, (json{{"id", 1}})) << "nothing is invented for a missing optional field";
}

TEST(Optional, OptionalPresentIsValidated) {
  auto r = out(type("{id :int, email :string?}"), json{{"id", 1}, {"email", 5}});
  EXPECT_THAT(r.errors, ElementsAre(Issue{"email", "expected string, got int 5"}));
}

TEST(Optional, MalliOptionalWithoutMaybeAcceptsNull) {
  auto s = malli("[:map [:email {:optional true} :string]]");
  EXPECT_TRUE(out(s, json::object()).ok);
  EXPECT_TRUE(out(s, json{{"email", nullptr}}).ok);
  EXPECT_THAT(out(s, json{{"email", 1}}).errors, ElementsAre(Issue{"email", "expected string, got int 1"}));
}

TEST(Defaults, FillsMissingField) {
  auto s = malli("[:map [:count {:default 0} :int]]");
  for (auto dir : {Direction::Input, Direction::Output}) {
    auto r = ptc::validate_and_coerce(s, json::object(), ValidateOptions{dir, Mode::Enabled});
    EXPECT_TRUE(r.ok);
    EXPECT_THAT(r.errors, IsEmpty());
    EXPECT_EQ(r.value, (json{{"count", 0}}));
  }
}

TEST(Defaults, FillsNullField) {
  auto s = malli("[:map [:count {:default 0} :int]]");
  auto r = in(s, json{{"count", nullptr}});
  EXPECT_TRUE(r.ok);
  EXPECT_EQ(r.value, (json{{"count", 0}}));
}

TEST(Defaults, GivenValueWins) {
  auto s = malli("[:map [:count {:default 0} :int]]");
  auto r = in(s, json{{"count", "5"}});
  EXPECT_TRUE(r.ok);
  EXPECT_EQ(r.value, (json{{"count", 5}}));
  EXPECT_THAT(r.warnings, ElementsAre(Issue{"count", "coerced string \"5\" to int"}));
}

TEST(Defaults, StrictModeStillFills) {
  auto r = in(malli("[:map [:count {:default 0} :int]]"), json::object(), Mode::Strict);
  EXPECT_TRUE(r.ok);
  EXPECT_EQ(r.value, (json{{"count", 0}}));
}

// ---------------------------------------------------------------------------------------------------
// Maybe.

TEST(Maybe, NullAndValue) {
  auto s = type(":int?");
  EXPECT_TRUE(out(s, nullptr).ok);
  EXPECT_TRUE(out(s, 3).ok);
  EXPECT_THAT(out(s, "x").errors, ElementsAre(Issue{"(root)", "expected int, got string \"x\""}));
}

TEST(Maybe, OptionalStructure) {
  auto s = type("{user {id :int}?}");
  EXPECT_TRUE(out(s, json{{"user", nullptr}}).ok);
  EXPECT_THAT(out(s, json::parse(R"({"user":{"id":"1"}})")).errors,
              ElementsAre(Issue{"user.id", "expected int, got string \"1\""}));
}

// ---------------------------------------------------------------------------------------------------
// Enum.

TEST(Enum, AcceptsListedValue) {
  auto r = out(type(":enum[pending active]"), "active");
  EXPECT_TRUE(r.ok);
  EXPECT_EQ(r.value, json("active"));
}

TEST(Enum, RejectsUnlistedValue) {
  auto r = out(type(":enum[pending active]"), "unknown");
  EXPECT_FALSE(r.ok);
  EXPECT_THAT(r.errors, ElementsAre(Issue{"(root)", "expected one of [\"pending\", \"active\"], got \"unknown\""}));
}

TEST(Enum, QuotedValuesAndPath) {
  auto r = out(type("{priority :enum[\"low\" \"high\"]}"), json{{"priority", "mid"}});
  EXPECT_THAT(r.errors, ElementsAre(Issue{"priority", "expected one of [\"low\", \"high\"], got \"mid\""}));
}

TEST(Enum, NonStringGot) {
  auto s = type(":enum[pending active]");
  EXPECT_THAT(out(s, 5).errors, ElementsAre(Issue{"(root)", "expected one of [\"pending\", \"active\"], got 5"}));
  EXPECT_THAT(out(s, nullptr).errors,
              ElementsAre(Issue{"(root)", "expected one of [\"pending\", \"active\"], got nil"}));
}

TEST(Enum, IsCaseSensitive) { EXPECT_FALSE(out(type(":enum[pending active]"), "Active").ok); }

TEST(Enum, NumericValuesDoNotMatchBooleans) {
  auto s = malli("[:enum 1 2]");
  EXPECT_TRUE(out(s, 1).ok);
  EXPECT_FALSE(out(s, true).ok);
  EXPECT_THAT(out(s, 3).errors, ElementsAre(Issue{"(root)", "expected one of [1, 2], got 3"}));
}

// ---------------------------------------------------------------------------------------------------
// Unions.

TEST(Union, StringOrIntKeepsStringInput) {
  auto r = in(type(":string|:int"), "42");
  EXPECT_TRUE(r.ok);
  EXPECT_EQ(r.value, json("42"));
  EXPECT_THAT(r.warnings, IsEmpty());
}

TEST(Union, StringOrIntAcceptsInt) {
  auto r = out(type(":string|:int"), 42);
  EXPECT_TRUE(r.ok);
  EXPECT_EQ(r.value, json(42));
}

TEST(Union, StringOrIntRejectsFloat) {
  for (auto dir : {Direction::Input, Direction::Output}) {
    auto r = ptc::validate(type(":string|:int"), json(3.5), ValidateOptions{dir, Mode::Enabled});
    EXPECT_FALSE(r.ok);
    EXPECT_THAT(r.errors, ElementsAre(Issue{"(root)", "expected string or int, got float 3.5"}));
  }
}

TEST(Union, MapAlternativeShowsItsOwnErrors) {
  auto r = out(type("{a :int}|:string"), json{{"a", "x"}});
  EXPECT_FALSE(r.ok);
  EXPECT_THAT(r.errors, ElementsAre(Issue{"a", "expected int, got string \"x\""}));
}

TEST(Union, StrictKeepsStrictnessInsideAlternatives) {
  auto r = in(type("{a :int}|:string"), json{{"a", 1}, {"b", 2}}, Mode::Strict);
  EXPECT_FALSE(r.ok);
  EXPECT_THAT(r.errors, ElementsAre(Issue{"b", "unexpected field"}));
}

TEST(Union, EnabledInputCoercesInsideMapAlternative) {
  auto r = in(type("{a :int}|:string"), json{{"a", "1"}, {"b", 2}});
  EXPECT_TRUE(r.ok);
  EXPECT_EQ(r.value, (json{{"a", 1}, {"b", 2}}));
  EXPECT_THAT(r.warnings, ElementsAre(Issue{"a", "coerced string \"1\" to int"}));
}

TEST(Union, InsideList) {
  auto r = out(type("[:string|:int]"), json::array({"a", 1, true}));
  EXPECT_THAT(r.errors, ElementsAre(Issue{"[2]", "expected string or int, got bool true"}));
}

// ---------------------------------------------------------------------------------------------------
// map-of.

TEST(MapOf, ValidValues) {
  auto r = out(type("[:map-of :string :int]"), json{{"a", 1}, {"b", 2}});
  EXPECT_TRUE(r.ok);
  EXPECT_EQ(r.value, (json{{"a", 1}, {"b", 2}}));
}

TEST(MapOf, InvalidValuesEachReported) {
  auto r = out(type("[:map-of :string :int]"), json{{"a", "x"}, {"b", 2}, {"c", nullptr}});
  EXPECT_FALSE(r.ok);
  EXPECT_THAT(r.errors, ElementsAre(Issue{"a", "expected int, got string \"x\""}, Issue{"c", "expected int, got nil"}));
}

TEST(MapOf, NotAMap) {
  EXPECT_THAT(out(type("[:map-of :string :int]"), json::array()).errors,
              ElementsAre(Issue{"(root)", "expected map, got list"}));
}

TEST(MapOf, StrictAllowsAnyKeys) {
  EXPECT_TRUE(out(type("[:map-of :string :int]"), json{{"anything", 1}}, Mode::Strict).ok);
}

TEST(MapOf, InvalidEnumKey) {
  auto r = out(malli(R"([:map-of [:enum "a" "b"] :int])"), json{{"a", 1}, {"c", 1}});
  EXPECT_FALSE(r.ok);
  EXPECT_THAT(r.errors, ElementsAre(Issue{"c", "invalid key: expected one of [\"a\", \"b\"], got \"c\""}));
}

TEST(MapOf, InvalidPatternKeyAndValueBothReported) {
  auto r = out(malli(R"([:map-of [:and :string [:re "^[a-z]+$"]] :int])"), json{{"A1", "x"}, {"ok", 1}});
  EXPECT_THAT(r.errors, ElementsAre(Issue{"A1", "invalid key: expected string matching \"^[a-z]+$\", got \"A1\""},
                                    Issue{"A1", "expected int, got string \"x\""}));
}

TEST(MapOf, WarnOnlyInvalidKeyBecomesWarning) {
  auto r = out(malli(R"([:map-of [:enum "a"] :int])"), json{{"b", 1}}, Mode::WarnOnly);
  EXPECT_TRUE(r.ok);
  EXPECT_THAT(r.errors, IsEmpty());
  EXPECT_THAT(r.warnings, ElementsAre(Issue{"b", "invalid key: expected one of [\"a\"], got \"b\""}));
}

TEST(MapOf, EmptyMap) { EXPECT_TRUE(out(type("[:map-of :string :int]"), json::object()).ok); }

TEST(MapOf, ShorthandMapIsAnyMap) {
  EXPECT_TRUE(out(type(":map"), json{{"a", json::array()}, {"b", nullptr}}).ok);
  EXPECT_THAT(out(type(":map"), json::array()).errors, ElementsAre(Issue{"(root)", "expected map, got list"}));
}

// ---------------------------------------------------------------------------------------------------
// Set.

TEST(Set, UniqueItemsAreValid) {
  auto r = out(type("[:set :int]"), json::array({1, 2, 3}));
  EXPECT_TRUE(r.ok);
  EXPECT_EQ(r.value, json::array({1, 2, 3}));
}

TEST(Set, DuplicateItem) {
  auto r = out(type("[:set :int]"), json::array({1, 1}));
  EXPECT_FALSE(r.ok);
  EXPECT_THAT(r.errors, ElementsAre(Issue{"[1]", "duplicate item (same as [0])"}));
}

TEST(Set, DuplicateNamesFirstOccurrence) {
  auto r = out(type("{tags [:set :string]}"), json::parse(R"({"tags":["a","b","a","b"]})"));
  EXPECT_THAT(r.errors, ElementsAre(Issue{"tags[2]", "duplicate item (same as [0])"},
                                    Issue{"tags[3]", "duplicate item (same as [1])"}));
}

TEST(Set, ItemErrors) {
  auto r = out(type("[:set :int]"), json::array({1, "x"}));
  EXPECT_THAT(r.errors, ElementsAre(Issue{"[1]", "expected int, got string \"x\""}));
}

// ---------------------------------------------------------------------------------------------------
// Tuple.

TEST(Tuple, Valid) {
  auto r = out(type("[:tuple :int :string]"), json::array({1, "a"}));
  EXPECT_TRUE(r.ok);
  EXPECT_EQ(r.value, json::array({1, "a"}));
}

TEST(Tuple, TooManyItems) {
  auto r = out(type("[:tuple :int :string]"), json::array({1, "a", 3}));
  EXPECT_FALSE(r.ok);
  EXPECT_THAT(r.errors, ElementsAre(Issue{"(root)", "expected list of 2 items, got 3"}));
}

TEST(Tuple, TooFewItems) {
  auto r = out(type("[:tuple :int :string]"), json::array({1}));
  EXPECT_FALSE(r.ok);
  EXPECT_THAT(r.errors, ElementsAre(Issue{"(root)", "expected list of 2 items, got 1"}));
}

TEST(Tuple, ItemErrorsByPosition) {
  auto r = out(type("[:tuple :int :string]"), json::array({"a", 1}));
  EXPECT_THAT(r.errors,
              ElementsAre(Issue{"[0]", "expected int, got string \"a\""}, Issue{"[1]", "expected string, got int 1"}));
}

// ---------------------------------------------------------------------------------------------------
// [:and ...] and refinements.

TEST(Refinement, GreaterThan) {
  auto s = type(":int[>0]");
  EXPECT_TRUE(out(s, 1).ok);
  EXPECT_THAT(out(s, 0).errors, ElementsAre(Issue{"(root)", "expected value > 0, got 0"}));
  EXPECT_THAT(out(s, -3).errors, ElementsAre(Issue{"(root)", "expected value > 0, got -3"}));
}

TEST(Refinement, GreaterOrEqual) {
  auto s = type(":int[>=1]");
  EXPECT_TRUE(out(s, 1).ok);
  EXPECT_THAT(out(s, 0).errors, ElementsAre(Issue{"(root)", "expected value >= 1, got 0"}));
}

TEST(Refinement, Range) {
  auto s = type(":int[1..100]");
  EXPECT_TRUE(out(s, 1).ok);
  EXPECT_TRUE(out(s, 100).ok);
  EXPECT_THAT(out(s, 101).errors, ElementsAre(Issue{"(root)", "expected value <= 100, got 101"}));
  EXPECT_THAT(out(s, 0).errors, ElementsAre(Issue{"(root)", "expected value >= 1, got 0"}));
}

TEST(Refinement, LessThanMalli) {
  auto s = malli("[:and :int [:< 10]]");
  EXPECT_TRUE(out(s, 9).ok);
  EXPECT_THAT(out(s, 10).errors, ElementsAre(Issue{"(root)", "expected value < 10, got 10"}));
}

TEST(Refinement, FloatRange) {
  auto s = type(":float[0.0..1.0]");
  EXPECT_TRUE(out(s, 0.5).ok);
  EXPECT_TRUE(out(s, 1.0).ok);
  EXPECT_THAT(out(s, 1.5).errors, ElementsAre(Issue{"(root)", "expected value <= 1.0, got 1.5"}));
}

TEST(Refinement, BaseTypeCheckedFirst) {
  auto r = out(type(":int[>0]"), "abc");
  EXPECT_THAT(r.errors, ElementsAre(Issue{"(root)", "expected int, got string \"abc\""}));
}

TEST(Refinement, Regex) {
  auto s = malli(R"([:and :string [:re "^[A-Z]"]])");
  EXPECT_TRUE(out(s, "Abc").ok);
  auto r = out(s, "abc");
  EXPECT_FALSE(r.ok);
  EXPECT_THAT(r.errors, ElementsAre(Issue{"(root)", "expected string matching \"^[A-Z]\", got \"abc\""}));
}

TEST(Refinement, RegexIsUnanchoredSearch) {
  auto s = malli(R"([:and :string [:re "[0-9]+"]])");
  EXPECT_TRUE(out(s, "abc123def").ok);
  EXPECT_FALSE(out(s, "abc").ok);
}

TEST(Refinement, EveryFailedBoundReported) {
  auto s = malli("[:and :int [:> 10] [:< 5]]");
  auto r = out(s, 7);
  EXPECT_THAT(r.errors,
              ElementsAre(Issue{"(root)", "expected value > 10, got 7"}, Issue{"(root)", "expected value < 5, got 7"}));
}

TEST(Refinement, InsideMapWithPath) {
  auto r = out(type("{age :int[>=0], score :float[0.0..1.0]}"), json{{"age", -1}, {"score", 2.0}});
  EXPECT_THAT(r.errors, ElementsAre(Issue{"age", "expected value >= 0, got -1"},
                                    Issue{"score", "expected value <= 1.0, got 2.0"}));
}

// ---------------------------------------------------------------------------------------------------
// Lists and sequential.

TEST(List, EmptyListValid) { EXPECT_TRUE(out(type("[:int]"), json::array()).ok); }

TEST(List, SequentialLikeVector) {
  auto s = malli("[:sequential :int]");
  EXPECT_TRUE(out(s, json::array({1})).ok);
  EXPECT_THAT(out(s, "x").errors, ElementsAre(Issue{"(root)", "expected list, got string \"x\""}));
}

TEST(Map, EmptyMapSchemaAcceptsAnyMapInEnabled) {
  auto r = out(type("{}"), json{{"a", 1}});
  EXPECT_TRUE(r.ok);
  EXPECT_EQ(r.value, (json{{"a", 1}}));
  EXPECT_THAT(out(type("{}"), json{{"a", 1}}, Mode::Strict).errors, ElementsAre(Issue{"a", "unexpected field"}));
}

TEST(Map, NestedExtraFieldsKeptInEnabled) {
  json v = json::parse(R"({"user":{"id":"1","extra":[1,2]},"top":"x"})");
  auto r = in(type("{user {id :int}}"), v);
  EXPECT_TRUE(r.ok);
  EXPECT_EQ(r.value, json::parse(R"({"user":{"id":1,"extra":[1,2]},"top":"x"})"));
}

TEST(Map, NestedUnexpectedFieldPathInStrict) {
  auto r = out(type("{user {id :int}}"), json::parse(R"({"user":{"id":1,"a b":2}})"), Mode::Strict);
  EXPECT_THAT(r.errors, ElementsAre(Issue{"user[\"a b\"]", "unexpected field"}));
}

TEST(Map, SignatureOutputMissingFieldsAll) {
  auto sig = ptc::Signature::parse("() -> {count :int, items [:string]}").value();
  auto r = out(sig.output(), json::object());
  EXPECT_THAT(r.errors,
              ElementsAre(Issue{"count", "missing required field"}, Issue{"items", "missing required field"}));
}

}  // namespace

// ---------------------------------------------------------------------------------------------------
// Regressions found while reviewing the validator.

namespace {

TEST(Regressions, PlainValidateSeesDuplicatesAfterCoercion) {
  auto r = ptc::validate(type("[:set :int]"), json::parse(R"(["1", 1])"), ValidateOptions{Direction::Input});
  EXPECT_FALSE(r.ok);
  EXPECT_THAT(r.errors, ElementsAre(Issue{"[1]", "duplicate item (same as [0])"}));
  EXPECT_TRUE(r.value.is_null());
}

TEST(Regressions, UnionWithFloatWidensIntInput) {
  auto r = in(type(":float|:string"), json(42));
  EXPECT_TRUE(r.ok);
  EXPECT_TRUE(r.value.is_number_float());
  EXPECT_EQ(r.value, json(42.0));
}

TEST(Regressions, IntegersBeyond64BitsSayTheRange) {
  auto below = out(type(":int"), json::parse("-9223372036854775809"));
  EXPECT_THAT(below.errors, ElementsAre(Issue{"(root)",
                                              "expected int in range -9223372036854775808..9223372036854775807, "
                                              "got float -9.223372036854776e+18"}));
  auto above = out(type(":int"), json::parse("18446744073709551616"));
  EXPECT_THAT(above.errors, ElementsAre(Issue{"(root)",
                                              "expected int in range -9223372036854775808..9223372036854775807, "
                                              "got float 1.8446744073709552e+19"}));
}

TEST(Regressions, UnionOfMapsReportsTheClosestAlternative) {
  auto r = in(type("{a :int}|{b :int}"), json::parse(R"({"a":"x"})"));
  EXPECT_FALSE(r.ok);
  EXPECT_THAT(r.errors, ElementsAre(Issue{"a", "expected int, got string \"x\""}));
  auto none = in(type("{a :int}|{b :int}"), json(true));
  EXPECT_THAT(none.errors, ElementsAre(Issue{"(root)", "expected map, got bool true"}));
}

TEST(Regressions, NanFailsRefinements) {
  auto r = out(malli("[:and :any [:>= 0]]"), json(NAN));
  EXPECT_FALSE(r.ok);
  EXPECT_THAT(r.errors, ElementsAre(Issue{"(root)", "expected number, got float NaN"}));
}

TEST(Regressions, LeadingZerosAreNotIntegers) {
  auto r = in(type(":int"), json("007"));
  EXPECT_FALSE(r.ok);
  EXPECT_THAT(r.errors, ElementsAre(Issue{"(root)", "expected int, got string \"007\""}));
  EXPECT_TRUE(in(type(":int"), json("0")).ok);
  EXPECT_TRUE(in(type(":int"), json("-0")).ok);
}

}  // namespace

// ---------------------------------------------------------------------------------------------------
// Stored issues: a Validation stores the first limits::kStoredIssues of each list and counts the rest,
// so that a call of hundreds of thousands of bad or undeclared fields costs a count, while the counts
// and the report stay exactly what storing every issue gave.

namespace {

using ptc::limits::kReportedErrors;
using ptc::limits::kStoredIssues;

std::string numbered(const char* prefix, std::size_t i) {
  char digits[16];
  std::snprintf(digits, sizeof digits, "%05zu", i);
  return prefix + std::string(digits);
}

// A report section as storing every issue gave it: the first kReportedErrors lines, then the count.
std::string section(const std::string& title, const std::vector<Issue>& all) {
  std::string out = title + "\n";
  for (std::size_t i = 0; i < all.size() && i < kReportedErrors; ++i)
    out += "- " + all[i].path + ": " + all[i].message + "\n";
  if (all.size() > kReportedErrors) out += "- ... and " + std::to_string(all.size() - kReportedErrors) + " more\n";
  return out;
}

void expect_capped(const std::vector<Issue>& stored, std::size_t more, const std::vector<Issue>& all) {
  ASSERT_EQ(stored.size(), std::min(all.size(), kStoredIssues));
  EXPECT_EQ(stored.size() + more, all.size());
  EXPECT_TRUE(std::equal(stored.begin(), stored.end(), all.begin()));
}

}  // namespace

TEST(StoredIssues, ManyUndeclaredFieldsStoreTheFirstInKeyOrderAndCountTheRest) {
  const ptc::Schema params = type("{text :string}");
  json args = {{"text", "x"}};
  std::vector<Issue> ignored, unexpected;
  for (std::size_t i = 0; i < 5000; ++i) {
    args[numbered("k", i)] = 0;
    ignored.push_back({numbered("k", i), "unexpected field (ignored)"});
    unexpected.push_back({numbered("k", i), "unexpected field"});
  }
  auto r = ptc::validate_and_coerce(params, args, {Direction::Input, Mode::Enabled, /*drop_undeclared=*/true});
  EXPECT_TRUE(r.ok);
  EXPECT_EQ(r.value, (json{{"text", "x"}}));
  expect_capped(r.warnings, r.more_warnings, ignored);
  EXPECT_EQ(r.warning_count(), 5000u);
  EXPECT_EQ(r.report(), section("Tool validation warnings:", ignored));
  EXPECT_TRUE(r.report().ends_with("\n- ... and 4980 more\n"));

  auto strict = ptc::validate_and_coerce(params, args, {Direction::Input, Mode::Strict, true});
  EXPECT_FALSE(strict.ok);
  expect_capped(strict.errors, strict.more_errors, unexpected);
  EXPECT_EQ(strict.report(), section("Tool validation errors:", unexpected));

  auto warn_only = ptc::validate_and_coerce(params, args, {Direction::Input, Mode::WarnOnly, true});
  EXPECT_TRUE(warn_only.ok);
  expect_capped(warn_only.warnings, warn_only.more_warnings, ignored);
  auto disabled = ptc::validate_and_coerce(params, args, {Direction::Input, Mode::Disabled, true});
  EXPECT_EQ(disabled.warning_count() + disabled.error_count(), 0u);
}

TEST(StoredIssues, ErrorsAndWarningsAreCappedApartWithExactCounts) {
  json items = json::array();
  std::vector<Issue> coerced, wrong;
  for (std::size_t i = 0; i < 300; ++i) {
    items.push_back("7");
    coerced.push_back({"[" + std::to_string(i) + "]", "coerced string \"7\" to int"});
  }
  for (std::size_t i = 300; i < 550; ++i) {
    items.push_back("x");
    wrong.push_back({"[" + std::to_string(i) + "]", "expected int, got string \"x\""});
  }
  auto r = in(type("[:int]"), items);
  EXPECT_FALSE(r.ok);
  expect_capped(r.errors, r.more_errors, wrong);
  expect_capped(r.warnings, r.more_warnings, coerced);
  EXPECT_EQ(r.report(),
            section("Tool validation errors:", wrong) + "\n" + section("Tool validation warnings:", coerced));

  // In WarnOnly the errors join the warnings after the coercions: still the first stored, all counted.
  auto lenient = in(type("[:int]"), items, Mode::WarnOnly);
  EXPECT_TRUE(lenient.ok);
  std::vector<Issue> all = coerced;
  all.insert(all.end(), wrong.begin(), wrong.end());
  expect_capped(lenient.warnings, lenient.more_warnings, all);
  EXPECT_EQ(lenient.report(), section("Tool validation warnings:", all));
}

// A union adopts its closest alternative's errors: the refusals among them stay errors in WarnOnly and
// the others become warnings (after the alternative's own warnings), each list with its own first
// issues, so that refusals that come after more than the cap of other errors are still the first
// stored, and every count is exact.
TEST(StoredIssues, AUnionAdoptsItsClosestAlternativesFirstIssuesOfEachKind) {
  json items = json::array();
  std::vector<Issue> plain, refused, coerced;
  for (std::size_t i = 0; i < 150; ++i) {
    items.push_back("abc");  // an ordinary error
    plain.push_back({"[" + std::to_string(i) + "]", "expected int, got string \"abc\""});
  }
  for (std::size_t i = 150; i < 280; ++i) {
    items.push_back(2.5);  // a refusal: no int holds it
    refused.push_back({"[" + std::to_string(i) + "]", "expected int, got float 2.5"});
  }
  for (std::size_t i = 280; i < 300; ++i) {
    items.push_back("3");  // a coercion
    coerced.push_back({"[" + std::to_string(i) + "]", "coerced string \"3\" to int"});
  }
  const ptc::Schema alone = malli("[:vector :int]");
  const ptc::Schema either = malli("[:or [:vector :int] :boolean]");
  std::vector<Issue> errors = plain;
  errors.insert(errors.end(), refused.begin(), refused.end());
  for (Mode mode : {Mode::Enabled, Mode::Strict}) {
    auto u = in(either, items, mode);
    EXPECT_FALSE(u.ok);
    if (mode == Mode::Enabled) expect_capped(u.errors, u.more_errors, errors);  // Strict coerces nothing
    auto a = in(alone, items, mode);
    EXPECT_EQ(u.errors, a.errors);
    EXPECT_EQ(u.more_errors, a.more_errors);
    EXPECT_EQ(u.report(), a.report());
  }
  auto lenient = in(either, items, Mode::WarnOnly);
  EXPECT_FALSE(lenient.ok);
  expect_capped(lenient.errors, lenient.more_errors, refused);
  std::vector<Issue> warnings = coerced;
  warnings.insert(warnings.end(), plain.begin(), plain.end());
  expect_capped(lenient.warnings, lenient.more_warnings, warnings);
  EXPECT_EQ(lenient.report(),
            section("Tool validation errors:", refused) + "\n" + section("Tool validation warnings:", warnings));
  auto disabled = in(either, items, Mode::Disabled);
  EXPECT_FALSE(disabled.ok);
  expect_capped(disabled.errors, disabled.more_errors, refused);
  EXPECT_EQ(disabled.warning_count(), 0u);
}

// Dispatch parses arguments without their undeclared members and reports them with
// report_dropped_fields: the same issues, counts and report as validating the whole object.
TEST(StoredIssues, DroppedFieldsAreReportedAsTheWalkReportsThemInTheObject) {
  const ptc::Schema params = type("{city :string, days :int?}");
  for (std::size_t undeclared : {std::size_t{3}, std::size_t{2000}}) {
    std::string text = R"({"days": "4", "city": 5)";
    // Out of key order, with a near miss that gets a suggestion.
    for (std::size_t i = undeclared; i-- > 0;) text += ",\"" + numbered(i % 2 ? "z" : "a", i) + "\": [1, {\"x\": 2}]";
    text += R"(, "dayz": 1})";
    const json whole = json::parse(text);
    for (Mode mode : {Mode::Enabled, Mode::WarnOnly, Mode::Strict, Mode::Disabled}) {
      const ValidateOptions options{Direction::Input, mode, /*drop_undeclared=*/true};
      const Validation expected = ptc::validate_and_coerce(params, whole, options);
      ptc::DroppedFields dropped;
      ptc::JsonParseOptions parse;
      parse.keep = [&](std::string_view key) {
        if (params.find(key)) return true;
        dropped.add(key);
        return false;
      };
      auto parsed = ptc::parse_json(text, parse);
      ASSERT_TRUE(parsed);
      EXPECT_EQ(*parsed, (json{{"city", 5}, {"days", "4"}})) << "undeclared members are left out";
      EXPECT_EQ(dropped.size(), undeclared + 1);
      Validation got = ptc::validate_and_coerce(params, std::move(*parsed), options);
      ptc::report_dropped_fields(got, params, dropped, mode);
      const std::string where = std::string(ptc::mode_name(mode)) + ", " + std::to_string(undeclared);
      EXPECT_EQ(got.ok, expected.ok) << where;
      EXPECT_EQ(got.errors, expected.errors) << where;
      EXPECT_EQ(got.warnings, expected.warnings) << where;
      EXPECT_EQ(got.more_errors, expected.more_errors) << where;
      EXPECT_EQ(got.more_warnings, expected.more_warnings) << where;
      EXPECT_EQ(got.report(), expected.report()) << where;
    }
  }
}

TEST(StoredIssues, DroppedFieldsKeepTheFirstNamesInKeyOrderInBoundedSpace) {
  ptc::DroppedFields dropped;
  for (std::size_t i = 100000; i-- > 0;) dropped.add(numbered("k", (i * 7919) % 100000));
  EXPECT_EQ(dropped.size(), 100000u);
  const auto first = dropped.first();
  ASSERT_EQ(first.size(), kStoredIssues);
  for (std::size_t i = 0; i < first.size(); ++i) EXPECT_EQ(first[i], numbered("k", i));
}
