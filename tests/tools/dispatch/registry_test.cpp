// The dispatch pipeline, step by step, and the exception table of spec/tool-runtime.md.
#include <regex>
#include <set>
#include <stdexcept>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <ptc/deadline.hpp>
#include <ptc/error.hpp>
#include <ptc/events.hpp>
#include <ptc/heartbeat.hpp>
#include <ptc/json_input.hpp>
#include <ptc/policy.hpp>
#include <ptc/prompt.hpp>
#include <ptc/registry.hpp>
#include <ptc/resources.hpp>
#include <ptc/run_context.hpp>
#include <ptc/section.hpp>
#include <ptc/session.hpp>
#include <ptc/signature.hpp>
#include <ptc/tool.hpp>
#include <ptc/tool_call.hpp>
#include <ptc/tool_context.hpp>
#include <ptc/tool_errors.hpp>
#include <ptc/tool_result.hpp>
#include <ptc/validate.hpp>

namespace {

using nlohmann::json;
using ptc::CallStatus;
using ptc::ToolResult;

/// Session state the handlers below change, to see restores.
struct Counter {
  int value = 0;
};

/// A snapshot-capable resource: a number whose snapshots are its value.
class Dial final : public ptc::Snapshotable {
 public:
  int value = 0;
  std::any snapshot() const override { return value; }
  void restore(const std::any& token) override { value = std::any_cast<int>(token); }
};

/// Records the calls it sees and answers as told.
class RecordingPolicy final : public ptc::ToolPolicy {
 public:
  RecordingPolicy(std::string name, bool allow, std::vector<std::string>* log)
      : name_(std::move(name)), allow_(allow), log_(log) {}
  std::string_view name() const override { return name_; }
  ptc::PolicyDecision check(const ptc::Tool& tool, const json& params, ptc::ToolContext&) const override {
    log_->push_back(name_ + ".check " + tool.name() + " " + params.dump());
    return allow_ ? ptc::PolicyDecision::allow() : ptc::PolicyDecision::deny(name_ + " says no");
  }
  void on_result(const ptc::Tool& tool, const json&, const ToolResult<json>& result, ptc::ToolContext&) const override {
    log_->push_back(name_ + ".on_result " + tool.name() + " " + (result.success ? "ok" : "failed"));
  }

 private:
  std::string name_;
  bool allow_;
  std::vector<std::string>* log_;
};

class Dispatch : public ::testing::Test {
 protected:
  Dispatch() {
    session.resources().add(dial);
    registry.add(ptc::make_tool("add", "Add two integers.", "(a :int, b :int) -> :int",
                                [this](const json& args, ptc::ToolContext&) {
                                  ++handler_runs;
                                  return ToolResult<json>::ok(args["a"].get<int>() + args["b"].get<int>());
                                }));
    registry.add(ptc::make_tool("ping", "Answer pong.", "() -> :string", [this](const json&, ptc::ToolContext&) {
      ++handler_runs;
      return ToolResult<json>::ok("pong");
    }));
  }

  ptc::ToolOutcome call(const std::string& name, json arguments, ptc::DispatchOptions options = {}) {
    return registry.dispatch(session, ptc::ToolCall{"call_1", name, std::move(arguments)}, options);
  }

  /// Registers `name` with `handler` that first changes the session (Counter + Dial).
  void add_mutating(const std::string& name, std::function<ToolResult<json>(ptc::ToolContext&)> body,
                    const char* signature = "(x :int?) -> :any") {
    registry.add(ptc::make_tool(name, "Changes the session.", signature,
                                [this, body](const json&, ptc::ToolContext& context) {
                                  ++handler_runs;
                                  context.session().state<Counter>().value += 1;
                                  context.session().resources().get<Dial>().value += 10;
                                  return body(context);
                                }));
  }

  void expect_restored() {
    EXPECT_EQ(session.state<Counter>().value, 0);
    EXPECT_EQ(dial->value, 0);
  }

