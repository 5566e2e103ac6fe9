// Markdown commands served as prompts: their params as the prompts' arguments, their bodies rendered
// with them through dispatch (lenient), and the commands left out with the reason.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <ptc/command_prompts.hpp>
#include <ptc/command_registry.hpp>
#include <ptc/session.hpp>

#include "command_test_support.hpp"

namespace {

using nlohmann::json;
using ptc::test::command_text;

class CommandPrompts : public ::testing::Test {
 protected:
  std::unique_ptr<ptc::CommandRegistry> open() {
    auto r = ptc::CommandRegistry::open({dir / "global", dir / "project", std::nullopt, nullptr});
    if (!r) throw std::runtime_error(r.error().message);
    return std::move(*r);
  }
  ptc::test::TempDir dir;
};

TEST_F(CommandPrompts, EachCommandIsAPromptThatRendersItsBody) {
  dir.write("project/commands/review.md",
            command_text("name: review\ndescription: Review a pull request\njido:\n  schema:\n"
                         "    pr: {type: integer, required: true}\n    focus: {type: string, default: security}\n",
                         "Review PR {{pr}} with a focus on {{focus}}.\n"));
  dir.write("project/commands/plain.md", command_text("name: plain\ndescription: No params\n", "Just do it.\n"));
  auto commands = open();
  ptc::ToolRegistry registry;
  EXPECT_TRUE(ptc::add_command_prompts(*commands, registry).empty());
  auto prompts = registry.prompts();
  ASSERT_EQ(prompts.size(), 2u);
  EXPECT_EQ(prompts[0].name(), "plain");
  auto review = registry.find_prompt("review");
  ASSERT_TRUE(review);
  EXPECT_EQ(review->description(), "Review a pull request");
  const auto& input = review->renderer().input();
  ASSERT_TRUE(input.find("pr"));
  EXPECT_FALSE(input.find("pr")->optional);

  ptc::Session session;
  ptc::ToolCall call{"1", "review", json{{"pr", "42"}}};  // a client sends strings
  auto outcome = registry.dispatch_reader(session, review->renderer(), call);
  ASSERT_TRUE(outcome.success()) << outcome.rendered;
  EXPECT_EQ(**outcome.visible_value, "Review PR 42 with a focus on security.\n");
  auto missing = registry.dispatch_reader(session, review->renderer(), ptc::ToolCall{"2", "review", json::object()});
  EXPECT_EQ(missing.status, ptc::CallStatus::InvalidArguments);
  EXPECT_NE(missing.rendered.find("pr: missing required field"), std::string::npos) << missing.rendered;
}

TEST_F(CommandPrompts, ANameTakenOrNotAllowedIsLeftOutWithTheReason) {
  dir.write("project/commands/triage.md", command_text("name: triage\ndescription: Triage\n"));
  dir.write("project/commands/odd.md", command_text("name: Odd.Name\ndescription: Odd\n"));
  auto commands = open();
  ptc::ToolRegistry registry;
  registry.add_prompt(ptc::make_prompt("triage", "Ours.", "() -> :string",
                                       [](const json&, ptc::ToolContext&) { return ptc::ToolResult<json>::ok("x"); }));
  auto skipped = ptc::add_command_prompts(*commands, registry);
  ASSERT_EQ(skipped.size(), 2u);
  EXPECT_EQ(skipped[0].rfind("Odd.Name: ", 0), 0u) << skipped[0];
  EXPECT_EQ(skipped[1], "triage: a prompt of that name is registered already");
  EXPECT_EQ(registry.find_prompt("triage")->description(), "Ours.");
}

}  // namespace
