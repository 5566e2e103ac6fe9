// The tool loop against a scripted model: what is dispatched, what goes back, limits, approval, typed
// answers and their re-asks. The providers' wire formats are tested against the provider double.
#include <ptc/agent/agent.hpp>
#include <ptc/agent/testing.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <mutex>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <ptc/signature.hpp>

#include "rendezvous.hpp"

namespace {

using namespace ptc::agent;
using nlohmann::json;
using ::testing::HasSubstr;

ptc::ToolResult<json> ok(json v) { return ptc::ToolResult<json>::ok(std::move(v)); }

struct Fixture : ::testing::Test {
  ptc::ToolRegistry registry;
  std::vector<AgentEvent> events;
  Fixture() {
    registry.add(ptc::make_tool("add", "Adds.", "(a :int, b :int) -> :int", [](const json& args, ptc::ToolContext&) {
      return ok(args["a"].get<int>() + args["b"].get<int>());
    }));
    registry.add(ptc::make_tool("search", "Searches.", "(query :string) -> [:string]",
                                [](const json& args, ptc::ToolContext&) {
                                  return ok(json::array({args["query"].get<std::string>() + " result"}));
                                }));
  }
  Agent agent(Model& model, AgentOptions options = {}) {
    Agent a(model, registry, std::move(options));
    a.subscribe([this](const AgentEvent& e) { events.push_back(e); });
    return a;
  }
};

using AgentLoop = Fixture;

TEST_F(AgentLoop, RunsTheCallsAndSendsTheResultsBackInTheModelsOrder) {
  ScriptedModel model({ScriptedModel::calls({{"c1", "search", json{{"query", "cats"}}},
                                             {"c2", "add", json("{\"a\": 2, \"b\": \"3\"}")}}),
                       ScriptedModel::answer("Cats, and 5.")});
  RunResult r = agent(model).run("Find cats and add 2 and 3.");
  ASSERT_TRUE(r.ok()) << r.error->message;
  model.assert_complete();
  EXPECT_EQ(r.text, "Cats, and 5.");
  EXPECT_EQ(r.turns, 2u);
  EXPECT_EQ(r.tool_calls, 2u);
  EXPECT_EQ(r.usage.requests, 2u);
  EXPECT_EQ(r.usage.input_tokens, 20u);
  const auto seen = model.requests();
  ASSERT_EQ(seen.size(), 2u);
  EXPECT_EQ(seen[0].tools, (std::vector<std::string>{"add", "search"}));
  const Message& results = seen[1].conversation.messages.back();
  ASSERT_EQ(results.role, Role::tool);
  ASSERT_EQ(results.tool_results.size(), 2u);
  EXPECT_EQ(results.tool_results[0].call_id, "c1");
  EXPECT_EQ(results.tool_results[0].content, "[\"cats result\"]");
  EXPECT_EQ(results.tool_results[1].call_id, "c2");
  EXPECT_FALSE(results.tool_results[1].is_error);
  EXPECT_THAT(results.tool_results[1].content, HasSubstr("5"));
  // The conversation: the task, the calls, the results, the answer.
  ASSERT_EQ(r.conversation.messages.size(), 4u);
  EXPECT_EQ(r.conversation.messages[3].text, "Cats, and 5.");
}

// Calls of read-only tools run at once; a call that may change the session runs alone, in its place:
// after the calls before it, before the calls after it. `look` meets the other looks of its group;
// `note` checks that no look is running beside it.
struct ParallelCalls : Fixture {
  ptc::test::Rendezvous meeting{std::chrono::milliseconds(300)};
  std::atomic<int> looking{0};
  std::mutex mutex;
  std::vector<std::string> happened;  // "look a", "note x", in the order the handlers ran
  void log(std::string what) {
    std::lock_guard lock(mutex);
    happened.push_back(std::move(what));
  }
  ParallelCalls() {
    ptc::ToolOptions read_only;
    read_only.hints = ptc::ToolHints{.read_only = true};
    registry.add(ptc::make_tool(
        "look", "Reads.", "(key :string, together :int) -> :int",
        [this](const json& args, ptc::ToolContext&) {
          ++looking;
          const int seen = meeting.meet(args["together"].get<int>());
          log("look " + args["key"].get<std::string>());
          --looking;
          return ok(seen);
        },
        read_only));
    registry.add(ptc::make_tool("note", "Writes.", "(key :string) -> :bool",
                                [this](const json& args, ptc::ToolContext&) {
                                  log("note " + args["key"].get<std::string>() + (looking ? " beside a look" : ""));
                                  return ok(true);
                                }));
  }
  static ptc::ToolCall look(std::string id, std::string key, int together) {
    return {std::move(id), "look", json{{"key", std::move(key)}, {"together", together}}};
  }
  static ptc::ToolCall note(std::string id, std::string key) {
    return {std::move(id), "note", json{{"key", std::move(key)}}};
  }
  std::vector<std::string> sorted(std::size_t from, std::size_t to) const {
    std::vector<std::string> part(happened.begin() + static_cast<std::ptrdiff_t>(from),
                                  happened.begin() + static_cast<std::ptrdiff_t>(to));
    std::sort(part.begin(), part.end());
    return part;
  }
};

TEST_F(ParallelCalls, ReadOnlyCallsRunAtOnceAndChangesRunAloneInTheirPlace) {
  ScriptedModel model({ScriptedModel::calls({look("c1", "a", 3), look("c2", "b", 3), look("c3", "c", 3),
                                             note("c4", "x"), look("c5", "d", 1), note("c6", "y")}),
                       ScriptedModel::answer("done")});
  RunResult r = agent(model).run("go");
  ASSERT_TRUE(r.ok()) << r.error->message;
  ASSERT_EQ(happened.size(), 6u);
  EXPECT_EQ(sorted(0, 3), (std::vector<std::string>{"look a", "look b", "look c"}));  // in any order
  EXPECT_EQ(std::vector<std::string>(happened.begin() + 3, happened.end()),
            (std::vector<std::string>{"note x", "look d", "note y"}));
  const auto seen = model.requests();
  const Message& results = seen[1].conversation.messages.back();
  ASSERT_EQ(results.tool_results.size(), 6u);
  const std::vector<std::string> contents{"3", "3", "3", "true", "1", "true"};  // the three looks met
  for (std::size_t i = 0; i < 6; ++i) {
    EXPECT_EQ(results.tool_results[i].call_id, "c" + std::to_string(i + 1));
    EXPECT_EQ(results.tool_results[i].content, contents[i]);
  }
  // Events from the loop's thread: the group's starts, then its results in the model's order.
  std::vector<std::string> order;
  for (const auto& e : events) {
    if (auto* s = std::get_if<ToolCallStarted>(&e)) order.push_back("start " + s->call.id);
    if (auto* f = std::get_if<ToolCallFinished>(&e)) order.push_back("end " + f->call.id);
  }
  EXPECT_EQ(order, (std::vector<std::string>{"start c1", "start c2", "start c3", "end c1", "end c2", "end c3",
                                             "start c4", "end c4", "start c5", "end c5", "start c6", "end c6"}));
}

TEST_F(ParallelCalls, MaxParallelCallsBoundsAGroup) {
  ScriptedModel model({ScriptedModel::calls({look("c1", "a", 2), look("c2", "b", 2), look("c3", "c", 2)}),
                       ScriptedModel::answer("done")});
  AgentOptions options;
  options.max_parallel_calls = 2;
  RunResult r = agent(model, options).run("go");
  ASSERT_TRUE(r.ok()) << r.error->message;
  const auto seen = model.requests();
  const Message& results = seen[1].conversation.messages.back();
  // c1 and c2 met; c3 ran after them, alone, and waited out its rendezvous.
  EXPECT_EQ(results.tool_results[0].content, "2");
  EXPECT_EQ(results.tool_results[1].content, "2");
  EXPECT_EQ(results.tool_results[2].content, "1");
  EXPECT_EQ(sorted(0, 2), (std::vector<std::string>{"look a", "look b"}));
  EXPECT_EQ(happened[2], "look c");
}

TEST_F(ParallelCalls, OneParallelCallRunsEveryCallAloneInOrder) {
  ScriptedModel model({ScriptedModel::calls({look("c1", "a", 2), look("c2", "b", 2)}), ScriptedModel::answer("done")});
  AgentOptions options;
  options.max_parallel_calls = 1;
  RunResult r = agent(model, options).run("go");
  ASSERT_TRUE(r.ok()) << r.error->message;
  EXPECT_EQ(happened, (std::vector<std::string>{"look a", "look b"}));
  const auto seen = model.requests();
  const Message& results = seen[1].conversation.messages.back();
  EXPECT_EQ(results.tool_results[0].content, "1");
  EXPECT_EQ(results.tool_results[1].content, "1");
}

TEST_F(AgentLoop, InvalidArgumentsAndUnknownToolsGoBackAsFailedResults) {
  ScriptedModel model({ScriptedModel::calls({{"c1", "add", json{{"a", "x"}}}, {"c2", "serch", json::object()}}),
                       ScriptedModel::answer("done")});
  RunResult r = agent(model).run("go");
  ASSERT_TRUE(r.ok());
  const auto seen = model.requests();
  const auto& results = seen[1].conversation.messages.back().tool_results;
  ASSERT_EQ(results.size(), 2u);
  EXPECT_TRUE(results[0].is_error);
  EXPECT_THAT(results[0].content, HasSubstr("a"));
  EXPECT_TRUE(results[1].is_error);
  EXPECT_EQ(results[1].content, "Unknown tool 'serch'. The nearest tool names: search, add.");
}

TEST_F(AgentLoop, TheApprovalHookDeniesReplacesAndApproves) {
  ScriptedModel model({ScriptedModel::calls({{"c1", "add", json{{"a", 1}, {"b", 1}}},
                                             {"c2", "add", json{{"a", 5}, {"b", 5}}},
                                             {"c3", "search", json{{"query", "x"}}}}),
                       ScriptedModel::answer("ok")});
  AgentOptions options;
  options.approve = [](const ptc::ToolCall& call) -> Approval {
    if (call.id == "c1") return Deny{"not today"};
    if (call.id == "c2") return ReplaceArguments{json{{"a", 100}, {"b", 1}}};
    return Approve{};
  };
  RunResult r = agent(model, options).run("go");
  ASSERT_TRUE(r.ok());
  const auto seen = model.requests();
  const auto& results = seen[1].conversation.messages.back().tool_results;
  EXPECT_TRUE(results[0].is_error);
  EXPECT_EQ(results[0].content, "The call was denied: not today");
  EXPECT_THAT(results[1].content, HasSubstr("101"));
  EXPECT_EQ(results[2].content, "[\"x result\"]");
}

TEST_F(AgentLoop, EachLimitEndsTheRunWithAnErrorNamingIt) {
  {
    ScriptedModel model({ScriptedModel::call("search", json{{"query", "a"}}),
                         ScriptedModel::call("search", json{{"query", "b"}})});
    AgentOptions options;
    options.limits.max_turns = 2;
    RunResult r = agent(model, options).run("loop");
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error->kind, RunError::Kind::limit);
    EXPECT_EQ(r.error->message, "the run reached its limit of 2 turns (max_turns)");
    model.assert_complete();
  }
  {
    ScriptedModel model(
        {ScriptedModel::calls({{"", "search", json{{"query", "a"}}}, {"", "add", json{{"a", 1}, {"b", 2}}}})});
    AgentOptions options;
    options.limits.max_tool_calls = 1;
    RunResult r = agent(model, options).run("loop");
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error->message, "the run reached its limit of 1 tool calls (max_tool_calls)");
    EXPECT_EQ(r.tool_calls, 0u);
  }
  {
    ScriptedModel model({ScriptedModel::call("search", json{{"query", "a"}}), ScriptedModel::answer("x")});
    AgentOptions options;
    options.limits.max_total_tokens = 20;
    RunResult r = agent(model, options).run("loop");
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error->message, "the run reached its limit of 20 total tokens (max_total_tokens)");
  }
}

