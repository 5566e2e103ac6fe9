// Anthropic Messages (src/wire/anthropic.cpp): the request body (golden/anthropic_request.json: roles
// merged to alternate, tool results in one user turn, max_tokens always), whole answers (thinking and
// tool_use blocks, usage with the cache counted in, errors by path), thinking blocks sent back verbatim
// (golden/anthropic_request_after_thinking.json), and streams: a recorded transcript with thinking,
// text and input_json_delta pieces split inside a character, a cut-off stream, an error event.

#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "wire/wire.hpp"
#include "wire_fixtures.hpp"

namespace {

using namespace wire_test;  // NOLINT(google-build-using-namespace)
using ptc::agent::Provider;
using ptc::agent::detail::make_wire;

const WireUnderTest under{make_wire(Provider::anthropic)};
const auto& wire = under.wire;

// A turn with extended thinking: what must go back verbatim.
const json kTurn = json::parse(R"({
  "id": "msg_01XFDUDYJgAACzvnptvVoYEL", "type": "message", "role": "assistant",
  "model": "claude-sonnet-4-5-20250929",
  "content": [
    {"type": "thinking", "thinking": "The user wants 2021 papers. Search both catalogues.",
     "signature": "EqQBCgIYAhIM1gbcDa9GJwZA2b3hGgxBdjrkzLoky3dl1pkiMOYds-not-a-real-signature=="},
    {"type": "redacted_thinking", "data": "EmwKAhgBEgy3va3pzix-not-real-redacted-data"},
    {"type": "text", "text": "I will search both catalogues."},
    {"type": "tool_use", "id": "toolu_01T1x1fJ34qAmk2tNTrN7Up6", "name": "search_papers",
     "input": {"query": "tide prediction", "limit": 5}},
    {"type": "tool_use", "id": "toolu_01Aq8zLmU3hVc9nWZbK4Rt2E", "name": "search_preprints",
     "input": {"query": "tide prediction", "limit": 3}}],
  "stop_reason": "tool_use", "stop_sequence": null,
  "usage": {"input_tokens": 472, "cache_creation_input_tokens": 100, "cache_read_input_tokens": 1024,
    "output_tokens": 187, "output_tokens_details": {"thinking_tokens": 40}, "service_tier": "standard"}})");

// ---- requests ------------------------------------------------------------------------------------

TEST(AnthropicRequest, UrlAndHeaders) {
  ModelSettings s;
  s.model = "claude-sonnet-4-5";
  EXPECT_EQ(wire->url("https://api.anthropic.com/v1", s, true), "https://api.anthropic.com/v1/messages");
  EXPECT_EQ(wire->headers("sk-ant-test-not-a-real-key"),
            (ptc::agent::detail::Headers{{"x-api-key", "sk-ant-test-not-a-real-key"},
                                         {"anthropic-version", "2023-06-01"}}));
  EXPECT_EQ(wire->headers(""), (ptc::agent::detail::Headers{{"anthropic-version", "2023-06-01"}}));
}

TEST(AnthropicRequest, Golden) {
  Fixture f("claude-sonnet-4-5");
  expect_golden("anthropic_request.json", request_json(*wire, f.request(), false));
}

TEST(AnthropicRequest, DefaultsAndOptionalFields) {
  Fixture f("claude-sonnet-4-5");
  f.settings = ModelSettings{};
  f.settings.model = "claude-sonnet-4-5";
  f.conversation.system.clear();
  OrderedJson body = under.body_of(f.request(false, true));
  EXPECT_EQ(body["max_tokens"], 4096);  // required by the API
  for (const char* absent : {"system", "tools", "tool_choice", "temperature", "stream", "output_config"})
    EXPECT_FALSE(body.contains(absent)) << absent;
  EXPECT_EQ(under.body_of(f.request(), true)["stream"], true);
  // Parallel tool use is the default: nothing to send.
  EXPECT_FALSE(under.body_of(f.request()).contains("tool_choice"));
}

TEST(AnthropicRequest, TurnsAlternate) {
  // A user message after a user message, an assistant message with nothing to say: Anthropic refuses
  // both, so the first joins its neighbour and the second is left out.
  Fixture f("claude-sonnet-4-5");
  f.conversation.messages.push_back(Fixture::user("And from 2022?"));
  Message empty;
  empty.role = Role::assistant;
  f.conversation.messages.push_back(empty);
  f.conversation.messages.push_back(Fixture::user(""));
  f.conversation.messages.push_back(Fixture::user("Thanks."));
  OrderedJson messages = under.body_of(f.request())["messages"];
  ASSERT_EQ(messages.size(), 3u);
  EXPECT_EQ(messages[2]["role"], "user");
  EXPECT_EQ(messages[2]["content"].size(), 5u);  // two results, three texts
  EXPECT_EQ(messages[2]["content"][4].dump(), R"({"type":"text","text":"Thanks."})");
}

