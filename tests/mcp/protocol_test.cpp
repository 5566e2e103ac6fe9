// The protocol without a transport: which era a message opens, what each method answers, and the
// errors of the 2026-07-28 per-request checks.
#include <chrono>

#include <gtest/gtest.h>

#include <ptc/registry.hpp>
#include <ptc/tool.hpp>

#include "protocol.hpp"
#include "protocol_fixture.hpp"

namespace {

using nlohmann::json;
using ptc::mcp::Client;
using ptc::mcp::Protocol;

void add_tools(ptc::ToolRegistry& registry) {
  for (const char* name : {"one", "two", "three"})
    registry.add(ptc::make_tool(name, "A tool.", "(n :int) -> :int", [](const json& args, ptc::ToolContext&) {
      return ptc::ToolResult<json>::ok(args["n"]);
    }));
}

using ptc_test::meta;

class ProtocolTest : public ptc_test::ProtocolFixture {
 protected:
  void SetUp() override {
    add_tools(registry);
    reset();
  }
  json request(std::string method, json params = json::object(), json id = 1) {
    return ask(json{{"jsonrpc", "2.0"}, {"id", id}, {"method", method}, {"params", params}});
  }
  void initialize(std::string version = "2025-11-25") {
    request("initialize", json{{"protocolVersion", version}, {"capabilities", json::object()}});
  }
};

TEST_F(ProtocolTest, InitializeEchoesASupportedRevision) {
  for (const char* v : {"2025-11-25", "2025-06-18", "2025-03-26"}) {
    reset();
    auto r = request("initialize", json{{"protocolVersion", v}, {"capabilities", json::object()}});
    EXPECT_EQ(r["result"]["protocolVersion"], v);
    EXPECT_EQ(r["result"]["serverInfo"], (json{{"name", "srv"}, {"version", "9.9"}}));
    EXPECT_EQ(r["result"]["capabilities"], (json{{"tools", {{"listChanged", true}}}}));
  }
}

// Generated register_tools offers the CMake project's name and version (ToolRegistry::
// offer_server_identity); a ServerInfo that names its own keeps them, an empty field is filled.
TEST_F(ProtocolTest, ServerInfoFillsOnlyItsEmptyFieldsFromTheRegistrysOffer) {
  registry.offer_server_identity("tracker", "1.2.3");
  const json hello{{"protocolVersion", "2025-11-25"}};
  reset();
  EXPECT_EQ(request("initialize", hello)["result"]["serverInfo"], (json{{"name", "srv"}, {"version", "9.9"}}));
  for (auto [info, want] :
       {std::pair{ptc::mcp::ServerInfo{}, json{{"name", "tracker"}, {"version", "1.2.3"}}},
        std::pair{ptc::mcp::ServerInfo{"mine", ""}, json{{"name", "mine"}, {"version", "1.2.3"}}}}) {
    protocol = std::make_unique<Protocol>(registry, info, options);
    client = std::make_shared<Client>(protocol->new_session());
    EXPECT_EQ(request("initialize", hello)["result"]["serverInfo"], want);
  }
}

TEST_F(ProtocolTest, InitializeOffersTheNewest2025RevisionForAnyOther) {
  for (const char* v : {"2024-11-05", "1900-01-01", "2026-07-28"}) {
    reset();
    EXPECT_EQ(request("initialize", json{{"protocolVersion", v}})["result"]["protocolVersion"], "2025-11-25") << v;
  }
}

TEST_F(ProtocolTest, DefaultInstructionsAreTheSignatures) {
  auto r = request("initialize", json{{"protocolVersion", "2025-11-25"}});
  EXPECT_EQ(r["result"]["instructions"],
            "Tools, as name(parameters) -> result:\none(n :int) -> :int\ntwo(n :int) -> :int\nthree(n :int) -> :int\n");
}

TEST_F(ProtocolTest, BeforeInitializeToolsNeedMeta) {
  auto r = request("tools/list");
  EXPECT_EQ(r["error"]["code"], -32602);
  EXPECT_EQ(r["error"]["message"],
            "Invalid params: the request has no _meta \"io.modelcontextprotocol/protocolVersion\" (protocol "
            "2026-07-28), and no initialize came before it (2025)");
  EXPECT_EQ(request("ping")["result"], json::object()) << "ping is answered at any time";
}

TEST_F(ProtocolTest, LegacyListHasNoModernFields) {
  initialize();
  auto r = request("tools/list");
  ASSERT_EQ(r["result"]["tools"].size(), 3u);
  EXPECT_EQ(r["result"]["tools"][0]["name"], "one");
  EXPECT_FALSE(r["result"].contains("resultType"));
  EXPECT_FALSE(r["result"].contains("ttlMs"));
  EXPECT_FALSE(r["result"].contains("nextCursor"));
}

TEST_F(ProtocolTest, ModernListCarriesResultTypeCachingAndServerInfo) {
  auto r = request("tools/list", json{{"_meta", meta()}});
  EXPECT_EQ(r["result"]["resultType"], "complete");
  EXPECT_EQ(r["result"]["ttlMs"], 300000);
  EXPECT_EQ(r["result"]["cacheScope"], "public");
  EXPECT_EQ(r["result"]["_meta"]["io.modelcontextprotocol/serverInfo"]["name"], "srv");
  EXPECT_EQ(r["result"]["tools"].size(), 3u);
}

TEST_F(ProtocolTest, PagesFollowTheCursor) {
  options.page_size = 2;
  reset();
  initialize();
  auto first = request("tools/list");
  ASSERT_EQ(first["result"]["tools"].size(), 2u);
  auto cursor = first["result"]["nextCursor"];
  ASSERT_TRUE(cursor.is_string());
  auto second = request("tools/list", json{{"cursor", cursor}});
  ASSERT_EQ(second["result"]["tools"].size(), 1u);
  EXPECT_EQ(second["result"]["tools"][0]["name"], "three");
  EXPECT_FALSE(second["result"].contains("nextCursor"));
  for (json bad : {json("x"), json("99"), json(1), json("-1"), json("")})
    EXPECT_EQ(request("tools/list", json{{"cursor", bad}})["error"]["code"], -32602) << bad;
}

TEST_F(ProtocolTest, DiscoverListsEveryRevision) {
  auto r = request("server/discover", json{{"_meta", meta()}});
  EXPECT_EQ(r["result"]["supportedVersions"], (json{"2026-07-28", "2025-11-25", "2025-06-18", "2025-03-26"}));
  EXPECT_EQ(r["result"]["resultType"], "complete");
  EXPECT_EQ(r["result"]["cacheScope"], "public");
}

TEST_F(ProtocolTest, DiscoverWithoutMetaSaysItIsA2026Method) {
  const std::string expected =
      "Invalid params: server/discover is a 2026-07-28 method and needs _meta "
      "\"io.modelcontextprotocol/protocolVersion\": \"2026-07-28\" (and "
      "\"io.modelcontextprotocol/clientCapabilities\")";
  auto before = request("server/discover");
  EXPECT_EQ(before["error"]["code"], -32602);
  EXPECT_EQ(before["error"]["message"], expected);
  initialize();
  auto after = request("server/discover");
  EXPECT_EQ(after["error"]["code"], -32602);
  EXPECT_EQ(after["error"]["message"], expected) << "an initialize before it changes nothing";
}

TEST_F(ProtocolTest, AnUnsupportedModernVersionIs32022WithTheSupportedList) {
  auto m = meta();
  m["io.modelcontextprotocol/protocolVersion"] = "1900-01-01";
  auto r = request("tools/list", json{{"_meta", m}}, "id-9");
  EXPECT_EQ(r["id"], "id-9");
  EXPECT_EQ(r["error"]["code"], -32022);
  EXPECT_EQ(r["error"]["message"],
            "Unsupported protocol version 1900-01-01; this server supports 2026-07-28 (in _meta, no session) and "
            "2025-11-25, 2025-06-18, 2025-03-26 (through initialize)");
  EXPECT_EQ(r["error"]["data"], (json{{"supported", {"2026-07-28", "2025-11-25", "2025-06-18", "2025-03-26"}},
                                      {"requested", "1900-01-01"}}));
}

TEST_F(ProtocolTest, A2025VersionInMetaIsRefusedWithHowToAskForIt) {
  auto m = meta();
  m["io.modelcontextprotocol/protocolVersion"] = "2025-11-25";
  auto r = request("tools/list", json{{"_meta", m}});
  EXPECT_EQ(r["error"]["code"], -32022);
  EXPECT_EQ(r["error"]["message"],
            "Unsupported protocol version 2025-11-25; this server supports 2026-07-28 (in _meta, no session) and "
            "2025-11-25, 2025-06-18, 2025-03-26 (through initialize)");
  EXPECT_EQ(r["error"]["data"]["requested"], "2025-11-25");
}

TEST_F(ProtocolTest, ModernRequestsNeedClientCapabilities) {
  auto m = meta();
  m.erase("io.modelcontextprotocol/clientCapabilities");
  EXPECT_EQ(request("tools/list", json{{"_meta", m}})["error"]["code"], -32602);
  m["io.modelcontextprotocol/protocolVersion"] = 2026;
  EXPECT_EQ(request("tools/list", json{{"_meta", m}})["error"]["code"], -32602);
}

TEST_F(ProtocolTest, PingDoesNotExistInTheModernEra) {
  EXPECT_EQ(request("ping", json{{"_meta", meta()}})["error"]["code"], -32601);
}

TEST_F(ProtocolTest, InitializeCarryingTheModernVersionIsARemovedMethod) {
  auto answer = request("initialize", json{{"protocolVersion", "2026-07-28"}, {"_meta", meta()}});
  EXPECT_EQ(answer["error"]["code"], -32601);
  EXPECT_EQ(answer["error"]["message"],
            "Method not found: initialize (2026-07-28, the version in _meta, has none); this server supports "
            "2026-07-28 (in _meta, no session) and 2025-11-25, 2025-06-18, 2025-03-26 (through initialize)");
  EXPECT_EQ(answer["error"]["data"], (json{{"supported", {"2026-07-28", "2025-11-25", "2025-06-18", "2025-03-26"}}}));
  // It started no 2025 session: a request without _meta is still refused.
  EXPECT_EQ(request("tools/list")["error"]["code"], -32602);
}

TEST_F(ProtocolTest, UnknownMethodsAre32601) {
  initialize();
  EXPECT_EQ(request("logging/setLevel")["error"]["code"], -32601);
  EXPECT_EQ(request("logging/setLevel")["error"]["message"], "Method not found: logging/setLevel");
}

TEST_F(ProtocolTest, CallsAnswerInTheirEra) {
  initialize();
  auto legacy = request("tools/call", json{{"name", "two"}, {"arguments", {{"n", 2}}}});
  EXPECT_EQ(legacy["result"]["structuredContent"], (json{{"result", 2}}));
  EXPECT_FALSE(legacy["result"].contains("resultType"));
  auto modern = request("tools/call", json{{"name", "two"}, {"arguments", {{"n", "3"}}}, {"_meta", meta()}});
  EXPECT_EQ(modern["result"]["structuredContent"], 3);  // any JSON value from 2026-07-28
  EXPECT_EQ(modern["result"]["resultType"], "complete");
  EXPECT_EQ(modern["result"]["isError"], false);
}

/// Answers with the text its text path was given, as a generated invoker would decode it.
class EchoTextInvoker final : public ptc::ToolInvoker {
 public:
  std::optional<Prepared> prepare(const ptc::ToolArguments& arguments, ptc::Mode) const override {
    return with(arguments.is_text() ? std::string(arguments.text()) : "(no text)");
  }