  ptc::ToolRegistry registry;
  ptc::Session session{"s-1"};
  std::shared_ptr<Dial> dial = std::make_shared<Dial>();
  int handler_runs = 0;
};

// Each generated register_tools offers its CMake project's name and version; in a program whose
// tools come from several projects the first registration names the server, field by field.
TEST(RegistryServerIdentity, TheFirstOfferOfEachFieldStays) {
  ptc::ToolRegistry registry;
  EXPECT_EQ(registry.offered_server_identity().name, "");
  registry.offer_server_identity("", "");
  registry.offer_server_identity("tracker", "");
  registry.offer_server_identity("other", "2.0.0");
  registry.offer_server_identity("third", "3.0.0");
  const ptc::ServerIdentity offered = registry.offered_server_identity();
  EXPECT_EQ(offered.name, "tracker");
  EXPECT_EQ(offered.version, "2.0.0");
  EXPECT_EQ(offered.title, "");
}

// ---- happy path ----------------------------------------------------------------------------------

TEST_F(Dispatch, SuccessfulCallReturnsTheValueAndRendersIt) {
  auto out = call("add", json{{"a", 2}, {"b", 3}});
  EXPECT_EQ(out.status, CallStatus::Succeeded);
  EXPECT_TRUE(out.success());
  EXPECT_EQ(out.call_id, "call_1");
  EXPECT_EQ(out.name, "add");
  EXPECT_EQ(out.result.message, "OK");
  EXPECT_EQ(out.result.value, json(5));
  EXPECT_EQ(out.rendered, "5");
  EXPECT_EQ(out.visible_value, json(5));
  EXPECT_EQ(out.arguments, (json{{"a", 2}, {"b", 3}}));
  EXPECT_TRUE(out.validation.warnings.empty());
}

TEST_F(Dispatch, ArgumentsAreCoercedAndTheWarningsKept) {
  auto out = call("add", json{{"a", "2"}, {"b", 3}});
  ASSERT_EQ(out.status, CallStatus::Succeeded) << out.result.message;
  EXPECT_EQ(out.result.value, json(5));
  EXPECT_EQ(out.arguments, (json{{"a", 2}, {"b", 3}}));
  ASSERT_EQ(out.validation.warnings.size(), 1u);
  EXPECT_EQ(out.validation.warnings[0].path, "a");
  EXPECT_EQ(out.validation.warnings[0].message, "coerced string \"2\" to int");
}

TEST_F(Dispatch, ArgumentsAsJsonTextAreParsed) {
  auto out = call("add", json("{\"a\": 1, \"b\": 1}"));
  EXPECT_EQ(out.status, CallStatus::Succeeded) << out.result.message;
  EXPECT_EQ(out.result.value, json(2));
}

TEST_F(Dispatch, EmptyTextAndNullMeanNoArguments) {
  EXPECT_EQ(call("ping", json("")).status, CallStatus::Succeeded);
  EXPECT_EQ(call("ping", json("  ")).status, CallStatus::Succeeded);
  EXPECT_EQ(call("ping", json(nullptr)).status, CallStatus::Succeeded);
  EXPECT_EQ(handler_runs, 3);
}

// ---- lookup and decoding -------------------------------------------------------------------------

TEST_F(Dispatch, UnknownToolIsAFailedResult) {
  auto out = call("nope", json::object());
  EXPECT_EQ(out.status, CallStatus::UnknownTool);
  EXPECT_FALSE(out.success());
  EXPECT_EQ(out.result.message.rfind("Unknown tool 'nope'. ", 0), 0u) << out.result.message;
  EXPECT_EQ(out.rendered, out.result.message);
}

// A model that invents a name is told the real ones, nearest first, so it can correct itself.
TEST(UnknownTool, ListsTheNearestToolNamesNearestFirst) {
  ptc::ToolRegistry registry;
  for (const char* name : {"stats", "fetch", "search", "seek", "delete_everything", "archive"})
    registry.add(ptc::make_tool(name, "A tool.", "() -> :int"));
  ptc::Session session;
  auto out = registry.dispatch(session, {"1", "serch", json::object()});
  EXPECT_EQ(out.status, CallStatus::UnknownTool);
  EXPECT_EQ(out.result.message, "Unknown tool 'serch'. The nearest tool names: search, fetch, seek, stats, archive.");
  ptc::ToolRegistry one;
  one.add(ptc::make_tool("only", "A tool.", "() -> :int"));
  EXPECT_EQ(one.dispatch(session, {"2", std::string(100000, 'x'), json::object()}).result.message,
            "Unknown tool '" + std::string(100000, 'x') + "'. The only tool is: only.");
}

// A caller that looked the tool up (to check what it needs) dispatches what it found, once.
TEST_F(Dispatch, WhatALookupFoundIsDispatchedAsTheNameWouldBe) {
  const auto found = registry.lookup("add");
  ASSERT_TRUE(found);
  EXPECT_EQ(found.tool().name(), "add");
  auto out = registry.dispatch(session, found, {"1", "add", json{{"a", 2}, {"b", 3}}});
  EXPECT_EQ(out.status, CallStatus::Succeeded);
  EXPECT_EQ(out.result.value, json(5));
  const auto missing = registry.lookup("nope");
  EXPECT_FALSE(missing);
  auto unknown = registry.dispatch(session, missing, {"2", "nope", json::object()});
  EXPECT_EQ(unknown.status, CallStatus::UnknownTool);
  EXPECT_EQ(unknown.result.message, call("nope", json::object()).result.message);
}

TEST_F(Dispatch, ToolWithoutHandlerCannotBeCalled) {
  registry.add(ptc::make_tool("listed", "Listed only.", "() -> :int"));
  auto out = call("listed", json::object());
  EXPECT_EQ(out.status, CallStatus::NoHandler);
  EXPECT_EQ(out.result.message, "Tool 'listed' has no handler and cannot be called.");
}

TEST_F(Dispatch, MalformedJsonTextNamesTheColumn) {
  auto out = call("add", json("{\"a\": 1,"));
  EXPECT_EQ(out.status, CallStatus::InvalidArguments);
  const auto expected = ptc::parse_json("{\"a\": 1,");
  ASSERT_FALSE(expected.ok());
  EXPECT_EQ(out.result.message, "Tool arguments are not valid JSON: " + expected.error().to_string());
  EXPECT_THAT(out.result.message, ::testing::StartsWith("Tool arguments are not valid JSON: column "));
  EXPECT_EQ(handler_runs, 0);
}

TEST_F(Dispatch, ArgumentsMustBeAnObject) {
  EXPECT_EQ(call("add", json::array({1, 2})).result.message, "Tool arguments must be a JSON object, got list.");
  EXPECT_EQ(call("add", json(7)).result.message, "Tool arguments must be a JSON object, got int.");
  EXPECT_EQ(call("add", json("[1]")).result.message, "Tool arguments must be a JSON object, got list.");
  EXPECT_EQ(call("add", json("\"x\"")).result.message, "Tool arguments must be a JSON object, got string.");
  EXPECT_EQ(handler_runs, 0);
}

// ---- validation ----------------------------------------------------------------------------------

TEST_F(Dispatch, ValidationFailureCarriesTheReportAndSkipsTheHandler) {
  auto out = call("add", json{{"a", "two"}});
  EXPECT_EQ(out.status, CallStatus::InvalidArguments);
  EXPECT_EQ(out.result.message,
            "Tool validation errors:\n"
            "- a: expected int, got string \"two\"\n"
            "- b: missing required field");
  EXPECT_EQ(out.validation.report(),
            "Tool validation errors:\n- a: expected int, got string \"two\"\n- b: missing required field\n");
  EXPECT_EQ(handler_runs, 0);
}

TEST_F(Dispatch, StrictModeRejectsUnknownKeysAndCoercion) {
  ptc::DispatchOptions strict;
  strict.mode = ptc::Mode::Strict;
  auto extra = call("add", json{{"a", 1}, {"b", 2}, {"c", 3}}, strict);
  EXPECT_EQ(extra.status, CallStatus::InvalidArguments);
  EXPECT_EQ(extra.result.message, "Tool validation errors:\n- c: unexpected field");
  auto coerced = call("add", json{{"a", "1"}, {"b", 2}}, strict);
  EXPECT_EQ(coerced.status, CallStatus::InvalidArguments);
  EXPECT_EQ(call("add", json{{"a", 1}, {"b", 2}, {"c", 3}}).status, CallStatus::Succeeded)
      << "enabled mode keeps extra fields";
}

TEST_F(Dispatch, HandlerResultIsCheckedAgainstTheResultType) {
  add_mutating(
      "liar", [](ptc::ToolContext&) { return ToolResult<json>::ok("not a number"); }, "() -> :int");
  auto out = call("liar", json::object());
  EXPECT_EQ(out.status, CallStatus::InvalidResult);
  EXPECT_EQ(out.result.message,
            "Tool 'liar' returned a value that does not match its result type:\n"
            "Tool validation errors:\n- (root): expected int, got string \"not a number\"");
  expect_restored();
}

TEST_F(Dispatch, DisabledModeSkipsArgumentAndResultChecks) {
  add_mutating(
      "liar", [](ptc::ToolContext&) { return ToolResult<json>::ok("text"); }, "(n :int) -> :int");
  ptc::DispatchOptions off;
  off.mode = ptc::Mode::Disabled;
  auto out = call("liar", json{{"n", "x"}}, off);
  EXPECT_EQ(out.status, CallStatus::Succeeded) << out.result.message;
}

// ---- exception table -----------------------------------------------------------------------------

TEST_F(Dispatch, HandlerErrorResultRestoresState) {
  add_mutating("flaky", [](ptc::ToolContext&) { return ToolResult<json>::error("disk full"); });
  auto out = call("flaky", json::object());
  EXPECT_EQ(out.status, CallStatus::Failed);
  EXPECT_EQ(out.rendered, "disk full");
  expect_restored();
}

TEST_F(Dispatch, SuccessKeepsState) {
  add_mutating("good", [](ptc::ToolContext&) { return ToolResult<json>::ok(1); });
  EXPECT_EQ(call("good", json::object()).status, CallStatus::Succeeded);
  EXPECT_EQ(session.state<Counter>().value, 1);
  EXPECT_EQ(dial->value, 10);
}

TEST_F(Dispatch, ToolValidationErrorBecomesAFailedResult) {
  add_mutating("picky",
               [](ptc::ToolContext&) -> ToolResult<json> { throw ptc::ToolValidationError("x must be even"); });
  auto out = call("picky", json::object());
  EXPECT_EQ(out.status, CallStatus::Failed);
  EXPECT_EQ(out.result.message, "Tool validation failed: x must be even");
  expect_restored();
}

TEST_F(Dispatch, OtherExceptionsBecomeExecutionFailures) {
  add_mutating("boom", [](ptc::ToolContext&) -> ToolResult<json> { throw std::runtime_error("kaboom"); });
  auto out = call("boom", json::object());
  EXPECT_EQ(out.status, CallStatus::HandlerException);
  EXPECT_EQ(out.result.message, "Tool 'boom' execution failed: kaboom");
  expect_restored();
}

TEST_F(Dispatch, TypeErrorsInsideHandlersAreWrappedWithTheirText) {
  // The C++ counterpart of the spec's TypeError row: a handler misreading its JSON arguments.
  add_mutating("misread", [](ptc::ToolContext&) -> ToolResult<json> {
    json number = 5;
    return ToolResult<json>::ok(number.get<std::string>());
  });
  auto out = call("misread", json::object());
  EXPECT_EQ(out.status, CallStatus::HandlerException);
  EXPECT_EQ(out.result.message,
            "Tool 'misread' execution failed: [json.exception.type_error.302] type must be string, but is number");
  expect_restored();
}

TEST_F(Dispatch, NonStandardExceptionsAreCaughtToo) {
  add_mutating("weird", [](ptc::ToolContext&) -> ToolResult<json> { throw 42; });
  auto out = call("weird", json::object());
  EXPECT_EQ(out.result.message, "Tool 'weird' execution failed: unknown exception");
  expect_restored();
}

TEST_F(Dispatch, PromptEvaluationErrorPassesThroughAfterRestore) {
  add_mutating("fatal",
               [](ptc::ToolContext&) -> ToolResult<json> { throw ptc::PromptEvaluationError("stop", "fatal"); });
  EXPECT_THROW(call("fatal", json::object()), ptc::PromptEvaluationError);
  expect_restored();
}

TEST_F(Dispatch, DeadlineExceededInsideTheHandlerPassesThroughAfterRestore) {
  add_mutating("slow",
               [](ptc::ToolContext&) -> ToolResult<json> { throw ptc::DeadlineExceededError("too slow", "slow"); });
  try {
    call("slow", json::object());
    FAIL() << "expected DeadlineExceededError";
  } catch (const ptc::DeadlineExceededError& e) {
    EXPECT_STREQ(e.what(), "too slow");
    EXPECT_EQ(e.tool(), "slow");
  }
  expect_restored();
}

// ---- deadlines and heartbeats --------------------------------------------------------------------

TEST_F(Dispatch, ExpiredDeadlineRefusesTheCallBeforeAnything) {
  auto clock = std::make_shared<ptc::ManualClock>(ptc::TimePoint{std::chrono::seconds(100)});
  auto heartbeat = std::make_shared<ptc::Heartbeat>();
  ptc::DispatchOptions options;
  options.environment.deadline = ptc::Deadline(ptc::TimePoint{std::chrono::seconds(100)}, clock);
  options.environment.heartbeat = heartbeat;
  try {
    call("add", json{{"a", 1}, {"b", 2}}, options);
    FAIL() << "expected DeadlineExceededError";
  } catch (const ptc::DeadlineExceededError& e) {
    EXPECT_STREQ(e.what(), "Deadline expired before tool 'add' could run.");
    EXPECT_EQ(e.tool(), "add");
  }
  EXPECT_EQ(handler_runs, 0);
  EXPECT_EQ(heartbeat->beats(), 0u);
  EXPECT_TRUE(session.log<ptc::ToolInvoked>().empty());
}

TEST_F(Dispatch, DeadlineIsCheckedAgainRightBeforeTheHandler) {
  auto clock = std::make_shared<ptc::ManualClock>();
  // A policy that takes "five seconds": the deadline passes between the first check and the handler.
  class SlowPolicy final : public ptc::ToolPolicy {
   public:
    explicit SlowPolicy(std::shared_ptr<ptc::ManualClock> c) : clock_(std::move(c)) {}
    std::string_view name() const override { return "slow"; }
    ptc::PolicyDecision check(const ptc::Tool&, const json&, ptc::ToolContext& context) const override {
      context.session().state<Counter>().value = 99;
      clock_->advance(std::chrono::seconds(5));
      return ptc::PolicyDecision::allow();
    }

   private:
    std::shared_ptr<ptc::ManualClock> clock_;
  };
  registry.add_policy(std::make_shared<SlowPolicy>(clock));
  ptc::DispatchOptions options;
  options.environment.deadline = ptc::Deadline::after(std::chrono::seconds(1), clock);
  EXPECT_THROW(call("add", json{{"a", 1}, {"b", 2}}, options), ptc::DeadlineExceededError);
  EXPECT_EQ(handler_runs, 0);
  EXPECT_EQ(session.state<Counter>().value, 0) << "state restored";
}

TEST_F(Dispatch, UnexpiredDeadlineLetsTheCallRun) {
  auto clock = std::make_shared<ptc::ManualClock>();
  ptc::DispatchOptions options;
  options.environment.deadline = ptc::Deadline::after(std::chrono::milliseconds(1), clock);
  EXPECT_EQ(call("add", json{{"a", 1}, {"b", 2}}, options).status, CallStatus::Succeeded);
}

TEST_F(Dispatch, HeartbeatBeatsOnceBeforeTheHandlerAndOnRequest) {
  std::vector<int> seen_by_handler;
  auto heartbeat = std::make_shared<ptc::Heartbeat>();
  registry.add(ptc::make_tool("long", "Long job.", "() -> :nil", [&](const json&, ptc::ToolContext& context) {
    seen_by_handler.push_back(static_cast<int>(heartbeat->beats()));
    context.beat();
    context.beat();
    return ToolResult<json>::ok(nullptr);
  }));
  ptc::DispatchOptions options;
  options.environment.heartbeat = heartbeat;
  EXPECT_EQ(call("long", json::object(), options).status, CallStatus::Succeeded);
  EXPECT_EQ(seen_by_handler, std::vector<int>{1});
  EXPECT_EQ(heartbeat->beats(), 3u);
}

// ---- policies ------------------------------------------------------------------------------------

TEST_F(Dispatch, PoliciesSeeCoercedArgumentsInOrderAndFirstDenialStops) {
  std::vector<std::string> log;
  registry.add_policy(std::make_shared<RecordingPolicy>("global", true, &log));
  registry.add(ptc::make_tool("guarded", "Guarded.", "(n :int) -> :int",
                              [this](const json& args, ptc::ToolContext&) {
                                ++handler_runs;
                                return ToolResult<json>::ok(args["n"]);
                              }),
               {std::make_shared<RecordingPolicy>("deny", false, &log),
                std::make_shared<RecordingPolicy>("never", true, &log)});
  auto out = call("guarded", json{{"n", "7"}});
  EXPECT_EQ(out.status, CallStatus::Denied);
  EXPECT_EQ(out.result.message, "deny says no");
  EXPECT_EQ(handler_runs, 0);
  EXPECT_EQ(log, (std::vector<std::string>{"global.check guarded {\"n\":7}", "deny.check guarded {\"n\":7}"}));
}

TEST_F(Dispatch, OnResultRunsForSuccessesOnly) {
  std::vector<std::string> log;
  auto policy = std::make_shared<RecordingPolicy>("p", true, &log);
  registry.add(ptc::make_tool("maybe", "Fails on odd.", "(n :int) -> :int",
                              [](const json& args, ptc::ToolContext&) {
                                const int n = args["n"].get<int>();
                                return n % 2 ? ToolResult<json>::error("odd") : ToolResult<json>::ok(n);
                              }),
               {policy});
  call("maybe", json{{"n", 2}});
  call("maybe", json{{"n", 3}});
  EXPECT_EQ(log,
            (std::vector<std::string>{"p.check maybe {\"n\":2}", "p.on_result maybe ok", "p.check maybe {\"n\":3}"}));
}

TEST_F(Dispatch, DenialRestoresWhatAPolicyChanged) {
  class Meddler final : public ptc::ToolPolicy {
   public:
    std::string_view name() const override { return "meddler"; }
    ptc::PolicyDecision check(const ptc::Tool&, const json&, ptc::ToolContext& context) const override {
      context.session().state<Counter>().value = 5;
      return ptc::PolicyDecision::deny("no");
    }
  };
  registry.add_policy(std::make_shared<Meddler>());
  EXPECT_EQ(call("ping", json::object()).status, CallStatus::Denied);
  EXPECT_EQ(session.state<Counter>().value, 0);
}

// ---- results as the model sees them --------------------------------------------------------------

TEST_F(Dispatch, FirewalledFieldsAreHiddenFromTheModelButKeptForCpp) {
  registry.add(ptc::make_tool("user", "A user.", "() -> {name :string, _token :string}",
                              [](const json&, ptc::ToolContext&) {
                                return ToolResult<json>::ok(json{{"name", "ada"}, {"_token", "s3cret"}});
                              }));
  auto out = call("user", json::object());
  EXPECT_EQ(out.rendered, R"({"_token":"<Firewalled>","name":"ada"})");
  EXPECT_EQ(out.visible_value, (json{{"name", "ada"}, {"_token", "<Firewalled>"}}));
  EXPECT_EQ(out.result.value, (json{{"name", "ada"}, {"_token", "s3cret"}}));
}

TEST_F(Dispatch, ExcludedValueLeavesOnlyTheMessage) {
  registry.add(ptc::make_tool("bulk", "Big data.", "() -> [:int]", [](const json&, ptc::ToolContext&) {
    auto r = ToolResult<json>::ok(json::array({1, 2, 3}), "Stored 3 numbers.");
    r.exclude_value_from_context = true;
    return r;
  }));
  auto out = call("bulk", json::object());
  EXPECT_EQ(out.rendered, "Stored 3 numbers.");
  EXPECT_FALSE(out.visible_value.has_value());
  EXPECT_EQ(out.result.value, json::array({1, 2, 3}));
}

// ---- context and telemetry -----------------------------------------------------------------------

TEST_F(Dispatch, HandlerSeesTheCallEnvironment) {
  ptc::Prompt prompt("p", {});
  const ptc::RenderedPrompt rendered = prompt.render();
  ptc::DispatchOptions options;
  options.environment.prompt = &prompt;
  options.environment.rendered_prompt = &rendered;
  options.environment.adapter = "openai";
  options.environment.run_context = ptc::RunContext{"run-1", "req-1", "s-1", 2, "trace-1", "span-1"};
  auto clock = std::make_shared<ptc::ManualClock>();
  options.environment.deadline = ptc::Deadline::after(std::chrono::seconds(30), clock);
  std::string seen;
  registry.add(ptc::make_tool("inspect", "Inspect.", "() -> :nil", [&](const json&, ptc::ToolContext& c) {
    seen = std::string(c.tool().name()) + " " + c.call_id() + " " + std::string(c.adapter()) + " " +
           c.run_context()->run_id + " " + std::to_string(c.run_context()->attempt) + " " + c.session().id() +
           (c.prompt() == &prompt ? " prompt" : " ?") + (c.rendered_prompt() == &rendered ? " rendered" : " ?") + " " +
           std::to_string(std::chrono::duration_cast<std::chrono::seconds>(c.deadline()->remaining()).count());
    return ToolResult<json>::ok(nullptr);
  }));
  EXPECT_EQ(call("inspect", json::object(), options).status, CallStatus::Succeeded);
  EXPECT_EQ(seen, "inspect call_1 openai run-1 2 s-1 prompt rendered 30");
}

TEST_F(Dispatch, EveryCallPublishesToolInvoked) {
  auto clock = std::make_shared<ptc::ManualClock>(ptc::TimePoint{std::chrono::seconds(1234)});
  std::vector<ptc::ToolInvoked> seen;
  session.events().subscribe<ptc::ToolInvoked>([&](const ptc::ToolInvoked& e) { seen.push_back(e); });
  ptc::DispatchOptions options;
  options.clock = clock;
  options.environment.run_context = ptc::RunContext{"run-9", "", "", 1, "", ""};
  const ptc::ToolOutcome outcome = call("add", json{{"a", "4"}, {"b", 1}}, options);
  call("nope", json::object(), options);
  ASSERT_EQ(seen.size(), 2u);
  // The event borrows the outcome's parts while it is published; the outcome has them back after.
  EXPECT_EQ(outcome.call_id, "call_1");
  EXPECT_EQ(outcome.name, "add");
  EXPECT_EQ(outcome.arguments, (json{{"a", 4}, {"b", 1}}));
  EXPECT_EQ(outcome.result.value, json(5));
  EXPECT_EQ(outcome.rendered, "5");
  const auto& e = seen[0];
  EXPECT_TRUE(std::regex_match(e.event_id,
                               std::regex("[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}")))
      << e.event_id;
  EXPECT_NE(seen[0].event_id, seen[1].event_id);
  EXPECT_EQ(e.session_id, "s-1");
  EXPECT_EQ(e.call_id, "call_1");
  EXPECT_EQ(e.name, "add");
  EXPECT_EQ(e.params, (json{{"a", 4}, {"b", 1}}));
  EXPECT_EQ(e.result.value, json(5));
  EXPECT_EQ(e.rendered_output, "5");
  EXPECT_EQ(e.status, CallStatus::Succeeded);
  ASSERT_TRUE(e.run_context.has_value());
  EXPECT_EQ(e.run_context->run_id, "run-9");
  EXPECT_EQ(e.created_at, ptc::TimePoint{std::chrono::seconds(1234)});
  EXPECT_EQ(seen[1].status, CallStatus::UnknownTool);
}

/// Counts its readings: dispatch reads the clock for the ToolInvoked it builds, and for nothing else.
class CountingClock final : public ptc::Clock {
 public:
  ptc::TimePoint now() const override {
    ++readings;
    return ptc::TimePoint{std::chrono::seconds(1)};
  }
  mutable int readings = 0;
};

TEST_F(Dispatch, ACallNobodyObservesBuildsNoEvent) {
  ptc::Session quiet("quiet", ptc::SessionOptions{0});
  auto clock = std::make_shared<CountingClock>();
  ptc::DispatchOptions options;
  options.clock = clock;
  EXPECT_EQ(registry.dispatch(quiet, ptc::ToolCall{"c1", "add", json{{"a", 1}, {"b", 2}}}, options).result.value,
            json(3));
  EXPECT_EQ(clock->readings, 0);
  EXPECT_TRUE(quiet.log<ptc::ToolInvoked>().empty());
  // A subscriber is an observer: from then on every call builds its event again.
  std::vector<std::string> seen;
  auto id = quiet.events().subscribe<ptc::ToolInvoked>([&](const ptc::ToolInvoked& e) { seen.push_back(e.call_id); });
  registry.dispatch(quiet, ptc::ToolCall{"c2", "add", json{{"a", 1}, {"b", 2}}}, options);
  EXPECT_EQ(clock->readings, 1);
  EXPECT_EQ(seen, std::vector<std::string>{"c2"});
  quiet.events().unsubscribe(id);
  registry.dispatch(quiet, ptc::ToolCall{"c3", "add", json{{"a", 1}, {"b", 2}}}, options);
  EXPECT_EQ(clock->readings, 1);
  // A session that keeps its log observes its own calls.
  registry.dispatch(session, ptc::ToolCall{"c4", "add", json{{"a", 1}, {"b", 2}}}, options);
  EXPECT_EQ(clock->readings, 2);
  EXPECT_EQ(session.log<ptc::ToolInvoked>().back().call_id, "c4");
}

TEST_F(Dispatch, HandlersPublishTheirOwnEventsOnTheSessionDispatcher) {
  struct FileSaved {
    std::string path;
  };
  session.record_events<FileSaved>();
  std::vector<std::string> seen;
  session.events().subscribe<FileSaved>([&](const FileSaved& e) { seen.push_back(e.path); });
  registry.add(ptc::make_tool("save", "Save.", "(path :string) -> :nil", [](const json& args, ptc::ToolContext& c) {
    c.session().events().publish(FileSaved{args["path"].get<std::string>()});
    return args["path"] == "bad" ? ToolResult<json>::error("refused") : ToolResult<json>::ok(nullptr);
  }));
  call("save", json{{"path", "a.txt"}});
  call("save", json{{"path", "bad"}});
  EXPECT_EQ(seen, (std::vector<std::string>{"a.txt", "bad"}));
  // Logged events record what happened, so the failed call's event stays after its restore.
  const auto log = session.log<FileSaved>();
  ASSERT_EQ(log.size(), 2u);
  EXPECT_EQ(log[1].path, "bad");
}

TEST_F(Dispatch, ToolInvokedLogSurvivesTheRestoreOfAFailedCall) {
  add_mutating("flaky", [](ptc::ToolContext&) { return ToolResult<json>::error("nope"); });
  call("ping", json::object());
  call("flaky", json::object());
  const auto log = session.log<ptc::ToolInvoked>();
  ASSERT_EQ(log.size(), 2u);
  EXPECT_EQ(log[0].name, "ping");
  EXPECT_EQ(log[1].name, "flaky");
  EXPECT_EQ(log[1].status, CallStatus::Failed);
  expect_restored();
}

// ---- registry ------------------------------------------------------------------------------------

TEST_F(Dispatch, DuplicateToolNamesAreRefused) {
  try {
    registry.add(ptc::make_tool("add", "Again.", "() -> :int"));
    FAIL() << "expected DefinitionError";
  } catch (const ptc::DefinitionError& e) {
    EXPECT_EQ(e.message(), "Duplicate tool name registered: 'add'.");
    EXPECT_EQ(e.field(), "add");
  }
  EXPECT_EQ(registry.size(), 2u);
}

TEST_F(Dispatch, RegistryKeepsRegistrationOrder) {
  registry.add(ptc::make_tool("aaa", "First letter.", "() -> :int"));
  std::vector<std::string> names;
  for (const auto& t : registry.tools()) names.push_back(t.name());
  EXPECT_EQ(names, (std::vector<std::string>{"add", "ping", "aaa"}));
  ASSERT_TRUE(registry.find("ping").has_value());
  EXPECT_EQ(registry.find("ping")->description(), "Answer pong.");
  EXPECT_FALSE(registry.find("zzz").has_value());
}

TEST_F(Dispatch, HandlerMayDispatchAnotherToolInItsOwnSession) {
  registry.add(
      ptc::make_tool("twice", "Adds twice.", "(n :int) -> :int", [this](const json& args, ptc::ToolContext& c) {
        auto inner =
            registry.dispatch(c.session(), ptc::ToolCall{"inner", "add", json{{"a", args["n"]}, {"b", args["n"]}}});
        return ToolResult<json>::ok(inner.result.value.value());
      }));
  EXPECT_EQ(call("twice", json{{"n", 21}}).result.value, json(42));
}

// Events are built in a buffer reused from call to call: a call dispatched by a subscriber while an
// event is being published must not write over that event.
TEST_F(Dispatch, ASubscriberMayDispatchWhileAnEventIsPublished) {
  struct Seen {
    std::string name, event_id, rendered;
  };
  std::vector<Seen> before, after;
  session.events().subscribe<ptc::ToolInvoked>([&](const ptc::ToolInvoked& e) {
    before.push_back({e.name, e.event_id, e.rendered_output});
    if (e.name == "add") call("ping", json::object());  // publishes the ping's event, nested
    after.push_back({e.name, e.event_id, e.rendered_output});
  });
  call("add", json{{"a", 1}, {"b", 2}});
  call("add", json{{"a", 3}, {"b", 4}});
  ASSERT_EQ(before.size(), 4u);
  ASSERT_EQ(after.size(), 4u);
  // In order of publishing: add, ping (nested), add, ping (nested); each seen whole before and after.
  const std::vector<std::string> names{"add", "ping", "add", "ping"};
  for (std::size_t i = 0; i < 4; ++i) {
    EXPECT_EQ(before[i].name, names[i]) << i;
    EXPECT_EQ(before[i].rendered, names[i] == "ping" ? "\"pong\"" : i == 0 ? "3" : "7") << i;
  }
  // The outer events come last in `after` order within each call: ping's ends first.
  EXPECT_EQ(after[0].name, "ping");
  EXPECT_EQ(after[1].name, "add");
  EXPECT_EQ(after[1].event_id, before[0].event_id);
  EXPECT_EQ(after[1].rendered, "3");
  EXPECT_EQ(after[3].event_id, before[2].event_id);
  EXPECT_EQ(after[3].rendered, "7");
  std::set<std::string> ids;
  for (const auto& e : before) ids.insert(e.event_id);
  EXPECT_EQ(ids.size(), 4u);
  const auto log = session.log<ptc::ToolInvoked>();
  ASSERT_EQ(log.size(), 4u);
  for (const auto& e : log) EXPECT_TRUE(ids.contains(e.event_id));
}

}  // namespace

