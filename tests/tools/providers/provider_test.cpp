// The chat providers' wire formats (provider.hpp, src/providers/): tool calls read from OpenAI Chat
// Completions, OpenAI Responses and Anthropic payloads (every accepted shape, every error with its path),
// the replies that carry outcomes back, and tool definitions with their exact bytes and key order. MCP's
// shapes are tested with ptc::mcp (tests/mcp/wire_test.cpp).

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <ptc/provider.hpp>
#include <ptc/error.hpp>
#include <ptc/schema.hpp>
#include <ptc/tool.hpp>
#include <ptc/tool_call.hpp>
#include <ptc/tool_catalog.hpp>
#include <ptc/tool_result.hpp>

namespace {

using nlohmann::json;
using ptc::OrderedJson;
using ptc::ToolCall;
using ptc::ToolOutcome;

// ---- helpers -------------------------------------------------------------------------------------

/// A call as one JSON object, so a mismatch shows every part at once.
json as_json(const ToolCall& c) { return json{{"id", c.id}, {"name", c.name}, {"arguments", c.arguments}}; }

json as_json(const std::vector<ToolCall>& calls) {
  json out = json::array();
  for (const auto& c : calls) out.push_back(as_json(c));
  return out;
}

template <class T>
json ok_json(const ptc::Result<T>& r) {
  if (!r) {
    ADD_FAILURE() << "unexpected error: " << r.error().message;
    return json{{"error", r.error().message}};
  }
  return as_json(*r);
}

template <class T>
std::string error_of(const ptc::Result<T>& r) {
  if (r) {
    ADD_FAILURE() << "expected an error, got " << as_json(*r).dump();
    return {};
  }
  EXPECT_EQ(r.error().line, 0u);
  EXPECT_EQ(r.error().column, 0u);
  return r.error().message;
}

json call(std::string id, std::string name, json arguments) {
  return json{{"id", std::move(id)}, {"name", std::move(name)}, {"arguments", std::move(arguments)}};
}

json parse_calls(std::string_view response) { return ok_json(ptc::parse_tool_calls(json::parse(response))); }
std::string calls_error(std::string_view response) { return error_of(ptc::parse_tool_calls(json::parse(response))); }

ptc::Tool tool(std::string name, std::string_view signature) {
  return ptc::make_tool(std::move(name), "Search the catalog.", signature);
}

std::string definition(const ptc::Result<OrderedJson>& r) {
  if (!r) {
    ADD_FAILURE() << "unexpected error: " << r.error().message;
    return {};
  }
  return r->dump();
}

std::string definition_error(const ptc::Result<OrderedJson>& r) {
  if (r) {
    ADD_FAILURE() << "expected an error, got " << r->dump();
    return {};
  }
  return r.error().message;
}

/// Compact form of a JSON literal, keeping its key order.
std::string j(std::string_view text) { return OrderedJson::parse(text).dump(); }

ToolOutcome outcome(std::string call_id, ptc::ToolResult<json> result, std::string rendered,
                    std::optional<json> visible) {
  ToolOutcome o;
  o.call_id = std::move(call_id);
  o.name = "search";
  o.status = result.success ? ptc::CallStatus::Succeeded : ptc::CallStatus::Failed;
  o.result = std::move(result);
  o.rendered = std::move(rendered);
  o.visible_value = std::move(visible);
  return o;
}

// ---- one OpenAI call -----------------------------------------------------------------------------

TEST(ParseOpenAiToolCall, ChatCallKeepsArgumentsAsText) {
  auto r = ptc::parse_openai_tool_call(json::parse(R"({
    "id": "call_abc", "type": "function",
    "function": {"name": "search", "arguments": "{\"query\":\"rust\",\"limit\":3}"}})"));
  EXPECT_EQ(ok_json(r), call("call_abc", "search", "{\"query\":\"rust\",\"limit\":3}"));
  ASSERT_TRUE(r);
  EXPECT_TRUE(r->arguments.is_string());
}

TEST(ParseOpenAiToolCall, MalformedArgumentsTextIsKeptForDispatchToReport) {
  auto r = ptc::parse_openai_tool_call(json::parse(R"({
    "id": "call_abc", "type": "function", "function": {"name": "search", "arguments": "{\"query\":"}})"));
  EXPECT_EQ(ok_json(r), call("call_abc", "search", "{\"query\":"));
}

TEST(ParseOpenAiToolCall, ChatCallWithoutTypeIsAccepted) {
  auto r = ptc::parse_openai_tool_call(json::parse(R"({"id": "c1", "function": {"name": "f", "arguments": "{}"}})"));
  EXPECT_EQ(ok_json(r), call("c1", "f", "{}"));
}

TEST(ParseOpenAiToolCall, ObjectArgumentsAreTakenAsIs) {
  auto r = ptc::parse_openai_tool_call(json::parse(R"({
    "id": "c1", "type": "function", "function": {"name": "f", "arguments": {"a": [1, 2]}}})"));
  EXPECT_EQ(ok_json(r), call("c1", "f", {{"a", {1, 2}}}));
}

TEST(ParseOpenAiToolCall, BlankArgumentsTextIsTheEmptyObject) {
  auto empty = ptc::parse_openai_tool_call(json::parse(R"({"id": "c1", "function": {"name": "f", "arguments": ""}})"));
  EXPECT_EQ(ok_json(empty), call("c1", "f", json::object()));
  auto spaces =
      ptc::parse_openai_tool_call(json::parse(R"({"id": "c1", "function": {"name": "f", "arguments": " \n"}})"));
  EXPECT_EQ(ok_json(spaces), call("c1", "f", json::object()));
}

TEST(ParseOpenAiToolCall, ResponsesFunctionCall) {
  auto r = ptc::parse_openai_tool_call(json::parse(R"({
    "type": "function_call", "call_id": "call_9", "name": "lookup", "arguments": "{\"id\":7}"})"));
  EXPECT_EQ(ok_json(r), call("call_9", "lookup", "{\"id\":7}"));
}

TEST(ParseOpenAiToolCall, ResponsesItemIdIsNotTheCallId) {
  auto r = ptc::parse_openai_tool_call(json::parse(R"({
    "type": "function_call", "id": "fc_67ca09c6bedc8190", "call_id": "call_unLAR8MvFNptuiZK6K6HCy5k",
    "name": "lookup", "arguments": "{}", "status": "completed"})"));
  EXPECT_EQ(ok_json(r), call("call_unLAR8MvFNptuiZK6K6HCy5k", "lookup", "{}"));
  ASSERT_TRUE(r);
  // The reply built from that call quotes call_id, which is what the Responses API matches on.
  ToolOutcome o = outcome(r->id, ptc::ToolResult<json>::ok(1), "1", json(1));
  EXPECT_EQ(ptc::openai_responses_output(o)["call_id"], "call_unLAR8MvFNptuiZK6K6HCy5k");
}

TEST(ParseOpenAiToolCall, Errors) {
  struct Case {
    const char* input;
    const char* message;
  };
  const Case cases[] = {
      {R"([1])", "(root): expected an object"},
      {R"({"id": "c1", "name": "f"})",
       R"((root): expected a Chat Completions tool call (with "function") or a Responses function_call item)"},
      {R"({"id": "c1", "type": "custom", "custom": {"name": "f", "input": "x"}})",
       R"(type: expected "function" or "function_call", got "custom")"},
      {R"({"id": "c1", "type": 3, "name": "f"})", R"(type: expected "function" or "function_call", got 3)"},
      {R"({"id": "c1", "type": "function_call", "function": {"name": "f", "arguments": "{}"}})",
       R"(type: expected "function", got "function_call")"},
      {R"({"type": "function", "function": {"name": "f", "arguments": "{}"}})", "id: missing required field"},
      {R"({"id": 12, "type": "function", "function": {"name": "f", "arguments": "{}"}})", "id: expected a string"},
      {R"({"id": "c1", "type": "function"})", "function: missing required field"},
      {R"({"id": "c1", "type": "function", "function": "f"})", "function: expected an object"},
      {R"({"id": "c1", "type": "function", "function": {"arguments": "{}"}})", "function.name: missing required field"},
      {R"({"id": "c1", "type": "function", "function": {"name": null, "arguments": "{}"}})",
       "function.name: expected a string"},
      {R"({"id": "c1", "type": "function", "function": {"name": "", "arguments": "{}"}})",
       "function.name: must not be empty"},
      {R"({"id": "c1", "type": "function", "function": {"name": "f"}})", "function.arguments: missing required field"},
      {R"({"id": "c1", "type": "function", "function": {"name": "f", "arguments": null}})",
       "function.arguments: expected a string of JSON text or an object"},
      {R"({"id": "c1", "type": "function", "function": {"name": "f", "arguments": [1]}})",
       "function.arguments: expected a string of JSON text or an object"},
      {R"({"type": "function_call", "id": "fc_1", "name": "f", "arguments": "{}"})", "call_id: missing required field"},
      {R"({"type": "function_call", "call_id": "c1", "arguments": "{}"})", "name: missing required field"},
      {R"({"type": "function_call", "call_id": "c1", "name": "", "arguments": "{}"})", "name: must not be empty"},
      {R"({"type": "function_call", "call_id": "c1", "name": "f", "arguments": 5})",
       "arguments: expected a string of JSON text or an object"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.input);
    EXPECT_EQ(error_of(ptc::parse_openai_tool_call(json::parse(c.input))), c.message);
  }
}

// ---- one Anthropic block -------------------------------------------------------------------------

TEST(ParseAnthropicToolUse, Block) {
  auto r = ptc::parse_anthropic_tool_use(json::parse(R"({
    "type": "tool_use", "id": "toolu_01A09q90qw90lq917835lq9",
    "name": "get_weather", "input": {"location": "San Francisco, CA", "unit": "celsius"}})"));
  EXPECT_EQ(ok_json(r), call("toolu_01A09q90qw90lq917835lq9", "get_weather",
                             {{"location", "San Francisco, CA"}, {"unit", "celsius"}}));
}

TEST(ParseAnthropicToolUse, Errors) {
  struct Case {
    const char* input;
    const char* message;
  };
  const Case cases[] = {
      {R"("tool_use")", "(root): expected an object"},
      {R"({"type": "text", "text": "hi"})", R"(type: expected "tool_use", got "text")"},
      {R"({"type": "tool_use", "name": "f", "input": {}})", "id: missing required field"},
      {R"({"type": "tool_use", "id": "t1", "input": {}})", "name: missing required field"},
      {R"({"type": "tool_use", "id": "t1", "name": 1, "input": {}})", "name: expected a string"},
      {R"({"type": "tool_use", "id": "t1", "name": "", "input": {}})", "name: must not be empty"},
      {R"({"type": "tool_use", "id": "t1", "name": "f"})", "input: missing required field"},
      {R"({"type": "tool_use", "id": "t1", "name": "f", "input": "{\"a\":1}"})", "input: expected an object"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.input);
    EXPECT_EQ(error_of(ptc::parse_anthropic_tool_use(json::parse(c.input))), c.message);
  }
}

// ---- whole responses: OpenAI Chat Completions ----------------------------------------------------

constexpr std::string_view kChatCompletion = R"({
  "id": "chatcmpl-AZ3mLq2y", "object": "chat.completion", "created": 1733000000, "model": "gpt-4o-2024-08-06",
  "choices": [{
    "index": 0,
    "message": {
      "role": "assistant", "content": null, "refusal": null,
      "tool_calls": [
        {"id": "call_12345xyz", "type": "function",
         "function": {"name": "get_weather", "arguments": "{\"location\":\"Paris, France\"}"}},
        {"id": "call_67890abc", "type": "function",
         "function": {"name": "get_weather", "arguments": "{\"location\":\"Bogotá, Colombia\"}"}}
      ]
    },
    "logprobs": null, "finish_reason": "tool_calls"
  }],
  "usage": {"prompt_tokens": 82, "completion_tokens": 51, "total_tokens": 133},
  "system_fingerprint": "fp_6b68a8204b"
})";