TEST(AnthropicRequest, ArgumentsThatAreNoObjectBecomeEmpty) {
  Fixture f("claude-sonnet-4-5");
  f.conversation.messages[1].tool_calls[0].arguments = "{\"query\": ";  // as another provider's model sent it
  EXPECT_EQ(under.body_of(f.request())["messages"][1]["content"][1]["input"].dump(), "{}");
}

TEST(AnthropicRequest, ThinkingGoesBackVerbatim) {
  Fixture f("claude-sonnet-4-5");
  f.conversation.messages.resize(1);
  f.conversation.messages.push_back(under.parse(kTurn).message);
  Message results;
  results.role = Role::tool;
  results.tool_results = {{"toolu_01T1x1fJ34qAmk2tNTrN7Up6", "search_papers", "[]", false},
                          {"toolu_01Aq8zLmU3hVc9nWZbK4Rt2E", "search_preprints", "down", true}};
  f.conversation.messages.push_back(results);
  auto body = request_json(*wire, f.request(), false);
  expect_golden("anthropic_request_after_thinking.json", body);
  ASSERT_TRUE(body);
  EXPECT_EQ(json::parse((*body)["messages"][1]["content"].dump()), kTurn["content"]);

  // Sent to another provider, then back: only Anthropic's own raw is used.
  f.conversation.messages[1].provider = "gemini";
  EXPECT_EQ((*request_json(*wire, f.request(), false))["messages"][1]["content"][0]["type"], "text");
  f.conversation.messages[1].provider = "anthropic";
  f.conversation.messages[1].raw = "text";
  auto bad = request_json(*wire, f.request(), false);
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error().message, "messages[1].raw: expected an array");
}

// ---- whole answers -------------------------------------------------------------------------------

TEST(AnthropicResponse, ThinkingTextCallsAndUsage) {
  ModelResponse r = under.parse(kTurn);
  // tool_use input stays the object Anthropic sent; the input counts what the cache held.
  EXPECT_EQ(turn_json(r), json::parse(R"({"text": "I will search both catalogues.", "stop_reason": "tool_use",
    "provider": "anthropic",
    "tool_calls": [
      {"id": "toolu_01T1x1fJ34qAmk2tNTrN7Up6", "name": "search_papers",
       "arguments": {"query": "tide prediction", "limit": 5}},
      {"id": "toolu_01Aq8zLmU3hVc9nWZbK4Rt2E", "name": "search_preprints",
       "arguments": {"query": "tide prediction", "limit": 3}}],
    "usage": {"requests": 1, "input": 1596, "output": 187, "cached": 1024, "reasoning": 40}})"));
  EXPECT_EQ(r.message.raw, kTurn["content"]);
}

TEST(AnthropicResponse, Text) {
  ModelResponse r = under.parse(json::parse(R"({"type": "message", "role": "assistant", "content": [
    {"type": "text", "text": "Tidal forecasting "}, {"type": "text", "text": "with LSTMs."}],
    "stop_reason": "end_turn", "usage": {"input_tokens": 25, "output_tokens": 9}})"));
  EXPECT_EQ(turn_json(r), json::parse(R"({"text": "Tidal forecasting with LSTMs.", "stop_reason": "end_turn",
    "provider": "anthropic", "tool_calls": [],
    "usage": {"requests": 1, "input": 25, "output": 9, "cached": 0, "reasoning": 0}})"));
}

TEST(AnthropicResponse, Errors) {
  struct Case {
    const char* body;
    const char* error;
  };
  const Case cases[] = {
      {R"(null)", "(root): expected an object"},
      {R"({"role": "assistant"})", "content: missing required field"},
      {R"({"content": "hi"})", "content: expected an array"},
      {R"({"content": [{"text": "hi"}]})", "content[0].type: missing required field"},
      {R"({"content": [{"type": "text", "text": ["hi"]}]})", "content[0].text: expected a string"},
      {R"({"content": [{"type": "tool_use", "id": "t", "name": "f", "input": "{}"}]})",
       "content[0].input: expected an object"},
      {R"({"content": [], "stop_reason": 1})", "stop_reason: expected a string"},
      {R"({"content": [], "usage": {"cache_read_input_tokens": "9"}})",
       "usage.cache_read_input_tokens: expected an integer"},
      {R"({"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}})",
       "overloaded_error: Overloaded"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.body);
    EXPECT_EQ(under.parse_error(c.body), c.error);
  }
  EXPECT_EQ(wire->error_message(R"({"type": "error", "error": {"type": "invalid_request_error",
    "message": "messages.1: tool_use ids were found without tool_result blocks"}, "request_id": "req_011"})"),
            "messages.1: tool_use ids were found without tool_result blocks");
  EXPECT_EQ(wire->error_message("upstream connect error"), "upstream connect error");
}

