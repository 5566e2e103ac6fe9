// make_wire (src/wire/wire.cpp) and what every wire format promises: each provider gets its own
// format, and no JSON makes a parser or an assembler throw or crash. Every node of every recorded
// transcript and answer is replaced, one at a time, by a value of each other type; the result is a
// turn or an Error, never an exception, and the same input always gives the same result.

#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "wire/wire.hpp"
#include "wire_fixtures.hpp"

namespace {

using namespace wire_test;  // NOLINT(google-build-using-namespace)
using ptc::agent::Provider;
using ptc::agent::detail::make_wire;
using ptc::agent::detail::SseReader;

TEST(MakeWire, EachProviderHasItsOwnFormat) {
  ModelSettings s;
  s.model = "m";
  EXPECT_EQ(make_wire(Provider::openai)->url("B", s, false), "B/chat/completions");
  EXPECT_EQ(make_wire(Provider::openai_responses)->url("B", s, false), "B/responses");
  EXPECT_EQ(make_wire(Provider::anthropic)->url("B", s, false), "B/messages");
  EXPECT_EQ(make_wire(Provider::gemini)->url("B", s, false), "B/models/m:generateContent");
}

// A run sends the same tools with every request: their rendering is kept, and given again only while
// the very same tools are offered.
TEST(MakeWire, ToolsAreRenderedAgainOnlyWhenTheyChange) {
  for (Provider provider : {Provider::openai, Provider::openai_responses, Provider::anthropic, Provider::gemini}) {
    WireUnderTest w{make_wire(provider)};
    Fixture f("m");
    ModelRequest request = f.request(true, false);
    const OrderedJson first = w.body_of(request);
    EXPECT_EQ(w.body_of(request), first);
    ptc::Tool renamed = ptc::make_tool("find_papers", "Search the paper catalogue by keywords.",
                                       "(query :string, limit :int) -> [:string]");
    request.tools = {&renamed, &f.preprints};
    const OrderedJson second = w.body_of(request);
    EXPECT_NE(second["tools"], first["tools"]);
    EXPECT_NE(second["tools"].dump().find("find_papers"), std::string::npos);
    ptc::Tool described = ptc::make_tool("find_papers", "Look up papers.", "(query :string, limit :int) -> [:string]");
    request.tools = {&described, &f.preprints};  // the same name, another description
    EXPECT_NE(w.body_of(request)["tools"].dump().find("Look up papers."), std::string::npos);
    request.tools = {&f.search};  // fewer tools
    EXPECT_EQ(w.body_of(request)["tools"].dump().find("search_preprints"), std::string::npos);
    {
      // A tool made where the last one was: its own rendering, never the kept one.
      Fixture g("m");
      ModelRequest again = g.request(true, false);
      ptc::Tool other = ptc::make_tool("count_papers", "Count the papers.", "(query :string) -> :int");
      again.tools = {&other};
      EXPECT_NE(w.body_of(again)["tools"].dump().find("count_papers"), std::string::npos);
    }
    EXPECT_EQ(w.body_of(f.request(true, false)), first);
  }
}

// ---- no JSON crashes anything --------------------------------------------------------------------

const json kReplacements = json::parse(R"([null, -1, 1.5, 18446744073709551615, "", true, [{}], {"type": "x"}])");

void pointers(const json& value, const json::json_pointer& at, std::vector<json::json_pointer>& out) {
  out.push_back(at);
  if (value.is_object()) {
    for (auto it = value.begin(); it != value.end(); ++it) pointers(it.value(), at / it.key(), out);
  } else if (value.is_array()) {
    for (std::size_t i = 0; i < value.size(); ++i) pointers(value[i], at / i, out);
  }
}

// Every value `value` becomes when one of its nodes is replaced by one of kReplacements.
std::vector<json> mutations(const json& value) {
  std::vector<json::json_pointer> at;
  pointers(value, json::json_pointer(), at);
  std::vector<json> out;
  for (const auto& p : at) {
    for (const auto& r : kReplacements) {
      json copy = value;
      copy[p] = r;
      out.push_back(std::move(copy));
    }
  }
  return out;
}

std::vector<SseReader::Event> events_of(const std::string& transcript) {
  std::vector<SseReader::Event> out;
  SseReader reader;
  reader.feed(transcript, [&](const SseReader::Event& e) {
    out.push_back(e);
    return true;
  });
  if (auto last = reader.finish()) out.push_back(*last);
  return out;
}

std::string outcome(const ptc::Result<ModelResponse>& r) {
  if (!r) return "error: " + r.error().message;
  json turn = turn_json(*r);
  turn["raw"] = r->message.raw;
  return turn.dump(-1, ' ', false, json::error_handler_t::replace);
}

std::string outcome_of_stream(const ptc::agent::detail::Wire& wire, const std::vector<SseReader::Event>& events) {
  auto assembler = wire.stream();
  for (const auto& e : events)
    if (auto failed = assembler->on_event(e, [](const StreamEvent&) {})) break;
  return outcome(assembler->finish());
}

struct Transcript {
  Provider provider;
  const char* file;
};

TEST(WireRobustness, EveryNodeOfEveryStreamEventReplaced) {
  const Transcript transcripts[] = {
      {Provider::openai, "openai_chat_stream_text.sse"},
      {Provider::openai, "openai_chat_stream_tool_calls.sse"},
      {Provider::openai, "openai_chat_stream_whole_calls.sse"},
      {Provider::openai, "openai_chat_stream_repeated_name.sse"},
      {Provider::openai, "openai_chat_stream_same_index.sse"},
      {Provider::openai_responses, "openai_responses_stream_tool_calls.sse"},
      {Provider::anthropic, "anthropic_stream_tool_use.sse"},
      {Provider::gemini, "gemini_stream_text.sse"},
      {Provider::gemini, "gemini_stream_function_calls.sse"},
  };
  std::size_t runs = 0;
  for (const auto& t : transcripts) {
    SCOPED_TRACE(t.file);
    const auto wire = make_wire(t.provider);
    std::vector<SseReader::Event> events = events_of(read_fixture(t.file));
    ASSERT_FALSE(events.empty());
    // The Response objects of a Responses stream are large: the created and in-progress ones are
    // emptied (the assembler does not read them), the completed one's nodes are covered below.
    for (auto& e : events) {
      json data = json::parse(e.data, nullptr, false);
      if (data.is_object() && data.contains("response")) {
        data["response"] = data["type"] == "response.completed" ? json::parse(R"({"output": []})") : json::object();
        e.data = data.dump();
      }
    }
    for (std::size_t i = 0; i < events.size(); ++i) {
      json data = json::parse(events[i].data, nullptr, false);
      if (data.is_discarded()) continue;  // [DONE]
      std::vector<SseReader::Event> copy = events;
      for (const json& mutated : mutations(data)) {
        copy[i].data = mutated.dump();
        std::string first;
        ASSERT_NO_THROW(first = outcome_of_stream(*wire, copy)) << copy[i].data;
        if (++runs % 8 == 0) {
          EXPECT_EQ(first, outcome_of_stream(*wire, copy));
        }
      }
    }
  }
  EXPECT_GT(runs, 1000u);
}

TEST(WireRobustness, EveryNodeOfEveryAnswerReplaced) {
  struct Answer {
    Provider provider;
    const char* body;
  };
  const Answer answers[] = {
      {Provider::openai, R"({"choices": [{"index": 0, "message": {"role": "assistant", "content": "x",
        "tool_calls": [{"id": "c", "type": "function", "function": {"name": "f", "arguments": "{}"}}]},
        "finish_reason": "tool_calls"}], "usage": {"prompt_tokens": 1, "completion_tokens": 2,
        "prompt_tokens_details": {"cached_tokens": 0}, "completion_tokens_details": {"reasoning_tokens": 0}}})"},
      {Provider::openai_responses, R"({"status": "completed", "error": null, "incomplete_details": null,
        "output": [{"type": "reasoning", "id": "rs", "summary": []},
          {"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "x"}]},
          {"type": "function_call", "call_id": "c", "name": "f", "arguments": "{}"}],
        "usage": {"input_tokens": 1, "output_tokens": 2, "input_tokens_details": {"cached_tokens": 0},
          "output_tokens_details": {"reasoning_tokens": 0}}})"},
      {Provider::anthropic, R"({"type": "message", "role": "assistant", "content": [
          {"type": "thinking", "thinking": "t", "signature": "s"}, {"type": "text", "text": "x"},
          {"type": "tool_use", "id": "t", "name": "f", "input": {"a": 1}}],
        "stop_reason": "tool_use", "usage": {"input_tokens": 1, "cache_read_input_tokens": 0, "output_tokens": 2,
          "output_tokens_details": {"thinking_tokens": 0}}})"},
      {Provider::gemini, R"({"candidates": [{"content": {"role": "model", "parts": [{"text": "x"},
          {"text": "t", "thought": true}, {"functionCall": {"id": "i", "name": "f", "args": {"a": 1}},
          "thoughtSignature": "s"}]}, "finishReason": "STOP"}], "promptFeedback": {"safetyRatings": []},
        "usageMetadata": {"promptTokenCount": 1, "candidatesTokenCount": 2, "thoughtsTokenCount": 0},
        "responseId": "r"})"},
  };
  std::size_t runs = 0;
  for (const auto& a : answers) {
    const auto wire = make_wire(a.provider);
    const json body = json::parse(a.body);
    ASSERT_TRUE(wire->parse_response(body)) << wire->parse_response(body).error().message;
    for (const json& mutated : mutations(body)) {
      std::string first;
      ASSERT_NO_THROW(first = outcome(wire->parse_response(mutated))) << mutated.dump();
      EXPECT_EQ(first, outcome(wire->parse_response(mutated)));
      ++runs;
    }
    for (const char* text : {"", "null", "[]", "\"x\"", "{", "\xff"}) {
      EXPECT_NO_THROW(wire->error_message(text));
      EXPECT_NO_THROW(outcome_of_stream(*wire, {{"", text}, {"error", text}}));
    }
  }
  EXPECT_GT(runs, 500u);
}

TEST(WireRobustness, DeepNestingIsAnErrorNotACrash) {
  const std::string deep = std::string(100000, '[') + std::string(100000, ']');
  for (Provider p : {Provider::openai, Provider::openai_responses, Provider::anthropic, Provider::gemini}) {
    const auto wire = make_wire(p);
    auto assembler = wire->stream();
    auto failed = assembler->on_event({"", deep}, [](const StreamEvent&) {});
    ASSERT_TRUE(failed);
    EXPECT_EQ(failed->message.rfind("event 1: invalid JSON", 0), 0u) << failed->message;
    EXPECT_FALSE(wire->error_message(deep).empty());
  }
}

}  // namespace