 private:
  static Prepared with(std::string text) {
    Prepared p;
    p.validation.ok = true;
    p.arguments = json::object();
    p.run = [text](ptc::ToolContext&) { return ptc::ToolResult<json>::ok(text); };
    return p;
  }
};

TEST_F(ProtocolTest, ACallHandsTheRequestsArgumentTextToTheTool) {
  ptc::ToolSpec spec;
  spec.name = "text";
  spec.description = "Echoes its argument text.";
  spec.signature = ptc::Signature::parse("(n :int) -> :string").value();
  spec.invoker = std::make_shared<EchoTextInvoker>();
  registry.add(ptc::Tool(spec));
  reset();
  initialize();
  auto answer = ask_text(R"({"jsonrpc":"2.0","id":5,"method":"tools/call",
                             "params":{"name":"text","arguments":{ "n" :  7 }}})");
  EXPECT_EQ(answer["result"]["structuredContent"], (json{{"result", R"({ "n" :  7 })"}}));
}

TEST_F(ProtocolTest, CallProtocolFaults) {
  initialize();
  EXPECT_EQ(request("tools/call", json{{"name", "nope"}})["error"]["message"], "Invalid params: Unknown tool: nope");
  EXPECT_EQ(request("tools/call", json{{"name", 5}})["error"]["code"], -32602);
  EXPECT_EQ(request("tools/call", json::object())["error"]["code"], -32602);
}

