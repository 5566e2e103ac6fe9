// Input coercion (docs/validation.md, spec/type-coercion-matrix.md "Input Coercion Rules") and the
// scalar rules of ptc/coercion.hpp used by both the runtime validator and generated decoders.

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <ptc/coercion.hpp>
#include <ptc/error.hpp>
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
namespace co = ptc::coercion;

using ptc::test::type;

// Tool arguments `{"x": value}` against `(x T) -> :any`, coerced, default (Enabled) mode.
Validation input_arg(std::string_view t, const json& value, Mode mode = Mode::Enabled) {
  auto sig = ptc::Signature::parse("(x " + std::string(t) + ") -> :any").value();
  return ptc::validate_and_coerce(sig.input(), json{{"x", value}}, ValidateOptions{Direction::Input, mode});
}

Validation input_value(std::string_view t, const json& value, Mode mode = Mode::Enabled) {
  return ptc::validate_and_coerce(type(t), value, ValidateOptions{Direction::Input, mode});
}

// ---------------------------------------------------------------------------------------------------
// The coercion table: one test per row (matrix table plus the DESIGN section 6 additions).

TEST(CoercionTable, StringIntToInt) {
  auto r = input_arg(":int", "42");
  EXPECT_TRUE(r.ok);
  EXPECT_TRUE(r.errors.empty());
  ASSERT_TRUE(r.value["x"].is_number_integer());
  EXPECT_EQ(r.value["x"].get<std::int64_t>(), 42);
  EXPECT_THAT(r.warnings, testing::ElementsAre(Issue{"x", "coerced string \"42\" to int"}));
}

TEST(CoercionTable, StringDecimalToFloat) {
  auto r = input_arg(":float", "3.14");
  EXPECT_TRUE(r.ok);
  ASSERT_TRUE(r.value["x"].is_number_float());
  EXPECT_DOUBLE_EQ(r.value["x"].get<double>(), 3.14);
  EXPECT_THAT(r.warnings, testing::ElementsAre(Issue{"x", "coerced string \"3.14\" to float"}));
}

TEST(CoercionTable, NegativeStringIntToInt) {
  auto r = input_arg(":int", "-5");
  EXPECT_TRUE(r.ok);
  EXPECT_EQ(r.value["x"], json(-5));
  EXPECT_THAT(r.warnings, testing::ElementsAre(Issue{"x", "coerced string \"-5\" to int"}));
}

TEST(CoercionTable, StringTrueToBool) {
  auto r = input_arg(":bool", "true");
  EXPECT_TRUE(r.ok);
  EXPECT_EQ(r.value["x"], json(true));
  EXPECT_THAT(r.warnings, testing::ElementsAre(Issue{"x", "coerced string \"true\" to bool"}));
}

TEST(CoercionTable, StringFalseToBool) {
  auto r = input_arg(":bool", "false");
  EXPECT_TRUE(r.ok);
  EXPECT_EQ(r.value["x"], json(false));
  EXPECT_THAT(r.warnings, testing::ElementsAre(Issue{"x", "coerced string \"false\" to bool"}));
}

TEST(CoercionTable, IntToFloatIsSilentWidening) {
  auto r = input_arg(":float", 42);
  EXPECT_TRUE(r.ok);
  EXPECT_TRUE(r.errors.empty());
  EXPECT_TRUE(r.warnings.empty());
  ASSERT_TRUE(r.value["x"].is_number_float());
  EXPECT_EQ(r.value["x"].get<double>(), 42.0);
}

TEST(CoercionTable, WholeFloatToIntIsAnError) {
  auto r = input_arg(":int", 42.0);
  EXPECT_FALSE(r.ok);
  EXPECT_THAT(r.errors, testing::ElementsAre(Issue{"x", "expected int, got float 42.0"}));
  EXPECT_TRUE(r.warnings.empty());
}

TEST(CoercionTable, NonNumericStringToIntIsAnError) {
  auto r = input_arg(":int", "hello");
  EXPECT_FALSE(r.ok);
  EXPECT_THAT(r.errors, testing::ElementsAre(Issue{"x", "expected int, got string \"hello\""}));
  EXPECT_TRUE(r.warnings.empty());
  EXPECT_EQ(r.value["x"], json("hello")) << "failed parts keep the value as given";
}

