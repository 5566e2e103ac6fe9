// MCP's wire shapes (<ptc/mcp/wire.hpp>, runtime/mcp/src/wire.cpp): tools/call params read in place and
// into a ToolCall (every error with its path), the CallToolResult written as text and as JSON (wrapped as
// the outputSchema says, attachments after the text block), and tools/list entries with their exact bytes.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <ptc/content.hpp>
#include <ptc/error.hpp>
#include <ptc/json_schema.hpp>
#include <ptc/json_text.hpp>
#include <ptc/mcp/wire.hpp>
#include <ptc/registry.hpp>
#include <ptc/session.hpp>
#include <ptc/tool.hpp>
#include <ptc/tool_catalog.hpp>
#include <ptc/tool_call.hpp>
#include <ptc/tool_context.hpp>
#include <ptc/tool_result.hpp>

namespace {

using nlohmann::json;
using ptc::OrderedJson;
using ptc::ToolCall;
using ptc::ToolOutcome;

// ---- helpers -------------------------------------------------------------------------------------

/// A call as one JSON object, so a mismatch shows every part at once.
json as_json(const ToolCall& c) { return json{{"id", c.id}, {"name", c.name}, {"arguments", c.arguments}}; }

json ok_json(const ptc::Result<ToolCall>& r) {
  if (!r) {
    ADD_FAILURE() << "unexpected error: " << r.error().message;
    return json{{"error", r.error().message}};
  }
  return as_json(*r);
}

template <class T>
std::string error_of(const ptc::Result<T>& r) {
  if (r) {
    ADD_FAILURE() << "expected an error";
    return {};
  }
  EXPECT_EQ(r.error().line, 0u);
  EXPECT_EQ(r.error().column, 0u);
  return r.error().message;
}

json call(std::string id, std::string name, json arguments) {
  return json{{"id", std::move(id)}, {"name", std::move(name)}, {"arguments", std::move(arguments)}};
}

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

ToolOutcome succeeded(json value) {
  std::string text = value.dump();
  return outcome("call_1", ptc::ToolResult<json>::ok(value), text, value);
}

// ---- tools/call params ---------------------------------------------------------------------------

TEST(ReadMcpToolCall, BorrowsTheNameAndTheArguments) {
  const json params = json::parse(R"({"name": "search", "arguments": {"query": "x"}, "_meta": {}})");
  auto read = ptc::read_mcp_tool_call(params);
  ASSERT_TRUE(read.ok()) << read.error().message;
  EXPECT_EQ(read->name, "search");
  EXPECT_EQ(read->name.data(), params["name"].get_ref<const std::string&>().data()) << "the name is not copied";
  EXPECT_EQ(read->arguments, &params["arguments"]) << "the arguments are not copied";
}

TEST(ReadMcpToolCall, LeavesWhatTheArgumentsAndAnEmptyNameMeanToTheCaller) {
  const json absent = json::parse(R"({"name": "ping"})");
  EXPECT_EQ(ptc::read_mcp_tool_call(absent)->arguments, nullptr);
  const json null = json::parse(R"({"name": "ping", "arguments": null})");
  EXPECT_EQ(ptc::read_mcp_tool_call(null)->arguments, nullptr);
  const json list = json::parse(R"({"name": "", "arguments": [1]})");
  auto read = ptc::read_mcp_tool_call(list);
  ASSERT_TRUE(read.ok()) << read.error().message;
  EXPECT_EQ(read->name, "");
  ASSERT_NE(read->arguments, nullptr);
  EXPECT_EQ(*read->arguments, json::array({1}));
}

TEST(ReadMcpToolCall, Errors) {
  struct Case {
    const char* input;
    const char* message;
  };
  const Case cases[] = {
      {R"(null)", "(root): expected an object"},
      {R"([{"name": "f"}])", "(root): expected an object"},
      {R"({"arguments": {}})", "name: missing required field"},
      {R"({"name": null})", "name: expected a string"},
      {R"({"name": 5})", "name: expected a string"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.input);
    EXPECT_EQ(error_of(ptc::read_mcp_tool_call(json::parse(c.input))), c.message);
  }
}

TEST(ParseMcpToolCall, Params) {
  auto r =
      ptc::parse_mcp_tool_call(json::parse(R"({"name": "search", "arguments": {"query": "x"}, "_meta": {}})"), "7");
  EXPECT_EQ(ok_json(r), call("7", "search", {{"query", "x"}}));
}

TEST(ParseMcpToolCall, MissingOrNullArgumentsAreTheEmptyObject) {
  EXPECT_EQ(ok_json(ptc::parse_mcp_tool_call(json::parse(R"({"name": "ping"})"))), call("", "ping", json::object()));
  EXPECT_EQ(ok_json(ptc::parse_mcp_tool_call(json::parse(R"({"name": "ping", "arguments": null})"), "1")),
            call("1", "ping", json::object()));
}

TEST(ParseMcpToolCall, Errors) {
  struct Case {
    const char* input;
    const char* message;
  };
  const Case cases[] = {
      {R"(null)", "(root): expected an object"},
      {R"({"arguments": {}})", "name: missing required field"},
      {R"({"name": ["a"]})", "name: expected a string"},
      {R"({"name": ""})", "name: must not be empty"},
      {R"({"name": "f", "arguments": "{}"})", "arguments: expected an object"},
      {R"({"name": "f", "arguments": []})", "arguments: expected an object"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.input);
    EXPECT_EQ(error_of(ptc::parse_mcp_tool_call(json::parse(c.input), "1")), c.message);
  }
}

// ---- CallToolResult ------------------------------------------------------------------------------

TEST(McpCallToolResult, InvalidArgumentsAreAnError) {
  ToolOutcome o =
      outcome("call_1", ptc::ToolResult<json>::error("Tool validation errors:\n- q: missing required field\n"),
              "Tool validation errors:\n- q: missing required field\n", std::nullopt);
  o.status = ptc::CallStatus::InvalidArguments;
  EXPECT_EQ(ptc::mcp_call_tool_result(o)["isError"], true);
  EXPECT_EQ(ptc::mcp_call_tool_result(o)["content"][0]["text"],
            "Tool validation errors:\n- q: missing required field\n");
}

TEST(McpCallToolResult, TextIsByteForByteTheDumpOfTheMessage) {
  // The text reply is written without nlohmann::json; it must be the bytes its JSON, built here
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
      ToolOutcome o = outcome("id", ok ? ptc::ToolResult<json>::ok(json(text)) : ptc::ToolResult<json>::error(text),
                              text, ok ? std::optional<json>(json(text)) : std::nullopt);
      SCOPED_TRACE(dump(json(text)));
      json mcp{{"content", json::array({json{{"type", "text"}, {"text", text}}})}, {"isError", !ok}};
      if (ok) mcp["structuredContent"] = json{{"result", text}};
      EXPECT_EQ(ptc::mcp_call_tool_result_text(o, tool("t", "() -> :string")), dump(mcp));
      if (ok) mcp["structuredContent"] = text;
      EXPECT_EQ(ptc::mcp_call_tool_result_text(o, tool("t", "() -> :string"), ptc::McpResults::Unwrapped), dump(mcp));
    }
  }
}

