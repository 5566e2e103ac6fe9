// Resources and prompt templates in a ToolRegistry: what is refused when built, lookup by URI, and their
// readers run through dispatch (template variables decoded leniently, with path-based reports).
#include <atomic>
#include <chrono>
#include <future>
#include <thread>

#include <gtest/gtest.h>

#include <ptc/prompt_template.hpp>
#include <ptc/registry.hpp>
#include <ptc/resource.hpp>
#include <ptc/session.hpp>
#include <ptc/tool_errors.hpp>

namespace {

using Result = ptc::ToolResult<nlohmann::json>;
using nlohmann::json;

ptc::Resource issue_template() {
  return ptc::make_resource("tracker://issues/{id}", "get_issue", "One issue as JSON.",
                            "(id [:and :int [:> 0]]) -> {id :int, title :string}",
                            [](const json& args, ptc::ToolContext&) {
                              return Result::ok(json{{"id", args.at("id")}, {"title", "Crash"}});
                            });
}

std::string definition_error(const std::function<void()>& f) {
  try {
    f();
  } catch (const ptc::DefinitionError& e) {
    return e.what();
  }
  return "no error";
}

TEST(Resource, TheReadersParametersMustBeTheTemplatesVariables) {
  auto handler = [](const json&, ptc::ToolContext&) { return Result::ok("x"); };
  EXPECT_EQ(definition_error([&] { ptc::make_resource("x://{a}", "r", "d", "() -> :string", handler); }),
            "The URI template's variable 'a' is not a parameter of the reader 'r'.");
  EXPECT_EQ(definition_error([&] { ptc::make_resource("x://{a}", "r", "d", "(a :int, b :int) -> :string", handler); }),
            "The reader 'r' has the parameter 'b', which the URI template 'x://{a}' does not name.");
  EXPECT_EQ(definition_error([&] { ptc::make_resource("x://s", "r", "d", "(a :int) -> :string", handler); }),
            "The reader 'r' has the parameter 'a', which the URI 'x://s' has no variables to fill.");
  EXPECT_EQ(definition_error([&] { ptc::make_resource("x://{", "r", "d", "() -> :string", handler); }),
            "Invalid resource URI 'x://{': column 5: '{' is not closed");
  auto r = ptc::make_resource("x://{a}", "r", "Reads a.", "(a :int) -> :string", handler, {.mime_type = "text/csv"});
  EXPECT_TRUE(r.is_template());
  EXPECT_EQ(r.name(), "r");
  EXPECT_EQ(r.description(), "Reads a.");
  EXPECT_EQ(r.mime_type(), "text/csv");
}

TEST(Resource, RegistryFindsStaticResourcesBeforeTemplatesAndRefusesDuplicates) {
  ptc::ToolRegistry registry;
  registry.add_resource(issue_template());
  registry.add_resource(ptc::make_resource("tracker://issues/{+rest}", "any", "Anything.", "(rest :string) -> :string",
                                           [](const json&, ptc::ToolContext&) { return Result::ok("x"); }));
  registry.add_resource(ptc::make_resource("tracker://issues/new", "new_issue", "A blank issue.", "() -> :string",
                                           [](const json&, ptc::ToolContext&) { return Result::ok("x"); }));
  EXPECT_EQ(registry.find_resource("tracker://issues/new")->resource.name(), "new_issue");
  auto found = registry.find_resource("tracker://issues/12");
  ASSERT_TRUE(found);
  EXPECT_EQ(found->resource.name(), "get_issue");
  EXPECT_EQ(found->variables, (std::vector<std::pair<std::string, std::string>>{{"id", "12"}}));
  EXPECT_EQ(registry.find_resource("tracker://issues/a/b")->resource.name(), "any");
  EXPECT_FALSE(registry.find_resource("tracker://users/1"));
  EXPECT_EQ(definition_error([&] { registry.add_resource(issue_template()); }),
            "Duplicate resource URI registered: 'tracker://issues/{id}'.");
  EXPECT_EQ(registry.resources().size(), 3u);
}

TEST(Resource, TemplateVariablesAreDecodedLikeToolArguments) {
  ptc::ToolRegistry registry;
  registry.add_resource(issue_template());
  ptc::Session session;
  auto read = [&](std::string id) {
    auto found = registry.find_resource("tracker://issues/" + id);
    ptc::ToolCall call{"1", found->resource.reader().name(), json::object()};
    for (auto& [name, value] : found->variables) call.arguments[name] = value;
    return registry.dispatch_reader(session, found->resource.reader(), call);
  };
  auto ok = read("12");
  ASSERT_TRUE(ok.success()) << ok.rendered;
  EXPECT_EQ(**ok.visible_value, (json{{"id", 12}, {"title", "Crash"}}));  // "12" became 12
  auto bad = read("twelve");
  EXPECT_EQ(bad.status, ptc::CallStatus::InvalidArguments);
  EXPECT_NE(bad.rendered.find("id: "), std::string::npos) << bad.rendered;
  auto small = read("0");
  EXPECT_EQ(small.status, ptc::CallStatus::InvalidArguments);
  EXPECT_NE(small.rendered.find("id: "), std::string::npos) << small.rendered;
  EXPECT_EQ(session.log<ptc::ToolInvoked>().size(), 3u);  // reads are logged as calls are
}

TEST(PromptTemplate, RegistryKeepsPromptsByName) {
  ptc::ToolRegistry registry;
  auto handler = [](const json& args, ptc::ToolContext&) {
    return Result::ok("Triage " + args.at("issue").get<std::string>());
  };
  registry.add_prompt(ptc::make_prompt("triage", "Triage an issue.", "(issue :string) -> :string", handler));
  EXPECT_EQ(registry.find_prompt("triage")->description(), "Triage an issue.");
  EXPECT_FALSE(registry.find_prompt("other"));
  EXPECT_EQ(definition_error([&] {
              registry.add_prompt(ptc::make_prompt("triage", "Again.", "(issue :string) -> :string", handler));
            }),
            "Duplicate prompt name registered: 'triage'.");
}

TEST(ToolRegistry, ListenersHearEveryChangeUntilTheirHandleIsGone) {
  ptc::ToolRegistry registry;
  std::vector<ptc::ToolRegistry::Change> heard;
  auto handle = registry.on_change([&](ptc::ToolRegistry::Change c) { heard.push_back(c); });
  registry.add(ptc::make_tool("t", "A tool.", "() -> :string",
                              [](const json&, ptc::ToolContext&) { return Result::ok("x"); }));
  registry.add_resource(issue_template());
  registry.add_prompt(ptc::make_prompt("p", "A prompt.", "() -> :string",
                                       [](const json&, ptc::ToolContext&) { return Result::ok("x"); }));
  handle.reset();
  registry.add_prompt(ptc::make_prompt("q", "A prompt.", "() -> :string",
                                       [](const json&, ptc::ToolContext&) { return Result::ok("x"); }));
  using C = ptc::ToolRegistry::Change;
  EXPECT_EQ(heard, (std::vector<C>{C::Tools, C::Resources, C::Prompts}));
}

TEST(ToolRegistry, ResourceUpdatesReachTheirListenersUntilTheirHandleIsGone) {
  ptc::ToolRegistry registry;
  std::vector<std::string> first, second;
  std::vector<ptc::ToolRegistry::Change> changes;
  auto a = registry.on_resource_updated([&](const std::string& uri) { first.push_back(uri); });
  auto b = registry.on_resource_updated([&](const std::string& uri) { second.push_back(uri); });
  auto c = registry.on_change([&](ptc::ToolRegistry::Change change) { changes.push_back(change); });
  ASSERT_TRUE(a);
  ASSERT_TRUE(b);
  registry.notify_resource_updated("tracker://issues/1");  // need not be registered: the server decides
  a.reset();
  registry.notify_resource_updated("tracker://labels");
  EXPECT_EQ(first, (std::vector<std::string>{"tracker://issues/1"}));
  EXPECT_EQ(second, (std::vector<std::string>{"tracker://issues/1", "tracker://labels"}));
  EXPECT_TRUE(changes.empty());  // an update is no list change
  // A listener may drop its own handle while it is called, and a handle may outlive the registry.
  std::shared_ptr<void> self;
  int calls = 0;
  {
    ptc::ToolRegistry scoped;
    self = scoped.on_resource_updated([&](const std::string&) {
      ++calls;
      self.reset();
    });
    scoped.notify_resource_updated("x://1");
    scoped.notify_resource_updated("x://2");
    b = scoped.on_resource_updated([](const std::string&) {});
  }
  b.reset();
  EXPECT_EQ(calls, 1);
}

TEST(ToolRegistry, DroppingAHandleWaitsForItsListenerRunningOnAnotherThread) {
  // What lets an MCP server be destroyed while a program's own thread notifies: once its handle is
  // gone, its listener is not running, and never runs again.
  ptc::ToolRegistry registry;
  std::promise<void> entered, release;
  std::shared_future<void> released = release.get_future().share();
  std::atomic<int> calls{0};
  std::atomic<bool> running{false};
  auto handle = registry.on_resource_updated([&](const std::string&) {
    running = true;
    if (calls++ == 0) {
      entered.set_value();
      released.wait();
    }
    running = false;
  });
  std::thread notifier([&] { registry.notify_resource_updated("x://1"); });
  entered.get_future().wait();
  std::atomic<bool> dropped{false};
  std::thread dropper([&] {
    handle.reset();
    dropped = true;
    EXPECT_FALSE(running.load());
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  EXPECT_FALSE(dropped.load());  // still waiting for the listener
  release.set_value();
  dropper.join();
  notifier.join();
  EXPECT_TRUE(dropped.load());
  registry.notify_resource_updated("x://2");
  EXPECT_EQ(calls.load(), 1);
}

}  // namespace
