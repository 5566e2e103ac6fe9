// Gemini (src/wire/gemini.cpp): the request body (golden/gemini_request.json with tools,
// golden/gemini_request_answer.json for the answer turn with its responseSchema), whole answers
// (thought summaries left out of the text, calls with and without Gemini's ids, usage, a blocked
// prompt, errors by path), thought signatures sent back verbatim
// (golden/gemini_request_after_thought.json), and streams: recorded transcripts (CRLF, as Gemini
// sends them) of text with a signature on a closing empty part, whole function calls, a cut-off
// stream and an error chunk.

#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "wire/wire.hpp"
#include "wire_fixtures.hpp"

namespace {

using namespace wire_test;  // NOLINT(google-build-using-namespace)
using ptc::agent::Provider;
using ptc::agent::detail::make_wire;

const WireUnderTest under{make_wire(Provider::gemini)};
const auto& wire = under.wire;

// A turn of a thinking model: a thought summary, then two calls, the first with its signature; no ids,
// as Gemini 2.5 sends them.
const json kTurn = json::parse(R"({
  "candidates": [{"content": {"role": "model", "parts": [
      {"text": "**Planning the search**\n\nBoth catalogues may have it.", "thought": true},
      {"functionCall": {"name": "search_papers", "args": {"query": "tide prediction", "limit": 5}},
       "thoughtSignature": "CikB0e2Kb1not-a-real-signature-for-calls=="},
      {"functionCall": {"name": "search_preprints", "args": {"query": "tide prediction", "limit": 3}}}]},
    "finishReason": "STOP", "index": 0}],
  "usageMetadata": {"promptTokenCount": 300, "candidatesTokenCount": 40, "totalTokenCount": 460,
    "cachedContentTokenCount": 128, "thoughtsTokenCount": 120},
  "modelVersion": "gemini-2.5-flash", "responseId": "mJzCaP_QJ5Kc1MkP8oKJgAg"})");

// ---- requests ------------------------------------------------------------------------------------

TEST(GeminiRequest, UrlAndHeaders) {
  ModelSettings s;
  s.model = "gemini-2.5-flash";
  const std::string base = "https://generativelanguage.googleapis.com/v1beta";
  EXPECT_EQ(wire->url(base, s, false), base + "/models/gemini-2.5-flash:generateContent");
  EXPECT_EQ(wire->url(base, s, true), base + "/models/gemini-2.5-flash:streamGenerateContent?alt=sse");
  s.model = "models/gemini-2.5-pro";
  EXPECT_EQ(wire->url(base, s, false), base + "/models/gemini-2.5-pro:generateContent");
  EXPECT_EQ(wire->headers("AIza-test-not-a-real-key"),
            (ptc::agent::detail::Headers{{"x-goog-api-key", "AIza-test-not-a-real-key"}}));
  EXPECT_TRUE(wire->headers("").empty());
}

TEST(GeminiRequest, Golden) {
  // With tools, no response schema: Gemini 2.x refuses function calling with a JSON response type.
  Fixture f("gemini-2.5-flash");
  expect_golden("gemini_request.json", request_json(*wire, f.request(), false));
}

TEST(GeminiRequest, GoldenAnswerTurn) {
  Fixture f("gemini-2.5-flash");
  expect_golden("gemini_request_answer.json", request_json(*wire, f.request(false, true), false));
}

TEST(GeminiRequest, OptionalFieldsAndStream) {
  Fixture f("gemini-2.5-flash");
  f.settings = ModelSettings{};
  f.settings.model = "gemini-2.5-flash";
  f.conversation.system.clear();
  OrderedJson body = under.body_of(f.request(false, false), true);
  for (const char* absent : {"systemInstruction", "tools", "generationConfig", "stream"})
    EXPECT_FALSE(body.contains(absent)) << absent;
  EXPECT_EQ(body.size(), 1u);  // contents; streaming is in the URL
}

TEST(GeminiRequest, SchemaGeminiCannotExpressGoesAsJsonSchema) {
  Fixture f("gemini-2.5-flash");
  f.output.schema = ptc::parse_type("{scores [:map-of :string :int]}").value();
  OrderedJson config = under.body_of(f.request(false, true))["generationConfig"];
  EXPECT_FALSE(config.contains("responseSchema"));
  EXPECT_EQ(config["responseMimeType"], "application/json");
  EXPECT_EQ(config["responseJsonSchema"].dump(), OrderedJson::parse(R"({"type": "object", "properties": {
    "scores": {"type": "object", "additionalProperties": {"type": "integer"}}},
    "required": ["scores"], "additionalProperties": false})")
                                                     .dump());
}

