// Running one command: the body template, params checked and defaulted, executors (default, named,
// failing, throwing), the pre/after hook signals and the permissions an executor sees.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <ptc/command_run.hpp>
#include <ptc/signal_bus.hpp>

#include "command_test_support.hpp"

namespace {

using nlohmann::json;
using ptc::test::SignalLog;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

ptc::CommandDefinition command(const std::string& extra = "",
                               const std::string& body = "Review #{{pr}} for {{focus}}.") {
  auto c =
      ptc::parse_command(ptc::test::command_text("name: review\ndescription: Review\n" + extra, body), "/x/review.md");
  if (!c) throw std::runtime_error(c.error().message);
  return *c;
}

const std::string kSchema =
    "jido:\n  hooks: {pre: true, after: true}\n  schema:\n"
    "    pr: {type: integer, required: true}\n    focus: {type: string, default: security}\n";

TEST(RenderBody, FillsParamsInOnePass) {
  json params{{"a", "{{b}}"}, {"b", "B"}, {"n", 3}, {"list", {1, "x"}}, {"flag", true}};
  EXPECT_EQ(ptc::render_command_body("{{a}} {{b}} {{n}} {{list}} {{flag}}", params), "{{b}} B 3 [1,\"x\"] true");
  EXPECT_EQ(ptc::render_command_body("{{missing}} and {{ b }} stay; {{b}}", params), "{{missing}} and {{ b }} stay; B");
  EXPECT_EQ(ptc::render_command_body("{{{{b}}}} {{b", params), "{{B}} {{b");
  EXPECT_EQ(ptc::render_command_body("no placeholders", params), "no placeholders");
}

TEST(RunCommand, TheDefaultExecutorReturnsThePromptAndWhatItRanWith) {
  auto c = command("model: sonnet\nallowed-tools: Read, Bash(git diff:*)\n" + kSchema);
  ptc::CommandExecutors executors;
  ptc::ExecutionContext context{{{"user", "ann"}}, "inv-1", {{"Read", "Write"}, {"Bash(git diff:*)"}, {}}, nullptr};
  auto r = ptc::run_command(c, {{"pr", "42"}}, context, executors);
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ((*r)["invocation_id"], "inv-1");
  EXPECT_TRUE((*r)["duration_ms"].is_number_integer());
  EXPECT_EQ((*r)["result"], json::parse(R"js({
    "command": "review", "prompt": "Review #42 for security.", "params": {"pr": 42, "focus": "security"},
    "allowed_tools": ["Read", "Bash(git diff:*)"], "model": "sonnet",
    "permissions": {"allow": ["Read"], "deny": ["Bash(git diff:*)"], "ask": []}})js"));
}

TEST(RunCommand, ModelIsNullWhenNoneIsNamed) {
  auto r = ptc::run_command(command(), json::object(), {}, ptc::CommandExecutors{});
  ASSERT_TRUE(r);
  EXPECT_TRUE((*r)["result"]["model"].is_null());
  EXPECT_EQ((*r)["result"]["permissions"], json::parse(R"js({"allow":[],"deny":[],"ask":[]})js"));
}

TEST(RunCommand, InvalidParamsFailBeforeAnyHook) {
  ptc::SignalBus bus;
  SignalLog log(bus);
  auto r = ptc::run_command(command(kSchema), {{"pr", "x"}, {"focus", 3}}, {json::object(), "", {}, &bus},
                            ptc::CommandExecutors{});
  ASSERT_FALSE(r);
  EXPECT_EQ(
      r.error().message,
      "invalid params for command 'review': pr: expected int, got string \"x\"; focus: expected string, got int 3");
  EXPECT_TRUE(log.all().empty());
  auto not_object = ptc::run_command(command(), json::array(), {}, ptc::CommandExecutors{});
  ASSERT_FALSE(not_object);
  EXPECT_EQ(not_object.error().message, "params must be an object");
}

TEST(RunCommand, HooksSurroundASuccessfulRun) {
  ptc::SignalBus bus;
  SignalLog log(bus);
  auto r =
      ptc::run_command(command(kSchema), {{"pr", 7}}, {json::object(), "inv-7", {}, &bus}, ptc::CommandExecutors{});
  ASSERT_TRUE(r);
  auto signals = log.all();
  ASSERT_EQ(signals.size(), 2u);
  EXPECT_EQ(signals[0].type, "jido.hooks.pre");
  EXPECT_EQ(signals[0].source, "/commands/review");
  EXPECT_EQ(signals[0].data, json::parse(R"js({"command":"review","params":{"pr":7,"focus":"security"},
                                               "invocation_id":"inv-7","status":"pre"})js"));
  EXPECT_EQ(signals[1].type, "jido.hooks.after");
  const json& after = signals[1].data;
  EXPECT_EQ(after["command"], "review");
  EXPECT_EQ(after["params"], (json{{"pr", 7}, {"focus", "security"}}));
  EXPECT_EQ(after["invocation_id"], "inv-7");
  EXPECT_EQ(after["status"], "ok");
  EXPECT_TRUE(after["duration_ms"].is_number_integer());
  EXPECT_EQ(after["result"], (*r)["result"]);
  EXPECT_FALSE(after.contains("error"));
}

TEST(RunCommand, HooksAreEmittedOnlyWhenEnabled) {
  ptc::SignalBus bus;
  SignalLog log(bus);
  auto run = [&](const std::string& hooks) {
    ASSERT_TRUE(ptc::run_command(command(hooks), json::object(), {json::object(), "", {}, &bus},
                                 ptc::CommandExecutors{}));
  };
  run("");
  run("jido: {hooks: {pre: false, after: false}}\n");
  EXPECT_TRUE(log.all().empty());
  run("jido: {hooks: {pre: true}}\n");
  run("jido: {hooks: {after: true}}\n");
  EXPECT_THAT(log.types(), ElementsAre("jido.hooks.pre", "jido.hooks.after"));
}

TEST(RunCommand, ABlankInvocationIdIsReplacedByAFreshOne) {
  ptc::SignalBus bus;
  SignalLog log(bus);
  auto r = ptc::run_command(command("jido: {hooks: {pre: true}}\n"), json::object(), {json::object(), "  ", {}, &bus},
                            ptc::CommandExecutors{});
  ASSERT_TRUE(r);
  std::string id = (*r)["invocation_id"];
  EXPECT_EQ(id.size(), 36u);
  EXPECT_EQ(log.all().at(0).data["invocation_id"], id);
}

TEST(RunCommand, ANamedExecutorRunsTheCommand) {
  ptc::CommandExecutors executors;
  std::vector<std::string> seen;
  executors.add("MyApp.Commands.Review", [&](const ptc::CommandInvocation& i) -> ptc::Result<json> {
    seen.push_back(i.command.name + "|" + i.prompt + "|" + i.invocation_id + "|" + i.context.dump());
    return json{{"answer", 42}};
  });
  auto r = ptc::run_command(command("jido: {command_module: MyApp.Commands.Review}\n", "Hi {{who}}"), {{"who", "Al"}},
                            {{{"k", 1}}, "inv", {}, nullptr}, executors);
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ((*r)["result"], (json{{"answer", 42}}));
  EXPECT_THAT(seen, ElementsAre("review|Hi Al|inv|{\"k\":1}"));
}

TEST(RunCommand, AnUnknownExecutorFailsBeforeAnyHook) {
  ptc::SignalBus bus;
  SignalLog log(bus);
  auto r = ptc::run_command(command("jido: {command_module: MyApp.Missing, hooks: {pre: true, after: true}}\n"),
                            json::object(), {json::object(), "", {}, &bus}, ptc::CommandExecutors{});
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().message, "command 'review': no executor is registered as 'MyApp.Missing'");
  EXPECT_TRUE(log.all().empty());
}

