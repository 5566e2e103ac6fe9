// Agent::run<T>: the answer as a C++ value, through T's schema and codec.
#include <ptc/agent/typed.hpp>

#include <map>
#include <optional>
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <ptc/agent/testing.hpp>

namespace {

using namespace ptc::agent;

TEST(TypedRun, TheAnswerIsDecodedIntoTheType) {
  ptc::ToolRegistry registry;
  ScriptedModel model({ScriptedModel::answer(R"(Sure: {"apples": "3", "pears": 0})")});
  Agent agent(model, registry);
  TypedRunResult<std::map<std::string, int>> r = agent.run<std::map<std::string, int>>("count");
  ASSERT_TRUE(r.ok()) << r.error->message;
  ASSERT_TRUE(r.answer);
  EXPECT_EQ(*r.answer, (std::map<std::string, int>{{"apples", 3}, {"pears", 0}}));
  EXPECT_THAT(r.warnings, ::testing::Contains(::testing::HasSubstr("coerced string \"3\" to int")));
  // The model was told the type in signature syntax.
  EXPECT_THAT(model.requests()[0].conversation.messages[0].text, ::testing::HasSubstr("[:map-of :string :int]"));
}

TEST(TypedRun, AnAnswerOutsideTheTypesRangeIsAskedAgain) {
  ptc::ToolRegistry registry;
  // 300 does not fit an std::uint8_t: its schema says so, and the model is asked again.
  ScriptedModel model({ScriptedModel::answer("[1, 300]"), ScriptedModel::answer("[1, 200]")});
  Agent agent(model, registry);
  auto r = agent.run<std::vector<std::uint8_t>>("bytes");
  ASSERT_TRUE(r.ok()) << r.error->message;
  EXPECT_EQ(*r.answer, (std::vector<std::uint8_t>{1, 200}));
  EXPECT_THAT(model.requests()[1].conversation.messages.back().text, ::testing::HasSubstr("[1]"));
  model.assert_complete();
}

TEST(TypedRun, ARunThatFailsHasNoAnswer) {
  ptc::ToolRegistry registry;
  ScriptedModel model({ScriptedModel::answer("no"), ScriptedModel::answer("no"), ScriptedModel::answer("no")});
  Agent agent(model, registry);
  auto r = agent.run<std::optional<int>>("n");
  EXPECT_FALSE(r.ok());
  EXPECT_FALSE(r.answer);
  EXPECT_EQ(r.error->kind, RunError::Kind::answer_invalid);
}

}  // namespace