// ---- streams -------------------------------------------------------------------------------------

TEST(AnthropicStream, Text) {
  Streamed s = run_stream(*wire, read_fixture("anthropic_stream_text.sse"));
  EXPECT_EQ(s.events, json::parse(R"([{"text": "The most cited"}, {"text": " is “Tidal forecasting"},
    {"text": " with LSTMs” (2021)."}])"));
  EXPECT_EQ(turn_json(s.ok()), json::parse(R"({"text": "The most cited is “Tidal forecasting with LSTMs” (2021).",
    "stop_reason": "end_turn", "provider": "anthropic", "tool_calls": [],
    "usage": {"requests": 1, "input": 25, "output": 15, "cached": 0, "reasoning": 0}})"));
  EXPECT_EQ(s.ok().message.raw,
            json::parse(R"([{"type": "text", "text": "The most cited is “Tidal forecasting with LSTMs” (2021)."}])"));
}

TEST(AnthropicStream, ThinkingAndToolUseSplitInsideCharacters) {
  // The pieces of input_json_delta are joined before they are parsed: one ends inside the escape
  // \u00fc, one between the halves of a surrogate pair.
  Streamed s = run_stream(*wire, read_fixture("anthropic_stream_tool_use.sse"));
  EXPECT_EQ(s.events, json::parse(R"([
    {"text": "I will search "}, {"text": "both catalogues."},
    {"call": 0, "id": "toolu_01T1x1fJ34qAmk2tNTrN7Up6", "name": "search_papers", "arguments": ""},
    {"call": 0, "id": "toolu_01T1x1fJ34qAmk2tNTrN7Up6", "name": "search_papers",
     "arguments": "{\"query\": \"Gezeitenvorhersage M\\u00"},
    {"call": 0, "id": "toolu_01T1x1fJ34qAmk2tNTrN7Up6", "name": "search_papers", "arguments": "fcnster\", \"li"},
    {"call": 0, "id": "toolu_01T1x1fJ34qAmk2tNTrN7Up6", "name": "search_papers", "arguments": "mit\": 5}"},
    {"call": 1, "id": "toolu_01Aq8zLmU3hVc9nWZbK4Rt2E", "name": "search_preprints", "arguments": ""},
    {"call": 1, "id": "toolu_01Aq8zLmU3hVc9nWZbK4Rt2E", "name": "search_preprints",
     "arguments": "{\"query\": \"tides \\ud83c"},
    {"call": 1, "id": "toolu_01Aq8zLmU3hVc9nWZbK4Rt2E", "name": "search_preprints",
     "arguments": "\\udf0a Küste\", \"limit\": 3}"}])"));
  EXPECT_EQ(turn_json(s.ok()), json::parse(R"({"text": "I will search both catalogues.", "stop_reason": "tool_use",
    "provider": "anthropic",
    "tool_calls": [
      {"id": "toolu_01T1x1fJ34qAmk2tNTrN7Up6", "name": "search_papers",
       "arguments": {"query": "Gezeitenvorhersage Münster", "limit": 5}},
      {"id": "toolu_01Aq8zLmU3hVc9nWZbK4Rt2E", "name": "search_preprints",
       "arguments": {"query": "tides 🌊 Küste", "limit": 3}}],
    "usage": {"requests": 1, "input": 1496, "output": 187, "cached": 1024, "reasoning": 0}})"));
  // The blocks to send back, thinking and its signature included.
  EXPECT_EQ(s.ok().message.raw, json::parse(R"([
    {"type": "thinking", "thinking": "The user wants 2021 papers on tide prediction. Search both catalogues.",
     "signature": "EqQBCgIYAhIM1gbcDa9GJwZA2b3hGgxBdjrkzLoky3dl1pkiMOYds-not-a-real-signature=="},
    {"type": "text", "text": "I will search both catalogues."},
    {"type": "tool_use", "id": "toolu_01T1x1fJ34qAmk2tNTrN7Up6", "name": "search_papers",
     "input": {"query": "Gezeitenvorhersage Münster", "limit": 5}},
    {"type": "tool_use", "id": "toolu_01Aq8zLmU3hVc9nWZbK4Rt2E", "name": "search_preprints",
     "input": {"query": "tides 🌊 Küste", "limit": 3}}])"));

  // In pieces of any size, a multi-byte character split between two of them included.
  for (std::size_t piece : {1u, 3u, 10u}) {
    SCOPED_TRACE(piece);
    Streamed pieces = run_stream(*wire, read_fixture("anthropic_stream_tool_use.sse"), piece);
    EXPECT_EQ(pieces.events, s.events);
    EXPECT_EQ(turn_json(pieces.ok()), turn_json(s.ok()));
    EXPECT_EQ(pieces.ok().message.raw, s.ok().message.raw);
  }
}