// Runs a command whose executor does `body`, and returns the error and the after hook's data.
std::pair<std::string, json> failing_run(ptc::CommandExecutor executor) {
  ptc::SignalBus bus;
  SignalLog log(bus);
  ptc::CommandExecutors executors;
  executors.add("Failing", std::move(executor));
  auto r = ptc::run_command(command("jido: {command_module: Failing, hooks: {pre: true, after: true}}\n"), {{"x", 1}},
                            {json::object(), "inv-f", {}, &bus}, executors);
  EXPECT_FALSE(r);
  EXPECT_THAT(log.types(), ElementsAre("jido.hooks.pre", "jido.hooks.after"));
  return {r ? "" : r.error().message, log.of("jido.hooks.after").at(0).data};
}

TEST(RunCommand, TheAfterHookReportsExecutorErrors) {
  auto [error, after] =
      failing_run([](const ptc::CommandInvocation&) -> ptc::Result<json> { return ptc::Error{"no model"}; });
  EXPECT_EQ(error, "no model");
  EXPECT_EQ(after["status"], "error");
  EXPECT_EQ(after["error"], "no model");
  EXPECT_EQ(after["command"], "review");
  EXPECT_EQ(after["params"], (json{{"x", 1}}));
  EXPECT_EQ(after["invocation_id"], "inv-f");
  EXPECT_TRUE(after["duration_ms"].is_number_integer());
  EXPECT_FALSE(after.contains("result"));
}

TEST(RunCommand, TheAfterHookReportsExecutorExceptions) {
  auto thrown =
      failing_run([](const ptc::CommandInvocation&) -> ptc::Result<json> { throw std::runtime_error("boom"); });
  EXPECT_EQ(thrown.first, "executor 'Failing' threw: boom");
  EXPECT_EQ(thrown.second["error"], "executor 'Failing' threw: boom");
  auto odd = failing_run([](const ptc::CommandInvocation&) -> ptc::Result<json> { throw 42; });
  EXPECT_EQ(odd.first, "executor 'Failing' threw an unknown exception");
  auto list = failing_run([](const ptc::CommandInvocation&) -> ptc::Result<json> { return json::array(); });
  EXPECT_EQ(list.first, "executor 'Failing' returned a list, not an object");
}

TEST(CommandExecutors, NamesAreModuleNames) {
  ptc::CommandExecutors executors;
  auto ok = [](const ptc::CommandInvocation&) -> ptc::Result<json> { return json::object(); };
  EXPECT_THROW(executors.add("my_app.run", ok), ptc::Exception);
  EXPECT_THROW(executors.add("MyApp.Run", {}), ptc::Exception);
  executors.add("MyApp.Run", ok);
  EXPECT_TRUE(executors.find("MyApp.Run"));
  EXPECT_TRUE(executors.remove("MyApp.Run"));
  EXPECT_FALSE(executors.find("MyApp.Run"));
  EXPECT_FALSE(executors.remove("MyApp.Run"));
  EXPECT_TRUE(ptc::is_module_name("A.B_c.D9"));
  EXPECT_FALSE(ptc::is_module_name("A.b"));
}

}  // namespace
