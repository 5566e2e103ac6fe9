// Resources, prompts and completions without a transport: lists in both eras, reads and gets through
// dispatch (lenient variables and arguments, path-based reports), the errors each era names, completions.
#include <gtest/gtest.h>

#include <ptc/content.hpp>
#include <ptc/prompt_template.hpp>
#include <ptc/registry.hpp>
#include <ptc/resource.hpp>

#include "protocol.hpp"
#include "protocol_fixture.hpp"

namespace {

using nlohmann::json;
using ptc::mcp::Client;
using ptc::mcp::Protocol;
using Result = ptc::ToolResult<json>;

using ptc_test::meta;

void add_served(ptc::ToolRegistry& registry) {
  registry.add_resource(ptc::make_resource("tracker://labels", "labels", "The labels in use.", "() -> [:string]",
                                           [](const json&, ptc::ToolContext&) {
                                             return Result::ok({"bug", "ui"});
                                           }));
  registry.add_resource(ptc::make_resource("tracker://readme", "readme", "The readme.", "() -> :string",
                                           [](const json&, ptc::ToolContext&) { return Result::ok("# Tracker"); },
                                           {.title = "Read me", .mime_type = "text/markdown"}));
  registry.add_resource(ptc::make_resource(
      "tracker://logo", "logo", "The logo.", "() -> :string", [](const json&, ptc::ToolContext& context) {
        context.attach(ptc::Content::resource_blob("tracker://logo", "image/png", std::string("\x89PNG", 4)));
        return Result::ok("");
      }));
  ptc::ResourceOptions issue_options;
  issue_options.completers["id"] = [](const ptc::CompletionRequest& r) {
    std::vector<std::string> out;
    for (std::string id : {"1", "12", "123", "2"})
      if (id.rfind(r.value, 0) == 0) out.push_back(id);
    return out;
  };
  registry.add_resource(ptc::make_resource(
      "tracker://issues/{id}", "issue", "One issue.", "(id [:and :int [:> 0]]) -> {id :int, title :string}",
      [](const json& args, ptc::ToolContext&) {
        if (args.at("id") == 404) return Result::error("Issue 404 does not exist.");
        return Result::ok(json{{"id", args.at("id")}, {"title", "Crash"}});
      },
      issue_options));
  registry.add_prompt(ptc::make_prompt(
      "triage", "Triage an issue.", "(issue :string, urgency [:enum \"low\" \"high\"], days :int?) -> :string",
      [](const json& args, ptc::ToolContext& context) {
        context.attach(ptc::Content::resource_text("tracker://issues/1", "application/json", "{}"));
        return Result::ok("Triage " + args.at("issue").get<std::string>() + " as " +
                          args.at("urgency").get<std::string>() +
                          (args.contains("days") && !args["days"].is_null() ? " within " + args["days"].dump() : ""));
      }));
  registry.add_prompt(ptc::make_prompt(
      "dialogue", "A dialogue.", "() -> [{role :string, text :string}]", [](const json&, ptc::ToolContext&) {
        return Result::ok(json::array({json{{"role", "user"}, {"text", "Hi"}},
                                       json{{"role", "assistant"}, {"text", "Hello"}}}));
      }));
}

class ServedTest : public ptc_test::ProtocolFixture {
 protected:
  void SetUp() override {
    add_served(registry);
    reset();
  }
  /// A request of the 2025 era (after initialize), or of 2026-07-28 with `modern`.
  json request(std::string method, json params = json::object(), bool modern = false) {
    if (modern) params["_meta"] = meta();
    return ask(json{{"jsonrpc", "2.0"}, {"id", 1}, {"method", method}, {"params", params}});
  }
  void initialize() {
    request("initialize", json{{"protocolVersion", "2025-11-25"}, {"capabilities", json::object()}});
  }
};

TEST_F(ServedTest, CapabilitiesStateWhatIsServed) {
  initialize();
  auto r = request("initialize", json{{"protocolVersion", "2025-11-25"}, {"capabilities", json::object()}});
  EXPECT_TRUE(r["result"]["capabilities"].contains("resources"));
  EXPECT_TRUE(r["result"]["capabilities"].contains("prompts"));
  EXPECT_TRUE(r["result"]["capabilities"].contains("completions"));
  auto d = request("server/discover", json::object(), true);
  EXPECT_TRUE(d["result"]["capabilities"].contains("resources")) << d;
  ptc::ToolRegistry tools_only;
  Protocol plain(tools_only, {"srv", "1"}, {});
  auto c = std::make_shared<Client>(plain.new_session());
  auto read = ptc::mcp::jsonrpc::read(
      R"({"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{}}})");
  auto caps = json::parse(plain.handle(c, *read.message, {}).response->dump())["result"]["capabilities"];
  EXPECT_EQ(caps, (json{{"tools", {{"listChanged", true}}}}));
}