TEST_F(ProtocolTest, ArgumentsThatAreNotAnObjectAreAToolError) {
  initialize();
  auto r = request("tools/call", json{{"name", "one"}, {"arguments", json::array()}});
  EXPECT_EQ(r["result"]["isError"], true);
  auto missing = request("tools/call", json{{"name", "one"}});
  EXPECT_EQ(missing["result"]["isError"], true) << "n is required";
}

TEST_F(ProtocolTest, AReusedInFlightIdIsRefused) {
  initialize();
  auto read = ptc::mcp::jsonrpc::read(
      R"({"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"one","arguments":{"n":1}}})");
  auto first = protocol->handle(client, *read.message, [](const auto&) {});
  ASSERT_TRUE(first.call);
  auto second = protocol->handle(client, *read.message, [](const auto&) {});
  ASSERT_TRUE(second.response);
  EXPECT_EQ((*second.response)["error"]["code"], -32600);
  EXPECT_TRUE(first.call().has_value());
  // Once the first is done, the id may be used again.
  EXPECT_TRUE(protocol->handle(client, *read.message, [](const auto&) {}).call);
}

TEST_F(ProtocolTest, ACancelledCallGetsNoResponse) {
  initialize();
  auto read = ptc::mcp::jsonrpc::read(
      R"({"jsonrpc":"2.0","id":"c1","method":"tools/call","params":{"name":"one","arguments":{"n":1}}})");
  auto reply = protocol->handle(client, *read.message, [](const auto&) {});
  ASSERT_TRUE(reply.call);
  ask(json{{"jsonrpc", "2.0"}, {"method", "notifications/cancelled"}, {"params", {{"requestId", "c1"}}}});
  EXPECT_FALSE(reply.call().has_value());
}

