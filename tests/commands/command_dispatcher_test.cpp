// The dispatcher: every command.invoke payload rule, the invocation id it answers with, the settings
// permissions it enforces, and command.completed / command.failed.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <ptc/command_dispatcher.hpp>

#include "command_test_support.hpp"

namespace {

using nlohmann::json;
using ptc::Signal;
using ::testing::ElementsAre;

class Dispatcher : public ::testing::Test {
 protected:
  Dispatcher() {
    dir.write("project/commands/review.md",
              ptc::test::command_text("name: review\ndescription: Review\nallowed-tools: Read, Bash(git diff:*)\n"
                                      "jido:\n  schema:\n    pr: {type: integer, required: true}\n",
                                      "Review #{{pr}}"));
    dir.write("project/commands/explode.md",
              ptc::test::command_text("name: explode\ndescription: Fails\njido: {command_module: Explode}\n"));
    registry = ptc::CommandRegistry::open({dir / "global", dir / "project", std::nullopt, &bus}).value();
    executors.add("Explode",
                  [](const ptc::CommandInvocation&) -> ptc::Result<json> { throw std::runtime_error("kaboom"); });
    dispatcher = std::make_unique<ptc::CommandDispatcher>(
        bus, *registry, executors,
        ptc::CommandDispatcherOptions{{{"Read", "Write"}, {"Bash(rm:*)"}, {"Bash(git diff:*)"}}, 2});
  }

  // Publishes command.invoke with `data` and returns the answer (completed or failed).
  Signal answer(const json& data, const std::string& signal_id = "sig-1") {
    std::size_t before = answers().size();
    bus.publish(Signal{signal_id, "command.invoke", "/test", "t", data});
    dispatcher->wait_idle();
    auto after = answers();
    EXPECT_EQ(after.size(), before + 1);
    return after.back();
  }
  std::vector<Signal> answers() const {
    auto all = log.all();
    std::erase_if(all, [](const Signal& s) { return s.type != "command.completed" && s.type != "command.failed"; });
    return all;
  }
  // The error of a payload the dispatcher rejects.
  std::string rejection(const json& data) {
    auto s = answer(data);
    EXPECT_EQ(s.type, "command.failed");
    return s.data["error"];
  }