TEST(ParseToolCalls, ChatCompletionWithParallelCalls) {
  EXPECT_EQ(parse_calls(kChatCompletion),
            json::array({call("call_12345xyz", "get_weather", "{\"location\":\"Paris, France\"}"),
                         call("call_67890abc", "get_weather", "{\"location\":\"Bogotá, Colombia\"}")}));
}

TEST(ParseToolCalls, ChatCompletionUsesOnlyTheFirstChoice) {
  // n = 2: two alternative answers to the same turn, not four parallel calls.
  EXPECT_EQ(parse_calls(R"({"object": "chat.completion", "choices": [
    {"index": 0, "message": {"role": "assistant", "tool_calls": [
      {"id": "a", "type": "function", "function": {"name": "f", "arguments": "{}"}}]}, "finish_reason": "tool_calls"},
    {"index": 1, "message": {"role": "assistant", "tool_calls": [
      {"id": "b", "type": "function", "function": {"name": "g", "arguments": "{}"}}]}, "finish_reason": "tool_calls"}]})"),
            json::array({call("a", "f", "{}")}));
}

TEST(ParseToolCalls, ChatCompletionWithoutCalls) {
  EXPECT_EQ(parse_calls(R"({"object": "chat.completion", "choices": [{"index": 0,
    "message": {"role": "assistant", "content": "Hello! How can I help?", "refusal": null},
    "finish_reason": "stop"}]})"),
            json::array());
  EXPECT_EQ(parse_calls(R"({"choices": [{"message": {"role": "assistant", "content": "hi", "tool_calls": null}}]})"),
            json::array());
  EXPECT_EQ(parse_calls(R"({"choices": []})"), json::array());
}