namespace {

/// An invoker that notes which form each call's arguments came in. It reads text, as generated ones
/// do, unless told to decline it; `decline_objects` makes it break the contract and decline an object.
class TextInvoker final : public ptc::ToolInvoker {
 public:
  explicit TextInvoker(std::vector<std::string>* seen, bool decline_text = false, bool decline_objects = false)
      : seen_(seen), decline_text_(decline_text), decline_objects_(decline_objects) {}
  std::optional<Prepared> prepare(const ptc::ToolArguments& arguments, ptc::Mode) const override {
    if (arguments.is_text()) {
      seen_->push_back("text " + std::string(arguments.text()));
      if (decline_text_) return std::nullopt;
      return ready(json::parse(arguments.text()));
    }
    std::string form = arguments.is_owned() ? "owned " : "borrowed ";
    seen_->push_back(form.append(arguments.object().dump()));
    if (decline_objects_) return std::nullopt;
    return ready(arguments.take());
  }

 private:
  static Prepared ready(json arguments) {
    Prepared p;
    p.validation.ok = true;
    p.arguments = arguments;
    p.run = [arguments](ptc::ToolContext&) { return ToolResult<json>::ok(arguments["n"]); };
    return p;
  }
  std::vector<std::string>* seen_;
  bool decline_text_;
  bool decline_objects_;
};

/// A tool `(n :int) -> :int` run by `invoker`.
ptc::Tool text_tool(const std::string& name, std::shared_ptr<const ptc::ToolInvoker> invoker) {
  ptc::ToolSpec spec;
  spec.name = name;
  spec.description = "Takes n.";
  spec.signature = ptc::Signature::parse("(n :int) -> :int").value();
  spec.invoker = std::move(invoker);
  return ptc::Tool(spec);
}

TEST(DispatchArgumentsText, TextGoesToTheTextPathAndIsParsedOnceForOtherTools) {
  std::vector<std::string> seen;
  ptc::ToolRegistry registry;
  registry.add(text_tool("text", std::make_shared<TextInvoker>(&seen)));
  std::vector<json> plain_args;
  registry.add(ptc::make_tool("plain", "Reads JSON.", "(n :int) -> :int", [&](const json& args, ptc::ToolContext&) {
    plain_args.push_back(args);
    return ToolResult<json>::ok(args["n"]);
  }));
  ptc::Session session;

  // Text as given reaches the invoker byte for byte; the request's object reaches it borrowed.
  EXPECT_EQ(registry.dispatch(session, ptc::ToolCall{"1", "text", json(R"({ "n" : 1 })")}).result.value, json(1));
  EXPECT_EQ(registry.dispatch(session, ptc::ToolCall{"1", "text", json{{"n", 1}}}).result.value, json(1));
  EXPECT_EQ(seen, (std::vector<std::string>{R"(text { "n" : 1 })", R"(borrowed {"n":1})"}));

  // A tool without a text path gets the text parsed, the same object an object call would give it.
  const auto out = registry.dispatch(session, ptc::ToolCall{"2", "plain", json(R"({"n": 2})")});
  EXPECT_EQ(out.status, CallStatus::Succeeded) << out.result.message;
  EXPECT_EQ(out.result.value, json(2));
  registry.dispatch(session, ptc::ToolCall{"3", "plain", json{{"n", 2}}});
  ASSERT_EQ(plain_args.size(), 2u);
  EXPECT_EQ(plain_args[0], plain_args[1]);

  // The text is held to the size limit.
  ptc::DispatchOptions small;
  small.max_argument_bytes = 4;
  EXPECT_EQ(registry.dispatch(session, ptc::ToolCall{"4", "text", json(R"({ "n" : 1 })")}, small).status,
            CallStatus::InvalidArguments);
}

TEST(DispatchArgumentsText, DeclinedTextIsParsedOnceAndHandedBackOwned) {
  std::vector<std::string> seen;
  ptc::ToolRegistry registry;
  registry.add(text_tool("declines", std::make_shared<TextInvoker>(&seen, /*decline_text=*/true)));
  ptc::Session session;

  // Undeclared members are left out by dispatch's parse, and reported as a warning.
  const auto out = registry.dispatch(session, ptc::ToolCall{"1", "declines", json(R"({"n": 3, "x": 1})")});
  EXPECT_EQ(out.status, CallStatus::Succeeded) << out.result.message;
  EXPECT_EQ(out.result.value, json(3));
  EXPECT_EQ(seen, (std::vector<std::string>{R"(text {"n": 3, "x": 1})", R"(owned {"n":3})"}));

  // Malformed text is reported by dispatch, once the invoker declined it.
  seen.clear();
  const auto bad = registry.dispatch(session, ptc::ToolCall{"2", "declines", json(R"({"n": )")});
  EXPECT_EQ(bad.status, CallStatus::InvalidArguments);
  EXPECT_EQ(bad.result.message.rfind("Tool arguments are not valid JSON: ", 0), 0u) << bad.result.message;
  EXPECT_EQ(seen, (std::vector<std::string>{R"(text {"n": )"}));
}

TEST(DispatchArgumentsText, AnInvokerThatDeclinesAnObjectFailsTheCall) {
  std::vector<std::string> seen;
  ptc::ToolRegistry registry;
  registry.add(text_tool("broken", std::make_shared<TextInvoker>(&seen, true, /*decline_objects=*/true)));
  ptc::Session session;
  const auto out = registry.dispatch(session, ptc::ToolCall{"1", "broken", json{{"n", 1}}});
  EXPECT_EQ(out.status, CallStatus::HandlerException);
  EXPECT_EQ(out.result.message, "Tool 'broken' execution failed: the tool's invoker declined an arguments object");
}

}  // namespace
