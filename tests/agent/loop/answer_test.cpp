// Reading a typed answer out of what models write, and the feedback that asks again.
#include "answer.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <ptc/signature.hpp>

namespace {

using namespace ptc::agent::detail;
using nlohmann::json;
using ::testing::ElementsAre;

ptc::Schema type(const char* shorthand) { return ptc::parse_type(shorthand).value(); }

TEST(ReadAnswer, TakesTheWholeTextWhenItIsJson) {
  auto r = read_answer("  {\"a\": 1}\n", type("{a :int}"));
  ASSERT_TRUE(r);
  EXPECT_EQ(r->value, (json{{"a", 1}}));
  EXPECT_TRUE(r->warnings.empty());
}

TEST(ReadAnswer, ReadsAMarkdownFenceAndSaysSo) {
  auto r = read_answer("Sure!\n```json\n[1, 2]\n```\nAnything else?", type("[:int]"));
  ASSERT_TRUE(r);
  EXPECT_EQ(r->value, json::array({1, 2}));
  EXPECT_THAT(r->warnings, ElementsAre("the value was read from a markdown code block"));
}

TEST(ReadAnswer, ReadsJsonWithProseAroundIt) {
  auto r = read_answer("The answer is {\"ok\": true}. Hope that helps.", type("{ok :bool}"));
  ASSERT_TRUE(r);
  EXPECT_EQ(r->value, (json{{"ok", true}}));
  EXPECT_THAT(r->warnings, ElementsAre("text around the JSON value was ignored"));
}

TEST(ReadAnswer, UnwrapsAJsonStringHoldingTheValue) {
  auto r = read_answer(R"("{\"a\": 2}")", type("{a :int}"));
  ASSERT_TRUE(r);
  EXPECT_EQ(r->value, (json{{"a", 2}}));
  EXPECT_THAT(r->warnings, ElementsAre("the answer was a JSON string holding the value"));
  // A string answer keeps a JSON string as the string it is.
  auto s = read_answer(R"("{\"a\": 2}")", type(":string"));
  ASSERT_TRUE(s);
  EXPECT_EQ(s->value, "{\"a\": 2}");
}

TEST(ReadAnswer, PlainTextIsAStringAnswerAndNothingElse) {
  auto s = read_answer("Paris", type(":string"));
  ASSERT_TRUE(s);
  EXPECT_EQ(s->value, "Paris");
  auto n = read_answer("Paris", type(":int"));
  ASSERT_FALSE(n);
  EXPECT_EQ(n.error().message, "the answer holds no JSON value");
  EXPECT_FALSE(read_answer("{ not json }", type("{a :int}")));
  EXPECT_FALSE(read_answer("", type("{a :int}")));
}

TEST(ReadAnswer, NestingBeyondTheLimitIsRefusedNotACrash) {
  const std::string deep = std::string(100000, '[') + std::string(100000, ']');
  EXPECT_FALSE(read_answer(deep, type("[:any]")));
  EXPECT_FALSE(read_answer("text " + deep + " text", type("[:any]")));
}

TEST(CheckAnswer, CoercesWhatModelsSendWithWarnings) {
  CheckedAnswer c = check_answer("{\"n\": \"7\", \"ok\": \"true\"}", type("{n :int, ok :bool}"));
  EXPECT_TRUE(c.ok);
  EXPECT_EQ(c.value, (json{{"n", 7}, {"ok", true}}));
  EXPECT_EQ(c.warnings.size(), 2u);
}

TEST(CheckAnswer, FeedbackNamesThePathsTheTypeAndTheRetry) {
  CheckedAnswer c = check_answer("{\"items\": [{\"id\": \"x\"}]}", type("{items [{id :int}], total :int}"));
  ASSERT_FALSE(c.ok);
  EXPECT_EQ(answer_feedback(c, type("{items [{id :int}], total :int}"), 1, 2),
            "Your answer does not match the expected type (retry 1 of 2).\n"
            "Expected: {items [{id :int}], total :int}\n"
            "Errors:\n"
            "- items[0].id: expected int, got string \"x\"\n"
            "- total: missing required field\n"
            "Answer again with only the corrected JSON value. No tools are available in this turn.");
}

TEST(CheckAnswer, ListsAtMostTheReportedErrorsAndCountsTheRest) {
  std::string many = "[";
  for (int i = 0; i < 30; ++i) many += std::string(i ? "," : "") + "\"x\"";
  many += "]";
  CheckedAnswer c = check_answer(many, type("[:int]"));
  ASSERT_FALSE(c.ok);
  EXPECT_EQ(c.errors.size(), 20u);
  EXPECT_EQ(c.more_errors, 10u);
  EXPECT_THAT(answer_feedback(c, type("[:int]"), 2, 2), ::testing::HasSubstr("- ... and 10 more\n"));
}

}  // namespace