TEST_F(AgentLoop, AProviderErrorEndsTheRun) {
  ScriptedModel model({ScriptedModel::failure("openai: HTTP 401: Incorrect API key provided")});
  RunResult r = agent(model).run("go");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error->kind, RunError::Kind::provider);
  EXPECT_EQ(r.error->message, "openai: HTTP 401: Incorrect API key provided");
}

TEST_F(AgentLoop, TypedAnswersAreReadLenientlyWithWarnings) {
  const ptc::Schema answer = ptc::parse_type("{total :int, names [:string]}").value();
  ScriptedModel model({ScriptedModel::answer("Here it is:\n```json\n{\"total\": \"3\", \"names\": [\"a\"]}\n```")});
  RunResult r = agent(model).run("count", answer);
  ASSERT_TRUE(r.ok()) << r.error->message;
  EXPECT_EQ(r.value, (json{{"total", 3}, {"names", {"a"}}}));
  EXPECT_THAT(r.warnings, ::testing::Contains(HasSubstr("markdown code block")));
  EXPECT_THAT(r.warnings, ::testing::Contains(HasSubstr("total")));
  EXPECT_TRUE(model.requests()[0].output_requested);
  EXPECT_THAT(model.requests()[0].conversation.messages[0].text,
              HasSubstr("(signature syntax): {total :int, names [:string]}"));
}