TEST(GeminiRequest, ThoughtSignaturesGoBackVerbatim) {
  Fixture f("gemini-2.5-flash");
  f.conversation.messages.resize(1);
  ModelResponse turn = under.parse(kTurn);
  f.conversation.messages.push_back(turn.message);
  Message results;
  results.role = Role::tool;
  for (const auto& call : turn.message.tool_calls)
    results.tool_results.push_back({call.id, call.name, call.name == "search_papers" ? "[]" : "down",
                                    call.name != "search_papers"});
  f.conversation.messages.push_back(results);
  auto body = request_json(*wire, f.request(), false);
  expect_golden("gemini_request_after_thought.json", body);
  ASSERT_TRUE(body);
  EXPECT_EQ(json::parse((*body)["contents"][1].dump()), kTurn["candidates"][0]["content"]);
  // The ids ptc made up are not Gemini's: the responses go without them, matched by name and order.
  EXPECT_EQ((*body)["contents"][2]["parts"][0].dump(),
            R"({"functionResponse":{"name":"search_papers","response":{"output":"[]"}}})");
  EXPECT_EQ((*body)["contents"][2]["parts"][1].dump(),
            R"({"functionResponse":{"name":"search_preprints","response":{"error":"down"}}})");
}

TEST(GeminiRequest, GeminisOwnIdsAreEchoed) {
  json with_ids = kTurn;
  auto& parts = with_ids["candidates"][0]["content"]["parts"];
  parts[1]["functionCall"]["id"] = "fc_1a2b";
  parts[2]["functionCall"]["id"] = "fc_3c4d";
  Fixture f("gemini-3-pro-preview");
  f.conversation.messages.resize(1);
  ModelResponse turn = under.parse(with_ids);
  EXPECT_EQ(turn.message.tool_calls[0].id, "fc_1a2b");
  f.conversation.messages.push_back(turn.message);
  Message results;
  results.role = Role::tool;
  results.tool_results = {{"fc_1a2b", "search_papers", "[]", false}, {"fc_3c4d", "search_preprints", "[]", false}};
  f.conversation.messages.push_back(results);
  OrderedJson response = under.body_of(f.request())["contents"][2]["parts"][1];
  EXPECT_EQ(response.dump(),
            R"({"functionResponse":{"id":"fc_3c4d","name":"search_preprints","response":{"output":"[]"}}})");

  // Rebuilt from another provider's turn, calls and responses carry no id.
  f.conversation.messages[1].provider = "anthropic";
  OrderedJson contents = under.body_of(f.request())["contents"];
  EXPECT_EQ(contents[1]["parts"][0].dump(),
            R"({"functionCall":{"name":"search_papers","args":{"limit":5,"query":"tide prediction"}}})");
  EXPECT_FALSE(contents[2]["parts"][1]["functionResponse"].contains("id"));

  f.conversation.messages[1].provider = "gemini";
  f.conversation.messages[1].raw = json::array();
  auto bad = request_json(*wire, f.request(), false);
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error().message, "messages[1].raw: expected an object");
}

// ---- whole answers -------------------------------------------------------------------------------

TEST(GeminiResponse, CallsThoughtsAndUsage) {
  ModelResponse r = under.parse(kTurn);
  json turn = turn_json(r);
  // Ids are made for calls Gemini sent without one: deterministic, numbered in the turn.
  const std::string id0 = r.message.tool_calls.at(0).id;
  const std::string id1 = r.message.tool_calls.at(1).id;
  EXPECT_EQ(id0.rfind("call_", 0), 0u);
  EXPECT_EQ(id0.substr(id0.size() - 2), "_0");
  EXPECT_EQ(id1.substr(0, id1.size() - 1), id0.substr(0, id0.size() - 1));
  EXPECT_EQ(under.parse(kTurn).message.tool_calls[0].id, id0);
  json other = kTurn;
  other["responseId"] = "another-response";
  EXPECT_NE(under.parse(other).message.tool_calls[0].id, id0);
  EXPECT_EQ(turn, json::parse(R"({"text": "", "stop_reason": "STOP", "provider": "gemini",
    "tool_calls": [
      {"id": ")" + id0 + R"(", "name": "search_papers", "arguments": {"query": "tide prediction", "limit": 5}},
      {"id": ")" + id1 + R"(", "name": "search_preprints", "arguments": {"query": "tide prediction", "limit": 3}}],
    "usage": {"requests": 1, "input": 300, "output": 160, "cached": 128, "reasoning": 120}})"));
  EXPECT_EQ(r.message.raw, kTurn["candidates"][0]["content"]);
}