TEST(ParseToolCalls, ChatMessage) {
  EXPECT_EQ(parse_calls(R"({"role": "assistant", "content": null, "tool_calls": [
    {"id": "call_1", "type": "function", "function": {"name": "f", "arguments": "{\"x\":1}"}}]})"),
            json::array({call("call_1", "f", "{\"x\":1}")}));
  EXPECT_EQ(parse_calls(R"({"role": "assistant", "content": "done"})"), json::array());
  EXPECT_EQ(parse_calls(R"({"role": "assistant", "content": null, "tool_calls": null})"), json::array());
  EXPECT_EQ(parse_calls(R"({"role": "assistant", "tool_calls": []})"), json::array());
  EXPECT_EQ(parse_calls(R"({"role": "assistant"})"), json::array());
}

TEST(ParseToolCalls, BareChatToolCallsArray) {
  EXPECT_EQ(parse_calls(R"([
    {"id": "a", "type": "function", "function": {"name": "f", "arguments": "{}"}},
    {"id": "b", "type": "function", "function": {"name": "g", "arguments": "{\"k\":2}"}}])"),
            json::array({call("a", "f", "{}"), call("b", "g", "{\"k\":2}")}));
}

// ---- whole responses: OpenAI Responses -----------------------------------------------------------

constexpr std::string_view kResponses = R"({
  "id": "resp_67ccd2bed1ec8190b14f964abc054267", "object": "response", "created_at": 1741476542,
  "status": "completed", "model": "o4-mini-2025-04-16",
  "output": [
    {"id": "rs_6876cf02e0bc8192b74af0fb64b715ff", "type": "reasoning", "summary": []},
    {"type": "function_call", "id": "fc_12345xyz", "call_id": "call_12345xyz", "name": "get_weather",
     "arguments": "{\"latitude\":48.8566,\"longitude\":2.3522}", "status": "completed"},
    {"type": "function_call", "id": "fc_67890abc", "call_id": "call_67890abc", "name": "send_email",
     "arguments": "{\"to\":\"bob@example.com\",\"body\":\"Hi\"}", "status": "completed"}
  ],
  "parallel_tool_calls": true,
  "usage": {"input_tokens": 291, "output_tokens": 23, "total_tokens": 314}
})";

