// ptc::ToolContext: what a handler gets, and what it reaches through its session.
#include <any>
#include <atomic>
#include <chrono>
#include <functional>
#include <future>
#include <memory>
#include <regex>
#include <set>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <ptc/budget.hpp>
#include <ptc/deadline.hpp>
#include <ptc/events.hpp>
#include <ptc/cancellation.hpp>
#include <ptc/heartbeat.hpp>
#include <ptc/resources.hpp>
#include <ptc/run_context.hpp>
#include <ptc/session.hpp>
#include <ptc/filesystem.hpp>
#include <ptc/prompt.hpp>
#include <ptc/tool.hpp>
#include <ptc/tool_context.hpp>

#include "session_fixtures.hpp"

namespace {

using namespace std::chrono_literals;
using namespace ptc_test;

// ---- ToolContext ---------------------------------------------------------------------------------

class ToolContextTest : public ::testing::Test {
 protected:
  ptc::Tool tool = ptc::make_tool("probe", "Probe the context.", "() -> :any");
  ptc::Session session{"ctx-session"};
  ptc::CallEnvironment environment;
};

TEST_F(ToolContextTest, FilesystemWithoutOneThrows) {
  ptc::ToolContext context(tool, session, environment);
  try {
    context.filesystem();
    FAIL() << "no exception";
  } catch (const ptc::MissingResourceError& e) {
    EXPECT_STREQ(e.what(), "No filesystem is registered.");
  }
}

TEST_F(ToolContextTest, BudgetTrackerWithoutOneThrows) {
  ptc::ToolContext context(tool, session, environment);
  try {
    context.budget_tracker();
    FAIL() << "no exception";
  } catch (const ptc::MissingResourceError& e) {
    EXPECT_STREQ(e.what(), "No budget tracker is registered.");
  }
}

TEST_F(ToolContextTest, RegisteredResourcesAreReturned) {
  auto fs = std::make_shared<ptc::InMemoryFilesystem>();
  auto tracker = std::make_shared<ptc::BudgetTracker>(ptc::Budget{std::nullopt, std::nullopt, 5});
  session.resources().add<ptc::Filesystem>(fs);
  session.resources().add(tracker);
  ptc::ToolContext context(tool, session, environment);
  EXPECT_EQ(&context.filesystem(), fs.get());
  EXPECT_EQ(&context.budget_tracker(), tracker.get());
  EXPECT_EQ(&context.resources(), &session.resources());
  context.filesystem().write("n.txt", "hi");
  EXPECT_EQ(fs->read("n.txt"), "hi");
  EXPECT_EQ(context.budget_tracker().budget().max_total_tokens, 5);
}

TEST_F(ToolContextTest, FilesystemRegisteredOnlyUnderItsConcreteTypeIsNotFound) {
  session.resources().add(std::make_shared<ptc::InMemoryFilesystem>());
  ptc::ToolContext context(tool, session, environment);
  EXPECT_THROW(context.filesystem(), ptc::MissingResourceError);
}

TEST_F(ToolContextTest, BeatWithoutAHeartbeatIsANoOp) {
  ptc::ToolContext context(tool, session, environment);
  EXPECT_EQ(context.heartbeat(), nullptr);
  EXPECT_NO_THROW(context.beat());
  EXPECT_EQ(context.heartbeat(), nullptr);
}

TEST_F(ToolContextTest, BeatIncrementsTheHeartbeat) {
  int calls = 0;
  environment.heartbeat = std::make_shared<ptc::Heartbeat>([&calls] { ++calls; });
  ptc::ToolContext context(tool, session, environment);
  EXPECT_EQ(context.heartbeat(), environment.heartbeat.get());
  context.beat();
  context.beat();
  EXPECT_EQ(environment.heartbeat->beats(), 2u);
  EXPECT_EQ(calls, 2);
}

TEST_F(ToolContextTest, ReportProgressReachesTheSinkAndBeats) {
  std::vector<std::string> seen;
  environment.heartbeat = std::make_shared<ptc::Heartbeat>();
  environment.progress = [&](double progress, std::optional<double> total, std::string_view message) {
    seen.push_back(std::to_string(static_cast<int>(progress)) + "/" +
                   (total ? std::to_string(static_cast<int>(*total)) : "?") + " " + std::string(message));
  };
  ptc::ToolContext context(tool, session, environment);
  context.report_progress(1, 3, "first");
  context.report_progress(2);
  EXPECT_EQ(seen, (std::vector<std::string>{"1/3 first", "2/? "}));
  EXPECT_EQ(environment.heartbeat->beats(), 2u);
}

TEST_F(ToolContextTest, ReportProgressWithoutASinkOnlyBeats) {
  environment.heartbeat = std::make_shared<ptc::Heartbeat>();
  ptc::ToolContext context(tool, session, environment);
  context.report_progress(1, 2, "x");
  EXPECT_EQ(environment.heartbeat->beats(), 1u);
}

TEST_F(ToolContextTest, CancelledFollowsTheEnvironmentsSignal) {
  ptc::ToolContext without(tool, session, environment);
  EXPECT_FALSE(without.cancelled());
  EXPECT_EQ(without.cancellation(), nullptr);
  auto signal = std::make_shared<ptc::Cancellation>();
  environment.cancellation = signal;
  ptc::ToolContext context(tool, session, environment);
  EXPECT_FALSE(context.cancelled());
  signal->cancel("client said stop");
  EXPECT_TRUE(context.cancelled());
  EXPECT_EQ(context.cancellation()->reason(), "client said stop");
}

TEST_F(ToolContextTest, AccessorsReturnWhatTheEnvironmentHolds) {
  ptc::Prompt prompt("p", {});
  ptc::RenderedPrompt rendered = prompt.render();
  auto clock = std::make_shared<ptc::ManualClock>(kStart);
  environment.prompt = &prompt;
  environment.rendered_prompt = &rendered;
  environment.adapter = "openai";
  environment.deadline = ptc::Deadline(kStart + 5s, clock);
  environment.run_context = ptc::RunContext{"run-1", "req-1", "ctx-session", 2, "trace-1", "span-1"};

  ptc::ToolContext context(tool, session, environment, "call_abc123");
  EXPECT_EQ(&context.tool(), &tool);
  EXPECT_EQ(context.tool().name(), "probe");
  EXPECT_EQ(context.call_id(), "call_abc123");
  EXPECT_EQ(context.prompt(), &prompt);
  EXPECT_EQ(context.rendered_prompt(), &rendered);
  EXPECT_EQ(context.adapter(), "openai");
  EXPECT_EQ(&context.session(), &session);
  EXPECT_EQ(context.session().id(), "ctx-session");
  ASSERT_TRUE(context.deadline().has_value());
  EXPECT_EQ(context.deadline()->expires_at(), kStart + 5s);
  EXPECT_EQ(context.deadline()->remaining(), 5s);
  clock->advance(5s);
  EXPECT_TRUE(context.deadline()->expired());
  ASSERT_TRUE(context.run_context().has_value());
  EXPECT_EQ(*context.run_context(), (ptc::RunContext{"run-1", "req-1", "ctx-session", 2, "trace-1", "span-1"}));
  EXPECT_EQ(context.run_context()->attempt, 2);
}

TEST_F(ToolContextTest, DefaultsOfAnEmptyEnvironment) {
  ptc::ToolContext context(tool, session, environment);
  EXPECT_EQ(context.call_id(), "");
  EXPECT_EQ(context.prompt(), nullptr);
  EXPECT_EQ(context.rendered_prompt(), nullptr);
  EXPECT_EQ(context.adapter(), "");
  EXPECT_FALSE(context.deadline().has_value());
  EXPECT_FALSE(context.run_context().has_value());
}

TEST_F(ToolContextTest, TheContextSeesLaterChangesToTheEnvironment) {
  // ToolContext holds the environment by reference.
  ptc::ToolContext context(tool, session, environment);
  environment.adapter = "anthropic";
  EXPECT_EQ(context.adapter(), "anthropic");
}

TEST_F(ToolContextTest, HandlersPublishOnTheSessionDispatcher) {
  session.record_events<Note>();
  ptc::ToolContext context(tool, session, environment);
  context.session().events().publish(Note{"from handler"});
  auto notes = session.log<Note>();
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_EQ(notes[0].text, "from handler");
}

}  // namespace
