// Resources and prompt templates in a ToolRegistry: what is refused when built, lookup by URI, and their
// readers run through dispatch (template variables decoded leniently, with path-based reports).
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

}  // namespace
