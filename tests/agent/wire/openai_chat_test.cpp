// OpenAI Chat Completions (src/wire/openai_chat.cpp): the request body (golden/openai_chat_request.json),
// structured output and its fallbacks, whole answers and their errors by path, and streams: recorded
// transcripts of OpenAI and of compatible servers with their tool-call quirks (split arguments, several
// calls in one delta, the name repeated, the id late, every call at index 0, no [DONE]), cut off,
// failed and malformed ones,
// each fed whole and in small pieces.

#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "wire/wire.hpp"
#include "wire_fixtures.hpp"

namespace {

using namespace wire_test;  // NOLINT(google-build-using-namespace)
using ptc::agent::Provider;
using ptc::agent::detail::make_wire;

const WireUnderTest under{make_wire(Provider::openai)};
const auto& wire = under.wire;

// ---- requests ------------------------------------------------------------------------------------

TEST(OpenAiChatRequest, UrlAndHeaders) {
  ModelSettings s;
  s.model = "gpt-4.1-mini";
  EXPECT_EQ(wire->url("https://api.openai.com/v1", s, false), "https://api.openai.com/v1/chat/completions");
  EXPECT_EQ(wire->url("http://127.0.0.1:8080/v1", s, true), "http://127.0.0.1:8080/v1/chat/completions");
  EXPECT_EQ(wire->headers("sk-test-not-a-real-key"),
            (ptc::agent::detail::Headers{{"Authorization", "Bearer sk-test-not-a-real-key"}}));
  EXPECT_TRUE(wire->headers("").empty());  // a local server without a key
}

TEST(OpenAiChatRequest, Golden) {
  Fixture f("gpt-4.1-mini");
  expect_golden("openai_chat_request.json", request_json(*wire, f.request(), false));
}

TEST(OpenAiChatRequest, StreamAsksForUsage) {
  Fixture f("gpt-4.1-mini");
  OrderedJson body = under.body_of(f.request(), true);
  EXPECT_EQ(body["stream"], true);
  EXPECT_EQ(body["stream_options"], OrderedJson::parse(R"({"include_usage": true})"));
  EXPECT_FALSE(under.body_of(f.request(), false).contains("stream"));
}

TEST(OpenAiChatRequest, NoToolsNoToolFields) {
  Fixture f("gpt-4.1-mini");
  f.settings = ModelSettings{};
  f.settings.model = "gpt-4.1-mini";
  OrderedJson body = under.body_of(f.request(false, false));
  EXPECT_FALSE(body.contains("tools"));
  EXPECT_FALSE(body.contains("parallel_tool_calls"));
  EXPECT_FALSE(body.contains("response_format"));
  EXPECT_FALSE(body.contains("temperature"));
  EXPECT_FALSE(body.contains("max_completion_tokens"));
}

TEST(OpenAiChatRequest, ParallelToolCallsDefaultIsSent) {
  Fixture f("gpt-4.1-mini");
  f.settings.parallel_tool_calls = true;
  EXPECT_EQ(under.body_of(f.request())["parallel_tool_calls"], true);
}

TEST(OpenAiChatRequest, SchemaTheStrictProfileCannotTakeIsSentNotStrict) {
  Fixture f("gpt-4.1-mini");
  f.output.schema = ptc::parse_type("{note :any, tags [:set :string]}").value();
  OrderedJson format = under.body_of(f.request())["response_format"];
  EXPECT_EQ(format.dump(), OrderedJson::parse(R"({"type": "json_schema", "json_schema": {"name": "paper",
    "schema": {"type": "object", "properties": {"note": {}, "tags": {"type": "array", "items": {"type": "string"},
      "uniqueItems": true}}, "required": ["note", "tags"], "additionalProperties": false},
    "strict": false}})")
                               .dump());
}

TEST(OpenAiChatRequest, AnswerThatIsNoObjectIsAskedForInText) {
  // Structured outputs take an object at the root only.
  Fixture f("gpt-4.1-mini");
  f.output.schema = ptc::parse_type("[:string]").value();
  EXPECT_FALSE(under.body_of(f.request()).contains("response_format"));
}

