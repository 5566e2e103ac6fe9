// OpenAI Responses (src/wire/openai_responses.cpp): the request body (golden/openai_responses_request.json),
// whole answers (text, calls, reasoning items kept in `raw` and sent back verbatim:
// golden/openai_responses_request_after_reasoning.json; usage, failures, errors by path) and streams: recorded
// transcripts with reasoning, text and function_call_arguments deltas, an incomplete answer, a cut-off stream,
// response.failed and error events.

#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "wire/wire.hpp"
#include "wire_fixtures.hpp"

namespace {

using namespace wire_test;  // NOLINT(google-build-using-namespace)
using ptc::agent::Provider;
using ptc::agent::detail::make_wire;

const WireUnderTest under{make_wire(Provider::openai_responses)};
const auto& wire = under.wire;

// A turn of a reasoning model: a reasoning item, a message, two function calls.
const json kTurn = json::parse(R"({
  "id": "resp_68a1c0ffee", "object": "response", "created_at": 1751900000, "status": "completed",
  "error": null, "incomplete_details": null, "model": "gpt-5-mini-2025-08-07",
  "output": [
    {"id": "rs_68a1c0ffee01", "type": "reasoning", "summary": [],
     "encrypted_content": "gAAAAB-not-real-encrypted-reasoning=="},
    {"id": "msg_68a1c0ffee02", "type": "message", "status": "completed", "role": "assistant",
     "content": [{"type": "output_text", "annotations": [], "logprobs": [], "text": "Searching both catalogues."}]},
    {"id": "fc_68a1c0ffee03", "type": "function_call", "status": "completed", "call_id": "call_Pq1w8",
     "name": "search_papers", "arguments": "{\"query\":\"tide prediction\",\"limit\":5}"},
    {"id": "fc_68a1c0ffee04", "type": "function_call", "status": "completed", "call_id": "call_Rz2k4",
     "name": "search_preprints", "arguments": "{\"query\":\"tide prediction\",\"limit\":3}"}],
  "usage": {"input_tokens": 512, "input_tokens_details": {"cached_tokens": 128}, "output_tokens": 96,
    "output_tokens_details": {"reasoning_tokens": 64}, "total_tokens": 608}})");

const json kTurnJson = json::parse(R"({"text": "Searching both catalogues.", "stop_reason": "completed",
  "provider": "openai-responses",
  "tool_calls": [
    {"id": "call_Pq1w8", "name": "search_papers", "arguments": "{\"query\":\"tide prediction\",\"limit\":5}"},
    {"id": "call_Rz2k4", "name": "search_preprints", "arguments": "{\"query\":\"tide prediction\",\"limit\":3}"}],
  "usage": {"requests": 1, "input": 512, "output": 96, "cached": 128, "reasoning": 64}})");

// ---- requests ------------------------------------------------------------------------------------

TEST(OpenAiResponsesRequest, UrlAndHeaders) {
  ModelSettings s;
  s.model = "gpt-5-mini";
  EXPECT_EQ(wire->url("https://api.openai.com/v1", s, true), "https://api.openai.com/v1/responses");
  EXPECT_EQ(wire->headers("sk-test-not-a-real-key"),
            (ptc::agent::detail::Headers{{"Authorization", "Bearer sk-test-not-a-real-key"}}));
  EXPECT_TRUE(wire->headers("").empty());
}

TEST(OpenAiResponsesRequest, Golden) {
  Fixture f("gpt-5-mini");
  expect_golden("openai_responses_request.json", request_json(*wire, f.request(), false));
}

TEST(OpenAiResponsesRequest, StreamAndOptionalFields) {
  Fixture f("gpt-5-mini");
  EXPECT_EQ(under.body_of(f.request(), true)["stream"], true);
  f.conversation.system.clear();
  f.settings = ModelSettings{};
  f.settings.model = "gpt-5-mini";
  OrderedJson body = under.body_of(f.request(false, false));
  for (const char* absent :
       {"stream", "instructions", "tools", "parallel_tool_calls", "text", "temperature", "max_output_tokens", "store"})
    EXPECT_FALSE(body.contains(absent)) << absent;
}

TEST(OpenAiResponsesRequest, SchemaFallbacks) {
  Fixture f("gpt-5-mini");
  f.output.schema = ptc::parse_type("{note :any}").value();
  EXPECT_EQ(under.body_of(f.request())["text"].dump(), OrderedJson::parse(R"({"format": {"type": "json_schema",
    "name": "paper", "schema": {"type": "object", "properties": {"note": {}}, "required": ["note"],
    "additionalProperties": false}, "strict": false}})")
                                                           .dump());
  f.output.schema = ptc::parse_type(":int").value();
  EXPECT_FALSE(under.body_of(f.request()).contains("text"));
}

