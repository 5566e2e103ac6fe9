// The fast way in for tools/call: what it reads it reads as the full parse does, and everything else
// it declines, for jsonrpc::read_parsed to answer.
#include "call_envelope.hpp"

#include <gtest/gtest.h>

#include <initializer_list>
#include <string>

#include "jsonrpc.hpp"

namespace {

using nlohmann::json;
using ptc::mcp::jsonrpc::Message;
using ptc::mcp::jsonrpc::read_parsed;
using ptc::mcp::jsonrpc::read_tool_call;

std::string call_with(const std::string& arguments, const std::string& extra = "") {
  return R"({"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"x"," ": 1,"arguments":)" + arguments +
         extra + "}}";
}

/// The fast read of `text`, checked against the full parse.
Message fast(const std::string& text) {
  auto message = read_tool_call(text);
  EXPECT_TRUE(message) << text;
  if (!message) return {};
  auto parsed = read_parsed(text);
  EXPECT_TRUE(parsed.message) << text;
  if (!parsed.message) return *message;
  EXPECT_EQ(message->id, parsed.message->id);
  EXPECT_EQ(message->id.dump(), parsed.message->id.dump());  // the same kind of number, written alike
  EXPECT_EQ(message->method, parsed.message->method);
  EXPECT_EQ(message->params, parsed.message->params);
  EXPECT_EQ(message->params.dump(), parsed.message->params.dump());
  EXPECT_EQ(message->arguments_text, parsed.message->arguments_text);
  return *message;
}

TEST(CallEnvelope, ReadsTheEnvelopeAndKeepsTheArgumentsAsText) {
  const auto m = fast(call_with(R"( {"a" : [1, {"}":"]"}], "b":"\"", "c": -0, "d": 1e2} )",
                                R"(,"_meta":{"progressToken":"p","n":[1,-2,3.5,true,null]})"));
  EXPECT_EQ(m.kind, Message::Kind::Request);
  EXPECT_EQ(m.id, json(7));
  EXPECT_EQ(m.method, "tools/call");
  EXPECT_EQ(m.arguments_text, R"({"a" : [1, {"}":"]"}], "b":"\"", "c": -0, "d": 1e2})");
  EXPECT_FALSE(m.params.contains("arguments"));
  EXPECT_EQ(m.params["name"], "x");
  EXPECT_EQ(m.params["_meta"]["n"], json::parse("[1,-2,3.5,true,null]"));
}

TEST(CallEnvelope, ReadsStringAndLargeIntegerIds) {
  EXPECT_EQ(fast(R"({"id":"a\u0062","jsonrpc":"2.0","method":"tools/call","params":{"arguments":{}}})").id, "ab");
  EXPECT_EQ(fast(R"({"id":18446744073709551615,"jsonrpc":"2.0","method":"tools/call","params":{"arguments":{}}})").id,
            json(18446744073709551615ull));
  EXPECT_EQ(fast(R"({"id":-3,"jsonrpc":"2.0","method":"tools/call","params":{"arguments":{}}})").id, json(-3));
}

TEST(CallEnvelope, DeclinesWhatTheFullParseRefusesOrReadsOtherwise) {
  for (const std::string& text : std::initializer_list<std::string>{
           call_with(R"({"a":1,"a":2})"),                      // a repeated key, deep inside
           call_with(R"({"a":{"b":1,"c":[{"d":1,"d":1}]}})"),  // deeper still
           call_with(R"({"a":1)"),                             // malformed
           call_with(R"({"a":"\ud800"})"),                     // a lone surrogate
           call_with(R"({"a":1e999})"),                        // a number out of range
           call_with(R"({"a":123456789012345678901234567890})"),
           call_with("[1]"),                   // arguments that are not an object
           call_with("{}", R"(,"name":"y")"),  // a repeated key in the envelope
           std::string(R"({"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"\u0061rguments":{}}})"),
           std::string(R"({"jsonrpc":"2.0","id":7,"method":"tools/call","params":{}})"),
           std::string(R"({"jsonrpc":"2.0","id":1.5,"method":"tools/call","params":{"arguments":{}}})"),
           std::string(R"({"jsonrpc":"2.0","method":"tools/call","params":{"arguments":{}}})"),
           std::string(R"({"jsonrpc":"1.0","id":1,"method":"tools/call","params":{"arguments":{}}})"),
           std::string(R"({"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"arguments":{}}})"),
           std::string(R"([{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"arguments":{}}}])"),
       })
    EXPECT_FALSE(read_tool_call(text)) << text;
}

TEST(CallEnvelope, DeclinesDeepNestingAndLongMessages) {
  EXPECT_FALSE(read_tool_call(call_with(std::string(300, '[') + std::string(300, ']'))));
  EXPECT_FALSE(read_tool_call(call_with(R"({"a":")" + std::string(70000, 'x') + R"("})")));
  // What it declines the full parse still reads: a long call is served as before.
  EXPECT_TRUE(read_parsed(call_with(R"({"a":")" + std::string(70000, 'x') + R"("})")).message);
}

TEST(CallEnvelope, ManyKeysAreCheckedForRepeats) {
  std::string arguments = "{";
  for (int i = 0; i < 4000; ++i) arguments += (i ? ",\"k" : "\"k") + std::to_string(i) + "\":1";
  EXPECT_TRUE(read_tool_call(call_with(arguments + "}")));
  EXPECT_FALSE(read_tool_call(call_with(arguments + ",\"k17\":2}")));
}

}  // namespace
