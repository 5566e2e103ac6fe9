// Validation::report(): the text fed back to the LLM (docs/validation.md, spec/signature-syntax.md
// "Error Messages", spec/type-coercion-matrix.md "Error Format").

#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <ptc/error.hpp>
#include <ptc/limits.hpp>
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

namespace {

// One bad call must not flood the model's context: the first ptc::limits::kReportedErrors issues of
// each section, then one line counting the rest.
TEST(Report, EachSectionIsCappedWithALineCountingTheRest) {
  Validation v;
  for (int i = 0; i < 57; ++i) v.errors.push_back(Issue{"[" + std::to_string(i) + "]", "expected int, got nil"});
  for (int i = 0; i < 3; ++i) v.warnings.push_back(Issue{"w" + std::to_string(i), "coerced"});
  std::string expected = "Tool validation errors:\n";
  for (int i = 0; i < 20; ++i) expected += "- [" + std::to_string(i) + "]: expected int, got nil\n";
  expected += "- ... and 37 more\n\nTool validation warnings:\n- w0: coerced\n- w1: coerced\n- w2: coerced\n";
  EXPECT_EQ(v.report(), expected);
  EXPECT_EQ(ptc::limits::kReportedErrors, 20u);
}

TEST(Report, AnUndeclaredArgumentIsIgnoredWithASuggestionOrRefusedWhenStrict) {
  auto sig = ptc::Signature::parse("(city :string, days :int?, max_price :float?) -> :nil").value();
  const ptc::ValidateOptions tool_arguments{Direction::Input, Mode::Enabled, /*drop_undeclared=*/true};
  auto r = ptc::validate_and_coerce(sig.input(), json{{"city", "Oslo"}, {"dayz", 1}, {"MaxPrice", 3}, {"zzz", 0}},
                                    tool_arguments);
  EXPECT_TRUE(r.ok);
  EXPECT_EQ(r.value, (json{{"city", "Oslo"}}));
  EXPECT_EQ(r.warnings, (std::vector<Issue>{{"MaxPrice", "unexpected field (ignored); did you mean 'max_price'?"},
                                            {"dayz", "unexpected field (ignored); did you mean 'days'?"},
                                            {"zzz", "unexpected field (ignored)"}}));
  auto strict =
      ptc::validate_and_coerce(sig.input(), json{{"city", "Oslo"}, {"dayz", 1}}, {Direction::Input, Mode::Strict});
  EXPECT_FALSE(strict.ok);
  EXPECT_EQ(strict.errors, (std::vector<Issue>{{"dayz", "unexpected field"}}));
}

}  // namespace

namespace {

// A Validation stores the first ptc::limits::kStoredIssues issues of a list and counts the others; the
// report counts them all, so its text is the one every issue stored gave.
TEST(Report, IssuesPastTheStoredCapAreCountedAndReportedExactly) {
  Validation v;
  for (int i = 0; i < 57; ++i) v.add_error(Issue{"[" + std::to_string(i) + "]", "expected int, got nil"});
  for (int i = 0; i < 5000; ++i) v.add_warning(Issue{"w" + std::to_string(i), "coerced"});
  EXPECT_EQ(v.errors.size(), 57u);
  EXPECT_EQ(v.more_errors, 0u);
  EXPECT_EQ(v.warnings.size(), ptc::limits::kStoredIssues);
  EXPECT_EQ(v.more_warnings, 5000 - ptc::limits::kStoredIssues);
  EXPECT_EQ(v.warning_count(), 5000u);
  EXPECT_EQ(v.warnings.back().path, "w" + std::to_string(ptc::limits::kStoredIssues - 1));
  std::string expected = "Tool validation errors:\n";
  for (int i = 0; i < 20; ++i) expected += "- [" + std::to_string(i) + "]: expected int, got nil\n";
  expected += "- ... and 37 more\n\nTool validation warnings:\n";
  for (int i = 0; i < 20; ++i) expected += "- w" + std::to_string(i) + ": coerced\n";
  expected += "- ... and 4980 more\n";
  EXPECT_EQ(v.report(), expected);
  // Once one was counted, later ones are counted too: those stored stay the first.
  v.warnings.pop_back();
  v.add_warning(Issue{"late", "coerced"});
  EXPECT_EQ(v.warnings.size(), ptc::limits::kStoredIssues - 1);
  EXPECT_EQ(v.warning_count(), 5000u);
  static_assert(ptc::limits::kStoredIssues >= ptc::limits::kReportedErrors);
}

}  // namespace