TEST(CoercionTable, StringToStringNeedsNoCoercion) {
  // The matrix's `:atom -> :string` row has no JSON counterpart (JSON has no keywords); a string
  // for :string is simply valid.
  auto r = input_arg(":string", "atom");
  EXPECT_TRUE(r.ok);
  EXPECT_TRUE(r.warnings.empty());
  EXPECT_EQ(r.value["x"], json("atom"));
}

TEST(CoercionTable, StringToKeywordIsAccepted) {
  auto r = input_arg(":keyword", "atom");
  EXPECT_TRUE(r.ok);
  EXPECT_TRUE(r.errors.empty());
  EXPECT_EQ(r.value["x"], json("atom"));
}

TEST(CoercionTable, TrailingGarbageIsAnError) {
  auto r = input_arg(":int", "3.14abc");
  EXPECT_FALSE(r.ok);
  EXPECT_THAT(r.errors, testing::ElementsAre(Issue{"x", "expected int, got string \"3.14abc\""}));
}

TEST(CoercionTable, LeadingSpaceIsAnError) {
  auto r = input_arg(":int", " 42");
  EXPECT_FALSE(r.ok);
  EXPECT_THAT(r.errors, testing::ElementsAre(Issue{"x", "expected int, got string \" 42\""}));
}

TEST(CoercionTable, ExponentStringToFloat) {
  auto r = input_arg(":float", "1e3");
  EXPECT_TRUE(r.ok);
  EXPECT_EQ(r.value["x"].get<double>(), 1000.0);
  EXPECT_THAT(r.warnings, testing::ElementsAre(Issue{"x", "coerced string \"1e3\" to float"}));
}

// ---------------------------------------------------------------------------------------------------
// More strings that are not whole integers / floats / booleans.

TEST(CoercionRejects, IntStrings) {
  for (const char* s : {"4 2", "+5", "", "42 ", "3.14", "1e3", "0x10", "-", "abc", "4_2"}) {
    auto r = input_arg(":int", s);
    EXPECT_FALSE(r.ok) << s;
    EXPECT_THAT(r.errors, testing::ElementsAre(Issue{"x", "expected int, got string " + json(s).dump()})) << s;
    EXPECT_TRUE(r.warnings.empty()) << s;
  }
}

TEST(CoercionRejects, FloatStrings) {
  for (const char* s : {"", " 1.5", "1.5 ", "abc", "1.", ".5", "1e", "NaN", "Infinity", "-inf", "1e400", "3.14abc"}) {
    auto r = input_arg(":float", s);
    EXPECT_FALSE(r.ok) << s;
    EXPECT_THAT(r.errors, testing::ElementsAre(Issue{"x", "expected float, got string " + json(s).dump()})) << s;
    EXPECT_TRUE(r.warnings.empty()) << s;
  }
}

TEST(CoercionRejects, BoolStrings) {
  for (const char* s : {"True", "FALSE", "yes", "1", "0", "", " true", "true "}) {
    auto r = input_arg(":bool", s);
    EXPECT_FALSE(r.ok) << s;
    EXPECT_THAT(r.errors, testing::ElementsAre(Issue{"x", "expected bool, got string " + json(s).dump()})) << s;
  }
}

TEST(CoercionRejects, NumbersAreNotCoercedToStringOrBool) {
  auto r = input_arg(":string", 42);
  EXPECT_THAT(r.errors, testing::ElementsAre(Issue{"x", "expected string, got int 42"}));
  r = input_arg(":bool", 1);
  EXPECT_THAT(r.errors, testing::ElementsAre(Issue{"x", "expected bool, got int 1"}));
  r = input_arg(":int", true);
  EXPECT_THAT(r.errors, testing::ElementsAre(Issue{"x", "expected int, got bool true"}));
}

TEST(Coercion, IntegerStringToFloat) {
  auto r = input_arg(":float", "42");
  EXPECT_TRUE(r.ok);
  ASSERT_TRUE(r.value["x"].is_number_float());
  EXPECT_EQ(r.value["x"].get<double>(), 42.0);
  EXPECT_THAT(r.warnings, testing::ElementsAre(Issue{"x", "coerced string \"42\" to float"}));
}

TEST(Coercion, NegativeExponentStringToFloat) {
  auto r = input_arg(":float", "-2.5E-2");
  EXPECT_TRUE(r.ok);
  EXPECT_DOUBLE_EQ(r.value["x"].get<double>(), -0.025);
}

