// The whole loop, end to end, for each of the four providers: ptc::agent::Agent over make_model's
// provider client (libcurl, the wire format, the SSE reader) against the provider double, which
// answers in the provider's documented wire format, whole or streamed (provider_script.hpp). Each case
// scripts the provider's replies and checks both the run's result and what the client sent back.
//
// Every case is bounded: small timeouts and backoffs, loopback only, nothing shared between threads
// but the double (locked) and the cancellation (locked); the events are collected on the run's thread.

#include <atomic>
#include <chrono>
#include <cstddef>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <thread>
#include <tuple>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

#include <sys/resource.h>

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <ptc/agent/agent.hpp>
#include <ptc/agent/providers.hpp>
#include <ptc/cancellation.hpp>
#include <ptc/registry.hpp>
#include <ptc/signature.hpp>
#include <ptc/tool.hpp>

#include "provider_double.hpp"
#include "provider_script.hpp"

// Test names and failure messages show the provider by name.
namespace ptc::agent {
void PrintTo(Provider provider, std::ostream* os) { *os << provider_name(provider); }
}  // namespace ptc::agent

namespace {

namespace script = provider_script;
using namespace ptc::agent;  // NOLINT(google-build-using-namespace)
using nlohmann::json;
using ptc_test::Reply;
using script::Turn;
using std::chrono::milliseconds;
using ::testing::AllOf;
using ::testing::HasSubstr;
using ::testing::Not;
using ::testing::StartsWith;

using Clock = std::chrono::steady_clock;

// Obviously fake keys.
constexpr char kKey[] = "sk-test-not-a-real-key";
constexpr char kSecret[] = "sk-test-SECRET123";
constexpr char kModel[] = "test-model";

long elapsed_ms(Clock::time_point start) {
  return static_cast<long>(std::chrono::duration_cast<milliseconds>(Clock::now() - start).count());
}

long max_rss_kib() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_maxrss;
}

// A call id in the provider's own style, so that a test shows the ids going back are the provider's.
std::string call_id(Provider p, int n) {
  switch (p) {
    case Provider::openai: return "call_Xq8" + std::to_string(n);
    case Provider::openai_responses: return "call_Pq1w" + std::to_string(n);
    case Provider::anthropic: return "toolu_01T1x1fJ34qAmk2tNTrN7Up" + std::to_string(n);
    case Provider::gemini: return "fc-3c4d" + std::to_string(n);
  }
  return {};
}

// Every text an event carries, for the secrets check.
std::string event_text(const AgentEvent& event) {
  return std::visit(
      [](const auto& e) -> std::string {
        using T = std::decay_t<decltype(e)>;
        if constexpr (std::is_same_v<T, StreamEvent>) {
          return e.text + "|" + e.call_id + "|" + e.name;
        } else if constexpr (std::is_same_v<T, ToolCallStarted>) {
          return e.call.id + "|" + e.call.name + "|" + e.call.arguments.dump();
        } else if constexpr (std::is_same_v<T, ToolCallFinished>) {
          return e.call.id + "|" + e.call.name + "|" + e.call.arguments.dump() + "|" + e.rendered;
        } else if constexpr (std::is_same_v<T, RetryNotice>) {
          return e.reason;
        } else if constexpr (std::is_same_v<T, AnswerRejected>) {
          return e.feedback;
        } else {
          return std::string();
        }
      },
      event);
}

ptc::ToolResult<json> ok(json value) { return ptc::ToolResult<json>::ok(std::move(value)); }

// ---- the fixture ---------------------------------------------------------------------------------

class ProviderLoop : public ::testing::TestWithParam<std::tuple<Provider, bool>> {
 protected:
  ProviderLoop() {
    registry.add(ptc::make_tool("add", "Adds two integers.", "(a :int, b :int) -> :int",
                                [this](const json& args, ptc::ToolContext&) {
                                  ++adds;
                                  return ok(args["a"].get<int>() + args["b"].get<int>());
                                }));
    registry.add(ptc::make_tool("search", "Searches the catalogue.", "(query :string) -> [:string]",
                                [this](const json& args, ptc::ToolContext&) {
                                  ++searches;
                                  return ok(json::array({args["query"].get<std::string>() + " result"}));
                                }));
  }

  // Whatever the case, every request went where the provider wants it, as JSON, streamed when asked.
  void TearDown() override {
    for (const auto& request : server.requests()) {
      EXPECT_EQ(request.method, "POST");
      EXPECT_EQ(request.target, script::target(provider(), kModel, streamed()));
      EXPECT_EQ(request.header("content-type"), "application/json");
      const json body = json::parse(request.body, nullptr, false);
      ASSERT_FALSE(body.is_discarded()) << request.body;
      if (provider() != Provider::gemini) {
        EXPECT_EQ(body.value("stream", false), streamed()) << request.body;
      }
    }
  }

  Provider provider() const { return std::get<0>(GetParam()); }
  bool streamed() const { return std::get<1>(GetParam()); }
  std::string prefix() const { return std::string(provider_name(provider())) + ": "; }
  std::string id(int n) const { return call_id(provider(), n); }