TEST_F(AgentLoop, AnAnswerThatDoesNotHoldIsSentBackWithItsErrorsAndNoTools) {
  const ptc::Schema answer = ptc::parse_type("{total :int}").value();
  ScriptedModel model({ScriptedModel::answer("{\"total\": \"many\"}"), ScriptedModel::answer("{\"total\": 4}")});
  RunResult r = agent(model).run("count", answer);
  ASSERT_TRUE(r.ok()) << r.error->message;
  EXPECT_EQ(r.value, (json{{"total", 4}}));
  const auto seen = model.requests();
  ASSERT_EQ(seen.size(), 2u);
  EXPECT_TRUE(seen[1].tools.empty());
  EXPECT_EQ(seen[1].conversation.messages.back().text,
            "Your answer does not match the expected type (retry 1 of 2).\nExpected: {total :int}\nErrors:\n"
            "- total: expected int, got string \"many\"\n"
            "Answer again with only the corrected JSON value. No tools are available in this turn.");
  EXPECT_EQ(r.turns, 1u);
}

TEST_F(AgentLoop, AnAnswerThatNeverHoldsEndsTheRunWithTheLastErrors) {
  const ptc::Schema answer = ptc::parse_type("{total :int}").value();
  ScriptedModel model({ScriptedModel::answer("no"), ScriptedModel::answer("{}"), ScriptedModel::answer("[1]")});
  RunResult r = agent(model).run("count", answer);
  ASSERT_FALSE(r.ok());
  model.assert_complete();
  EXPECT_EQ(r.error->kind, RunError::Kind::answer_invalid);
  EXPECT_THAT(r.error->message, HasSubstr("after 2 retries"));
}

