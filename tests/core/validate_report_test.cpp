// Validation::report(): the text fed back to the LLM (docs/validation.md, spec/signature-syntax.md
// "Error Messages", spec/type-coercion-matrix.md "Error Format").

#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <ptc/error.hpp>
#include <ptc/signature.hpp>
#include <ptc/validate.hpp>

namespace {

using json = nlohmann::json;
using ptc::Direction;
using ptc::Issue;
using ptc::Mode;
using ptc::Validation;
using ptc::ValidateOptions;

TEST(Report, EmptyWhenNothingToReport) {
  Validation v;
  EXPECT_EQ(v.report(), "");
  auto r = ptc::validate(ptc::parse_type(":int").value(), json(1));
  EXPECT_EQ(r.report(), "");
}

TEST(Report, ErrorsOnly) {
  Validation v;
  v.ok = false;
  v.errors = {Issue{"results[0].customer.id", "expected int, got string \"abc\""},
              Issue{"results[2].amount", "expected float, got nil"}};
  EXPECT_EQ(v.report(),
            "Tool validation errors:\n"
            "- results[0].customer.id: expected int, got string \"abc\"\n"
            "- results[2].amount: expected float, got nil\n");
}

TEST(Report, WarningsOnly) {
  Validation v;
  v.warnings = {Issue{"limit", "coerced string \"10\" to int"}};
  EXPECT_EQ(v.report(),
            "Tool validation warnings:\n"
            "- limit: coerced string \"10\" to int\n");
}

TEST(Report, ErrorsThenBlankLineThenWarnings) {
  Validation v;
  v.ok = false;
  v.errors = {Issue{"results[0].customer.id", "expected int, got string \"abc\""},
              Issue{"results[2].amount", "expected float, got nil"},
              Issue{"metadata.timestamp", "expected string, got int 1703849400"}};
  v.warnings = {Issue{"limit", "coerced string \"10\" to int"}, Issue{"user_id", "coerced string \"42\" to int"}};
  EXPECT_EQ(v.report(),
            "Tool validation errors:\n"
            "- results[0].customer.id: expected int, got string \"abc\"\n"
            "- results[2].amount: expected float, got nil\n"
            "- metadata.timestamp: expected string, got int 1703849400\n"
            "\n"
            "Tool validation warnings:\n"
            "- limit: coerced string \"10\" to int\n"
            "- user_id: coerced string \"42\" to int\n");
}

TEST(Report, SpecExampleEndToEnd) {
  // The example of spec/type-coercion-matrix.md "Error Format", produced by a real validation.
  auto sig = ptc::Signature::parse(
                 "(limit :int, user_id :int, results [{customer {id :int}, amount :float}], "
                 "metadata {timestamp :string}) -> :any")
                 .value();
  json args = json::parse(R"({
    "limit": "10",
    "user_id": "42",
    "results": [{"customer": {"id": "abc"}, "amount": 1.5},
                {"customer": {"id": 2}, "amount": 2},
                {"customer": {"id": 3}, "amount": null}],
    "metadata": {"timestamp": 1703849400}
  })");
  auto r = ptc::validate_and_coerce(sig.input(), args, ValidateOptions{Direction::Input, Mode::Enabled});
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.report(),
            "Tool validation errors:\n"
            "- results[0].customer.id: expected int, got string \"abc\"\n"
            "- results[2].amount: expected float, got nil\n"
            "- metadata.timestamp: expected string, got int 1703849400\n"
            "\n"
            "Tool validation warnings:\n"
            "- limit: coerced string \"10\" to int\n"
            "- user_id: coerced string \"42\" to int\n");
}

TEST(Report, RootPath) {
  auto r = ptc::validate(ptc::parse_type(":int").value(), json("abc"));
  EXPECT_EQ(r.report(), "Tool validation errors:\n- (root): expected int, got string \"abc\"\n");
}

TEST(Report, WarnOnlyPutsErrorsUnderWarnings) {
  auto r = ptc::validate(ptc::parse_type("{id :int, n :int}").value(), json{{"id", "x"}, {"n", "3"}},
                         ValidateOptions{Direction::Input, Mode::WarnOnly});
  EXPECT_TRUE(r.ok);
  EXPECT_EQ(r.report(),
            "Tool validation warnings:\n"
            "- id: expected int, got string \"x\"\n"
            "- n: coerced string \"3\" to int\n");
}

TEST(Report, StrictUnexpectedAndMissing) {
  auto r = ptc::validate(ptc::parse_type("{id :int}").value(), json{{"extra", 1}},
                         ValidateOptions{Direction::Output, Mode::Strict});
  EXPECT_EQ(r.report(),
            "Tool validation errors:\n"
            "- id: missing required field\n"
            "- extra: unexpected field\n");
}

TEST(Report, QuotedKeyPath) {
  auto r = ptc::validate(ptc::parse_type("[:map-of :string :int]").value(), json{{"a b", true}});
  EXPECT_EQ(r.report(), "Tool validation errors:\n- [\"a b\"]: expected int, got bool true\n");
}

TEST(Report, DisabledIsEmpty) {
  auto r = ptc::validate(ptc::parse_type("{id :int}").value(), json("nonsense"),
                         ValidateOptions{Direction::Input, Mode::Disabled});
  EXPECT_EQ(r.report(), "");
}

}  // namespace