json responses_calls() {
  return json::array({call("call_12345xyz", "get_weather", "{\"latitude\":48.8566,\"longitude\":2.3522}"),
                      call("call_67890abc", "send_email", "{\"to\":\"bob@example.com\",\"body\":\"Hi\"}")});
}

TEST(ParseToolCalls, ResponsesObjectSkipsReasoning) { EXPECT_EQ(parse_calls(kResponses), responses_calls()); }

TEST(ParseToolCalls, BareResponsesOutputArray) {
  json output = json::parse(kResponses)["output"];
  EXPECT_EQ(ok_json(ptc::parse_tool_calls(output)), responses_calls());
}

TEST(ParseToolCalls, ResponsesMessageOnly) {
  EXPECT_EQ(parse_calls(R"({"object": "response", "output": [
    {"type": "message", "id": "msg_1", "status": "completed", "role": "assistant",
     "content": [{"type": "output_text", "text": "Hi", "annotations": []}]}]})"),
            json::array());
  EXPECT_EQ(parse_calls(R"({"object": "response", "output": []})"), json::array());
}

TEST(ParseToolCalls, UnknownItemTypesAreSkipped) {
  // Providers add item types; one we do not know is not a function call of ours.
  EXPECT_EQ(parse_calls(R"({"output": [{"type": "some_future_item", "id": "x"},
    {"type": "function_call", "call_id": "c", "name": "f", "arguments": "{}"}]})"),
            json::array({call("c", "f", "{}")}));
}