TEST(Coercion, FloatValueStaysFloat) {
  auto r = input_arg(":float", 3.5);
  EXPECT_TRUE(r.ok);
  EXPECT_TRUE(r.warnings.empty());
  EXPECT_EQ(r.value["x"], json(3.5));
}

TEST(Coercion, NonFiniteFloatsAreRejected) {
  auto r = input_value(":float", json(NAN));
  EXPECT_FALSE(r.ok);
  EXPECT_THAT(r.errors, testing::ElementsAre(Issue{"(root)", "expected finite float, got float NaN"}));
  r = input_value(":float", json(INFINITY));
  EXPECT_THAT(r.errors, testing::ElementsAre(Issue{"(root)", "expected finite float, got float Infinity"}));
  r = input_value(":float", json(-INFINITY));
  EXPECT_THAT(r.errors, testing::ElementsAre(Issue{"(root)", "expected finite float, got float -Infinity"}));
  r = ptc::validate(type(":float"), json(NAN));  // output direction too
  EXPECT_THAT(r.errors, testing::ElementsAre(Issue{"(root)", "expected finite float, got float NaN"}));
}

TEST(Coercion, NanForIntIsAnError) {
  auto r = input_value(":int", json(NAN));
  EXPECT_THAT(r.errors, testing::ElementsAre(Issue{"(root)", "expected int, got float NaN"}));
}

// Refused: a number (or a string read as one) that :int or :float cannot hold, which is an error in
// every mode; an integral float within int64 is a plain type error (an int64 holds its value).
TEST(Coercion, NumbersTheTypeCannotHoldAreRefused) {
  for (const json& v :
       {json(1e300), json(-1e19), json(9223372036854775808.0), json(18446744073709551615ull), json(2.9), json(-0.5),
        json(1e-300), json(NAN), json(INFINITY), json(-INFINITY), json("99999999999999999999")}) {
    auto r = co::to_int(v, true);
    EXPECT_EQ(r.verdict, co::Verdict::Failed) << v.dump();
    EXPECT_TRUE(r.refused) << v.dump();
  }
  for (const json& v : {json(42.0), json(-0.0), json(1e18), json("abc"), json(true), json(nullptr), json::array()}) {
    auto r = co::to_int(v, true);
    EXPECT_EQ(r.verdict, co::Verdict::Failed) << v.dump();
    EXPECT_FALSE(r.refused) << v.dump();
  }
  EXPECT_FALSE(co::to_int(json("99999999999999999999"), false).refused) << "not read as a number in strict mode";
  EXPECT_FALSE(co::to_int(json(9223372036854775807ll), true).refused);
  for (const json& v : {json(NAN), json(INFINITY), json(-INFINITY)}) EXPECT_TRUE(co::to_float(v, true).refused);
  for (const json& v : {json(1e308), json(18446744073709551615ull), json("1e400"), json(true)})
    EXPECT_FALSE(co::to_float(v, true).refused) << v.dump();
  EXPECT_FALSE(co::to_bool(json(2.9), true).refused);
}

TEST(Coercion, NestedListOfMaps) {
  auto r = input_value("[{id :int, name :string}]", json::parse(R"([{"id":"42","name":"Alice"}])"));
  EXPECT_TRUE(r.ok);
  EXPECT_TRUE(r.errors.empty());
  EXPECT_EQ(r.value, json::parse(R"([{"id":42,"name":"Alice"}])"));
  EXPECT_THAT(r.warnings, testing::ElementsAre(Issue{"[0].id", "coerced string \"42\" to int"}));
}

TEST(Coercion, NestedOnlyTheIdGiven) {
  // `[{"id":"42"}]` — coerced, and the missing required name is reported.
  auto r = input_value("[{id :int, name :string}]", json::parse(R"([{"id":"42"}])"));
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.value, json::parse(R"([{"id":42}])"));
  EXPECT_THAT(r.warnings, testing::ElementsAre(Issue{"[0].id", "coerced string \"42\" to int"}));
  EXPECT_THAT(r.errors, testing::ElementsAre(Issue{"[0].name", "missing required field"}));
}

TEST(Coercion, DeeplyNestedPathInWarning) {
  auto sig = ptc::Signature::parse("(results [{customer {id :int}}]) -> :any").value();
  auto r = ptc::validate_and_coerce(sig.input(), json::parse(R"({"results":[{"customer":{"id":"7"}}]})"),
                                    ValidateOptions{Direction::Input, Mode::Enabled});
  EXPECT_TRUE(r.ok);
  EXPECT_EQ(r.value["results"][0]["customer"]["id"], json(7));
  EXPECT_THAT(r.warnings, testing::ElementsAre(Issue{"results[0].customer.id", "coerced string \"7\" to int"}));
}