  ProviderOptions options(std::string key = kKey) const {
    ProviderOptions o;
    o.provider = provider();
    o.base_url = server.base_url() + script::base_path(provider());
    o.api_key = std::move(key);
    o.connect_timeout = milliseconds(2'000);
    o.total_timeout = milliseconds(5'000);
    o.max_retries = 0;
    o.initial_backoff = milliseconds(1);
    o.max_backoff = milliseconds(50);
    return o;
  }

  void push(const Turn& turn) { server.push(script::reply(provider(), turn, streamed())); }

  RunResult run(const std::string& task, AgentOptions agent_options = {},
                std::optional<ProviderOptions> provider_options = std::nullopt, const ptc::Schema* answer = nullptr) {
    auto model = make_model(provider_options ? *provider_options : options());
    if (!model) {
      ADD_FAILURE() << model.error().message;
      RunResult failed;
      failed.error = RunError{RunError::Kind::provider, "make_model: " + model.error().message};
      return failed;
    }
    agent_options.stream = streamed();
    if (agent_options.settings.model.empty()) agent_options.settings.model = kModel;
    Agent agent(**model, registry, std::move(agent_options));
    agent.subscribe([this](const AgentEvent& e) { events.push_back(e); });
    return answer ? agent.run(task, *answer) : agent.run(task);
  }

  json body(std::size_t i) const {
    const auto requests = server.requests();
    if (i >= requests.size()) {
      ADD_FAILURE() << "no request " << i << " (" << requests.size() << " made)";
      return json::object();
    }
    return json::parse(requests[i].body);
  }
  std::vector<script::SentResult> results(std::size_t request) const {
    return script::sent_results(provider(), script::json::parse(server.requests().at(request).body));
  }
  std::string last_user_text(std::size_t request) const {
    return script::last_user_text(provider(), script::json::parse(server.requests().at(request).body));
  }
  std::vector<std::string> tools(std::size_t request) const {
    return script::tool_names(provider(), script::json::parse(server.requests().at(request).body));
  }

  template <class T>
  std::vector<T> events_of() const {
    std::vector<T> out;
    for (const auto& e : events)
      if (const T* t = std::get_if<T>(&e)) out.push_back(*t);
    return out;
  }

  // A failed result as each provider marks it: its own flag where it has one, the text alone where not.
  void expect_failed(const script::SentResult& r) const {
    if (provider() == Provider::anthropic || provider() == Provider::gemini) {
      ASSERT_TRUE(r.is_error.has_value());
      EXPECT_TRUE(*r.is_error) << r.content;
    } else {
      EXPECT_FALSE(r.is_error.has_value());
    }
  }
  void expect_succeeded(const script::SentResult& r) const {
    if (r.is_error) {
      EXPECT_FALSE(*r.is_error) << r.content;
    }
  }

  void expect_no_secret(const RunResult& r) const {
    if (r.error) {
      EXPECT_THAT(r.error->message, Not(HasSubstr(kSecret)));
    }
    EXPECT_THAT(r.text, Not(HasSubstr(kSecret)));
    for (const auto& e : events) EXPECT_THAT(event_text(e), Not(HasSubstr(kSecret)));
    EXPECT_THAT(r.conversation.to_json_lines(), Not(HasSubstr(kSecret)));
  }
  // The key did go out: the tests would prove nothing if it never reached the provider.
  void expect_key_sent() const {
    const auto requests = server.requests();
    ASSERT_FALSE(requests.empty());
    const std::string sent =
        requests[0].header("authorization") + requests[0].header("x-api-key") + requests[0].header("x-goog-api-key");
    EXPECT_THAT(sent, HasSubstr(kSecret));
  }

  ptc_test::ProviderDouble server;
  ptc::ToolRegistry registry;
  std::atomic<int> adds{0};
  std::atomic<int> searches{0};
  std::vector<AgentEvent> events;
};

std::string mode_name(const ::testing::TestParamInfo<std::tuple<Provider, bool>>& info) {
  std::string name(provider_name(std::get<0>(info.param)));
  for (char& c : name)
    if (c == '-') c = '_';
  return name + (std::get<1>(info.param) ? "_streamed" : "_whole");
}

INSTANTIATE_TEST_SUITE_P(AllProviders, ProviderLoop,
                         ::testing::Combine(::testing::ValuesIn(script::kProviders), ::testing::Bool()), mode_name);

// The cases about what a stream alone can do (end early, stall, carry an error event), and one about
// whole answers alone.
class ProviderStream : public ProviderLoop {};
INSTANTIATE_TEST_SUITE_P(AllProviders, ProviderStream,
                         ::testing::Combine(::testing::ValuesIn(script::kProviders), ::testing::Values(true)),
                         mode_name);
class ProviderWhole : public ProviderLoop {};
INSTANTIATE_TEST_SUITE_P(AllProviders, ProviderWhole,
                         ::testing::Combine(::testing::ValuesIn(script::kProviders), ::testing::Values(false)),
                         mode_name);
class ProviderSecrets : public ProviderLoop {};
INSTANTIATE_TEST_SUITE_P(AllProviders, ProviderSecrets,
                         ::testing::Combine(::testing::ValuesIn(script::kProviders), ::testing::Bool()), mode_name);

// ---- the loop ------------------------------------------------------------------------------------

TEST_P(ProviderLoop, TwoCallsInOneTurnThenAnAnswer) {
  // search before add: the results must come back in the model's order, not the registry's.
  push(script::calls({{id(1), "search", R"({"query":"cats"})"}, {id(2), "add", R"({"a":2,"b":3})"}}, 100, 20));
  push(script::answer("Cats, and 5.", 150, 30));
  RunResult r = run("Find cats and add 2 and 3.");
  ASSERT_TRUE(r.ok()) << r.error->message;
  EXPECT_EQ(r.text, "Cats, and 5.");
  EXPECT_EQ(r.turns, 2u);
  EXPECT_EQ(r.tool_calls, 2u);
  EXPECT_EQ(r.usage.requests, 2u);
  EXPECT_EQ(r.usage.input_tokens, 250u);
  EXPECT_EQ(r.usage.output_tokens, 50u);
  EXPECT_EQ(searches.load(), 1);
  EXPECT_EQ(adds.load(), 1);
  ASSERT_EQ(server.requests().size(), 2u);
  EXPECT_EQ(server.unused_replies(), 0u);
  EXPECT_EQ(tools(0), (std::vector<std::string>{"add", "search"}));
  EXPECT_EQ(last_user_text(0), "Find cats and add 2 and 3.");
  EXPECT_TRUE(results(0).empty());
  const auto sent = results(1);
  ASSERT_EQ(sent.size(), 2u);
  EXPECT_EQ(sent[0].call_id, id(1));
  EXPECT_EQ(sent[0].content, R"(["cats result"])");
  expect_succeeded(sent[0]);
  EXPECT_EQ(sent[1].call_id, id(2));
  EXPECT_EQ(sent[1].content, "5");
  expect_succeeded(sent[1]);
  if (provider() == Provider::gemini) {
    EXPECT_EQ(sent[0].name, "search");
    EXPECT_EQ(sent[1].name, "add");
  }
  // The task, the calls, their results, the answer.
  ASSERT_EQ(r.conversation.messages.size(), 4u);
  ASSERT_EQ(r.conversation.messages[1].tool_calls.size(), 2u);
  EXPECT_EQ(r.conversation.messages[1].tool_calls[0].id, id(1));
  EXPECT_EQ(r.conversation.messages[3].text, "Cats, and 5.");

  const auto usages = events_of<Usage>();
  ASSERT_EQ(usages.size(), 2u);
  EXPECT_EQ(usages[0].input_tokens, 100u);
  EXPECT_EQ(usages[0].output_tokens, 20u);
  EXPECT_EQ(usages[1].input_tokens, 150u);
  EXPECT_EQ(usages[1].output_tokens, 30u);

  // Streamed, the deltas arrive as events: the answer's text whole, each call's arguments whole.
  const auto deltas = events_of<StreamEvent>();
  if (!streamed()) {
    EXPECT_TRUE(deltas.empty());
    return;
  }
  std::string text;
  std::vector<StreamEvent> calls(2);
  for (const StreamEvent& e : deltas) {
    if (e.kind == StreamEvent::Kind::text_delta) {
      text += e.text;
      continue;
    }
    ASSERT_LT(e.index, 2u);
    calls[e.index].text += e.text;
    if (!e.call_id.empty()) calls[e.index].call_id = e.call_id;
    if (!e.name.empty()) calls[e.index].name = e.name;
  }
  EXPECT_EQ(text, "Cats, and 5.");
  EXPECT_EQ(calls[0].call_id, id(1));
  EXPECT_EQ(calls[0].name, "search");
  EXPECT_EQ(calls[0].text, R"({"query":"cats"})");
  EXPECT_EQ(calls[1].call_id, id(2));
  EXPECT_EQ(calls[1].name, "add");
  EXPECT_EQ(calls[1].text, R"({"a":2,"b":3})");
}

TEST_P(ProviderLoop, InvalidArgumentsGoBackAsAFailedResultNamingThePath) {
  push(script::calls({{id(1), "add", R"({"a":"x"})"}}));
  push(script::answer("I could not add."));
  RunResult r = run("Add x.");
  ASSERT_TRUE(r.ok()) << r.error->message;
  EXPECT_EQ(r.text, "I could not add.");
  EXPECT_EQ(adds.load(), 0);
  const auto sent = results(1);
  ASSERT_EQ(sent.size(), 1u);
  EXPECT_EQ(sent[0].call_id, id(1));
  expect_failed(sent[0]);
  EXPECT_THAT(sent[0].content, HasSubstr("- a: expected int, got string \"x\""));
  const auto finished = events_of<ToolCallFinished>();
  ASSERT_EQ(finished.size(), 1u);
  EXPECT_EQ(finished[0].status, ptc::CallStatus::InvalidArguments);
}

TEST_P(ProviderLoop, AnUnknownToolGoesBackWithTheNearestNames) {
  push(script::calls({{id(1), "serch", R"({"query":"x"})"}}));
  push(script::answer("Sorry."));
  RunResult r = run("Search x.");
  ASSERT_TRUE(r.ok()) << r.error->message;
  EXPECT_EQ(searches.load(), 0);
  const auto sent = results(1);
  ASSERT_EQ(sent.size(), 1u);
  EXPECT_EQ(sent[0].call_id, id(1));
  expect_failed(sent[0]);
  EXPECT_EQ(sent[0].content, "Unknown tool 'serch'. The nearest tool names: search, add.");
  if (provider() == Provider::gemini) {
    EXPECT_EQ(sent[0].name, "serch");
  }
}

TEST_P(ProviderLoop, ADeniedCallGoesBackAndItsHandlerDoesNotRun) {
  push(script::calls({{id(1), "add", R"({"a":1,"b":1})"}, {id(2), "search", R"({"query":"x"})"}}));
  push(script::answer("Denied, then."));
  AgentOptions o;
  o.approve = [](const ptc::ToolCall& call) -> Approval {
    if (call.name == "add") return Deny{"not today"};
    return Approve{};
  };
  RunResult r = run("Add and search.", o);
  ASSERT_TRUE(r.ok()) << r.error->message;
  EXPECT_EQ(adds.load(), 0);
  EXPECT_EQ(searches.load(), 1);
  const auto sent = results(1);
  ASSERT_EQ(sent.size(), 2u);
  EXPECT_EQ(sent[0].call_id, id(1));
  expect_failed(sent[0]);
  EXPECT_EQ(sent[0].content, "The call was denied: not today");
  EXPECT_EQ(sent[1].call_id, id(2));
  expect_succeeded(sent[1]);
  EXPECT_EQ(sent[1].content, R"(["x result"])");
  const auto finished = events_of<ToolCallFinished>();
  ASSERT_EQ(finished.size(), 2u);
  EXPECT_EQ(finished[0].status, ptc::CallStatus::Denied);
  EXPECT_EQ(events_of<ToolCallStarted>().size(), 1u);
}

// ---- typed answers -------------------------------------------------------------------------------

TEST_P(ProviderLoop, ATypedAnswerIsAcceptedAsIs) {
  const ptc::Schema schema = ptc::parse_type("{total :int}").value();
  push(script::answer(R"({"total": 4})"));
  RunResult r = run("Count.", {}, std::nullopt, &schema);
  ASSERT_TRUE(r.ok()) << r.error->message;
  EXPECT_EQ(r.value, (json{{"total", 4}}));
  EXPECT_TRUE(r.warnings.empty());
  EXPECT_EQ(server.requests().size(), 1u);
  EXPECT_THAT(last_user_text(0), AllOf(StartsWith("Count."), HasSubstr("{total :int}")));
}

TEST_P(ProviderLoop, ATypedAnswerIsCoercedWithAWarning) {
  const ptc::Schema schema = ptc::parse_type("{total :int}").value();
  push(script::answer(R"({"total": "4"})"));
  RunResult r = run("Count.", {}, std::nullopt, &schema);
  ASSERT_TRUE(r.ok()) << r.error->message;
  EXPECT_EQ(r.value, (json{{"total", 4}}));
  EXPECT_EQ(r.warnings, (std::vector<std::string>{"total: coerced string \"4\" to int"}));
  EXPECT_EQ(server.requests().size(), 1u);
}

TEST_P(ProviderLoop, ATypedAnswerThatDoesNotHoldIsAskedAgainWithoutTools) {
  const ptc::Schema schema = ptc::parse_type("{total :int}").value();
  push(script::answer(R"({"total": "many"})"));
  push(script::answer(R"({"total": 4})"));
  RunResult r = run("Count.", {}, std::nullopt, &schema);
  ASSERT_TRUE(r.ok()) << r.error->message;
  EXPECT_EQ(r.value, (json{{"total", 4}}));
  EXPECT_EQ(r.turns, 1u);
  ASSERT_EQ(server.requests().size(), 2u);
  EXPECT_EQ(tools(0), (std::vector<std::string>{"add", "search"}));
  if (provider() == Provider::anthropic) {
    // Anthropic refuses a history of tool_use blocks without the tools: they are listed, and none may be called.
    EXPECT_EQ(body(1)["tool_choice"], (json{{"type", "none"}})) << body(1).dump();
    EXPECT_EQ(tools(1), (std::vector<std::string>{"add", "search"}));
  } else {
    EXPECT_FALSE(body(1).contains("tools")) << body(1).dump();
  }
  const std::string feedback =
      "Your answer does not match the expected type (retry 1 of 2).\nExpected: {total :int}\nErrors:\n"
      "- total: expected int, got string \"many\"\n"
      "Answer again with only the corrected JSON value. No tools are available in this turn.";
  EXPECT_EQ(last_user_text(1), feedback);
  const auto rejected = events_of<AnswerRejected>();
  ASSERT_EQ(rejected.size(), 1u);
  EXPECT_EQ(rejected[0].feedback, feedback);
  // Gemini takes a response schema only without tools: in the retry turn, not the first.
  if (provider() == Provider::gemini) {
    EXPECT_FALSE(body(0).contains("generationConfig")) << body(0).dump();
    EXPECT_EQ(body(1)["generationConfig"].value("responseMimeType", ""), "application/json") << body(1).dump();
  }
}

// ---- transport failures --------------------------------------------------------------------------

TEST_P(ProviderLoop, A429IsRetriedAfterWhatItAsks) {
  server.push(
      Reply::json(429, script::error_body(provider(), 429, "Rate limit reached.")).header("retry-after-ms", "10"));
  push(script::answer("Done."));
  ProviderOptions po = options();
  po.max_retries = 2;
  RunResult r = run("Go.", {}, po);
  ASSERT_TRUE(r.ok()) << r.error->message;
  EXPECT_EQ(r.text, "Done.");
  EXPECT_EQ(server.requests().size(), 2u);
  const auto notices = events_of<RetryNotice>();
  ASSERT_EQ(notices.size(), 1u);
  EXPECT_EQ(notices[0].attempt, 1);
  EXPECT_EQ(notices[0].reason, "HTTP 429");
  EXPECT_GE(notices[0].delay, milliseconds(10));
  EXPECT_LE(notices[0].delay, milliseconds(50));
}

TEST_P(ProviderLoop, A401EndsTheRunWithTheProvidersMessage) {
  server.push(Reply::json(401, script::error_body(provider(), 401, "Incorrect API key provided.")));
  ProviderOptions po = options();
  po.max_retries = 3;
  RunResult r = run("Go.", {}, po);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error->kind, RunError::Kind::provider);
  EXPECT_EQ(r.error->message, prefix() + "HTTP 401: Incorrect API key provided.");
  EXPECT_EQ(server.requests().size(), 1u);
  EXPECT_TRUE(events_of<RetryNotice>().empty());
}

TEST_P(ProviderLoop, Three500sThenSuccessWithinMaxRetries) {
  for (int i = 0; i < 3; ++i) server.push(Reply::json(500, script::error_body(provider(), 500, "Internal error.")));
  push(script::answer("Finally."));
  ProviderOptions po = options();
  po.max_retries = 3;
  RunResult r = run("Go.", {}, po);
  ASSERT_TRUE(r.ok()) << r.error->message;
  EXPECT_EQ(r.text, "Finally.");
  EXPECT_EQ(server.requests().size(), 4u);
  const auto notices = events_of<RetryNotice>();
  ASSERT_EQ(notices.size(), 3u);
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(notices[i].attempt, i + 1);
    EXPECT_EQ(notices[i].reason, "HTTP 500");
  }
}

