// The JSON-RPC reader: what a message is, and the exact error each malformed one gets.
#include <gtest/gtest.h>

#include "jsonrpc.hpp"

namespace {

using ptc::mcp::jsonrpc::Message;
using ptc::mcp::jsonrpc::read;
using nlohmann::json;

json refusal(std::string_view text) {
  auto r = read(text);
  EXPECT_FALSE(r.message.has_value()) << text;
  return r.refusal ? json::parse(r.refusal->response.dump()) : json();
}

TEST(JsonRpcRead, ARequestKeepsItsIdExactly) {
  auto r = read(R"({"jsonrpc":"2.0","id":7,"method":"tools/list"})");
  ASSERT_TRUE(r.message);
  EXPECT_EQ(r.message->kind, Message::Kind::Request);
  EXPECT_EQ(r.message->id, json(7));
  EXPECT_EQ(r.message->method, "tools/list");
  EXPECT_EQ(r.message->params, json::object());
  auto s = read(R"({"jsonrpc":"2.0","id":"7","method":"ping","params":{"a":1}})");
  ASSERT_TRUE(s.message);
  EXPECT_EQ(s.message->id, json("7"));
  EXPECT_EQ(s.message->params, (json{{"a", 1}}));
}

TEST(JsonRpcRead, NoIdIsANotification) {
  auto r = read(R"({"jsonrpc":"2.0","method":"notifications/initialized"})");
  ASSERT_TRUE(r.message);
  EXPECT_EQ(r.message->kind, Message::Kind::Notification);
}

TEST(JsonRpcRead, AResultWithoutMethodIsAResponse) {
  auto r = read(R"({"jsonrpc":"2.0","id":1,"result":{}})");
  ASSERT_TRUE(r.message);
  EXPECT_EQ(r.message->kind, Message::Kind::Response);
}

TEST(JsonRpcRead, MalformedJsonIsAParseErrorWithIdNull) {
  auto e = refusal("{\"jsonrpc\":");
  EXPECT_EQ(e["id"], json());
  EXPECT_EQ(e["error"]["code"], -32700);
  EXPECT_EQ(e["error"]["message"].get<std::string>().rfind("Parse error: ", 0), 0u);
}

TEST(JsonRpcRead, ABatchIsRefused) {
  auto e = refusal(R"([{"jsonrpc":"2.0","id":1,"method":"ping"}])");
  EXPECT_EQ(e["error"]["code"], -32600);
  EXPECT_EQ(e["error"]["message"], "Invalid Request: batches are not supported");
}

TEST(JsonRpcRead, ShapesThatAreNotMessages) {
  EXPECT_EQ(refusal("42")["error"]["code"], -32600);
  EXPECT_EQ(refusal(R"({"id":1,"method":"ping"})")["error"]["message"], "Invalid Request: \"jsonrpc\" must be \"2.0\"");
  EXPECT_EQ(refusal(R"({"id":1,"method":"ping"})")["id"], json(1));
  EXPECT_EQ(refusal(R"({"jsonrpc":"2.0","id":1})")["error"]["message"], "Invalid Request: no \"method\"");
  EXPECT_EQ(refusal(R"({"jsonrpc":"2.0","id":1,"method":5})")["error"]["message"],
            "Invalid Request: \"method\" must be a string");
}

TEST(JsonRpcRead, IdsMustBeStringsOrIntegers) {
  for (const char* id : {"null", "1.5", "true", "[1]", "{}"}) {
    auto e = refusal(std::string(R"({"jsonrpc":"2.0","method":"ping","id":)") + id + "}");
    EXPECT_EQ(e["error"]["code"], -32600) << id;
    EXPECT_EQ(e["id"], json()) << id;
  }
}

TEST(JsonRpcRead, ParamsMustBeAnObject) {
  auto e = refusal(R"({"jsonrpc":"2.0","id":3,"method":"tools/call","params":[1]})");
  EXPECT_EQ(e["error"]["code"], -32602);
  EXPECT_EQ(e["id"], json(3));
}

TEST(JsonRpcRead, RepeatedKeysAndDeepNestingAreRefused) {
  EXPECT_EQ(refusal(R"({"jsonrpc":"2.0","id":1,"id":2,"method":"ping"})")["error"]["code"], -32700);
  std::string deep(100000, '[');
  EXPECT_EQ(refusal(deep)["error"]["code"], -32700);
}

TEST(JsonRpcRead, ACallKeepsTheTextOfItsArguments) {
  auto r = read(R"({"jsonrpc":"2.0","id":1,"method":"tools/call",)"
                R"("params":{"name":"x","_meta":{"arguments":[1]},"arguments": {"a" : [1, {"}":"]"}], "b":"\""} }})");
  ASSERT_TRUE(r.message);
  EXPECT_EQ(r.message->arguments_text, R"({"a" : [1, {"}":"]"}], "b":"\""})");
  EXPECT_FALSE(r.message->params.contains("arguments"));  // one form: the text
  EXPECT_EQ(r.message->params["_meta"], json::parse(R"({"arguments":[1]})"));
  // Not an object, or not a call: no text.
  EXPECT_EQ(
      read(R"({"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"arguments":[1]}})").message->arguments_text, "");
  EXPECT_EQ(read(R"({"jsonrpc":"2.0","id":1,"method":"ping","params":{"arguments":{}}})").message->arguments_text, "");
}

TEST(JsonRpcMemberText, FindsValuesByPathAndNothingElse) {
  using ptc::mcp::jsonrpc::member_text;
  const std::string_view text = R"( { "a" : {"b": 12 , "c":"x,}"}, "d":[{"b":1}], "e" : true } )";
  EXPECT_EQ(member_text(text, {"a", "b"}), "12");
  EXPECT_EQ(member_text(text, {"a", "c"}), R"("x,}")");
  EXPECT_EQ(member_text(text, {"e"}), "true");
  EXPECT_EQ(member_text(text, {"d"}), R"([{"b":1}])");
  EXPECT_EQ(member_text(text, {"d", "b"}), std::nullopt);          // not an object
  EXPECT_EQ(member_text(text, {"b"}), std::nullopt);               // only a nested one
  EXPECT_EQ(member_text(R"({"\u0061":1})", {"a"}), std::nullopt);  // escaped: left to the parsed value
  EXPECT_EQ(member_text("[1]", {"a"}), std::nullopt);
  EXPECT_EQ(member_text("{}", {"a"}), std::nullopt);
}

TEST(JsonRpcLine, HasNoNewlineAndSurvivesInvalidUtf8) {
  auto m = ptc::mcp::jsonrpc::result(json(1), ptc::mcp::jsonrpc::Json{{"text", "a\nb\xff"}});
  const auto line = ptc::mcp::jsonrpc::line(m);
  EXPECT_EQ(line.find('\n'), std::string::npos);
  EXPECT_NE(line.find("\\n"), std::string::npos);
}

TEST(JsonRpcIdKey, TellsIntegerAndStringIdsApart) {
  EXPECT_NE(ptc::mcp::jsonrpc::id_key(json(1)), ptc::mcp::jsonrpc::id_key(json("1")));
}

}  // namespace