// The JSON form is built member by member, not parsed from the text: it must be exactly what the text
// reads back as, for every kind of outcome, invalid UTF-8 in the text or in the value included.
TEST(McpCallToolResult, TheJsonFormIsWhatTheTextReadsBackAs) {
  const std::vector<std::string> texts = {"plain", "controls \x01\n end", "caf\xc3\xa9", "bad \xff\xfe utf-8 \xc3"};
  const std::vector<std::pair<std::string, json>> values = {
      {"() -> :string", json("bad \xff")},
      {"() -> {id :int}", json{{"id", 1}}},
      {"() -> :map", json{{"k\xfe", json::array({"\xc3", 2})}}},
      {"() -> :int", json(3)},
      {"() -> {id :int}?", json(nullptr)},
  };
  for (const auto& text : texts) {
    for (const auto& [signature, value] : values) {
      for (bool ok : {true, false}) {
        ToolOutcome o = outcome("id", ok ? ptc::ToolResult<json>::ok(value) : ptc::ToolResult<json>::error(text), text,
                                ok ? std::optional<json>(value) : std::nullopt);
        o.attachments.push_back(ptc::Content::resource_text("file:///a.txt", "text/plain", "A"));
        SCOPED_TRACE(signature + " " + json(text).dump(-1, ' ', false, json::error_handler_t::replace));
        const ptc::Tool t = tool("t", signature);
        for (auto results : {ptc::McpResults::Wrapped, ptc::McpResults::Unwrapped})
          EXPECT_EQ(ptc::mcp_call_tool_result(o, t, results),
                    json::parse(ptc::mcp_call_tool_result_text(o, t, results)));
      }
    }
  }
}