TEST(OpenAiChatRequest, Errors) {
  Fixture f("gpt-4.1-mini");
  f.output.name = "my paper";
  auto bad_name = request_json(*wire, f.request(), false);
  ASSERT_FALSE(bad_name);
  EXPECT_EQ(bad_name.error().message, R"(output schema name "my paper" must match ^[a-zA-Z0-9_-]{1,64}$)");

  Fixture g("gpt-4.1-mini");
  ptc::Tool store = ptc::make_tool("store", "Store anything.", "(data :any) -> :nil");
  ModelRequest r = g.request();
  r.tools.push_back(&store);
  auto bad_tool = request_json(*wire, r, false);
  ASSERT_FALSE(bad_tool);
  EXPECT_EQ(bad_tool.error().message, "tool 'store': openai cannot express :any (every value needs a type) at data");

  ModelRequest empty;
  EXPECT_FALSE(request_json(*wire, empty, false));
}

TEST(OpenAiChatRequest, AssistantContent) {
  Fixture f("gpt-4.1-mini");
  f.conversation.messages[1].text.clear();
  Message empty;
  empty.role = Role::assistant;
  f.conversation.messages.push_back(empty);
  OrderedJson messages = under.body_of(f.request())["messages"];
  // Beside tool calls, no text is null; an answer of no text is the empty string.
  EXPECT_TRUE(messages[2]["content"].is_null());
  EXPECT_EQ(messages.back().dump(), R"({"role":"assistant","content":""})");
}

TEST(OpenAiChatRequest, RawIsSentBackOnlyToItsProvider) {
  Fixture f("gpt-4.1-mini");
  Message& assistant = f.conversation.messages[1];
  assistant.raw = json::parse(R"({"role": "assistant", "content": "verbatim", "annotations": []})");
  assistant.provider = "openai";
  EXPECT_EQ(under.body_of(f.request())["messages"][2].dump(),
            R"({"annotations":[],"content":"verbatim","role":"assistant"})");
  assistant.provider = "anthropic";
  EXPECT_EQ(under.body_of(f.request())["messages"][2]["content"], "I will search both catalogues.");
  assistant.provider = "openai";
  assistant.raw = json::array();
  auto bad = request_json(*wire, f.request(), false);
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error().message, "messages[1].raw: expected an object");
}

// ---- whole answers -------------------------------------------------------------------------------

TEST(OpenAiChatResponse, Text) {
  ModelResponse r = under.parse(R"({
    "id": "chatcmpl-1", "object": "chat.completion", "created": 1751900000, "model": "gpt-4.1-mini",
    "choices": [{"index": 0, "message": {"role": "assistant", "content": "Tidal forecasting with LSTMs.",
      "refusal": null, "annotations": []}, "logprobs": null, "finish_reason": "stop"}],
    "usage": {"prompt_tokens": 412, "completion_tokens": 17, "total_tokens": 429,
      "prompt_tokens_details": {"cached_tokens": 256, "audio_tokens": 0},
      "completion_tokens_details": {"reasoning_tokens": 5, "audio_tokens": 0}}})");
  EXPECT_EQ(turn_json(r), json::parse(R"({"text": "Tidal forecasting with LSTMs.", "tool_calls": [],
    "stop_reason": "stop", "provider": "openai",
    "usage": {"requests": 1, "input": 412, "output": 17, "cached": 256, "reasoning": 5}})"));
  EXPECT_TRUE(r.message.raw.is_null());
  EXPECT_EQ(r.message.role, Role::assistant);
}

TEST(OpenAiChatResponse, SeveralToolCalls) {
  ModelResponse r = under.parse(R"({
    "choices": [{"index": 0, "message": {"role": "assistant", "content": null, "tool_calls": [
      {"id": "call_1", "type": "function", "function": {"name": "search_papers",
        "arguments": "{\"query\":\"tides\",\"limit\":5}"}},
      {"id": "call_2", "type": "function", "function": {"name": "search_preprints", "arguments": ""}}]},
      "finish_reason": "tool_calls"}],
    "usage": {"prompt_tokens": 10, "completion_tokens": 20}})");
  EXPECT_EQ(turn_json(r), json::parse(R"({"text": "", "stop_reason": "tool_calls", "provider": "openai",
    "tool_calls": [
      {"id": "call_1", "name": "search_papers", "arguments": "{\"query\":\"tides\",\"limit\":5}"},
      {"id": "call_2", "name": "search_preprints", "arguments": {}}],
    "usage": {"requests": 1, "input": 10, "output": 20, "cached": 0, "reasoning": 0}})"));
}