TEST_F(ServedTest, StaticResourcesAndTemplatesAreListedApart) {
  initialize();
  auto list = request("resources/list")["result"];
  ASSERT_EQ(list["resources"].size(), 3u) << list;
  EXPECT_EQ(list["resources"][0],
            (json{{"uri", "tracker://labels"}, {"name", "labels"}, {"description", "The labels in use."}}));
  EXPECT_EQ(list["resources"][1], (json{{"uri", "tracker://readme"},
                                        {"name", "readme"},
                                        {"title", "Read me"},
                                        {"description", "The readme."},
                                        {"mimeType", "text/markdown"}}));
  EXPECT_FALSE(list.contains("ttlMs"));
  auto templates = request("resources/templates/list")["result"];
  EXPECT_EQ(
      templates["resourceTemplates"],
      json::array({json{{"uriTemplate", "tracker://issues/{id}"}, {"name", "issue"}, {"description", "One issue."}}}));
  auto modern = request("resources/list", json::object(), true)["result"];
  EXPECT_EQ(modern["resultType"], "complete");
  EXPECT_EQ(modern["ttlMs"], 300000);
  EXPECT_EQ(modern["cacheScope"], "public");
  EXPECT_EQ(request("resources/templates/list", json::object(), true)["result"]["cacheScope"], "public");
}

TEST_F(ServedTest, ListsArePaged) {
  options.page_size = 2;
  reset();
  initialize();
  auto first = request("resources/list")["result"];
  EXPECT_EQ(first["resources"].size(), 2u);
  auto second = request("resources/list", json{{"cursor", first["nextCursor"]}})["result"];
  EXPECT_EQ(second["resources"].size(), 1u);
  EXPECT_FALSE(second.contains("nextCursor"));
  EXPECT_EQ(request("prompts/list", json{{"cursor", "9"}})["error"]["code"], -32602);
}

TEST_F(ServedTest, ReadingGivesTextJsonOrTheAttachedBlobs) {
  initialize();
  EXPECT_EQ(
      request("resources/read", json{{"uri", "tracker://readme"}})["result"],
      (json{{"contents",
             json::array({json{{"uri", "tracker://readme"}, {"mimeType", "text/markdown"}, {"text", "# Tracker"}}})}}));
  EXPECT_EQ(request("resources/read", json{{"uri", "tracker://labels"}})["result"]["contents"][0],
            (json{{"uri", "tracker://labels"}, {"mimeType", "application/json"}, {"text", R"(["bug","ui"])"}}));
  EXPECT_EQ(request("resources/read", json{{"uri", "tracker://logo"}})["result"]["contents"],
            json::array({json{{"uri", "tracker://logo"}, {"mimeType", "image/png"}, {"blob", "iVBORw=="}}}));
  auto modern = request("resources/read", json{{"uri", "tracker://labels"}}, true)["result"];
  EXPECT_EQ(modern["resultType"], "complete");
  EXPECT_EQ(modern["ttlMs"], 300000);
  EXPECT_TRUE(modern["_meta"].contains("io.modelcontextprotocol/serverInfo"));
}

TEST_F(ServedTest, TemplateVariablesAreDecodedAndReportedWithPaths) {
  initialize();
  EXPECT_EQ(request("resources/read", json{{"uri", "tracker://issues/12"}})["result"]["contents"][0]["text"],
            R"({"id":12,"title":"Crash"})");
  auto bad = request("resources/read", json{{"uri", "tracker://issues/zero"}});
  EXPECT_EQ(bad["error"]["code"], -32602);
  EXPECT_EQ(bad["error"]["message"], "Invalid params: Tool validation errors:\n- id: expected int, got string \"zero\"")
      << bad;
  auto small = request("resources/read", json{{"uri", "tracker://issues/0"}});
  EXPECT_EQ(small["error"]["code"], -32602);
  EXPECT_NE(small["error"]["message"].get<std::string>().find("- id: "), std::string::npos) << small;
}