TEST(Replies, McpTextCarriesAttachmentsAndAValueKeptAsText) {
  ToolOutcome o = outcome("c", ptc::ToolResult<json>::ok(json{{"id", 1}}), R"({"id":1})", std::nullopt);
  o.visible_value = ptc::LazyJson::from_text(R"({"id":1})");
  o.attachments.push_back(ptc::Content::resource_text("file:///a.txt", "text/plain", "A"));
  const json expected{
      {"content", json::array({json{{"type", "text"}, {"text", R"({"id":1})"}}, o.attachments[0].block()})},
      {"isError", false},
      {"structuredContent", json{{"id", 1}}}};
  EXPECT_EQ(ptc::mcp_call_tool_result_text(o, tool("t", "() -> {id :int}")), expected.dump());
  EXPECT_FALSE(o.visible_value->materialized());  // written from its text, never parsed
  EXPECT_EQ(ptc::mcp_call_tool_result(o, tool("t", "() -> {id :int}")), expected);
}

TEST(McpCallToolResult, ObjectValueIsStructuredContent) {
  EXPECT_EQ(ptc::mcp_call_tool_result(succeeded(json{{"id", 1}, {"title", "x"}})), json::parse(R"({
    "content": [{"type": "text", "text": "{\"id\":1,\"title\":\"x\"}"}], "isError": false,
    "structuredContent": {"id": 1, "title": "x"}})"));
}

TEST(McpCallToolResult, ScalarValueIsWrapped) {
  EXPECT_EQ(ptc::mcp_call_tool_result(succeeded(json(42))), json::parse(R"({
    "content": [{"type": "text", "text": "42"}], "isError": false, "structuredContent": {"result": 42}})"));
  EXPECT_EQ(ptc::mcp_call_tool_result(succeeded(json::array({1, 2})))["structuredContent"],
            json::parse(R"({"result": [1, 2]})"));
  EXPECT_EQ(ptc::mcp_call_tool_result(succeeded(json(nullptr)))["structuredContent"],
            json::parse(R"({"result": null})"));
}

TEST(McpCallToolResult, FailureHasNoStructuredContent) {
  // A failure that carries a payload still reports only its text.
  ToolOutcome o =
      outcome("call_1", ptc::ToolResult<json>::error("partial", json{{"done", 3}}), "partial", json{{"done", 3}});
  EXPECT_EQ(ptc::mcp_call_tool_result(o), json::parse(R"({
    "content": [{"type": "text", "text": "partial"}], "isError": true})"));
}

TEST(McpCallToolResult, ExcludedValueHasNoStructuredContent) {
  auto result = ptc::ToolResult<json>::ok(json{{"secret", 1}}, "Stored.");
  result.exclude_value_from_context = true;
  ToolOutcome o = outcome("call_1", result, "Stored.", std::nullopt);
  EXPECT_EQ(ptc::mcp_call_tool_result(o), json::parse(R"({
    "content": [{"type": "text", "text": "Stored."}], "isError": false})"));
}