// ---- whole responses: Anthropic ------------------------------------------------------------------

constexpr std::string_view kAnthropicMessage = R"({
  "id": "msg_01Aq9w938a90dw8q", "type": "message", "role": "assistant", "model": "claude-sonnet-4-20250514",
  "content": [
    {"type": "thinking", "thinking": "Two cities, two calls.", "signature": "EqQBCgIYAhIM"},
    {"type": "text", "text": "I'll check the weather in both cities."},
    {"type": "tool_use", "id": "toolu_01A09q90qw90lq917835lq9", "name": "get_weather",
     "input": {"location": "San Francisco, CA"}},
    {"type": "tool_use", "id": "toolu_01B19r91rx91mr918946mr0", "name": "get_weather",
     "input": {"location": "New York, NY", "unit": "fahrenheit"}}
  ],
  "stop_reason": "tool_use", "stop_sequence": null,
  "usage": {"input_tokens": 472, "output_tokens": 143}
})";

json anthropic_calls() {
  return json::array({call("toolu_01A09q90qw90lq917835lq9", "get_weather", {{"location", "San Francisco, CA"}}),
                      call("toolu_01B19r91rx91mr918946mr0", "get_weather",
                           {{"location", "New York, NY"}, {"unit", "fahrenheit"}})});
}

TEST(ParseToolCalls, AnthropicMessageSkipsTextAndThinking) {
  EXPECT_EQ(parse_calls(kAnthropicMessage), anthropic_calls());
}

TEST(ParseToolCalls, BareAnthropicContentArray) {
  json content = json::parse(kAnthropicMessage)["content"];
  EXPECT_EQ(ok_json(ptc::parse_tool_calls(content)), anthropic_calls());
}

TEST(ParseToolCalls, AnthropicServerToolUseIsNotOurs) {
  // server_tool_use runs at Anthropic; only tool_use blocks are calls for us to answer.
  EXPECT_EQ(parse_calls(R"({"role": "assistant", "content": [
    {"type": "server_tool_use", "id": "srvtoolu_1", "name": "web_search", "input": {"query": "x"}},
    {"type": "web_search_tool_result", "tool_use_id": "srvtoolu_1", "content": []},
    {"type": "text", "text": "Nothing found."}]})"),
            json::array());
}

TEST(ParseToolCalls, EmptyArray) { EXPECT_EQ(parse_calls("[]"), json::array()); }

// ---- whole responses: errors ---------------------------------------------------------------------