  ptc::test::TempDir dir;
  ptc::SignalBus bus;
  ptc::test::SignalLog log{bus};
  std::unique_ptr<ptc::CommandRegistry> registry;
  ptc::CommandExecutors executors;
  std::unique_ptr<ptc::CommandDispatcher> dispatcher;
};

TEST_F(Dispatcher, RunsTheCommandAndPublishesCompleted) {
  auto s = answer({{"name", "review"}, {"params", {{"pr", "12"}}}, {"invocation_id", "inv-12"}});
  EXPECT_EQ(s.type, "command.completed");
  EXPECT_EQ(s.source, "/dispatcher");
  EXPECT_EQ(s.data["name"], "review");
  EXPECT_EQ(s.data["invocation_id"], "inv-12");
  const json& outcome = s.data["result"];
  EXPECT_EQ(outcome["invocation_id"], "inv-12");
  EXPECT_EQ(outcome["result"]["prompt"], "Review #12");
  EXPECT_EQ(outcome["result"]["params"], (json{{"pr", 12}}));
  EXPECT_THAT(log.types(), ElementsAre("command.invoke", "command.completed"));
}

// Narrowing removes allows only: the settings' deny rule survives although the command does not list Bash.
TEST_F(Dispatcher, EnforcesTheSettingsPermissionsNarrowedToTheAllowedTools) {
  auto s = answer({{"name", "review"},
                   {"params", {{"pr", 1}}},
                   {"context", {{"permissions", {{"allow", {"Bash"}}}}, {"user", "ann"}}}});
  EXPECT_EQ(s.data["result"]["result"]["permissions"],
            json::parse(R"js({"allow":["Read"],"deny":["Bash(rm:*)"],"ask":["Bash(git diff:*)"]})js"));
}

TEST_F(Dispatcher, TheInvocationIdIsThePayloadsThenTheSignalsThenAFreshOne) {
  EXPECT_EQ(answer({{"name", "review"}, {"params", {{"pr", 1}}}, {"invocation_id", " given "}}).data["invocation_id"],
            "given");
}

TEST_F(Dispatcher, WithoutAPayloadIdTheSignalIdIsUsed) {
  EXPECT_EQ(answer({{"name", "review"}, {"params", {{"pr", 1}}}}, "sig-77").data["invocation_id"], "sig-77");
}

TEST_F(Dispatcher, WithoutAnyIdAFreshOneIsMade) {
  std::string id = answer({{"name", "review"}, {"params", {{"pr", 1}}}}, "  ").data["invocation_id"];
  EXPECT_EQ(id.size(), 36u);
}

TEST_F(Dispatcher, DataMustBeAnObject) {
  auto s = answer(json::array({1, 2}), "sig-9");
  EXPECT_EQ(s.type, "command.failed");
  EXPECT_EQ(s.data, (json{{"name", "<invalid>"},
                          {"invocation_id", "sig-9"},
                          {"error", "invalid command.invoke payload: data must be an object"}}));
}

TEST_F(Dispatcher, NameMustBeANonEmptyString) {
  EXPECT_EQ(rejection({{"params", json::object()}}), "invalid command.invoke payload: name is required");
  EXPECT_EQ(rejection({{"name", "  "}, {"params", json::object()}}),
            "invalid command.invoke payload: name must be a non-empty string");
  EXPECT_EQ(rejection({{"name", 5}, {"params", json::object()}}),
            "invalid command.invoke payload: name must be a non-empty string");
}

TEST_F(Dispatcher, ParamsAreRequiredAndAnObject) {
  auto s = answer({{"name", "review"}, {"invocation_id", "inv-p"}});
  EXPECT_EQ(s.data, (json{{"name", "review"},
                          {"invocation_id", "inv-p"},
                          {"error", "invalid command.invoke payload: params is required"}}));
  EXPECT_EQ(rejection({{"name", "review"}, {"params", "pr=1"}}),
            "invalid command.invoke payload: params must be an object");
  EXPECT_EQ(rejection({{"name", "review"}, {"params", nullptr}}),
            "invalid command.invoke payload: params must be an object");
}

TEST_F(Dispatcher, ContextMustBeAnObjectWhenGiven) {
  EXPECT_EQ(rejection({{"name", "review"}, {"params", json::object()}, {"context", json::array()}}),
            "invalid command.invoke payload: context must be an object when given");
  EXPECT_EQ(rejection({{"name", "review"}, {"params", json::object()}, {"context", nullptr}}),
            "invalid command.invoke payload: context must be an object when given");
}

TEST_F(Dispatcher, InvocationIdMustBeANonEmptyStringWhenGiven) {
  EXPECT_EQ(rejection({{"name", "review"}, {"params", json::object()}, {"invocation_id", ""}}),
            "invalid command.invoke payload: invocation_id must be a non-empty string when given");
  auto s = answer({{"name", "review"}, {"params", json::object()}, {"invocation_id", 3}}, "sig-3");
  EXPECT_EQ(s.data["invocation_id"], "sig-3");
  EXPECT_EQ(s.data["error"], "invalid command.invoke payload: invocation_id must be a non-empty string when given");
}

TEST_F(Dispatcher, UnknownPayloadKeysAreRejected) {
  EXPECT_EQ(
      rejection({{"name", "review"}, {"params", json::object()}, {"priority", 1}}),
      "invalid command.invoke payload: unknown key \"priority\"; expected name, params, context or invocation_id");
}

TEST_F(Dispatcher, ConflictingPayloadKeysAreRejected) {
  EXPECT_EQ(rejection({{"name", "review"}, {":name", "other"}, {"params", json::object()}}),
            "invalid command.invoke payload: conflicting keys \":name\" and \"name\"");
  auto colon = answer({{":name", "review"}, {":params", {{"pr", 1}}}});
  EXPECT_EQ(colon.type, "command.completed");
}

TEST_F(Dispatcher, ConflictingKeysInParamsAndContextAreRejectedAtAnyDepth) {
  EXPECT_EQ(rejection({{"name", "review"}, {"params", {{"pr", 1}, {":pr", 2}}}}),
            "invalid command.invoke payload: params: conflicting keys \":pr\" and \"pr\"");
  EXPECT_EQ(rejection({{"name", "review"}, {"params", {{"pr", 1}}}, {"context", {{"user", {{"id", 1}, {":id", 2}}}}}}),
            "invalid command.invoke payload: context.user: conflicting keys \":id\" and \"id\"");
  EXPECT_EQ(rejection({{"name", "review"}, {"params", {{"items", {{{"a", 1}, {":a", 2}}}}}}}),
            "invalid command.invoke payload: params.items[0]: conflicting keys \":a\" and \"a\"");
}

TEST_F(Dispatcher, UnknownCommandsFail) {
  auto s = answer({{"name", "ghost"}, {"params", json::object()}, {"invocation_id", "inv-g"}});
  EXPECT_EQ(s.data, (json{{"name", "ghost"}, {"invocation_id", "inv-g"}, {"error", "unknown command 'ghost'"}}));
}

TEST_F(Dispatcher, InvalidParamsAndExecutorExceptionsFail) {
  EXPECT_EQ(rejection({{"name", "review"}, {"params", json::object()}}),
            "invalid params for command 'review': pr: missing required field");
  EXPECT_EQ(answer({{"name", "explode"}, {"params", json::object()}}).data["error"],
            "executor 'Explode' threw: kaboom");
}

TEST_F(Dispatcher, StopsListeningWhenDestroyed) {
  dispatcher.reset();
  bus.publish(Signal::make("command.invoke", "/test", {{"name", "review"}, {"params", {{"pr", 1}}}}));
  EXPECT_THAT(log.types(), ElementsAre("command.invoke"));
}

}  // namespace