TEST(McpCallToolResult, WithToolWrapsExactlyAsTheOutputSchemaDoes) {
  auto with = [](std::string_view signature, json value) {
    return ptc::mcp_call_tool_result(succeeded(std::move(value)), tool("t", signature))["structuredContent"];
  };
  EXPECT_EQ(with("() -> {id :int}", json{{"id", 1}}), json::parse(R"({"id": 1})"));
  // These results are objects, but their outputSchema is {"result": R}.
  EXPECT_EQ(with("() -> :map", json{{"a", 1}}), json::parse(R"({"result": {"a": 1}})"));
  EXPECT_EQ(with("() -> {id :int}?", json{{"id", 1}}), json::parse(R"({"result": {"id": 1}})"));
  EXPECT_EQ(with("() -> {id :int}?", json(nullptr)), json::parse(R"({"result": null})"));
  EXPECT_EQ(with("() -> :any", json{{"a", 1}}), json::parse(R"({"result": {"a": 1}})"));
  EXPECT_EQ(with("() -> :int", json(3)), json::parse(R"({"result": 3})"));
}

TEST(McpCallToolResult, WithToolAgreesWithMcpToolOutputSchema) {
  ptc::Tool t = tool("t", "() -> :map");
  auto def = ptc::mcp_tool(t);
  ASSERT_TRUE(def) << def.error().message;
  EXPECT_EQ((*def)["outputSchema"]["required"], OrderedJson::parse(R"(["result"])"));
  EXPECT_TRUE(ptc::mcp_call_tool_result(succeeded(json{{"a", 1}}), t)["structuredContent"].contains("result"));
}

TEST(McpCallToolResult, WithToolOmitsWhatCannotBeAnObject) {
  // A {...} result must be an object; a value that is not one is not sent as structured content.
  json r = ptc::mcp_call_tool_result(succeeded(json(5)), tool("t", "() -> {id :int}"));
  EXPECT_EQ(r, json::parse(R"({"content": [{"type": "text", "text": "5"}], "isError": false})"));
}

TEST(McpCallToolResult, WithToolFailureAndExclusion) {
  ptc::Tool t = tool("t", "() -> :int");
  ToolOutcome failed = outcome("c", ptc::ToolResult<json>::error("boom", json(1)), "boom", json(1));
  EXPECT_EQ(ptc::mcp_call_tool_result(failed, t),
            json::parse(R"({"content": [{"type": "text", "text": "boom"}], "isError": true})"));
  ToolOutcome excluded = outcome("c", ptc::ToolResult<json>::ok(json(1), "Done."), "Done.", std::nullopt);
  EXPECT_EQ(ptc::mcp_call_tool_result(excluded, t),
            json::parse(R"({"content": [{"type": "text", "text": "Done."}], "isError": false})"));
}

TEST(McpCallToolResult, AttachedBlocksFollowTheTextThroughDispatch) {
  ptc::ToolRegistry registry;
  registry.add(ptc::make_tool("snap", "Takes a picture.", "(ok :bool) -> :string",
                              [](const json& args, ptc::ToolContext& context) {
                                context.attach(ptc::Content::image("px", "image/png"));
                                context.attach(ptc::Content::resource_text("mem://log", "text/plain", "done"));
                                return args["ok"].get<bool>() ? ptc::ToolResult<json>::ok("a picture")
                                                              : ptc::ToolResult<json>::error("no picture");
                              }));
  ptc::Session session;
  const auto outcome = registry.dispatch(session, {"1", "snap", json{{"ok", true}}});
  ASSERT_EQ(outcome.attachments.size(), 2u);
  const auto result = ptc::mcp_call_tool_result(outcome, *registry.find("snap"));
  EXPECT_EQ(result["content"], (json::array({{{"type", "text"}, {"text", "\"a picture\""}},
                                             {{"type", "image"}, {"data", "cHg="}, {"mimeType", "image/png"}},
                                             ptc::Content::resource_text("mem://log", "text/plain", "done").block()})));
  // A failed result keeps what the handler attached: it may be what explains the failure.
  const auto failed = ptc::mcp_call_tool_result(registry.dispatch(session, {"2", "snap", json{{"ok", false}}}));
  EXPECT_EQ(failed["isError"], true);
  EXPECT_EQ(failed["content"].size(), 3u);
  // Invalid arguments never reach the handler: only the report.
  const auto invalid = ptc::mcp_call_tool_result(registry.dispatch(session, {"3", "snap", json{{"ok", "maybe"}}}));
  EXPECT_EQ(invalid["content"].size(), 1u);
}