TEST(OpenAiResponsesRequest, ReasoningItemsGoBackVerbatim) {
  // The turn parsed from the API, then its results: the next request repeats the output items as they
  // came (the reasoning item with its encrypted content included), then answers the calls.
  Fixture f("gpt-5-mini");
  f.conversation.messages.resize(1);
  f.conversation.messages.push_back(under.parse(kTurn).message);
  Message results;
  results.role = Role::tool;
  results.tool_results = {{"call_Pq1w8", "search_papers", "[]", false},
                          {"call_Rz2k4", "search_preprints", "down", true}};
  f.conversation.messages.push_back(results);
  expect_golden("openai_responses_request_after_reasoning.json", request_json(*wire, f.request(), false));
  OrderedJson input = under.body_of(f.request())["input"];
  ASSERT_EQ(input.size(), 7u);
  EXPECT_EQ(json::parse(input[1].dump()), kTurn["output"][0]);
  for (int i = 1; i <= 4; ++i) EXPECT_EQ(json::parse(input[i].dump()), kTurn["output"][i - 1]) << i;
  EXPECT_EQ(input[5].dump(), R"({"type":"function_call_output","call_id":"call_Pq1w8","output":"[]"})");
  EXPECT_EQ(input[6].dump(), R"({"type":"function_call_output","call_id":"call_Rz2k4","output":"down"})");

  // Another provider's raw is not sent: the turn is rebuilt from its text and calls.
  f.conversation.messages[1].provider = "openai";
  input = under.body_of(f.request())["input"];
  EXPECT_EQ(input[1].dump(), R"({"type":"message","role":"assistant","content":"Searching both catalogues."})");
  EXPECT_EQ(input[2]["type"], "function_call");

  f.conversation.messages[1].provider = "openai-responses";
  f.conversation.messages[1].raw = json::object();
  auto bad = request_json(*wire, f.request(), false);
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error().message, "messages[1].raw: expected an array");
}

// ---- whole answers -------------------------------------------------------------------------------

TEST(OpenAiResponsesResponse, TextCallsUsageAndRaw) {
  ModelResponse r = under.parse(kTurn);
  EXPECT_EQ(turn_json(r), kTurnJson);
  EXPECT_EQ(r.message.raw, kTurn["output"]);
}

TEST(OpenAiResponsesResponse, TextAnswerAndIncomplete) {
  ModelResponse r =
      under.parse(json::parse(R"({"status": "incomplete", "incomplete_details": {"reason": "max_output_tokens"},
    "output": [{"type": "message", "role": "assistant", "content": [
      {"type": "output_text", "text": "Tidal "}, {"type": "output_text", "text": "forecasting"}]}]})"));
  EXPECT_EQ(r.message.text, "Tidal forecasting");
  EXPECT_EQ(r.stop_reason, "max_output_tokens");
  EXPECT_TRUE(r.message.tool_calls.empty());
  EXPECT_EQ(r.message.usage.requests, 1u);
}

TEST(OpenAiResponsesResponse, Errors) {
  struct Case {
    const char* body;
    const char* error;
  };
  const Case cases[] = {
      {R"("x")", "(root): expected an object"},
      {R"({"status": "completed"})", "output: missing required field"},
      {R"({"output": {}})", "output: expected an array"},
      {R"({"output": [1]})", "output[0]: expected an object"},
      {R"({"output": [{"type": 1}]})", "output[0].type: expected a string"},
      {R"({"output": [{"type": "message", "content": "hi"}]})", "output[0].content: expected an array"},
      {R"({"output": [{"type": "message", "content": [{"type": "output_text"}]}]})",
       "output[0].content[0].text: missing required field"},
      {R"({"output": [{"type": "function_call", "name": "f", "arguments": "{}"}]})",
       "output[0].call_id: missing required field"},
      {R"({"output": [], "usage": {"input_tokens_details": {"cached_tokens": "1"}}})",
       "usage.input_tokens_details.cached_tokens: expected an integer"},
      {R"({"output": [], "incomplete_details": {"reason": 3}})", "incomplete_details.reason: expected a string"},
      {R"({"status": "failed", "error": {"code": "server_error", "message": "The model failed."}, "output": []})",
       "server_error: The model failed."},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.body);
    EXPECT_EQ(under.parse_error(c.body), c.error);
  }
  EXPECT_EQ(wire->error_message(R"({"error": {"message": "Invalid type for 'input[2].content'.", "type":
    "invalid_request_error", "param": "input[2].content", "code": "invalid_type"}})"),
            "Invalid type for 'input[2].content'.");
}

// ---- streams -------------------------------------------------------------------------------------