TEST(Coercion, SignatureInputExample) {
  // spec/signature-syntax.md "Input Validation": (id :int, name :string) -> :bool with {id "42", name "Alice"}.
  auto sig = ptc::Signature::parse("(id :int, name :string) -> :bool").value();
  auto r = ptc::validate_and_coerce(sig.input(), json{{"id", "42"}, {"name", "Alice"}},
                                    ValidateOptions{Direction::Input, Mode::Enabled});
  EXPECT_TRUE(r.ok);
  EXPECT_EQ(r.value, (json{{"id", 42}, {"name", "Alice"}}));
  EXPECT_THAT(r.warnings, testing::ElementsAre(Issue{"id", "coerced string \"42\" to int"}));
}

TEST(Coercion, WarningsInTraversalOrder) {
  auto sig = ptc::Signature::parse("(b :int, a :float, c :bool) -> :any").value();
  auto r = ptc::validate_and_coerce(sig.input(), json{{"a", "1.5"}, {"b", "2"}, {"c", "true"}},
                                    ValidateOptions{Direction::Input, Mode::Enabled});
  EXPECT_TRUE(r.ok);
  EXPECT_THAT(r.warnings, testing::ElementsAre(Issue{"b", "coerced string \"2\" to int"},
                                               Issue{"a", "coerced string \"1.5\" to float"},
                                               Issue{"c", "coerced string \"true\" to bool"}));
}

TEST(Coercion, ValidateReportsWarningsButLeavesValueNull) {
  auto sig = ptc::Signature::parse("(id :int) -> :any").value();
  auto r = ptc::validate(sig.input(), json{{"id", "42"}}, ValidateOptions{Direction::Input, Mode::Enabled});
  EXPECT_TRUE(r.ok);
  EXPECT_TRUE(r.value.is_null());
  EXPECT_THAT(r.warnings, testing::ElementsAre(Issue{"id", "coerced string \"42\" to int"}));
}

TEST(Coercion, OutputDirectionNeverCoerces) {
  auto r = ptc::validate_and_coerce(type(":int"), json("42"), ValidateOptions{Direction::Output, Mode::Enabled});
  EXPECT_FALSE(r.ok);
  EXPECT_THAT(r.errors, testing::ElementsAre(Issue{"(root)", "expected int, got string \"42\""}));
  EXPECT_TRUE(r.warnings.empty());
  EXPECT_EQ(r.value, json("42"));
}

TEST(Coercion, OutputDirectionIntForFloatIsValidAndUntouched) {
  auto r = ptc::validate_and_coerce(type(":float"), json(42), ValidateOptions{Direction::Output, Mode::Enabled});
  EXPECT_TRUE(r.ok);
  EXPECT_TRUE(r.warnings.empty());
  EXPECT_TRUE(r.value.is_number_integer());
  EXPECT_EQ(r.value, json(42));
}

TEST(Coercion, StrictInputDoesNotCoerce) {
  auto r = input_arg(":int", "42", Mode::Strict);
  EXPECT_FALSE(r.ok);
  EXPECT_THAT(r.errors, testing::ElementsAre(Issue{"x", "expected int, got string \"42\""}));
  EXPECT_TRUE(r.warnings.empty());
  r = input_arg(":bool", "true", Mode::Strict);
  EXPECT_THAT(r.errors, testing::ElementsAre(Issue{"x", "expected bool, got string \"true\""}));
  r = input_arg(":float", "3.14", Mode::Strict);
  EXPECT_THAT(r.errors, testing::ElementsAre(Issue{"x", "expected float, got string \"3.14\""}));
}

TEST(Coercion, WarnOnlyStillCoerces) {
  auto r = input_arg(":int", "42", Mode::WarnOnly);
  EXPECT_TRUE(r.ok);
  EXPECT_EQ(r.value["x"], json(42));
  EXPECT_THAT(r.warnings, testing::ElementsAre(Issue{"x", "coerced string \"42\" to int"}));
}