TEST_F(ServedTest, AMissingResourceIsNamedAsEachEraSays) {
  initialize();
  auto legacy = request("resources/read", json{{"uri", "tracker://nothing"}});
  EXPECT_EQ(legacy["error"], (json{{"code", -32002},
                                   {"message", "Resource not found: tracker://nothing"},
                                   {"data", {{"uri", "tracker://nothing"}}}}));
  auto modern = request("resources/read", json{{"uri", "tracker://nothing"}}, true);
  EXPECT_EQ(modern["error"]["code"], -32602);
  EXPECT_EQ(modern["error"]["data"], (json{{"uri", "tracker://nothing"}}));
  // A reader that says the thing is not there is a missing resource too, in its own words.
  auto gone = request("resources/read", json{{"uri", "tracker://issues/404"}});
  EXPECT_EQ(
      gone["error"],
      (json{{"code", -32002}, {"message", "Issue 404 does not exist."}, {"data", {{"uri", "tracker://issues/404"}}}}));
  EXPECT_EQ(request("resources/read", json{{"uri", 5}})["error"]["message"],
            "Invalid params: \"uri\" must be a string");
}

TEST_F(ServedTest, PromptsListTheirArguments) {
  initialize();
  auto list = request("prompts/list")["result"]["prompts"];
  ASSERT_EQ(list.size(), 2u);
  EXPECT_EQ(list[0], (json{{"name", "triage"},
                           {"description", "Triage an issue."},
                           {"arguments", json::array({json{{"name", "issue"}, {"required", true}},
                                                      json{{"name", "urgency"}, {"required", true}},
                                                      json{{"name", "days"}, {"required", false}}})}}));
  EXPECT_EQ(request("prompts/list", json::object(), true)["result"]["cacheScope"], "public");
}

TEST_F(ServedTest, GettingAPromptRendersItsMessages) {
  initialize();
  auto r = request("prompts/get",
                   json{{"name", "triage"}, {"arguments", {{"issue", "PTC-1"}, {"urgency", "high"}, {"days", "3"}}}});
  EXPECT_EQ(
      r["result"],
      (json{{"description", "Triage an issue."},
            {"messages",
             json::array({json{{"role", "user"},
                               {"content",
                                {{"type", "resource"},
                                 {"resource",
                                  {{"uri", "tracker://issues/1"}, {"mimeType", "application/json"}, {"text", "{}"}}}}}},
                          json{{"role", "user"},
                               {"content", {{"type", "text"}, {"text", "Triage PTC-1 as high within 3"}}}}})}}))
      << r;
  auto dialogue = request("prompts/get", json{{"name", "dialogue"}}, true)["result"];
  EXPECT_EQ(dialogue["messages"][1], (json{{"role", "assistant"}, {"content", {{"type", "text"}, {"text", "Hello"}}}}));
  EXPECT_EQ(dialogue["resultType"], "complete");
}

TEST_F(ServedTest, PromptArgumentErrors) {
  initialize();
  auto missing = request("prompts/get", json{{"name", "triage"}, {"arguments", {{"urgency", "soon"}}}});
  EXPECT_EQ(missing["error"]["code"], -32602);
  EXPECT_EQ(missing["error"]["message"],
            "Invalid params: Tool validation errors:\n- issue: missing required field\n- urgency: expected one of "
            "[\"low\", \"high\"], got \"soon\"")
      << missing;
  EXPECT_EQ(request("prompts/get", json{{"name", "nope"}})["error"]["message"], "Invalid params: Unknown prompt: nope");
  EXPECT_EQ(request("prompts/get", json::object())["error"]["message"], "Invalid params: \"name\" must be a string");
}