TEST(OpenAiChatResponse, RefusalIsTheText) {
  ModelResponse r = under.parse(R"({"choices": [{"index": 0, "message": {"role": "assistant", "content": null,
    "refusal": "I can't help with that."}, "finish_reason": "stop"}]})");
  EXPECT_EQ(r.message.text, "I can't help with that.");
  EXPECT_EQ(r.message.usage.requests, 1u);
}

TEST(OpenAiChatResponse, ErrorsNameThePath) {
  struct Case {
    const char* body;
    const char* error;
  };
  const Case cases[] = {
      {R"([])", "(root): expected an object"},
      {R"({})", "choices: missing required field"},
      {R"({"choices": {}})", "choices: expected an array"},
      {R"({"choices": []})", "choices: expected at least one choice"},
      {R"({"choices": [3]})", "choices[0]: expected an object"},
      {R"({"choices": [{"index": 0}]})", "choices[0].message: missing required field"},
      {R"({"choices": [{"message": {"content": 7}}]})", "choices[0].message.content: expected a string"},
      {R"({"choices": [{"message": {"content": "x"}, "finish_reason": 1}]})",
       "choices[0].finish_reason: expected a string"},
      {R"({"choices": [{"message": {"tool_calls": [{"id": "a", "type": "function", "function": {"name": 5,
         "arguments": "{}"}}]}}]})",
       "choices[0].message.tool_calls[0].function.name: expected a string"},
      {R"({"choices": [{"message": {"content": "x"}}], "usage": []})", "usage: expected an object"},
      {R"({"choices": [{"message": {"content": "x"}}], "usage": {"prompt_tokens": "12"}})",
       "usage.prompt_tokens: expected an integer"},
      {R"({"choices": [{"message": {"content": "x"}}], "usage": {"prompt_tokens": -1}})",
       "usage.prompt_tokens: expected a non-negative integer"},
      {R"({"choices": [{"message": {"content": "x"}}], "usage": {"completion_tokens_details":
         {"reasoning_tokens": 1.5}}})",
       "usage.completion_tokens_details.reasoning_tokens: expected an integer"},
      // A compatible server's failure inside a 200.
      {R"({"error": {"message": "model 'llama9' not found"}})", "model 'llama9' not found"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.body);
    EXPECT_EQ(under.parse_error(c.body), c.error);
  }
}

TEST(OpenAiChatResponse, ErrorMessage) {
  EXPECT_EQ(wire->error_message(R"({"error": {"message": "Incorrect API key provided: sk-test***.",
    "type": "invalid_request_error", "param": null, "code": "invalid_api_key"}})"),
            "Incorrect API key provided: sk-test***.");
  EXPECT_EQ(wire->error_message(R"({"error": "model \"qwen9\" not found, try pulling it first"})"),
            "model \"qwen9\" not found, try pulling it first");
  EXPECT_EQ(wire->error_message("<html><body>502 Bad Gateway</body></html>\n"),
            "<html><body>502 Bad Gateway</body></html>");
  EXPECT_EQ(wire->error_message(R"({"detail": "Not Found"})"), R"({"detail": "Not Found"})");
  // The first 200 bytes, never half a character: 199 ASCII bytes and an é (2 bytes) keep 199.
  const std::string long_body = std::string(199, 'x') + "\xc3\xa9" + std::string(50, 'y');
  EXPECT_EQ(wire->error_message(long_body), std::string(199, 'x'));
  // Invalid UTF-8 is replaced, so that the message can be written as JSON.
  EXPECT_EQ(wire->error_message("bad \xff byte"), "bad \xef\xbf\xbd byte");
}