TEST(Coercion, InsideMaybe) {
  auto r = input_arg(":int?", "5");
  EXPECT_TRUE(r.ok);
  EXPECT_EQ(r.value["x"], json(5));
  EXPECT_EQ(r.warnings.size(), 1u);
  r = input_arg(":int?", nullptr);
  EXPECT_TRUE(r.ok);
  EXPECT_TRUE(r.value["x"].is_null());
}

TEST(Coercion, InsideMapOf) {
  auto r = input_value("[:map-of :string :int]", json{{"a", "1"}, {"b", 2}});
  EXPECT_TRUE(r.ok);
  EXPECT_EQ(r.value, (json{{"a", 1}, {"b", 2}}));
  EXPECT_THAT(r.warnings, testing::ElementsAre(Issue{"a", "coerced string \"1\" to int"}));
}

TEST(Coercion, InsideTuple) {
  auto r = input_value("[:tuple :int :bool]", json::array({"1", "false"}));
  EXPECT_TRUE(r.ok);
  EXPECT_EQ(r.value, json::array({1, false}));
  EXPECT_THAT(r.warnings, testing::ElementsAre(Issue{"[0]", "coerced string \"1\" to int"},
                                               Issue{"[1]", "coerced string \"false\" to bool"}));
}

TEST(Coercion, BeforeRefinement) {
  auto r = input_value(":int[>0]", json("5"));
  EXPECT_TRUE(r.ok);
  EXPECT_EQ(r.value, json(5));
  EXPECT_THAT(r.warnings, testing::ElementsAre(Issue{"(root)", "coerced string \"5\" to int"}));
  r = input_value(":int[>0]", json("0"));
  EXPECT_FALSE(r.ok);
  EXPECT_THAT(r.errors, testing::ElementsAre(Issue{"(root)", "expected value > 0, got 0"}));
}

TEST(Coercion, UnionPrefersExactMatch) {
  auto r = input_value(":string|:int", json("42"));
  EXPECT_TRUE(r.ok);
  EXPECT_EQ(r.value, json("42"));
  EXPECT_TRUE(r.warnings.empty());
}

TEST(Coercion, UnionCoercesWhenNoExactMatch) {
  auto r = input_value(":int|:bool", json("42"));
  EXPECT_TRUE(r.ok);
  EXPECT_EQ(r.value, json(42));
  EXPECT_THAT(r.warnings, testing::ElementsAre(Issue{"(root)", "coerced string \"42\" to int"}));
}

TEST(Coercion, UnionRejectsFloatForStringOrInt) {
  auto r = input_value(":string|:int", json(3.5));
  EXPECT_FALSE(r.ok);
  EXPECT_THAT(r.errors, testing::ElementsAre(Issue{"(root)", "expected string or int, got float 3.5"}));
}

TEST(Coercion, SetDuplicateAfterCoercion) {
  auto r = input_value("[:set :int]", json::array({"1", 1}));
  EXPECT_FALSE(r.ok);
  EXPECT_THAT(r.errors, testing::ElementsAre(Issue{"[1]", "duplicate item (same as [0])"}));
}

// ---------------------------------------------------------------------------------------------------
// int64 boundaries.

TEST(Int64, MaxAsJsonNumber) {
  auto r = ptc::validate_and_coerce(type(":int"), json::parse("9223372036854775807"));
  EXPECT_TRUE(r.ok);
  EXPECT_TRUE(r.errors.empty());
  EXPECT_EQ(r.value.get<std::int64_t>(), std::numeric_limits<std::int64_t>::max());
}

TEST(Int64, MinAsJsonNumber) {
  auto r = ptc::validate_and_coerce(type(":int"), json::parse("-9223372036854775808"));
  EXPECT_TRUE(r.ok);
  EXPECT_EQ(r.value.get<std::int64_t>(), std::numeric_limits<std::int64_t>::min());
}

TEST(Int64, MaxPlusOneAsJsonNumber) {
  auto r = ptc::validate(type(":int"), json::parse("9223372036854775808"));
  EXPECT_FALSE(r.ok);
  EXPECT_THAT(r.errors,
              testing::ElementsAre(Issue{
                  "(root)",
                  "expected int in range -9223372036854775808..9223372036854775807, got int 9223372036854775808"}));
}