TEST(GeminiResponse, Text) {
  ModelResponse r = under.parse(json::parse(R"({"candidates": [{"content": {"role": "model", "parts": [
    {"text": "Tidal forecasting "}, {"text": "with LSTMs.", "thoughtSignature": "c2ln"}]},
    "finishReason": "STOP"}], "usageMetadata": {"promptTokenCount": 12, "candidatesTokenCount": 5}})"));
  EXPECT_EQ(turn_json(r), json::parse(R"({"text": "Tidal forecasting with LSTMs.", "stop_reason": "STOP",
    "provider": "gemini", "tool_calls": [],
    "usage": {"requests": 1, "input": 12, "output": 5, "cached": 0, "reasoning": 0}})"));
}

TEST(GeminiResponse, SafetyStopHasNoContent) {
  ModelResponse r = under.parse(json::parse(R"({"candidates": [{"finishReason": "SAFETY", "index": 0}]})"));
  EXPECT_EQ(r.stop_reason, "SAFETY");
  EXPECT_EQ(r.message.text, "");
  EXPECT_TRUE(r.message.raw.is_null());
}

TEST(GeminiResponse, Errors) {
  struct Case {
    const char* body;
    const char* error;
  };
  const Case cases[] = {
      {R"(7)", "(root): expected an object"},
      {R"({})", "candidates: missing required field"},
      {R"({"candidates": []})", "candidates: expected at least one candidate"},
      {R"({"candidates": {}})", "candidates: expected an array"},
      {R"({"candidates": [[]]})", "candidates[0]: expected an object"},
      {R"({"candidates": [{"content": {"parts": {}}}]})", "candidates[0].content.parts: expected an array"},
      {R"({"candidates": [{"content": {"parts": [{"text": 1}]}}]})",
       "candidates[0].content.parts[0].text: expected a string"},
      {R"({"candidates": [{"content": {"parts": [{"text": "x", "thought": "yes"}]}}]})",
       "candidates[0].content.parts[0].thought: expected a boolean"},
      {R"({"candidates": [{"content": {"parts": [{"functionCall": {"args": {}}}]}}]})",
       "candidates[0].content.parts[0].functionCall.name: missing required field"},
      {R"({"candidates": [{"content": {"parts": [{"functionCall": {"name": "f", "args": "{}"}}]}}]})",
       "candidates[0].content.parts[0].functionCall.args: expected an object"},
      {R"({"candidates": [{"finishReason": 1}]})", "candidates[0].finishReason: expected a string"},
      {R"({"candidates": [{}], "usageMetadata": {"thoughtsTokenCount": 1.5}})",
       "usageMetadata.thoughtsTokenCount: expected an integer"},
      {R"({"promptFeedback": {"blockReason": "PROHIBITED_CONTENT"}, "usageMetadata": {"promptTokenCount": 9}})",
       "the prompt was blocked (PROHIBITED_CONTENT)"},
      {R"({"error": {"code": 400, "message": "Invalid JSON payload received.", "status": "INVALID_ARGUMENT"}})",
       "Invalid JSON payload received."},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.body);
    EXPECT_EQ(under.parse_error(c.body), c.error);
  }
  EXPECT_EQ(wire->error_message(R"({"error": {"code": 429, "message": "Resource has been exhausted (e.g. check quota).",
    "status": "RESOURCE_EXHAUSTED"}})"),
            "Resource has been exhausted (e.g. check quota).");
  EXPECT_EQ(wire->error_message(R"([{"error": {"code": 503, "message": "The model is overloaded.",
    "status": "UNAVAILABLE"}}])"),
            "The model is overloaded.");
}