TEST(ParseToolCalls, Errors) {
  struct Case {
    const char* input;
    const char* message;
  };
  const Case cases[] = {
      {R"("hello")", R"((root): expected a provider response (an object or an array), got "hello")"},
      {R"({"candidates": []})",
       R"((root): expected a chat completion ("choices"), a chat message ("tool_calls"), a Responses object ("output") or an Anthropic message ("content"))"},
      // chat completions
      {R"({"choices": {}})", "choices: expected an array"},
      {R"({"choices": [7]})", "choices[0]: expected an object"},
      {R"({"choices": [{"index": 0}]})", "choices[0].message: missing required field"},
      {R"({"choices": [{"message": "hi"}]})", "choices[0].message: expected an object"},
      {R"({"choices": [{"message": {"role": "assistant", "tool_calls": {}}}]})",
       "choices[0].message.tool_calls: expected an array"},
      {R"({"choices": [{"message": {"tool_calls": [
         {"id": "a", "type": "function", "function": {"name": "f", "arguments": "{}"}},
         {"id": "b", "type": "function", "function": {"name": 5, "arguments": "{}"}}]}}]})",
       "choices[0].message.tool_calls[1].function.name: expected a string"},
      {R"({"choices": [{"message": {"tool_calls": [
         {"id": "a", "type": "function", "function": {"name": "f", "arguments": "{}"}},
         {"id": "b", "type": "custom", "custom": {"name": "g", "input": "x"}}]}}]})",
       R"(choices[0].message.tool_calls[1]: an item of type "custom" among Chat Completions tool calls)"},
      {R"({"role": "assistant", "tool_calls": [{"type": "function_call", "call_id": "c", "name": "f", "arguments": "{}"}]})",
       R"(tool_calls[0]: a Responses output item ("function_call") among Chat Completions tool calls)"},
      {R"({"role": "assistant", "tool_calls": [{"id": "a"}]})",
       R"(tool_calls[0]: expected a Chat Completions tool call, a Responses output item or an Anthropic content block (an object with a "function" or a "type"))"},
      {R"({"role": "assistant", "tool_calls": [{"type": "function", "id": "a"}]})",
       "tool_calls[0].function: missing required field"},
      {R"({"role": "assistant", "tool_calls": [{"id": "a", "function": {"name": "f"}}]})",
       "tool_calls[0].function.arguments: missing required field"},
      {R"({"choices": [{"message": {"role": "assistant", "content": null,
         "function_call": {"name": "f", "arguments": "{}"}}}]})",
       "choices[0].message.function_call: legacy function calling is not supported (send tools, not functions)"},
      // responses
      {R"({"output": "text"})", "output: expected an array"},
      {R"({"output": [{"type": "function_call", "call_id": "c", "name": "f", "arguments": "{}"},
                      {"type": "tool_use", "id": "t", "name": "g", "input": {}}]})",
       R"(output[1]: an Anthropic content block ("tool_use") among Responses output items)"},
      {R"({"output": [{"type": "text", "text": "hi"}]})",
       R"(output[0]: an Anthropic content block ("text") among Responses output items)"},
      {R"({"output": [{"type": "reasoning"}, {"type": "function_call", "call_id": "c", "arguments": "{}"}]})",
       "output[1].name: missing required field"},
      {R"({"output": [{"type": "function_call", "id": "fc_1", "name": "f", "arguments": "{}"}]})",
       "output[0].call_id: missing required field"},
      {R"({"output": [3]})", "output[0]: expected an object"},
      // anthropic
      {R"({"type": "message", "content": "hi"})", "content: expected an array"},
      {R"({"role": "assistant", "content": 5})", "content: expected an array"},
      {R"({"role": "assistant", "content": [{"type": "text", "text": "a"}, {"type": "text", "text": "b"},
         {"type": "tool_use", "id": "t", "name": "f", "input": "{}"}]})",
       "content[2].input: expected an object"},
      {R"({"content": [{"type": "tool_use", "id": "t", "input": {}}]})", "content[0].name: missing required field"},
      {R"({"content": [{"type": "tool_use", "id": "t", "name": "", "input": {}}]})",
       "content[0].name: must not be empty"},
      {R"({"content": [{"type": "tool_use", "id": "t", "name": "f", "input": {}},
                       {"type": "reasoning", "summary": []}]})",
       R"(content[1]: a Responses output item ("reasoning") among Anthropic content blocks)"},
      {R"({"content": [{"id": "a", "type": "function", "function": {"name": "f", "arguments": "{}"}}]})",
       R"(content[0]: a Chat Completions tool call ("function") among Anthropic content blocks)"},
      // bare arrays: the first item that tells decides
      {R"([{"type": "text", "text": "a"}, {"type": "function_call", "call_id": "c", "name": "f", "arguments": "{}"}])",
       R"([1]: a Responses output item ("function_call") among Anthropic content blocks)"},
      {R"([{"type": "function_call", "call_id": "c", "name": "f", "arguments": "{}"}, {"type": "thinking"}])",
       R"([1]: an Anthropic content block ("thinking") among Responses output items)"},
      {R"([{"type": "future"}, {"id": "a", "type": "function", "function": {"name": "f", "arguments": "{}"}}])",
       R"([0]: an item of type "future" among Chat Completions tool calls)"},
      {R"([{"type": "tool_use", "id": "t", "name": "f", "input": {}}, "text"])", "[1]: expected an object"},
      {R"([{"role": "assistant", "content": "hi"}])",
       R"([0]: expected a Chat Completions tool call, a Responses output item or an Anthropic content block (an object with a "function" or a "type"))"},
      {R"([{"type": "tool_use", "id": "t", "name": "f", "input": []}])", "[0].input: expected an object"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.input);
    EXPECT_EQ(calls_error(c.input), c.message);
  }
}

// ---- outcomes out --------------------------------------------------------------------------------