TEST_P(ProviderLoop, Four500sEndTheRunNamingHttp500) {
  for (int i = 0; i < 4; ++i) server.push(Reply::json(500, script::error_body(provider(), 500, "Internal error.")));
  push(script::answer("Never sent."));
  ProviderOptions po = options();
  po.max_retries = 3;
  RunResult r = run("Go.", {}, po);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error->kind, RunError::Kind::provider);
  EXPECT_EQ(r.error->message, prefix() + "HTTP 500: Internal error.");
  EXPECT_EQ(server.requests().size(), 4u);
  EXPECT_EQ(server.unused_replies(), 1u);
  EXPECT_EQ(events_of<RetryNotice>().size(), 3u);
}

TEST_P(ProviderLoop, AResponseDroppedMidWay) {
  const Turn turn = script::answer("This answer is cut off half way through.");
  ProviderOptions po = options();
  po.max_retries = 3;
  if (streamed()) {
    // Once a streamed answer has begun, a retry would repeat deltas already delivered: an error.
    std::vector<std::string> sse = script::events(provider(), turn);
    sse.resize(sse.size() / 2);
    Reply dropped = Reply::sse(sse);
    dropped.drop_after_chunks = true;
    server.push(dropped);
    push(turn);
    RunResult r = run("Go.", {}, po);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error->kind, RunError::Kind::provider);
    EXPECT_THAT(r.error->message, StartsWith(prefix() + "the response broke off after it began"));
    EXPECT_EQ(server.requests().size(), 1u);
    EXPECT_EQ(server.unused_replies(), 1u);
    EXPECT_TRUE(events_of<RetryNotice>().empty());
  } else {
    // Nothing of a whole answer reached the run: it is asked for again.
    const std::string text = script::whole(provider(), turn);
    Reply dropped = Reply::json(200, "");
    dropped.chunks = {text.substr(0, text.size() / 2)};
    dropped.drop_after_chunks = true;
    server.push(dropped);
    push(turn);
    RunResult r = run("Go.", {}, po);
    ASSERT_TRUE(r.ok()) << r.error->message;
    EXPECT_EQ(r.text, turn.text);
    EXPECT_EQ(server.requests().size(), 2u);
    const auto notices = events_of<RetryNotice>();
    ASSERT_EQ(notices.size(), 1u);
    EXPECT_THAT(notices[0].reason, StartsWith("connection failed"));
  }
}