TEST(AnthropicStream, StreamedThinkingGoesBackVerbatim) {
  Streamed s = run_stream(*wire, read_fixture("anthropic_stream_tool_use.sse"));
  Fixture f("claude-sonnet-4-5");
  f.conversation.messages.resize(1);
  f.conversation.messages.push_back(s.ok().message);
  OrderedJson messages = under.body_of(f.request())["messages"];
  EXPECT_EQ(json::parse(messages[1]["content"].dump()), s.ok().message.raw);
  EXPECT_EQ(messages[1]["content"][0]["type"], "thinking");
}

TEST(AnthropicStream, MalformedInputIsLeftToDispatch) {
  // Text that is no JSON object is still the model's call: dispatch reports it; the block to send
  // back holds {} as Anthropic requires.
  Streamed s = run_stream(*wire, R"(data: {"type":"message_start","message":{"usage":{"input_tokens":1}}}

data: {"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"toolu_1","name":"f","input":{}}}

data: {"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"{\"a\": "}}

data: {"type":"content_block_stop","index":0}

data: {"type":"message_stop"}

)");
  EXPECT_EQ(calls_json(s.ok().message.tool_calls), json::parse(R"([{"id": "toolu_1", "name": "f",
    "arguments": "{\"a\": "}])"));
  EXPECT_EQ(s.ok().message.raw[0]["input"], json::object());
}

TEST(AnthropicStream, CutOffAndErrorEvent) {
  Streamed cut = run_stream(*wire, read_fixture("anthropic_stream_truncated.sse"));
  EXPECT_FALSE(cut.event_error);
  EXPECT_EQ(cut.events, json::parse(R"([{"text": "I will"}])"));
  EXPECT_EQ(cut.error(), "the stream ended before message_stop: the answer is incomplete");

  Streamed error = run_stream(*wire, read_fixture("anthropic_stream_error.sse"));
  ASSERT_TRUE(error.event_error);
  EXPECT_EQ(error.error(), "overloaded_error: Overloaded");
}

TEST(AnthropicStream, WrongShapesNameTheEventAndPath) {
  const std::string start = "data: {\"type\":\"message_start\",\"message\":{}}\n\n";
  struct Case {
    std::string transcript;
    const char* error;
  };
  const Case cases[] = {
      {"data: {\"type\":\"message_start\"}\n\n", "event 1: message: missing required field"},
      {"data: {\"type\":\"message_start\",\"message\":{\"usage\":{\"input_tokens\":-3}}}\n\n",
       "event 1: message.usage.input_tokens: expected a non-negative integer"},
      {start + "data: {\"type\":\"content_block_start\",\"index\":\"0\",\"content_block\":{}}\n\n",
       "event 2: index: expected an integer"},
      {start + "data: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"tool_use\","
               "\"id\":\"t\"}}\n\n",
       "event 2: content_block.name: missing required field"},
      {start + "data: {\"type\":\"content_block_delta\",\"index\":4,\"delta\":{\"type\":\"text_delta\","
               "\"text\":\"x\"}}\n\n",
       "event 2: index: content block 4 was not started"},
      {start + "data: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"text\","
               "\"text\":\"\"}}\n\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":"
               "\"text_delta\",\"text\":null}}\n\n",
       "event 3: delta.text: missing required field"},
      {start + "data: {\"type\":\"message_delta\",\"delta\":{\"stop_reason\":5}}\n\n",
       "event 2: delta.stop_reason: expected a string"},
      // JSON text is Unicode: a character cut in two inside an event's data is malformed JSON.
      {start + "data: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"input_json_delta\","
               "\"partial_json\":\"M\xc3\"}}\n\n",
       nullptr},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.transcript);
    Streamed s = run_stream(*wire, c.transcript);
    if (c.error)
      EXPECT_EQ(s.error(), c.error);
    else
      EXPECT_EQ(s.error().rfind("event 2: invalid JSON", 0), 0u) << s.error();
  }
}

}  // namespace
