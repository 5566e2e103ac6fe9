// `PROGRAM agent ...` (ptc::cli::run) against the provider double playing OpenAI's Chat Completions.
#include <cstdlib>
#include <iostream>
#include <sstream>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <ptc/cli.hpp>
#include <ptc/registry.hpp>
#include <ptc/tool.hpp>

#include "provider_double.hpp"

namespace {

using nlohmann::json;
using ::testing::HasSubstr;

struct Ran {
  int code = 0;
  std::string out, err;
};

struct AgentCommand : ::testing::Test {
  ptc::ToolRegistry registry;
  ptc_test::ProviderDouble provider;
  AgentCommand() {
    ::unsetenv("OPENAI_API_KEY");
    ::unsetenv("PTC_MODEL");
    registry.add(ptc::make_tool("add", "Adds.", "(a :int, b :int) -> :int", [](const json& args, ptc::ToolContext&) {
      return ptc::ToolResult<json>::ok(args["a"].get<int>() + args["b"].get<int>());
    }));
  }
  Ran run(std::vector<std::string> args) {
    std::ostringstream out, err;
    Ran r;
    r.code = ptc::cli::run(registry, args, out, err);
    r.out = out.str();
    r.err = err.str();
    return r;
  }
  static std::string chat(const json& message) {
    return json{{"id", "chatcmpl-1"},
                {"object", "chat.completion"},
                {"choices", {{{"index", 0}, {"message", message}, {"finish_reason", "stop"}}}},
                {"usage", {{"prompt_tokens", 10}, {"completion_tokens", 3}, {"total_tokens", 13}}}}
        .dump();
  }
};

TEST_F(AgentCommand, AnswersOnStdoutAndLogsEachCallOnStderr) {
  provider.push(ptc_test::Reply::json(
      200, chat({{"role", "assistant"},
                 {"content", nullptr},
                 {"tool_calls",
                  {{{"id", "call_1"},
                    {"type", "function"},
                    {"function", {{"name", "add"}, {"arguments", "{\"a\":2,\"b\":\"3\"}"}}}}}}})));
  provider.push(ptc_test::Reply::json(200, chat({{"role", "assistant"}, {"content", "It is 5."}})));
  Ran r = run({"agent", "--model", "test-model", "--base-url", provider.base_url() + "/v1", "What is 2+3?"});
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.out, "It is 5.\n");
  EXPECT_EQ(r.err, "> add {\"a\":2,\"b\":\"3\"} [succeeded]\n  warning: b: coerced string \"3\" to int\n");
  const auto requests = provider.requests();
  ASSERT_EQ(requests.size(), 2u);
  EXPECT_EQ(requests[0].target, "/v1/chat/completions");
  EXPECT_EQ(requests[0].header("authorization"), "");  // loopback without a key: no auth header
  const json second = json::parse(requests[1].body);
  EXPECT_EQ(second["model"], "test-model");
  EXPECT_EQ(second["messages"].back(), (json{{"role", "tool"}, {"tool_call_id", "call_1"}, {"content", "5"}}));
}

TEST_F(AgentCommand, OutputPrintsTheValidatedValueAsOneLineOfJson) {
  provider.push(ptc_test::Reply::json(200,
                                      chat({{"role", "assistant"}, {"content", "```json\n{\"sum\": \"5\"}\n```"}})));
  ::setenv("PTC_MODEL", "from-env", 1);
  Ran r = run({"agent", "--base-url", provider.base_url(), "--output", "{sum :int}", "Add."});
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.out, "{\"sum\":5}\n");
  EXPECT_THAT(r.err, HasSubstr("warning: the value was read from a markdown code block"));
  EXPECT_EQ(json::parse(provider.requests()[0].body)["model"], "from-env");
  ::unsetenv("PTC_MODEL");
}

TEST_F(AgentCommand, UsageErrorsExitTwoAndFailedRunsExitOne) {
  EXPECT_EQ(run({"agent", "--base-url", provider.base_url(), "x"}).err,
            "error: give a model with --model or $PTC_MODEL\n");
  EXPECT_EQ(run({"agent", "--model", "m", "--provider", "mistral", "x"}).code, 2);
  Ran no_key = run({"agent", "--model", "m", "x"});
  EXPECT_EQ(no_key.code, 2);
  EXPECT_EQ(no_key.err, "error: set OPENAI_API_KEY (no key is needed only for a --base-url on loopback)\n");
  EXPECT_EQ(run({"agent", "--model", "m", "--output", "{a", "--base-url", provider.base_url(), "x"}).code, 2);
  provider.push(ptc_test::Reply::json(400, R"({"error":{"message":"model not found"}})"));
  Ran failed = run({"agent", "--model", "m", "--base-url", provider.base_url(), "x"});
  EXPECT_EQ(failed.code, 1);
  EXPECT_EQ(failed.err, "error: openai: HTTP 400: model not found\n");
  EXPECT_EQ(failed.out, "");
}