TEST_F(AgentLoop, ARunCanBeCancelledAndTimedOut) {
  registry.add(ptc::make_tool("slow", "Slow.", "() -> :bool", [](const json&, ptc::ToolContext& ctx) {
    ctx.cancellation() ? ctx.cancellation()->wait_for(std::chrono::seconds(10)) : false;
    return ok(true);
  }));
  ScriptedModel model({ScriptedModel::call("slow", json::object()), ScriptedModel::answer("late")});
  AgentOptions options;
  options.timeout = std::chrono::milliseconds(200);
  const auto start = std::chrono::steady_clock::now();
  RunResult r = agent(model, options).run("go");
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error->kind, RunError::Kind::timed_out);
}

TEST_F(AgentLoop, TheConversationIsAValueToWriteAndContinueFrom) {
  ScriptedModel first({ScriptedModel::call("add", json{{"a", 1}, {"b", 2}}, "c1"), ScriptedModel::answer("3")});
  RunResult r = agent(first).run("add");
  ASSERT_TRUE(r.ok());
  const std::string lines = r.conversation.to_json_lines();
  auto back = Conversation::from_json_lines(lines);
  ASSERT_TRUE(back) << back.error().to_string();
  EXPECT_EQ(back->to_json_lines(), lines);
  ScriptedModel second({ScriptedModel::answer("6")});
  RunResult more = agent(second).run("and doubled?", *back);
  ASSERT_TRUE(more.ok());
  EXPECT_EQ(second.requests()[0].conversation.messages.size(), 5u);
  EXPECT_FALSE(Conversation::from_json_lines("{\"system\":\"\"}\n{\"role\":\"robot\"}\n"));
  EXPECT_EQ(Conversation::from_json_lines("{\"system\":\"\"}\n[1\n").error().line, 2u);
}

TEST(ScriptedModelTest, AssertCompleteNamesWhatWasLeft) {
  ScriptedModel model({ScriptedModel::answer("a"), ScriptedModel::answer("b")});
  ptc::ToolRegistry registry;
  Agent(model, registry).run("x");
  EXPECT_THROW(model.assert_complete(), std::logic_error);
}

TEST(TestModelTest, CallsEveryToolWithArgumentsItsSchemaAccepts) {
  ptc::ToolRegistry registry;
  int runs = 0;
  registry.add(ptc::make_tool("pick", "Picks.",
                              "(n [:and :int [:> 3]], mode [:enum \"a\" \"b\"], tags [:string]) -> :int",
                              [&](const json& args, ptc::ToolContext&) {
                                ++runs;
                                return ok(args["n"]);
                              }));
  TestModel model;
  RunResult r = Agent(model, registry).run("x", ptc::parse_type("{n :int}").value());
  ASSERT_TRUE(r.ok()) << r.error->message;
  EXPECT_EQ(runs, 1);
  EXPECT_EQ(r.value, (json{{"n", 0}}));
  const auto& results = r.conversation.messages[2].tool_results;
  ASSERT_EQ(results.size(), 1u);
  EXPECT_FALSE(results[0].is_error) << results[0].content;
  EXPECT_EQ(results[0].content, "4");
}

}  // namespace