TEST_F(ProtocolTest, ACallTimeoutCancelsARunningHandler) {
  registry.add(ptc::make_tool("patient", "Waits to be told to stop.", "() -> :string",
                              [](const json&, ptc::ToolContext& c) {
                                const bool stopped = c.cancellation()->wait_for(std::chrono::seconds(20));
                                return ptc::ToolResult<json>::ok(stopped ? c.cancellation()->reason() : "not stopped");
                              }));
  options.call_timeout = std::chrono::milliseconds(50);
  reset();
  initialize();
  const auto start = std::chrono::steady_clock::now();
  auto r = request("tools/call", json{{"name", "patient"}});
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(10));
  EXPECT_EQ(r["result"]["structuredContent"], (json{{"result", "timed out"}})) << r.dump();
}

TEST_F(ProtocolTest, NotificationsAndResponsesGetNothing) {
  EXPECT_EQ(ask(json{{"jsonrpc", "2.0"}, {"method", "notifications/initialized"}}), "nothing");
  EXPECT_EQ(ask(json{{"jsonrpc", "2.0"}, {"method", "notifications/whatever"}}), "nothing");
  EXPECT_EQ(ask(json{{"jsonrpc", "2.0"}, {"id", 4}, {"result", json::object()}}), "nothing");
}

}  // namespace