TEST_F(AgentCommand, ApproveAsksBeforeEachCallAndARefusalReachesTheModel) {
  auto call = [](const char* id, int a) {
    return json{{"id", id},
                {"type", "function"},
                {"function", {{"name", "add"}, {"arguments", json{{"a", a}, {"b", 1}}.dump()}}}};
  };
  provider.push(ptc_test::Reply::json(200, chat({{"role", "assistant"},
                                                 {"content", nullptr},
                                                 {"tool_calls", {call("c1", 1), call("c2", 2), call("c3", 3)}}})));
  provider.push(ptc_test::Reply::json(200, chat({{"role", "assistant"}, {"content", "done"}})));
  std::istringstream answers("y\nn\ntoo big\n");
  auto* saved = std::cin.rdbuf(answers.rdbuf());
  Ran r = run({"agent", "--model", "m", "--base-url", provider.base_url(), "--approve", "add them"});
  std::cin.rdbuf(saved);
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.err,
            // On a terminal the answer's Enter ends each question's line.
            "run add {\"a\":1,\"b\":1}? [y/n/reason] run add {\"a\":2,\"b\":1}? [y/n/reason] "
            "> add {\"a\":2,\"b\":1} [denied]\nrun add {\"a\":3,\"b\":1}? [y/n/reason] "
            "> add {\"a\":3,\"b\":1} [denied]\n> add {\"a\":1,\"b\":1} [succeeded]\n");
  const json messages = json::parse(provider.requests()[1].body)["messages"];
  ASSERT_GE(messages.size(), 5u);
  EXPECT_EQ(messages[2]["content"], "2");
  EXPECT_EQ(messages[3]["content"], "The call was denied: the user said no");
  EXPECT_EQ(messages[4]["content"], "The call was denied: too big");
}

TEST_F(AgentCommand, StreamWritesTheTextToStderrAsItArrivesAndTheAnswerToStdout) {
  auto chunk = [](const char* text) {
    return "data: " +
           json{{"id", "c"},
                {"object", "chat.completion.chunk"},
                {"choices", {{{"index", 0}, {"delta", {{"content", text}}}}}}}
               .dump() +
           "\n\n";
  };
  const std::string end = "data: " +
                          json{{"id", "c"},
                               {"object", "chat.completion.chunk"},
                               {"choices", {{{"index", 0}, {"delta", json::object()}, {"finish_reason", "stop"}}}}}
                              .dump() +
                          "\n\ndata: [DONE]\n\n";
  provider.push(ptc_test::Reply::sse({chunk("Hel"), chunk("lo."), end}));
  Ran r = run({"agent", "--model", "m", "--base-url", provider.base_url(), "--stream", "hi"});
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.out, "Hello.\n");
  EXPECT_EQ(r.err, "Hello.\n");
  EXPECT_EQ(json::parse(provider.requests()[0].body)["stream"], true);
}

TEST_F(AgentCommand, TheTranscriptIsWrittenAndContinuedFrom) {
  const std::string file = ::testing::TempDir() + "/agent_transcript.jsonl";
  std::remove(file.c_str());
  provider.push(ptc_test::Reply::json(200, chat({{"role", "assistant"}, {"content", "first"}})));
  provider.push(ptc_test::Reply::json(200, chat({{"role", "assistant"}, {"content", "second"}})));
  const std::vector<std::string> base = {"agent",        "--model", "m", "--base-url", provider.base_url(),
                                         "--transcript", file};
  auto with = [&](std::string task) {
    auto args = base;
    args.push_back(std::move(task));
    return args;
  };
  EXPECT_EQ(run(with("one")).out, "first\n");
  EXPECT_EQ(run(with("two")).out, "second\n");
  const json messages = json::parse(provider.requests()[1].body)["messages"];
  ASSERT_EQ(messages.size(), 3u);
  EXPECT_EQ(messages[0]["content"], "one");
  EXPECT_EQ(messages[1]["content"], "first");
  EXPECT_EQ(messages[2]["content"], "two");
  std::remove(file.c_str());
}

}  // namespace