TEST_P(ProviderLoop, AConnectionClosedWithoutAnAnswerIsRetried) {
  // On the model's first request, so that the retry is ptc's own: libcurl resends by itself only on a
  // reused connection (provider_double.hpp).
  Reply closed;
  closed.close_without_answer = true;
  server.push(closed);
  push(script::answer("Second time lucky."));
  ProviderOptions po = options();
  po.max_retries = 1;
  RunResult r = run("Go.", {}, po);
  ASSERT_TRUE(r.ok()) << r.error->message;
  EXPECT_EQ(r.text, "Second time lucky.");
  EXPECT_EQ(server.requests().size(), 2u);
  EXPECT_EQ(server.connections_accepted(), 2u);
  const auto notices = events_of<RetryNotice>();
  ASSERT_EQ(notices.size(), 1u);
  EXPECT_THAT(notices[0].reason, StartsWith("connection failed"));
}

TEST_P(ProviderStream, AStreamWithoutItsEndIsAnError) {
  const Turn turn = script::calls({{id(1), "add", R"({"a":1,"b":2})"}});
  server.push(Reply::sse(script::events_without_end(provider(), turn)));
  push(script::answer("Never sent."));
  ProviderOptions po = options();
  po.max_retries = 3;
  RunResult r = run("Go.", {}, po);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error->kind, RunError::Kind::provider);
  EXPECT_THAT(r.error->message, AllOf(StartsWith(prefix()), HasSubstr("incomplete")));
  // The call of an answer that never ended is not run.
  EXPECT_EQ(adds.load(), 0);
  EXPECT_EQ(server.requests().size(), 1u);
}