TEST_F(ServedTest, CompletionsComeFromEnumsAndCompleters) {
  initialize();
  auto ref_prompt = json{{"type", "ref/prompt"}, {"name", "triage"}};
  auto r =
      request("completion/complete", json{{"ref", ref_prompt}, {"argument", {{"name", "urgency"}, {"value", "h"}}}});
  EXPECT_EQ(r["result"], (json{{"completion", {{"values", {"high"}}, {"total", 1}, {"hasMore", false}}}}));
  auto ref_resource = json{{"type", "ref/resource"}, {"uri", "tracker://issues/{id}"}};
  r = request("completion/complete", json{{"ref", ref_resource}, {"argument", {{"name", "id"}, {"value", "1"}}}}, true);
  EXPECT_EQ(r["result"]["completion"]["values"], (json{"1", "12", "123"}));
  EXPECT_EQ(r["result"]["resultType"], "complete");
  EXPECT_EQ(request("completion/complete",
                    json{{"ref", ref_prompt}, {"argument", {{"name", "x"}, {"value", ""}}}})["error"]["message"],
            "Invalid params: prompt 'triage' has no argument 'x'");
  EXPECT_EQ(request("completion/complete",
                    json{{"ref", {{"type", "ref/other"}}}, {"argument", {{"name", "x"}}}})["error"]["code"],
            -32602);
}

TEST_F(ServedTest, BeforeInitializeServedMethodsNeedAnEra) {
  auto r = request("resources/list");
  EXPECT_EQ(r["error"]["code"], -32602);
  EXPECT_EQ(request("resources/subscribe", json{{"uri", "tracker://labels"}})["error"]["code"], -32602);
  EXPECT_EQ(request("no/such")["error"]["code"], -32601);
}

TEST_F(ServedTest, LegacyClientsSubscribeToResourcesThatExist) {
  initialize();
  EXPECT_EQ(request("resources/subscribe", json{{"uri", "tracker://issues/7"}})["result"], json::object());
  EXPECT_TRUE(client->subscribed("tracker://issues/7"));
  EXPECT_EQ(request("resources/subscribe", json{{"uri", "tracker://none"}})["error"]["code"], -32002);
  EXPECT_EQ(request("resources/unsubscribe", json{{"uri", "tracker://issues/7"}})["result"], json::object());
  EXPECT_FALSE(client->subscribed("tracker://issues/7"));
  // 2026-07-28 has subscriptions/listen instead.
  EXPECT_EQ(request("resources/subscribe", json{{"uri", "tracker://labels"}}, true)["error"]["code"], -32601);
  EXPECT_EQ(request("initialize", json{{"protocolVersion", "2025-11-25"},
                                       {"capabilities", json::object()}})["result"]["capabilities"],
            (json{{"tools", {{"listChanged", true}}},
                  {"resources", {{"subscribe", true}, {"listChanged", true}}},
                  {"prompts", {{"listChanged", true}}},
                  {"completions", json::object()}}));
}

TEST_F(ServedTest, ListenStreamsHearWhatTheyAskedFor) {
  std::vector<json> heard;
  const json filter{{"toolsListChanged", true}, {"resourceSubscriptions", {"tracker://labels"}}};
  const json listen{{"jsonrpc", "2.0"},
                    {"id", "L1"},
                    {"method", "subscriptions/listen"},
                    {"params", {{"_meta", meta()}, {"notifications", filter}}}};
  auto read = ptc::mcp::jsonrpc::read(listen.dump());
  auto reply = protocol->handle(client, *read.message, [&](const auto& m) { heard.push_back(json::parse(m.dump())); });
  ASSERT_TRUE(reply.subscription);
  EXPECT_FALSE(reply.response);
  ASSERT_EQ(heard.size(), 1u);
  EXPECT_EQ(heard[0],
            (json{{"jsonrpc", "2.0"},
                  {"method", "notifications/subscriptions/acknowledged"},
                  {"params",
                   {{"notifications", {{"toolsListChanged", true}, {"resourceSubscriptions", {"tracker://labels"}}}},
                    {"_meta", {{"io.modelcontextprotocol/subscriptionId", "L1"}}}}}}));
  registry.add(ptc::make_tool("late", "Added later.", "() -> :string",
                              [](const json&, ptc::ToolContext&) { return Result::ok("x"); }));
  registry.add_prompt(ptc::make_prompt("later", "Not asked for.", "() -> :string",
                                       [](const json&, ptc::ToolContext&) { return Result::ok("x"); }));
  protocol->resource_updated("tracker://labels");
  protocol->resource_updated("tracker://readme");  // not asked for
  ASSERT_EQ(heard.size(), 3u) << json(heard);
  EXPECT_EQ(heard[1]["method"], "notifications/tools/list_changed");
  EXPECT_EQ(heard[1]["params"]["_meta"]["io.modelcontextprotocol/subscriptionId"], "L1");
  EXPECT_EQ(heard[2]["method"], "notifications/resources/updated");
  EXPECT_EQ(heard[2]["params"]["uri"], "tracker://labels");
  reply.subscription.reset();  // the client went away
  protocol->resource_updated("tracker://labels");
  EXPECT_EQ(heard.size(), 3u);
}