// ---- streams -------------------------------------------------------------------------------------

TEST(OpenAiChatStream, TextDeltasInOrder) {
  Streamed s = run_stream(*wire, read_fixture("openai_chat_stream_text.sse"));
  EXPECT_EQ(s.events, json::parse(R"([{"text": "The most cited is"}, {"text": " “Tidal forecasting"},
    {"text": " with LSTMs” (2021)."}])"));
  EXPECT_EQ(turn_json(s.ok()), json::parse(R"({"text": "The most cited is “Tidal forecasting with LSTMs” (2021).",
    "tool_calls": [], "stop_reason": "stop", "provider": "openai",
    "usage": {"requests": 1, "input": 412, "output": 17, "cached": 256, "reasoning": 0}})"));
}

TEST(OpenAiChatStream, ToolCallArgumentsSplitAcrossDeltas) {
  Streamed s = run_stream(*wire, read_fixture("openai_chat_stream_tool_calls.sse"));
  EXPECT_EQ(s.events, json::parse(R"([
    {"call": 0, "id": "call_Xq81", "name": "search_papers", "arguments": ""},
    {"call": 0, "id": "call_Xq81", "name": "search_papers", "arguments": "{\"qu"},
    {"call": 0, "id": "call_Xq81", "name": "search_papers", "arguments": "ery\":\"tide prediction\",\"li"},
    {"call": 0, "id": "call_Xq81", "name": "search_papers", "arguments": "mit\":5}"},
    {"call": 1, "id": "call_Yr92", "name": "search_preprints", "arguments": ""},
    {"call": 1, "id": "call_Yr92", "name": "search_preprints",
     "arguments": "{\"query\":\"tide prediction\",\"limit\":3}"}])"));
  EXPECT_EQ(turn_json(s.ok()), json::parse(R"({"text": "", "stop_reason": "tool_calls", "provider": "openai",
    "tool_calls": [
      {"id": "call_Xq81", "name": "search_papers", "arguments": "{\"query\":\"tide prediction\",\"limit\":5}"},
      {"id": "call_Yr92", "name": "search_preprints", "arguments": "{\"query\":\"tide prediction\",\"limit\":3}"}],
    "usage": {"requests": 1, "input": 380, "output": 52, "cached": 0, "reasoning": 0}})"));
}

TEST(OpenAiChatStream, SeveralWholeCallsInOneDeltaAndNoDone) {
  // Ollama and vLLM send whole calls, several in one delta; llama.cpp's server may leave out [DONE]
  // once the finish_reason is sent.
  Streamed s = run_stream(*wire, read_fixture("openai_chat_stream_whole_calls.sse"));
  EXPECT_EQ(s.events, json::parse(R"([
    {"call": 0, "id": "call_k2lpq9x1", "name": "search_papers",
     "arguments": "{\"limit\":5,\"query\":\"tide prediction\"}"},
    {"call": 1, "id": "call_7hd0vm3c", "name": "search_preprints",
     "arguments": "{\"limit\":3,\"query\":\"tide prediction\"}"}])"));
  EXPECT_EQ(calls_json(s.ok().message.tool_calls), json::parse(R"([
    {"id": "call_k2lpq9x1", "name": "search_papers", "arguments": "{\"limit\":5,\"query\":\"tide prediction\"}"},
    {"id": "call_7hd0vm3c", "name": "search_preprints", "arguments": "{\"limit\":3,\"query\":\"tide prediction\"}"}
  ])"));
  EXPECT_EQ(s.ok().stop_reason, "tool_calls");
}

TEST(OpenAiChatStream, NameRepeatedAndIdLate) {
  // llama.cpp's server before its fix sent the name with every delta and the id after the first one;
  // a client that concatenated names called "search_paperssearch_paperssearch_papers".
  Streamed s = run_stream(*wire, read_fixture("openai_chat_stream_repeated_name.sse"));
  EXPECT_EQ(s.events, json::parse(R"([
    {"call": 0, "id": "", "name": "search_papers", "arguments": ""},
    {"call": 0, "id": "call_late0", "name": "search_papers", "arguments": "{\"query\":"},
    {"call": 0, "id": "call_late0", "name": "search_papers", "arguments": "\"tides\",\"limit\":2}"}])"));
  EXPECT_EQ(turn_json(s.ok()), json::parse(R"({"text": "", "stop_reason": "tool_calls", "provider": "openai",
    "tool_calls": [{"id": "call_late0", "name": "search_papers", "arguments": "{\"query\":\"tides\",\"limit\":2}"}],
    "usage": {"requests": 1, "input": 201, "output": 24, "cached": 0, "reasoning": 0}})"));
}