TEST_P(ProviderStream, AStreamWhoseLastEventIsCutOffIsAnError) {
  const Turn turn = script::answer("Cut.");
  std::vector<std::string> sse = script::events(provider(), turn);
  // The first event of the end, cut inside its JSON, without the blank line that ends an event; the
  // HTTP body itself ends cleanly.
  const std::size_t first_end = sse.size() - script::end_events(provider());
  const std::string& end = sse[first_end];
  const std::size_t json_at = end.find("data: ") + 6;
  const std::string cut = end.substr(0, json_at + (end.size() - json_at) / 2);
  sse.resize(first_end);
  sse.push_back(cut);
  server.push(Reply::sse(sse));
  push(script::answer("Never sent."));
  RunResult r = run("Go.");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error->kind, RunError::Kind::provider);
  EXPECT_THAT(r.error->message, StartsWith(prefix()));
  EXPECT_THAT(r.error->message, ::testing::AnyOf(HasSubstr("invalid JSON"), HasSubstr("incomplete")));
  EXPECT_EQ(server.requests().size(), 1u);
}

TEST_P(ProviderLoop, MalformedJsonIsAProviderErrorNamingIt) {
  const Turn turn = script::answer("Whatever.");
  if (streamed()) {
    std::vector<std::string> sse = script::events(provider(), turn);
    sse.insert(sse.begin() + 1, "data: {\"oops\": \n\n");
    server.push(Reply::sse(sse));
    RunResult r = run("Go.");
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error->kind, RunError::Kind::provider);
    EXPECT_THAT(r.error->message, StartsWith(prefix() + "event 2: invalid JSON"));
    EXPECT_EQ(server.requests().size(), 1u);
    return;
  }
  const std::string text = script::whole(provider(), turn);
  server.push(Reply::json(200, text.substr(0, text.size() / 2)));
  RunResult r = run("Go.");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error->kind, RunError::Kind::provider);
  EXPECT_THAT(r.error->message, StartsWith(prefix() + "the response is not valid JSON"));
  // Valid JSON that is not the documented shape: the error names the path.
  server.push(Reply::json(200, R"({"unexpected": true})"));
  events.clear();
  r = run("Go.");
  ASSERT_FALSE(r.ok());
  const char* path = provider() == Provider::openai             ? "choices"
                     : provider() == Provider::openai_responses ? "output"
                     : provider() == Provider::anthropic        ? "content"
                                                                : "candidates";
  EXPECT_EQ(r.error->message, prefix() + path + ": missing required field");
}