// ---- tools/list entries --------------------------------------------------------------------------

constexpr std::string_view kSearch = "(query :string, limit :int?) -> [{id :int, title :string}]";

TEST(ToolDefinitions, McpWrapsANonObjectResult) {
  EXPECT_EQ(definition(ptc::mcp_tool(tool("search", kSearch))), j(R"({
    "name": "search", "description": "Search the catalog.",
    "inputSchema": {"type": "object",
      "properties": {"query": {"type": "string"}, "limit": {"anyOf": [{"type": "integer"}, {"type": "null"}]}},
      "required": ["query"], "additionalProperties": false},
    "outputSchema": {"type": "object",
      "properties": {"result": {"type": "array", "items": {"type": "object",
        "properties": {"id": {"type": "integer"}, "title": {"type": "string"}},
        "required": ["id", "title"], "additionalProperties": false}}},
      "required": ["result"], "additionalProperties": false},
    "annotations": {"readOnlyHint": false, "destructiveHint": true, "idempotentHint": false, "openWorldHint": true}})"));
}

TEST(ToolDefinitions, McpUnwrappedResultsKeepTheirOwnSchema) {
  // 2026-07-28 carries any JSON value as structuredContent, so the result's schema is not wrapped.
  auto unwrapped = ptc::mcp_tool(tool("search", kSearch), ptc::McpResults::Unwrapped);
  ASSERT_TRUE(unwrapped.ok());
  EXPECT_EQ((*unwrapped)["outputSchema"].dump(), j(R"({"type": "array", "items": {"type": "object",
                  "properties": {"id": {"type": "integer"}, "title": {"type": "string"}},
                  "required": ["id", "title"], "additionalProperties": false}})"));
  const auto object = tool("get", "(id :int) -> {id :int}");
  EXPECT_EQ(definition(ptc::mcp_tool(object, ptc::McpResults::Unwrapped)), definition(ptc::mcp_tool(object)));
}

// A tool with a listing (as generated tools have) is written from its texts, byte for byte as the
// same tool without one is rendered, in both result forms; a tool without one is its mcp_tool's text.
TEST(ToolDefinitions, AListingWritesTheSameBytesWithoutReadingTheSignature) {
  ptc::ToolOptions options;
  options.title = "Search \"it\"";
  options.hints = ptc::ToolHints{.read_only = true};
  for (std::string_view signature :
       {kSearch, std::string_view("(id :int) -> {id :int, title :string?}"), std::string_view("() -> :string?")}) {
    SCOPED_TRACE(std::string(signature));
    const ptc::Tool rendered = ptc::make_tool("search", "Search the catalog.", signature, {}, options);
    auto texts = ptc::render_tool_listing(rendered);
    ASSERT_TRUE(texts.ok());
    EXPECT_EQ(texts->signature, rendered.signature().render());
    const ptc::ToolListing listing{ptc::ptc_version(), texts->signature, texts->mcp_input, texts->mcp_output,
                                   texts->mcp_result};
    ptc::ToolSpec spec;
    spec.name = "search";
    spec.description = "Search the catalog.";
    spec.title = options.title;
    spec.hints = options.hints;
    spec.signature_malli = "[:=> [:catn";  // never read: the listing is all tools/list needs
    spec.listing = &listing;
    const ptc::Tool listed(spec);
    for (auto results : {ptc::McpResults::Wrapped, ptc::McpResults::Unwrapped}) {
      auto expected = ptc::mcp_tool(rendered, results);
      ASSERT_TRUE(expected.ok());
      EXPECT_EQ(ptc::mcp_tool_text(listed, results).value(), ptc::compact_text(*expected));
      EXPECT_EQ(ptc::mcp_tool_text(rendered, results).value(), ptc::compact_text(*expected));
    }
  }
}