TEST(Int64, Uint64MaxAsJsonNumber) {
  for (auto dir : {Direction::Input, Direction::Output}) {
    auto r = ptc::validate(type(":int"), json(std::numeric_limits<std::uint64_t>::max()),
                           ValidateOptions{dir, Mode::Enabled});
    EXPECT_FALSE(r.ok);
    EXPECT_THAT(r.errors,
                testing::ElementsAre(Issue{
                    "(root)",
                    "expected int in range -9223372036854775808..9223372036854775807, got int 18446744073709551615"}));
  }
}

TEST(Int64, MaxAsString) {
  auto r = input_arg(":int", "9223372036854775807");
  EXPECT_TRUE(r.ok);
  EXPECT_EQ(r.value["x"].get<std::int64_t>(), std::numeric_limits<std::int64_t>::max());
  EXPECT_THAT(r.warnings, testing::ElementsAre(Issue{"x", "coerced string \"9223372036854775807\" to int"}));
}

TEST(Int64, MinAsString) {
  auto r = input_arg(":int", "-9223372036854775808");
  EXPECT_TRUE(r.ok);
  EXPECT_EQ(r.value["x"].get<std::int64_t>(), std::numeric_limits<std::int64_t>::min());
}

TEST(Int64, OutOfRangeStrings) {
  for (const char* s : {"9223372036854775808", "-9223372036854775809", "99999999999999999999"}) {
    auto r = input_arg(":int", s);
    EXPECT_FALSE(r.ok) << s;
    EXPECT_THAT(r.errors,
                testing::ElementsAre(Issue{
                    "x", std::string("expected int in range -9223372036854775808..9223372036854775807, got string \"") +
                             s + "\""}));
    EXPECT_TRUE(r.warnings.empty());
  }
}

// ---------------------------------------------------------------------------------------------------
// ptc/coercion.hpp directly.

TEST(IntFromString, Accepts) {
  struct Case {
    const char* text;
    std::int64_t value;
  };
  for (auto c : {Case{"42", 42}, Case{"-5", -5}, Case{"0", 0}, Case{"-0", 0},
                 Case{"9223372036854775807", std::numeric_limits<std::int64_t>::max()},
                 Case{"-9223372036854775808", std::numeric_limits<std::int64_t>::min()}}) {
    auto r = co::int_from_string(c.text);
    EXPECT_EQ(r.status, co::Status::Ok) << c.text;
    EXPECT_EQ(r.value, c.value) << c.text;
  }
}

TEST(IntFromString, RejectsAsInvalid) {
  for (const char* s : {"", "-", " 42", "42 ", "4 2", "+5", "3.14", "3.14abc", "1e3", "abc", "0x1F", "--5", "5-"}) {
    EXPECT_EQ(co::int_from_string(s).status, co::Status::Invalid) << '"' << s << '"';
  }
}

TEST(IntFromString, ReportsOutOfRange) {
  for (const char* s :
       {"9223372036854775808", "-9223372036854775809", "99999999999999999999", "18446744073709551615"}) {
    EXPECT_EQ(co::int_from_string(s).status, co::Status::OutOfRange) << s;
  }
}

TEST(FloatFromString, Accepts) {
  EXPECT_EQ(co::float_from_string("3.14"), 3.14);
  EXPECT_EQ(co::float_from_string("-2"), -2.0);
  EXPECT_EQ(co::float_from_string("1e3"), 1000.0);
  EXPECT_EQ(co::float_from_string("1E+3"), 1000.0);
  EXPECT_EQ(co::float_from_string("2.5e-1"), 0.25);
  EXPECT_EQ(co::float_from_string("0"), 0.0);
  EXPECT_EQ(co::float_from_string("0.5"), 0.5);
}

TEST(FloatFromString, Rejects) {
  for (const char* s : {"", "-", ".5", "5.", "01", "1e", "1e+", " 1", "1 ", "+1", "abc", "3.14abc", "NaN", "nan", "inf",
                        "Infinity", "1e400", "0x10", "1,5"}) {
    EXPECT_EQ(co::float_from_string(s), std::nullopt) << '"' << s << '"';
  }
}

TEST(BoolFromString, ExactlyTrueOrFalse) {
  EXPECT_EQ(co::bool_from_string("true"), true);
  EXPECT_EQ(co::bool_from_string("false"), false);
  for (const char* s : {"True", "TRUE", "False", "1", "0", "yes", "", " true", "true "})
    EXPECT_EQ(co::bool_from_string(s), std::nullopt) << '"' << s << '"';
}