TEST_P(ProviderLoop, AOneGigabyteBodyIsRefusedAtTheLimit) {
  for (bool chunked : {false, true}) {
    Reply huge;
    huge.headers.emplace_back("content-type", streamed() ? "text/event-stream" : "application/json");
    huge.repeat_body_bytes = std::size_t{1} << 30;
    huge.chunked = chunked;
    server.push(huge);
    ProviderOptions po = options();
    po.max_response_bytes = std::size_t{1} << 20;
    po.max_retries = 3;
    const long rss_before = max_rss_kib();
    const auto start = Clock::now();
    RunResult r = run("Go.", {}, po);
    ASSERT_FALSE(r.ok()) << "chunked " << chunked;
    EXPECT_EQ(r.error->kind, RunError::Kind::provider);
    EXPECT_EQ(r.error->message, prefix() + "response larger than the limit of 1048576 bytes");
    EXPECT_LT(elapsed_ms(start), 5'000);
    EXPECT_LT(max_rss_kib() - rss_before, 64 * 1024) << "the body was held in memory";
  }
  EXPECT_EQ(server.requests().size(), 2u);
  EXPECT_TRUE(events_of<RetryNotice>().empty());
}

TEST_P(ProviderStream, AnEventOverTheEventLimitIsRefusedNamingTheLimit) {
  // Under the response limit, over the limit of one event (SseReader::max_event_bytes, 8 MiB).
  Reply huge;
  huge.headers.emplace_back("content-type", "text/event-stream");
  huge.repeat_body_bytes = std::size_t{9} << 20;
  huge.chunked = true;
  server.push(huge);
  ProviderOptions po = options();
  po.max_response_bytes = std::size_t{32} << 20;
  RunResult r = run("Go.", {}, po);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error->kind, RunError::Kind::provider);
  EXPECT_THAT(r.error->message, AllOf(StartsWith(prefix()), HasSubstr("8388608")));
}

// ---- time and cancellation -----------------------------------------------------------------------