TEST(OpenAiChatStream, EveryCallAtIndexZero) {
  // Servers that number every call 0: a new id is a new call, not more of the last one's arguments.
  Streamed s = run_stream(*wire, read_fixture("openai_chat_stream_same_index.sse"));
  EXPECT_EQ(s.events, json::parse(R"([
    {"call": 0, "id": "365174485", "name": "search_papers", "arguments": ""},
    {"call": 0, "id": "365174485", "name": "search_papers", "arguments": "{\"query\":\"tides\",\"limit\":5}"},
    {"call": 1, "id": "871024519", "name": "search_preprints", "arguments": ""},
    {"call": 1, "id": "871024519", "name": "search_preprints", "arguments": "{\"query\":\"tides\",\"limit\":3}"}])"));
  EXPECT_EQ(calls_json(s.ok().message.tool_calls), json::parse(R"([
    {"id": "365174485", "name": "search_papers", "arguments": "{\"query\":\"tides\",\"limit\":5}"},
    {"id": "871024519", "name": "search_preprints", "arguments": "{\"query\":\"tides\",\"limit\":3}"}])"));
}

TEST(OpenAiChatStream, TheSameInAnyPieces) {
  for (const char* name :
       {"openai_chat_stream_text.sse", "openai_chat_stream_tool_calls.sse", "openai_chat_stream_whole_calls.sse",
        "openai_chat_stream_repeated_name.sse", "openai_chat_stream_same_index.sse"}) {
    const std::string transcript = read_fixture(name);
    Streamed whole = run_stream(*wire, transcript);
    for (std::size_t piece : {1u, 2u, 7u, 64u}) {
      SCOPED_TRACE(std::string(name) + " in pieces of " + std::to_string(piece));
      Streamed pieces = run_stream(*wire, transcript, piece);
      EXPECT_EQ(pieces.events, whole.events);
      EXPECT_EQ(turn_json(pieces.ok()), turn_json(whole.ok()));
    }
  }
}

TEST(OpenAiChatStream, CutOffIsAnError) {
  Streamed s = run_stream(*wire, read_fixture("openai_chat_stream_truncated.sse"));
  EXPECT_FALSE(s.event_error);
  EXPECT_EQ(s.events, json::parse(R"([{"text": "The most cited is"}])"));
  EXPECT_EQ(s.error(), "the stream ended before [DONE] and without a finish_reason: the answer is incomplete");
}

TEST(OpenAiChatStream, ErrorChunk) {
  Streamed s = run_stream(*wire, read_fixture("openai_chat_stream_error.sse"));
  ASSERT_TRUE(s.event_error);
  EXPECT_EQ(s.event_error->message, "The server had an error while processing your request. Sorry about that!");
  ASSERT_TRUE(s.turn);
  EXPECT_FALSE(*s.turn);
}

TEST(OpenAiChatStream, MalformedJsonNamesTheEvent) {
  Streamed s = run_stream(*wire, read_fixture("openai_chat_stream_malformed.sse"));
  ASSERT_TRUE(s.event_error);
  EXPECT_EQ(s.event_error->message.rfind("event 2: invalid JSON", 0), 0u) << s.event_error->message;
  EXPECT_EQ(s.error(), s.event_error->message);
}