TEST(Replies, OpenAiChatToolMessage) {
  ToolOutcome o =
      outcome("call_12345xyz", ptc::ToolResult<json>::ok(json{{"temp", 14}}), R"({"temp":14})", json{{"temp", 14}});
  EXPECT_EQ(ptc::openai_chat_tool_message(o),
            json::parse(R"({"role": "tool", "tool_call_id": "call_12345xyz", "content": "{\"temp\":14}"})"));
}

TEST(Replies, OpenAiResponsesOutput) {
  ToolOutcome o = outcome("call_67890abc", ptc::ToolResult<json>::error("no such city"), "no such city", std::nullopt);
  EXPECT_EQ(ptc::openai_responses_output(o),
            json::parse(R"({"type": "function_call_output", "call_id": "call_67890abc", "output": "no such city"})"));
}

TEST(Replies, AnthropicToolResult) {
  ToolOutcome ok = outcome("toolu_01", ptc::ToolResult<json>::ok(json(15)), "15", json(15));
  EXPECT_EQ(ptc::anthropic_tool_result(ok),
            json::parse(R"({"type": "tool_result", "tool_use_id": "toolu_01", "content": "15", "is_error": false})"));
  ToolOutcome failed = outcome("toolu_02", ptc::ToolResult<json>::error("city unknown"), "city unknown", std::nullopt);
  EXPECT_EQ(ptc::anthropic_tool_result(failed),
            json::parse(
                R"({"type": "tool_result", "tool_use_id": "toolu_02", "content": "city unknown", "is_error": true})"));
}

TEST(Replies, InvalidArgumentsAreAnError) {
  ToolOutcome o =
      outcome("call_1", ptc::ToolResult<json>::error("Tool validation errors:\n- q: missing required field\n"),
              "Tool validation errors:\n- q: missing required field\n", std::nullopt);
  o.status = ptc::CallStatus::InvalidArguments;
  EXPECT_EQ(ptc::anthropic_tool_result(o)["is_error"], true);
  EXPECT_EQ(ptc::openai_chat_tool_message(o)["content"], "Tool validation errors:\n- q: missing required field\n");
}

TEST(Replies, TextIsByteForByteTheDumpOfTheMessageAndItsJsonForm) {
  // The text replies are written without nlohmann::json; each must be the bytes its JSON, built here
  // independently, dumps to: keys sorted, every escape and the replacement of invalid UTF-8 alike.
  const auto dump = [](const json& j) { return j.dump(-1, ' ', false, json::error_handler_t::replace); };
  const std::vector<std::string> texts = {"",
                                          "plain",
                                          "quote \" backslash \\ slash /",
                                          "controls \x01\b\f\n\r\t\x1f\x7f end",
                                          "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80",
                                          "bad \xff\xfe utf-8 \xc3",
                                          std::string(100, 'x') + "\"" + std::string(7, '\n')};
  for (const auto& text : texts) {
    for (bool ok : {true, false}) {
      const std::string id = "id \"" + text + "\"";
      ToolOutcome o = outcome(id, ok ? ptc::ToolResult<json>::ok(json(text)) : ptc::ToolResult<json>::error(text), text,
                              ok ? std::optional<json>(json(text)) : std::nullopt);
      SCOPED_TRACE(dump(json(text)));
      EXPECT_EQ(ptc::openai_chat_tool_message_text(o),
                dump(json{{"role", "tool"}, {"tool_call_id", id}, {"content", text}}));
      EXPECT_EQ(ptc::openai_responses_output_text(o),
                dump(json{{"type", "function_call_output"}, {"call_id", id}, {"output", text}}));
      EXPECT_EQ(ptc::anthropic_tool_result_text(o),
                dump(json{{"type", "tool_result"}, {"tool_use_id", id}, {"content", text}, {"is_error", !ok}}));
      // The JSON forms, built without writing text and reading it back, hold the same.
      EXPECT_EQ(ptc::openai_chat_tool_message(o).dump(), ptc::openai_chat_tool_message_text(o));
      EXPECT_EQ(ptc::openai_responses_output(o).dump(), ptc::openai_responses_output_text(o));
      EXPECT_EQ(ptc::anthropic_tool_result(o).dump(), ptc::anthropic_tool_result_text(o));
    }
  }
}

// ---- tool definitions ----------------------------------------------------------------------------

constexpr std::string_view kSearch = "(query :string, limit :int?) -> [{id :int, title :string}]";

TEST(ToolDefinitions, OpenAiChat) {
  EXPECT_EQ(definition(ptc::openai_chat_tool(tool("search", kSearch))), j(R"({
    "type": "function",
    "function": {
      "name": "search", "description": "Search the catalog.",
      "parameters": {"type": "object",
        "properties": {"query": {"type": "string"}, "limit": {"type": ["integer", "null"]}},
        "required": ["query", "limit"], "additionalProperties": false},
      "strict": true}})"));
}

TEST(ToolDefinitions, OpenAiResponses) {
  EXPECT_EQ(definition(ptc::openai_responses_tool(tool("search", kSearch))), j(R"({
    "type": "function", "name": "search", "description": "Search the catalog.",
    "parameters": {"type": "object",
      "properties": {"query": {"type": "string"}, "limit": {"type": ["integer", "null"]}},
      "required": ["query", "limit"], "additionalProperties": false},
    "strict": true})"));
}

TEST(ToolDefinitions, Anthropic) {
  EXPECT_EQ(definition(ptc::anthropic_tool(tool("search", kSearch))), j(R"({
    "name": "search", "description": "Search the catalog.",
    "input_schema": {"type": "object",
      "properties": {"query": {"type": "string"}, "limit": {"anyOf": [{"type": "integer"}, {"type": "null"}]}},
      "required": ["query"], "additionalProperties": false}})"));
}

TEST(ToolDefinitions, Gemini) {
  EXPECT_EQ(definition(ptc::gemini_function_declaration(tool("search", kSearch))), j(R"({
    "name": "search", "description": "Search the catalog.",
    "parameters": {"type": "object",
      "properties": {"query": {"type": "string"}, "limit": {"type": "integer", "nullable": true}},
      "required": ["query"]}})"));
}

TEST(ToolDefinitions, GeminiWithoutParametersOmitsThem) {
  EXPECT_EQ(definition(ptc::gemini_function_declaration(tool("now", "() -> :string"))),
            j(R"({"name": "now", "description": "Search the catalog."})"));
}

TEST(ToolDefinitions, OthersKeepAnEmptyParameterObject) {
  EXPECT_EQ(definition(ptc::openai_chat_tool(tool("now", "() -> :string"))), j(R"({"type": "function",
    "function": {"name": "now", "description": "Search the catalog.",
      "parameters": {"type": "object", "properties": {}, "required": [], "additionalProperties": false},
      "strict": true}})"));
  EXPECT_EQ(definition(ptc::anthropic_tool(tool("now", "() -> :string"))), j(R"({"name": "now",
    "description": "Search the catalog.",
    "input_schema": {"type": "object", "properties": {}, "additionalProperties": false}})"));
}

TEST(ToolDefinitions, NoDialectKeyInAnyRoot) {
  // Providers want bare schema objects; "$schema" is only on portable renderings.
  ptc::Tool t = tool("search", kSearch);
  for (const auto& def : {ptc::openai_chat_tool(t), ptc::openai_responses_tool(t), ptc::anthropic_tool(t),
                          ptc::gemini_function_declaration(t)}) {
    ASSERT_TRUE(def) << def.error().message;
    EXPECT_EQ(def->dump().find("$schema"), std::string::npos) << def->dump();
  }
}

TEST(ToolDefinitions, ErrorsNameTheTool) {
  EXPECT_EQ(definition_error(ptc::gemini_function_declaration(tool("2fa", "(code :string) -> :bool"))),
            R"(tool '2fa': gemini: tool name "2fa" must match ^[a-zA-Z_][a-zA-Z0-9_.-]{0,63}$)");
  EXPECT_EQ(definition_error(ptc::openai_chat_tool(tool("store", "(data :any) -> :nil"))),
            "tool 'store': openai cannot express :any (every value needs a type) at data");
  EXPECT_EQ(definition_error(ptc::openai_responses_tool(tool("store", "(data :any) -> :nil"))),
            "tool 'store': openai cannot express :any (every value needs a type) at data");
  EXPECT_EQ(definition_error(ptc::gemini_function_declaration(tool("tag", "(tags :map) -> :nil"))),
            "tool 'tag': gemini cannot express a map with dynamic keys (:map / [:map-of K V]); use a map with "
            "named fields at tags");
}

}  // namespace