// ---- streams -------------------------------------------------------------------------------------

TEST(GeminiStream, TextAndItsClosingSignature) {
  Streamed s = run_stream(*wire, read_fixture("gemini_stream_text.sse"));
  EXPECT_EQ(s.events, json::parse(R"([{"text": "The most cited"}, {"text": " is “Tidal forecasting"},
    {"text": " with LSTMs” (2021)."}])"));
  EXPECT_EQ(turn_json(s.ok()), json::parse(R"({"text": "The most cited is “Tidal forecasting with LSTMs” (2021).",
    "stop_reason": "STOP", "provider": "gemini", "tool_calls": [],
    "usage": {"requests": 1, "input": 40, "output": 55, "cached": 0, "reasoning": 40}})"));
  // What a whole answer would have been: one text part holding the signature.
  EXPECT_EQ(s.ok().message.raw, json::parse(R"({"role": "model", "parts": [
    {"text": "The most cited is “Tidal forecasting with LSTMs” (2021).",
     "thoughtSignature": "CiQB0e2Kb7not-a-real-signature-for-text=="}]})"));
}

TEST(GeminiStream, WholeFunctionCalls) {
  Streamed s = run_stream(*wire, read_fixture("gemini_stream_function_calls.sse"));
  ModelResponse whole = under.parse(kTurn);
  ASSERT_EQ(whole.message.tool_calls.size(), 2u);
  // The same ids as the whole answer's: both come from the response's id.
  EXPECT_EQ(
      s.events,
      json::parse(R"([
    {"call": 0, "id": ")" +
                  whole.message.tool_calls[0].id +
                  R"(", "name": "search_papers", "arguments": "{\"limit\":5,\"query\":\"tide prediction\"}"},
    {"call": 1, "id": ")" +
                  whole.message.tool_calls[1].id +
                  R"(", "name": "search_preprints", "arguments": "{\"limit\":3,\"query\":\"tide prediction\"}"}])"));
  EXPECT_EQ(turn_json(s.ok()), turn_json(whole));
  EXPECT_EQ(s.ok().message.raw, kTurn["candidates"][0]["content"]);
  for (std::size_t piece : {1u, 4u, 9u}) {
    SCOPED_TRACE(piece);
    Streamed pieces = run_stream(*wire, read_fixture("gemini_stream_function_calls.sse"), piece);
    EXPECT_EQ(pieces.events, s.events);
    EXPECT_EQ(turn_json(pieces.ok()), turn_json(whole));
    EXPECT_EQ(pieces.ok().message.raw, s.ok().message.raw);
  }
}

TEST(GeminiStream, CutOffErrorAndBlocked) {
  Streamed cut = run_stream(*wire, read_fixture("gemini_stream_truncated.sse"));
  EXPECT_FALSE(cut.event_error);
  EXPECT_EQ(cut.events, json::parse(R"([{"text": "The most cited"}])"));
  EXPECT_EQ(cut.error(), "the stream ended before a finishReason: the answer is incomplete");

  Streamed error = run_stream(*wire, read_fixture("gemini_stream_error.sse"));
  ASSERT_TRUE(error.event_error);
  EXPECT_EQ(error.error(), "The model is overloaded. Please try again later.");

  Streamed blocked = run_stream(*wire, "data: {\"promptFeedback\": {\"blockReason\": \"SAFETY\"}}\r\n\r\n");
  EXPECT_EQ(blocked.error(), "the prompt was blocked (SAFETY)");
}

TEST(GeminiStream, WrongShapesNameTheEventAndPath) {
  const std::string first = "data: {\"candidates\": [{\"content\": {\"parts\": [{\"text\": \"a\"}]}}]}\n\n";
  Streamed s = run_stream(*wire, first +
                                     "data: {\"candidates\": [{\"content\": {\"parts\": [{\"functionCall\": "
                                     "{\"name\": \"\"}}]}}]}\n\n");
  EXPECT_EQ(s.error(), "event 2: candidates[0].content.parts[0].functionCall.name: must not be empty");
  Streamed malformed = run_stream(*wire, first + "data: {\"candidates\": [\n\n");
  EXPECT_EQ(malformed.error().rfind("event 2: invalid JSON", 0), 0u) << malformed.error();
}

}  // namespace