TEST(IsWhole, Values) {
  EXPECT_TRUE(co::is_whole(42.0));
  EXPECT_TRUE(co::is_whole(-3.0));
  EXPECT_TRUE(co::is_whole(0.0));
  EXPECT_TRUE(co::is_whole(-9223372036854775808.0));
  EXPECT_FALSE(co::is_whole(9223372036854775808.0));
  EXPECT_FALSE(co::is_whole(42.5));
  EXPECT_FALSE(co::is_whole(NAN));
  EXPECT_FALSE(co::is_whole(INFINITY));
  EXPECT_FALSE(co::is_whole(1e30));
}

TEST(Int64Range, Text) { EXPECT_EQ(co::int64_range(), "-9223372036854775808..9223372036854775807"); }

TEST(Describe, Scalars) {
  EXPECT_EQ(co::describe(json("abc")), "string \"abc\"");
  EXPECT_EQ(co::describe(json("")), "string \"\"");
  EXPECT_EQ(co::describe(json("say \"hi\"")), "string \"say \\\"hi\\\"\"");
  EXPECT_EQ(co::describe(json(5)), "int 5");
  EXPECT_EQ(co::describe(json(-5)), "int -5");
  EXPECT_EQ(co::describe(json(std::numeric_limits<std::uint64_t>::max())), "int 18446744073709551615");
  EXPECT_EQ(co::describe(json(4.5)), "float 4.5");
  EXPECT_EQ(co::describe(json(42.0)), "float 42.0");
  EXPECT_EQ(co::describe(json(NAN)), "float NaN");
  EXPECT_EQ(co::describe(json(INFINITY)), "float Infinity");
  EXPECT_EQ(co::describe(json(-INFINITY)), "float -Infinity");
  EXPECT_EQ(co::describe(json(true)), "bool true");
  EXPECT_EQ(co::describe(json(false)), "bool false");
  EXPECT_EQ(co::describe(json(nullptr)), "nil");
  EXPECT_EQ(co::describe(json::array({1, 2})), "list");
  EXPECT_EQ(co::describe(json::object({{"a", 1}})), "map");
}

TEST(Describe, SixtyFourBytesAreNotCut) {
  std::string s(64, 'a');
  EXPECT_EQ(co::describe(json(s)), "string \"" + s + "\"");
  EXPECT_EQ(co::describe_string(s), "string \"" + s + "\"");
}

TEST(Describe, SixtyFiveBytesAreCut) {
  std::string s(65, 'a');
  EXPECT_EQ(co::describe_string(s), "string \"" + std::string(64, 'a') + "...\" (65 bytes)");
}

TEST(Describe, TenMegabyteStringIsCut) {
  std::string s(10 * 1024 * 1024, 'a');
  const std::string want = "string \"" + std::string(64, 'a') + "...\" (10485760 bytes)";
  EXPECT_EQ(co::describe(json(s)), want);
  EXPECT_EQ(co::describe_string(s), want);
}

TEST(Describe, CutKeepsUtf8Whole) {
  // 63 ASCII bytes then a 2-byte character straddling the 64-byte cut: the character is dropped whole.
  std::string s = std::string(63, 'a') + "\xC3\xA9" + "tail";
  EXPECT_EQ(co::describe_string(s), "string \"" + std::string(63, 'a') + "...\" (69 bytes)");
}

TEST(Describe, TenMegabyteStringInValidationError) {
  std::string s(10 * 1024 * 1024, 'a');
  auto r = ptc::validate(type(":int"), json(s), ValidateOptions{Direction::Input, Mode::Enabled});
  EXPECT_THAT(r.errors, testing::ElementsAre(Issue{"(root)", "expected int, got string \"" + std::string(64, 'a') +
                                                                 "...\" (10485760 bytes)"}));
}

TEST(Expected, Text) {
  EXPECT_EQ(co::expected("int", json("abc")), "expected int, got string \"abc\"");
  EXPECT_EQ(co::expected("float", json(nullptr)), "expected float, got nil");
  EXPECT_EQ(co::expected("list", json::object()), "expected list, got map");
  EXPECT_EQ(co::expected("map", json::array()), "expected map, got list");
}

TEST(Coerced, Text) {
  EXPECT_EQ(co::coerced("42", "int"), "coerced string \"42\" to int");
  EXPECT_EQ(co::coerced("3.14", "float"), "coerced string \"3.14\" to float");
  EXPECT_EQ(co::coerced("true", "bool"), "coerced string \"true\" to bool");
}

}  // namespace