TEST(OpenAiChatStream, WrongTypesNameThePath) {
  struct Case {
    const char* data;
    const char* error;
  };
  const Case cases[] = {
      {R"([])", "event 1: (root): expected an object"},
      {R"({"choices": {}})", "event 1: choices: expected an array"},
      {R"({"choices": [{"index": 0, "delta": []}]})", "event 1: choices[0].delta: expected an object"},
      {R"({"choices": [{"delta": {"content": 3}}]})", "event 1: choices[0].delta.content: expected a string"},
      {R"({"choices": [{"delta": {"tool_calls": [{"index": "0"}]}}]})",
       "event 1: choices[0].delta.tool_calls[0].index: expected an integer"},
      {R"({"choices": [{"delta": {"tool_calls": [{"index": -1}]}}]})",
       "event 1: choices[0].delta.tool_calls[0].index: expected a non-negative integer"},
      {R"({"choices": [{"delta": {"tool_calls": [{"index": 0, "function": {"arguments": 5}}]}}]})",
       "event 1: choices[0].delta.tool_calls[0].function.arguments: expected a string"},
      {R"({"choices": [{"delta": {"tool_calls": [{"index": 0, "id": 12}]}}]})",
       "event 1: choices[0].delta.tool_calls[0].id: expected a string"},
      {R"({"choices": [{"delta": {}, "finish_reason": 0}]})", "event 1: choices[0].finish_reason: expected a string"},
      {R"({"choices": [], "usage": {"prompt_tokens": true}})", "event 1: usage.prompt_tokens: expected an integer"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.data);
    Streamed s = run_stream(*wire, std::string("data: ") + c.data + "\n\n");
    EXPECT_EQ(s.error(), c.error);
  }
}

TEST(OpenAiChatStream, TheFirstErrorEndsTheStream) {
  auto assembler = wire->stream();
  int emitted = 0;
  auto emit = [&](const StreamEvent&) { ++emitted; };
  auto first = assembler->on_event({"", "{\"choices\": 1}"}, emit);
  ASSERT_TRUE(first);
  auto again = assembler->on_event({"", R"({"choices": [{"delta": {"content": "late"}}]})"}, emit);
  ASSERT_TRUE(again);
  EXPECT_EQ(again->message, first->message);
  EXPECT_EQ(emitted, 0);
  auto turn = assembler->finish();
  ASSERT_FALSE(turn);
  EXPECT_EQ(turn.error().message, first->message);
}

TEST(OpenAiChatStream, CallsWithoutIdOrNameAndOtherChoices) {
  // A call without an id gets one made from the completion's id; only choice 0 is read.
  Streamed s = run_stream(*wire, R"(data: {"id": "chatcmpl-9", "choices": [{"index": 1, "delta": {"content": "other"}},
data:  {"index": 0, "delta": {"tool_calls": [{"index": 0, "function": {"name": "search_papers", "arguments": "{}"}}]}}]}

data: {"id": "chatcmpl-9", "choices": [{"index": 0, "delta": {}, "finish_reason": "tool_calls"}]}

data: [DONE]

data: {"id": "chatcmpl-9", "choices": [{"index": 0, "delta": {"content": "after the end"}}]}

)");
  ASSERT_EQ(s.ok().message.tool_calls.size(), 1u);
  const std::string id = s.ok().message.tool_calls[0].id;
  EXPECT_EQ(id.size(), std::string("call_0123456789abcdef_0").size()) << id;
  EXPECT_EQ(id.rfind("call_", 0), 0u);
  EXPECT_EQ(id.substr(id.size() - 2), "_0");
  EXPECT_EQ(s.ok().message.text, "");
  // The same stream gives the same id.
  EXPECT_EQ(run_stream(*wire,
                       "data: {\"id\": \"chatcmpl-9\", \"choices\": [{\"index\": 0, \"delta\": {\"tool_calls\": "
                       "[{\"index\": 0, \"function\": {\"name\": \"x\"}}]}, \"finish_reason\": \"stop\"}]}\n\n")
                .ok()
                .message.tool_calls[0]
                .id,
            id);

  Streamed nameless = run_stream(*wire, R"(data: {"choices": [{"delta": {"tool_calls": [{"index": 4, "id": "c"}]},
data: "finish_reason": "tool_calls"}]}

)");
  EXPECT_EQ(nameless.error(), "tool call 0 (index 4): the stream never named its function");
}

}  // namespace