TEST(ToolDefinitions, McpStatesEveryHintAndTheTitle) {
  auto handler = [](const json&, ptc::ToolContext&) { return ptc::ToolResult<json>::ok(1); };
  ptc::ToolOptions options;
  options.title = "Read the catalog";
  options.hints = ptc::ToolHints{.read_only = true, .idempotent = true};
  auto described = ptc::mcp_tool(ptc::make_tool("read", "Reads.", "() -> :int", handler, options));
  ASSERT_TRUE(described.ok());
  EXPECT_EQ((*described)["title"], "Read the catalog");
  EXPECT_EQ((*described)["annotations"].dump(), j(R"({"title": "Read the catalog", "readOnlyHint": true,
    "destructiveHint": false, "idempotentHint": true, "openWorldHint": false})"));
  // The title sits between the name and the description, as hosts list it.
  std::vector<std::string> keys;
  for (const auto& item : described->items()) keys.push_back(item.key());
  EXPECT_EQ(keys,
            (std::vector<std::string>{"name", "title", "description", "inputSchema", "outputSchema", "annotations"}));
}

TEST(ToolDefinitions, McpObjectResultIsItsOwnOutputSchema) {
  EXPECT_EQ(definition(ptc::mcp_tool(tool("get", "(id :int) -> {id :int}"))), j(R"({
    "name": "get", "description": "Search the catalog.",
    "inputSchema": {"type": "object", "properties": {"id": {"type": "integer"}}, "required": ["id"],
                    "additionalProperties": false},
    "outputSchema": {"type": "object", "properties": {"id": {"type": "integer"}}, "required": ["id"],
                     "additionalProperties": false},
    "annotations": {"readOnlyHint": false, "destructiveHint": true, "idempotentHint": false, "openWorldHint": true}})"));
}

TEST(ToolDefinitions, McpWrapsExactlyTheResultsMcpWrapsResultNames) {
  // One rule, read by the schema renderer and by the reply writer alike.
  for (const char* signature : {"() -> {id :int}", "() -> {id :int}?", "() -> :map", "() -> [:int]", "() -> :int",
                                "() -> :any", "() -> :nil", "() -> [:map-of :string :int]"}) {
    SCOPED_TRACE(signature);
    const ptc::Tool t = tool("t", signature);
    auto def = ptc::mcp_tool(t);
    ASSERT_TRUE(def.ok()) << def.error().message;
    const bool wrapped = (*def)["outputSchema"].contains("properties") &&
                         (*def)["outputSchema"]["properties"].contains("result") &&
                         (*def)["outputSchema"]["required"] == OrderedJson::parse(R"(["result"])");
    EXPECT_EQ(wrapped, ptc::mcp_wraps_result(t.output()));
    const json reply = ptc::mcp_call_tool_result(succeeded(json{{"id", 1}}), t);
    EXPECT_EQ(reply["structuredContent"].contains("result"), ptc::mcp_wraps_result(t.output()));
  }
}

TEST(ToolDefinitions, McpHasNoDialectKey) {
  auto def = ptc::mcp_tool(tool("search", kSearch));
  ASSERT_TRUE(def) << def.error().message;
  EXPECT_EQ(def->dump().find("$schema"), std::string::npos) << def->dump();
}

}  // namespace