TEST_P(ProviderLoop, AServerThatNeverAnswersTimesOut) {
  Reply silent;
  silent.never_answer = true;
  server.push(silent);
  ProviderOptions po = options();
  po.total_timeout = milliseconds(300);
  po.max_retries = 0;
  const auto start = Clock::now();
  RunResult r = run("Go.", {}, po);
  EXPECT_LT(elapsed_ms(start), 2'000);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error->kind, RunError::Kind::provider);
  EXPECT_THAT(r.error->message, StartsWith(prefix() + "request timed out"));
  EXPECT_EQ(server.requests().size(), 1u);
}

TEST_P(ProviderLoop, TheRunsTimeoutStopsTheRequestInFlight) {
  Reply silent;
  silent.never_answer = true;
  server.push(silent);
  AgentOptions o;
  o.timeout = milliseconds(300);
  const auto start = Clock::now();
  RunResult r = run("Go.", o);
  EXPECT_LT(elapsed_ms(start), 2'000);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error->kind, RunError::Kind::timed_out);
  EXPECT_EQ(r.error->message, "the run timed out");
}

TEST_P(ProviderStream, TheRunsTimeoutStopsAStreamThatStalls) {
  Reply stalled = script::reply(provider(), script::answer("Slow to come."), true);
  stalled.delay_between_chunks = milliseconds(10'000);
  server.push(stalled);
  AgentOptions o;
  o.timeout = milliseconds(300);
  const auto start = Clock::now();
  RunResult r = run("Go.", o);
  EXPECT_LT(elapsed_ms(start), 2'000);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error->kind, RunError::Kind::timed_out);
}

TEST_P(ProviderLoop, TheRunsTimeoutCutsARetryAfterWaitShort) {
  server.push(Reply::json(429, script::error_body(provider(), 429, "Slow down.")).header("retry-after", "20"));
  push(script::answer("Never sent."));
  ProviderOptions po = options();
  po.max_retries = 3;
  po.max_backoff = milliseconds(30'000);
  AgentOptions o;
  o.timeout = milliseconds(300);
  const auto start = Clock::now();
  RunResult r = run("Go.", o, po);
  EXPECT_LT(elapsed_ms(start), 2'000);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error->kind, RunError::Kind::timed_out);
  EXPECT_EQ(server.requests().size(), 1u);
  const auto notices = events_of<RetryNotice>();
  ASSERT_EQ(notices.size(), 1u);
  EXPECT_EQ(notices[0].delay, milliseconds(20'000));
}

TEST_P(ProviderLoop, ACancellationFromAnotherThreadStopsTheRun) {
  Reply silent;
  silent.never_answer = true;
  server.push(silent);
  AgentOptions o;
  o.cancellation = std::make_shared<ptc::Cancellation>();
  std::thread canceller([this, cancellation = o.cancellation] {
    server.wait_for_requests(1, milliseconds(5'000));
    cancellation->cancel("user pressed stop");
  });
  const auto start = Clock::now();
  RunResult r = run("Go.", o);
  const long took = elapsed_ms(start);
  canceller.join();
  EXPECT_LT(took, 2'000);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error->kind, RunError::Kind::cancelled);
  EXPECT_EQ(r.error->message, "the run was cancelled: user pressed stop");
  EXPECT_EQ(server.requests().size(), 1u);
}

// ---- limits --------------------------------------------------------------------------------------

TEST_P(ProviderLoop, MaxTurnsEndsARunThatKeepsCallingTools) {
  for (int i = 1; i <= 3; ++i) push(script::calls({{id(i), "search", R"({"query":"again"})"}}));
  AgentOptions o;
  o.limits.max_turns = 2;
  RunResult r = run("Loop.", o);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error->kind, RunError::Kind::limit);
  EXPECT_EQ(r.error->message, "the run reached its limit of 2 turns (max_turns)");
  EXPECT_EQ(server.requests().size(), 2u);
  EXPECT_EQ(server.unused_replies(), 1u);
  EXPECT_EQ(searches.load(), 2);
  EXPECT_EQ(r.turns, 2u);
}

TEST_P(ProviderLoop, MaxTotalTokensEndsTheRun) {
  push(script::calls({{id(1), "search", R"({"query":"a"})"}}, 100, 20));
  push(script::calls({{id(2), "search", R"({"query":"b"})"}}, 100, 20));
  push(script::answer("Never sent."));
  AgentOptions o;
  o.limits.max_total_tokens = 150;
  RunResult r = run("Loop.", o);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error->kind, RunError::Kind::limit);
  EXPECT_EQ(r.error->message, "the run reached its limit of 150 total tokens (max_total_tokens)");
  EXPECT_EQ(r.usage.total_tokens(), 240u);
  EXPECT_EQ(server.requests().size(), 2u);
  // The calls of the turn that passed the limit are not run.
  EXPECT_EQ(searches.load(), 1);
}

// ---- secrets -------------------------------------------------------------------------------------

TEST_P(ProviderSecrets, AnErrorThatQuotesTheKeyIsRedacted) {
  const std::string quoted = std::string("Incorrect API key provided: ") + kSecret + ".";
  server.push(Reply::json(429, script::error_body(provider(), 429, quoted)).header("retry-after-ms", "1"));
  server.push(Reply::json(401, script::error_body(provider(), 401, quoted)));
  ProviderOptions po = options(kSecret);
  po.max_retries = 1;
  RunResult r = run("Go.", {}, po);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error->message, prefix() + "HTTP 401: Incorrect API key provided: [redacted].");
  EXPECT_EQ(events_of<RetryNotice>().size(), 1u);
  expect_no_secret(r);
  expect_key_sent();
}

TEST_P(ProviderStream, AStreamErrorThatQuotesTheKeyIsRedacted) {
  std::vector<std::string> sse = script::events(provider(), script::answer("Partial."));
  sse.resize(1);
  sse.push_back(script::stream_error_event(provider(), std::string("key ") + kSecret + " was revoked"));
  server.push(Reply::sse(sse));
  RunResult r = run("Go.", {}, options(kSecret));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error->kind, RunError::Kind::provider);
  EXPECT_THAT(r.error->message, AllOf(StartsWith(prefix()), HasSubstr("key [redacted] was revoked")));
  expect_no_secret(r);
  expect_key_sent();
}

TEST_P(ProviderSecrets, AMalformedAnswerThatQuotesTheKeyIsRedacted) {
  // The JSON parser's message quotes the token it stopped in: here, the key.
  const std::string broken = std::string(R"({"error": {"message": "bad key )") + kSecret;
  if (streamed())
    server.push(Reply::sse({"data: " + broken + "\n\n"}));
  else
    server.push(Reply::json(200, broken));
  RunResult r = run("Go.", {}, options(kSecret));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error->kind, RunError::Kind::provider);
  EXPECT_THAT(r.error->message, StartsWith(prefix()));
  expect_no_secret(r);
  expect_key_sent();
}

TEST_P(ProviderWhole, A200ErrorBodyThatQuotesTheKeyIsRedacted) {
  // Some compatible servers answer 200 with an error object.
  const std::string quoted = std::string("key ") + kSecret + " was revoked";
  server.push(Reply::json(200, provider() == Provider::anthropic ? script::error_body(provider(), 401, quoted)
                                                                 : script::error_body(provider(), 500, quoted)));
  RunResult r = run("Go.", {}, options(kSecret));
  ASSERT_FALSE(r.ok());
  EXPECT_THAT(r.error->message, HasSubstr("key [redacted] was revoked"));
  expect_no_secret(r);
}

// ---- auth headers and plain http -----------------------------------------------------------------

class ProviderSetup : public ::testing::TestWithParam<Provider> {
 protected:
  Provider provider() const { return GetParam(); }
  ProviderOptions options(std::string base_url, std::string key) const {
    ProviderOptions o;
    o.provider = provider();
    o.base_url = std::move(base_url);
    o.api_key = std::move(key);
    o.connect_timeout = milliseconds(2'000);
    o.total_timeout = milliseconds(5'000);
    o.max_retries = 0;
    return o;
  }
  ptc_test::ProviderDouble server;
  ptc::ToolRegistry registry;
};

std::string provider_param_name(const ::testing::TestParamInfo<Provider>& info) {
  std::string name(provider_name(info.param));
  for (char& c : name)
    if (c == '-') c = '_';
  return name;
}

INSTANTIATE_TEST_SUITE_P(AllProviders, ProviderSetup, ::testing::ValuesIn(script::kProviders), provider_param_name);

TEST_P(ProviderSetup, TheAuthHeaderIsSentWithAKeyAndAbsentWithout) {
  const std::string base = server.base_url() + script::base_path(provider());
  for (const std::string& key : {std::string(kKey), std::string()}) {
    server.push(script::reply(provider(), script::answer("Hi."), false));
    auto model = make_model(options(base, key));
    ASSERT_TRUE(model) << model.error().message;
    AgentOptions o;
    o.settings.model = kModel;
    Agent agent(**model, registry, o);
    RunResult r = agent.run("Hello.");
    ASSERT_TRUE(r.ok()) << r.error->message;
  }
  const auto requests = server.requests();
  ASSERT_EQ(requests.size(), 2u);
  const auto& with = requests[0];
  const auto& without = requests[1];
  switch (provider()) {
    case Provider::openai:
    case Provider::openai_responses: EXPECT_EQ(with.header("authorization"), std::string("Bearer ") + kKey); break;
    case Provider::anthropic:
      EXPECT_EQ(with.header("x-api-key"), kKey);
      EXPECT_EQ(with.header("anthropic-version"), "2023-06-01");
      EXPECT_EQ(without.header("anthropic-version"), "2023-06-01");
      break;
    case Provider::gemini: EXPECT_EQ(with.header("x-goog-api-key"), kKey); break;
  }
  for (const auto& request : requests) EXPECT_THAT(request.target, Not(HasSubstr(kKey)));
  // Exactly one way of sending the key, the provider's.
  const int ways = !with.header("authorization").empty() + !with.header("x-api-key").empty() +
                   !with.header("x-goog-api-key").empty();
  EXPECT_EQ(ways, 1);
  for (const char* name : {"authorization", "x-api-key", "x-goog-api-key"}) EXPECT_EQ(without.header(name), "") << name;
}

TEST_P(ProviderSetup, MakeModelRefusesAKeyOverPlainHttpToAnotherHost) {
  auto refused = make_model(options("http://example.com/v1", kKey));
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().message,
            "refusing to send an API key over plain http to example.com: use https, or allow insecure http explicitly");
  EXPECT_THAT(refused.error().message, Not(HasSubstr(kKey)));
  // A key in the URL's user part is not repeated either.
  auto with_userinfo = make_model(options(std::string("http://") + kKey + "@example.com/v1", kKey));
  ASSERT_FALSE(with_userinfo);
  EXPECT_THAT(with_userinfo.error().message, Not(HasSubstr(kKey)));
  EXPECT_EQ(server.connections_accepted(), 0u);
}

TEST_P(ProviderSetup, MakeModelAcceptsLoopbackHttpsAndAnExplicitOptIn) {
  const std::string port = std::to_string(server.port());
  for (const std::string& url : {"http://127.0.0.1:" + port + "/v1", "http://localhost:" + port + "/v1",
                                 "http://[::1]:" + port + "/v1", std::string("https://example.com/v1")}) {
    auto model = make_model(options(url, kKey));
    EXPECT_TRUE(model) << url << ": " << model.error().message;
  }
  // Without a key there is nothing to protect.
  EXPECT_TRUE(make_model(options("http://example.com/v1", "")));
  ProviderOptions opted = options("http://example.com/v1", kKey);
  opted.allow_insecure_http = true;
  EXPECT_TRUE(make_model(opted));
  EXPECT_EQ(server.connections_accepted(), 0u);
}

// A name that merely starts with "127." is a DNS name like any other, not the loopback address.
TEST_P(ProviderSetup, MakeModelRefusesANameThatOnlyLooksLikeLoopback) {
  // The host is the one libcurl connects to, however the URL hides it behind user info or a backslash.
  for (const char* url : {"http://127.attacker.example/v1", "http://127.0.0.1.attacker.example/v1",
                          "http://127.0.0.1@attacker.example/v1", "http://127.0.0.1\\@attacker.example/v1",
                          "http://attacker.example#@127.0.0.1/v1"}) {
    auto model = make_model(options(url, kKey));
    EXPECT_FALSE(model) << url << " would get the key over plain http";
  }
}

TEST_P(ProviderSetup, LoopbackIsAnAddressOrLocalhostInAnySpelling) {
  for (const char* url : {"http://127.0.0.1:9/v1", "http://127.1.2.3/v1", "http://[::1]:9/v1", "http://LOCALHOST/v1",
                          "http://user@127.0.0.1:9/v1"})
    EXPECT_TRUE(make_model(options(url, kKey))) << url;
}

TEST_P(ProviderSetup, MakeModelRefusesAUrlThatIsNotHttp) {
  for (const char* url : {"ftp://example.com/v1", "example.com/v1", "file:///etc/passwd"}) {
    auto model = make_model(options(url, kKey));
    ASSERT_FALSE(model) << url;
    EXPECT_THAT(model.error().message, StartsWith("the base URL must be an http or https URL"));
  }
}

}  // namespace