TEST_F(ServedTest, A2025ClientHearsListChangesAndItsSubscriptionsOnItsPushChannel) {
  std::vector<json> heard;
  auto push = protocol->open_push(client, [&](const auto& m) { heard.push_back(json::parse(m.dump())); });
  registry.add(ptc::make_tool("early", "Before initialize.", "() -> :string",
                              [](const json&, ptc::ToolContext&) { return Result::ok("x"); }));
  EXPECT_TRUE(heard.empty());  // no era chosen yet: a 2026 client asked for nothing
  initialize();
  registry.add_resource(ptc::make_resource("tracker://new", "fresh", "New.", "() -> :string",
                                           [](const json&, ptc::ToolContext&) { return Result::ok("x"); }));
  protocol->resource_updated("tracker://labels");  // not subscribed
  request("resources/subscribe", json{{"uri", "tracker://labels"}});
  protocol->resource_updated("tracker://labels");
  ASSERT_EQ(heard.size(), 2u) << json(heard);
  EXPECT_EQ(heard[0],
            (json{{"jsonrpc", "2.0"}, {"method", "notifications/resources/list_changed"}, {"params", json::object()}}));
  EXPECT_EQ(heard[1], (json{{"jsonrpc", "2.0"},
                            {"method", "notifications/resources/updated"},
                            {"params", {{"uri", "tracker://labels"}}}}));
}

TEST_F(ServedTest, TheRegistrysResourceUpdatesReachSubscribedClientsOfBothEras) {
  // A program served by cli::run has no Server to call: it tells the registry, which tells the server.
  std::vector<json> pushed, listened;
  auto push = protocol->open_push(client, [&](const auto& m) { pushed.push_back(json::parse(m.dump())); });
  initialize();
  request("resources/subscribe", json{{"uri", "tracker://labels"}});
  const json listen{
      {"jsonrpc", "2.0"},
      {"id", 7},
      {"method", "subscriptions/listen"},
      {"params", {{"_meta", meta()}, {"notifications", {{"resourceSubscriptions", {"tracker://readme"}}}}}}};
  auto read = ptc::mcp::jsonrpc::read(listen.dump());
  auto modern = std::make_shared<Client>(protocol->new_session());
  auto reply =
      protocol->handle(modern, *read.message, [&](const auto& m) { listened.push_back(json::parse(m.dump())); });
  ASSERT_TRUE(reply.subscription);
  registry.notify_resource_updated("tracker://labels");
  registry.notify_resource_updated("tracker://readme");
  registry.notify_resource_updated("tracker://logo");  // nobody subscribed
  const json labels{
      {"jsonrpc", "2.0"}, {"method", "notifications/resources/updated"}, {"params", {{"uri", "tracker://labels"}}}};
  EXPECT_EQ(pushed, std::vector<json>{labels});
  ASSERT_EQ(listened.size(), 2u) << json(listened);  // the acknowledgement, then the update
  EXPECT_EQ(
      listened[1],
      (json{{"jsonrpc", "2.0"},
            {"method", "notifications/resources/updated"},
            {"params", {{"uri", "tracker://readme"}, {"_meta", {{"io.modelcontextprotocol/subscriptionId", 7}}}}}}));
  protocol.reset();  // a registry outlives its servers, which stop listening to it
  registry.notify_resource_updated("tracker://labels");
  EXPECT_EQ(pushed.size(), 1u);
}

TEST_F(ServedTest, ListenNeedsAFilter) {
  auto r = request("subscriptions/listen", json::object(), true);
  EXPECT_EQ(r["error"]["message"],
            "Invalid params: \"notifications\" must be an object (the notifications to listen for)");
}

}  // namespace
