// schema_of: every C++ type category of docs/codecs.md, "Types", and every constraint.

#include <cstdint>
#include <limits>

#include <gtest/gtest.h>

#include <ptc/signature.hpp>

#include "model/schema.hpp"
#include "model_fixture.hpp"

namespace ptcgen::test {
namespace {

std::string malli(const Type& t, const model::HeaderModel& h = shop_model()) {
  return ptc::to_malli(model::schema_of(t, h));
}

TEST(SchemaOf, Primitives) {
  EXPECT_EQ(malli(string_type()), ":string");
  EXPECT_EQ(malli(string_view_type()), ":string");
  EXPECT_EQ(malli(bool_type()), ":boolean");
  EXPECT_EQ(malli(int_type()), ":int");
  EXPECT_EQ(malli(int_type("std::uint8_t", 8, false)), "[:and :int [:>= 0] [:<= 255]]");
  EXPECT_EQ(malli(int_type("std::int16_t", 16, true)), "[:and :int [:>= -32768] [:<= 32767]]");
  EXPECT_EQ(malli(int_type("std::int32_t", 32, true)), ":int");
  EXPECT_EQ(malli(int_type("std::uint32_t", 32, false)), "[:and :int [:>= 0]]");
  EXPECT_EQ(malli(size_type()), "[:and :int [:>= 0]]");
  EXPECT_EQ(malli(double_type()), ":double");
  EXPECT_EQ(malli(type(TypeKind::Float, "float")), ":double");
}

TEST(SchemaOf, EnumIsItsEnumeratorNames) {
  EXPECT_EQ(malli(named(TypeKind::Enum, "shop::Priority")), R"([:enum "low" "high"])");
}

TEST(SchemaOf, StructIsAMapWithDocsOptionalFieldsAndConstraints) {
  EXPECT_EQ(malli(named(TypeKind::Struct, "shop::Issue")),
            R"([:map [:id {:doc "Tracker-wide id"} :int] [:title [:and :string [:re "^[A-Z]"]]] )"
            R"([:assignee {:optional true} [:maybe :string]] [:_email :string]])");
}

TEST(SchemaOf, Containers) {
  EXPECT_EQ(malli(vector_of(int_type())), "[:vector :int]");
  EXPECT_EQ(malli(type(TypeKind::Sequence, "std::span<const int>", {int_type()})), "[:vector :int]");
  Type array = type(TypeKind::Array, "std::array<double, 3>", {double_type()});
  array.array_size = 3;
  EXPECT_EQ(malli(array), "[:vector {:min 3 :max 3} :double]");
  EXPECT_EQ(malli(type(TypeKind::Set, "std::set<std::string>", {string_type()})), "[:set :string]");
  EXPECT_EQ(malli(type(TypeKind::Map, "std::map<std::string, int>", {int_type()})), "[:map-of :string :int]");
  EXPECT_EQ(malli(optional_of(int_type())), "[:maybe :int]");
  Type unique = type(TypeKind::Optional, "std::unique_ptr<::shop::Issue>", {named(TypeKind::Struct, "shop::Issue")});
  unique.wrapper = "std::unique_ptr";
  EXPECT_EQ(ptc::render(model::schema_of(unique, shop_model())),
            "{id :int, title [:and :string [:re \"^[A-Z]\"]], assignee :string?, _email :string}?");
}

TEST(SchemaOf, VariantTupleAndNil) {
  const Type monostate = type(TypeKind::Monostate, "std::monostate");
  EXPECT_EQ(malli(type(TypeKind::Variant, "std::variant<std::monostate, int, std::string>",
                       {monostate, int_type(), string_type()})),
            "[:or :nil :int :string]");
  EXPECT_EQ(malli(type(TypeKind::Tuple, "std::pair<int, std::string>", {int_type(), string_type()})),
            "[:tuple :int :string]");
  EXPECT_EQ(malli(monostate), ":nil");
  EXPECT_EQ(malli(void_type()), ":nil");
}

TEST(SchemaOf, TimeTypes) {
  EXPECT_EQ(malli(type(TypeKind::TimePoint, "std::chrono::system_clock::time_point")),
            R"([:string {:format "date-time"}])");
  EXPECT_EQ(malli(type(TypeKind::Date, "std::chrono::year_month_day")), R"([:string {:format "date"}])");
  EXPECT_EQ(malli(type(TypeKind::Duration, "std::chrono::milliseconds")), ":int");
}

TEST(SchemaOf, ExpectedJsonAndCutOffStructs) {
  EXPECT_EQ(malli(type(TypeKind::Expected, "std::expected<int, std::string>", {int_type(), string_type()})),
            "[:map [:result :int] [:error {:optional true} [:maybe :string]]]");
  EXPECT_EQ(malli(type(TypeKind::Json, "nlohmann::json")), ":any");
  EXPECT_EQ(malli(named(TypeKind::Recursive, "shop::Issue")), ":any");
  EXPECT_EQ(malli(named(TypeKind::DepthLimit, "shop::Issue")), "[:map-of :keyword :any]");
}

TEST(SchemaOf, UnknownNamesAreModelErrors) {
  EXPECT_THROW(model::schema_of(named(TypeKind::Struct, "shop::Nope"), shop_model()), ptc::Exception);
  EXPECT_THROW(model::schema_of(named(TypeKind::Enum, "shop::Nope"), shop_model()), ptc::Exception);
  EXPECT_THROW(model::schema_of(type(TypeKind::Sequence, "std::vector<?>"), shop_model()), ptc::Exception);
}

std::string constrained(const Type& t, model::Constraints c) {
  return ptc::to_malli(model::value_schema(t, c, shop_model()));
}

TEST(ValueSchema, RangeAndPattern) {
  model::Constraints range;
  range.min = 1;
  range.max = 50;
  EXPECT_EQ(constrained(int_type(), range), "[:and :int [:>= 1] [:<= 50]]");
  model::Constraints fractions;
  fractions.min = 0.0;
  fractions.max = 0.5;
  EXPECT_EQ(constrained(double_type(), fractions), "[:and :double [:>= 0.0] [:<= 0.5]]");
  model::Constraints at_most;
  at_most.max = 9;
  EXPECT_EQ(constrained(int_type(), at_most), "[:and :int [:<= 9]]");
  model::Constraints pattern;
  pattern.pattern = "^[a-z]+$";
  EXPECT_EQ(constrained(string_view_type(), pattern), R"([:and :string [:re "^[a-z]+$"]])");
}

TEST(ValueSchema, ARangeTightensTheUnsignedLowerBound) {
  model::Constraints range;
  range.min = 1;
  range.max = 10;
  EXPECT_EQ(constrained(size_type(), range), "[:and :int [:>= 1] [:<= 10]]");
  model::Constraints at_most;
  at_most.max = 10;
  EXPECT_EQ(constrained(size_type(), at_most), "[:and :int [:>= 0] [:<= 10]]");
}

TEST(ValueSchema, BoundsBeyondInt64OnIntegersStayIntegers) {
  model::Constraints all;
  all.min = 0;
  all.max = std::numeric_limits<std::uint64_t>::max();
  EXPECT_EQ(constrained(int_type("std::uint64_t", 64, false), all), "[:and :int [:>= 0] [:<= 9223372036854775807]]");
  model::Constraints high;
  high.min = std::uint64_t{1} << 63;
  try {
    model::value_schema(int_type("std::uint64_t", 64, false), high, shop_model());
    FAIL();
  } catch (const ptc::Exception& e) {
    EXPECT_EQ(e.error().message,
              "PTC_RANGE's lower bound 9223372036854775808 is beyond int64 (:int): no value would pass");
  }
  // A float's bounds are floats.
  EXPECT_EQ(constrained(double_type(), all), "[:and :double [:>= 0] [:<= 1.8446744073709552e+19]]");
}

TEST(ValueSchema, ARangeKeepsTheTighterOfItsBoundsAndTheTypes) {
  model::Constraints range;
  range.min = 1;
  range.max = 1000;
  EXPECT_EQ(constrained(int_type("std::uint8_t", 8, false), range), "[:and :int [:>= 1] [:<= 255]]");
}

TEST(ValueSchema, OptionalTypesAreRefinedInside) {
  model::Constraints range;
  range.min = 1;
  EXPECT_EQ(constrained(optional_of(int_type()), range), "[:and :int [:>= 1]]");
  EXPECT_EQ(constrained(optional_of(int_type()), {}), ":int");
}

TEST(ValueSchema, ConstraintsOnTheWrongTypeAreErrors) {
  model::Constraints range;
  range.min = 1;
  try {
    model::value_schema(string_type(), range, shop_model());
    FAIL();
  } catch (const ptc::Exception& e) {
    EXPECT_EQ(e.error().message, "PTC_RANGE refines numbers, not :string");
  }
  model::Constraints pattern;
  pattern.pattern = "x";
  try {
    model::value_schema(int_type(), pattern, shop_model());
    FAIL();
  } catch (const ptc::Exception& e) {
    EXPECT_EQ(e.error().message, "PTC_PATTERN refines strings, not :int");
  }
  pattern.pattern = "(";
  try {
    model::value_schema(string_type(), pattern, shop_model());
    FAIL();
  } catch (const ptc::Exception& e) {
    EXPECT_EQ(e.error().message.rfind("PTC_PATTERN \"(\" is not valid RE2: ", 0), 0u) << e.error().message;
  }
}

}  // namespace
}  // namespace ptcgen::test