TEST(OpenAiResponsesStream, DeltasThenTheCompletedResponse) {
  Streamed s = run_stream(*wire, read_fixture("openai_responses_stream_tool_calls.sse"));
  EXPECT_EQ(s.events, json::parse(R"([
    {"text": "Searching both"}, {"text": " catalogues."},
    {"call": 0, "id": "call_Pq1w8", "name": "search_papers", "arguments": ""},
    {"call": 0, "id": "call_Pq1w8", "name": "search_papers", "arguments": "{\"query\":\"ti"},
    {"call": 0, "id": "call_Pq1w8", "name": "search_papers", "arguments": "de prediction\","},
    {"call": 0, "id": "call_Pq1w8", "name": "search_papers", "arguments": "\"limit\":5}"},
    {"call": 1, "id": "call_Rz2k4", "name": "search_preprints", "arguments": ""},
    {"call": 1, "id": "call_Rz2k4", "name": "search_preprints",
     "arguments": "{\"query\":\"tide prediction\",\"limit\":3}"}])"));
  EXPECT_EQ(turn_json(s.ok()), kTurnJson);
  EXPECT_EQ(s.ok().message.raw, kTurn["output"]);
  for (std::size_t piece : {1u, 5u, 33u}) {
    SCOPED_TRACE(piece);
    Streamed pieces = run_stream(*wire, read_fixture("openai_responses_stream_tool_calls.sse"), piece);
    EXPECT_EQ(pieces.events, s.events);
    EXPECT_EQ(turn_json(pieces.ok()), kTurnJson);
  }
}

TEST(OpenAiResponsesStream, Incomplete) {
  Streamed s = run_stream(*wire, read_fixture("openai_responses_stream_incomplete.sse"));
  EXPECT_EQ(s.ok().stop_reason, "max_output_tokens");
  EXPECT_EQ(s.ok().message.text, "Searching");
  EXPECT_EQ(s.ok().message.usage.output_tokens, 16u);
}

TEST(OpenAiResponsesStream, ACompletedTextThatDoesNotHoldTheDeltasIsAnError) {
  // The deltas were shown as they came: recording another text would keep an answer nobody saw.
  std::string body = read_fixture("openai_responses_stream_incomplete.sse");
  const std::string delta = R"("delta":"Searching")";
  ASSERT_NE(body.find(delta), std::string::npos);
  body.replace(body.find(delta), delta.size(), R"("delta":"Searchin{")");
  Streamed s = run_stream(*wire, body);
  EXPECT_EQ(s.events, json::parse(R"([{"text": "Searchin{"}])"));
  EXPECT_EQ(s.error(), "the streamed text does not match the text of the completed response");
}

TEST(OpenAiResponsesStream, CutOffFailedAndErrorEvents) {
  Streamed cut = run_stream(*wire, read_fixture("openai_responses_stream_truncated.sse"));
  EXPECT_FALSE(cut.event_error);
  EXPECT_EQ(cut.events, json::parse(R"([{"text": "Searching both"}])"));
  EXPECT_EQ(cut.error(), "the stream ended before response.completed: the answer is incomplete");

  Streamed failed = run_stream(*wire, read_fixture("openai_responses_stream_failed.sse"));
  ASSERT_TRUE(failed.event_error);
  EXPECT_EQ(failed.error(), "server_error: The model failed to generate a response.");

  Streamed error = run_stream(*wire, read_fixture("openai_responses_stream_error.sse"));
  ASSERT_TRUE(error.event_error);
  EXPECT_EQ(error.error(), "rate_limit_exceeded: Rate limit reached for gpt-5-mini on tokens per min (TPM).");
}

TEST(OpenAiResponsesStream, WrongShapesNameTheEventAndPath) {
  struct Case {
    const char* transcript;
    const char* error;
  };
  const Case cases[] = {
      {"event: response.output_text.delta\ndata: {\"type\": \"response.output_text.delta\", \"delta\": 5}\n\n",
       "event 1: delta: expected a string"},
      {"data: {\"type\": \"response.function_call_arguments.delta\", \"output_index\": 2, \"delta\": \"{\"}\n\n",
       "event 1: output_index: no function_call item was added at output index 2"},
      {"data: {\"type\": \"response.output_item.added\", \"output_index\": \"0\", \"item\": {\"type\": "
       "\"function_call\"}}\n\n",
       "event 1: output_index: expected an integer"},
      {"data: {\"type\": \"response.output_item.added\", \"output_index\": 0, \"item\": {\"type\": "
       "\"function_call\", \"name\": 1}}\n\n",
       "event 1: item.name: expected a string"},
      {"data: {\"type\": \"response.created\"}\n\ndata: {\"type\": \"response.completed\", \"response\": {\"output\": "
       "[{\"type\": \"function_call\", \"call_id\": \"c\", \"arguments\": \"{}\"}]}}\n\n",
       "event 2: response.output[0].name: missing required field"},
      {"data: {\"type\": \"response.completed\", \"response\": []}\n\n", "event 1: response: expected an object"},
      // A failure in the completed response is the provider's, as it said it.
      {"data: {\"type\": \"response.completed\", \"response\": {\"status\": \"failed\", \"error\": "
       "{\"code\": \"server_error\", \"message\": \"boom\"}}}\n\n",
       "server_error: boom"},
      {"data: {\"type\": \"response.completed\"\n\n", nullptr},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.transcript);
    Streamed s = run_stream(*wire, c.transcript);
    if (c.error)
      EXPECT_EQ(s.error(), c.error);
    else
      EXPECT_EQ(s.error().rfind("event 1: invalid JSON", 0), 0u) << s.error();
  }
}

}  // namespace
