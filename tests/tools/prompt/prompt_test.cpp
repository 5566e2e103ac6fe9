#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include <ptc/policy.hpp>
#include <ptc/prompt.hpp>
#include <ptc/registry.hpp>
#include <ptc/session.hpp>
#include <ptc/tool_call.hpp>
#include <ptc/tool_context.hpp>
#include <ptc/tool_errors.hpp>

#include "named_policy.hpp"

namespace {

using nlohmann::json;
using Path = std::vector<std::string>;

using ptc::test::NamedPolicy;

ptc::Tool tool(std::string name, std::string description = "Does a thing.",
               std::string_view signature = "(q :string) -> :string", std::vector<ptc::ToolExample> examples = {}) {
  return ptc::make_tool(std::move(name), std::move(description), signature, {},
                        ptc::ToolOptions{.examples = std::move(examples)});
}

struct S {
  std::string key;
  std::string title;
  std::string template_text;
  std::string params = "()";
  std::vector<ptc::Tool> tools = {};
  std::vector<std::shared_ptr<const ptc::ToolPolicy>> policies = {};
  std::vector<ptc::Section> children = {};
  bool enabled = true;
};

ptc::Section section(S s) {
  return ptc::Section(ptc::SectionSpec{std::move(s.title), std::move(s.key), std::move(s.template_text),
                                       std::move(s.params), std::move(s.tools), std::move(s.policies),
                                       std::move(s.children), s.enabled});
}

std::string render(std::vector<ptc::Section> sections, const json& params = json::object()) {
  return ptc::Prompt("p", std::move(sections)).render(params).text();
}

template <class F>
ptc::DefinitionError refusal(F&& f) {
  try {
    f();
  } catch (const ptc::DefinitionError& e) {
    return e;
  }
  ADD_FAILURE() << "no DefinitionError";
  return ptc::DefinitionError("(accepted)");
}

template <class F>
void expect_refusal(F&& f, const std::string& message, const Path& path, const std::string& field) {
  auto e = refusal(std::forward<F>(f));
  EXPECT_EQ(e.message(), message);
  EXPECT_EQ(e.section_path(), path);
  EXPECT_EQ(e.field(), field);
}

std::vector<std::string> names(const std::vector<ptc::Tool>& tools) {
  std::vector<std::string> out;
  for (const auto& t : tools) out.push_back(t.name());
  return out;
}

std::vector<std::string> names(const std::vector<std::shared_ptr<const ptc::ToolPolicy>>& policies) {
  std::vector<std::string> out;
  for (const auto& p : policies) out.emplace_back(p->name());
  return out;
}

const auto kOuter = std::make_shared<NamedPolicy>("outer");
const auto kInner = std::make_shared<NamedPolicy>("inner");
const auto kRole = std::make_shared<NamedPolicy>("role");

// A support prompt: a role section, a tools section with an enabled and a disabled child, and a
// closing section with no body.
ptc::Prompt support_prompt() {
  auto search =
      tool("search", "Search the knowledge base.", "(query :string, limit :int) -> [{id :int, title :string}]",
           {{"Find refund articles", json::parse(R"({"query": "refund", "limit": 2})"),
             json::parse(R"([{"title": "Refunds", "id": 7}])")}});
  return ptc::Prompt("support", {section({"role",
                                          "Role",
                                          "You are a support agent for {{company}}.\nAnswer in {{language}}.",
                                          "(company :string, language :string)",
                                          {},
                                          {kRole}}),
                                 section({"tools",
                                          "Using tools",
                                          "Look things up before you answer.",
                                          "()",
                                          {search, tool("get_user", "Fetch a user by ID.",
                                                        "(id :int) -> {name :string, email :string?}")},
                                          {kOuter},
                                          {section({"search-tips",
                                                    "Search tips",
                                                    "Search at most {{limit}} times.",
                                                    "(limit :int)",
                                                    {tool("fetch", "Fetch an article.", "(id :int) -> {body :string}")},
                                                    {kInner}}),
                                           section({"escalation",
                                                    "Escalation",
                                                    "Escalate when {{reason}}.",
                                                    "(reason :string)",
                                                    {tool("escalate")},
                                                    {},
                                                    {},
                                                    false})}}),
                                 section({"closing", "Closing", ""})});
}

const json kSupportParams = json::parse(R"({"company": "Acme", "language": "English", "limit": "3"})");

TEST(PromptRender, SupportPromptExactly) {
  EXPECT_EQ(support_prompt().render(kSupportParams).text(),
            "## 1. Role\n"
            "\n"
            "You are a support agent for Acme.\n"
            "Answer in English.\n"
            "\n"
            "## 2. Using tools\n"
            "\n"
            "Look things up before you answer.\n"
            "\n"
            "### 2.1. Search tips\n"
            "\n"
            "Search at most 3 times.\n"
            "\n"
            "## 3. Closing\n"
            "\n"
            "## Tools you can call\n"
            "\n"
            "search(query :string, limit :int) -> [{id :int, title :string}]\n"
            "  Search the knowledge base.\n"
            "  Example: Find refund articles\n"
            "    input: {\"limit\":2,\"query\":\"refund\"}\n"
            "    output: [{\"id\":7,\"title\":\"Refunds\"}]\n"
            "\n"
            "get_user(id :int) -> {name :string, email :string?}\n"
            "  Fetch a user by ID.\n"
            "\n"
            "fetch(id :int) -> {body :string}\n"
            "  Fetch an article.\n");
}

TEST(PromptRender, RenderingIsDeterministic) {
  auto prompt = support_prompt();
  EXPECT_EQ(prompt.render(kSupportParams).text(), prompt.render(kSupportParams).text());
  EXPECT_EQ(prompt.render(kSupportParams).text(), support_prompt().render(kSupportParams).text());
}

TEST(PromptRender, OfferedToolsInDeclarationOrderDepthFirst) {
  auto rendered = support_prompt().render(kSupportParams);
  EXPECT_EQ(names(rendered.tools()), (std::vector<std::string>{"search", "get_user", "fetch"}));
}

TEST(PromptRender, PoliciesOfTheSectionAndItsAncestorsOutermostFirst) {
  auto rendered = support_prompt().render(kSupportParams);
  EXPECT_EQ(names(rendered.policies_for("fetch")), (std::vector<std::string>{"outer", "inner"}));
  EXPECT_EQ(names(rendered.policies_for("search")), std::vector<std::string>{"outer"});
  EXPECT_EQ(names(rendered.policies_for("get_user")), std::vector<std::string>{"outer"});
}

TEST(PromptRender, NoPoliciesForToolsNotOffered) {
  auto rendered = support_prompt().render(kSupportParams);
  EXPECT_TRUE(rendered.policies_for("escalate").empty());  // in a disabled section
  EXPECT_TRUE(rendered.policies_for("nope").empty());
  EXPECT_TRUE(rendered.policies_for("").empty());
}

TEST(PromptRender, SiblingPoliciesDoNotLeak) {
  auto prompt = ptc::Prompt("p", {section({"a",
                                           "A",
                                           "",
                                           "()",
                                           {tool("one")},
                                           {kOuter},
                                           {section({"b", "B", "", "()", {tool("two")}, {kInner}}),
                                            section({"c", "C", "", "()", {tool("three")}})}}),
                                  section({"d", "D", "", "()", {tool("four")}, {kRole}})});
  auto rendered = prompt.render();
  EXPECT_EQ(names(rendered.policies_for("one")), std::vector<std::string>{"outer"});
  EXPECT_EQ(names(rendered.policies_for("two")), (std::vector<std::string>{"outer", "inner"}));
  EXPECT_EQ(names(rendered.policies_for("three")), std::vector<std::string>{"outer"});
  EXPECT_EQ(names(rendered.policies_for("four")), std::vector<std::string>{"role"});
}

TEST(PromptRender, NumberingSkipsDisabledSections) {
  EXPECT_EQ(render({section({"a", "A", "First."}), section({"b", "B", "Hidden.", "()", {}, {}, {}, false}),
                    section({"c", "C", "Third."})}),
            "## 1. A\n\nFirst.\n\n## 2. C\n\nThird.\n");
}

TEST(PromptRender, NumberingOfChildrenSkipsDisabledChildren) {
  EXPECT_EQ(render({section({"a",
                             "A",
                             "",
                             "()",
                             {},
                             {},
                             {section({"x", "X", "", "()", {}, {}, {}, false}), section({"y", "Y", ""}),
                              section({"z", "Z", "", "()", {}, {}, {section({"deep", "Deep", "Deepest."})}})}})}),
            "## 1. A\n\n### 1.1. Y\n\n### 1.2. Z\n\n#### 1.2.1. Deep\n\nDeepest.\n");
}

TEST(PromptRender, DisabledSectionHidesItsChildrenAndTheirTools) {
  auto prompt = ptc::Prompt("p", {section({"off",
                                           "Off",
                                           "Hidden.",
                                           "()",
                                           {tool("hidden")},
                                           {kOuter},
                                           {section({"child", "Child", "Also hidden.", "()", {tool("also_hidden")}})},
                                           false}),
                                  section({"on", "On", "Shown."})});
  auto rendered = prompt.render();
  EXPECT_EQ(rendered.text(), "## 1. On\n\nShown.\n");
  EXPECT_TRUE(rendered.tools().empty());
  EXPECT_TRUE(rendered.policies_for("also_hidden").empty());
}

TEST(PromptRender, EmptyTemplateRendersJustTheHeading) {
  EXPECT_EQ(render({section({"a", "A", ""}), section({"b", "B", "Body."})}), "## 1. A\n\n## 2. B\n\nBody.\n");
}

TEST(PromptRender, ToolListFollowsTheSectionsAfterABlankLine) {
  EXPECT_EQ(render({section({"a", "A", "Body.", "()", {tool("t", "Tool.", ":int")}})}),
            "## 1. A\n\nBody.\n\n## Tools you can call\n\nt() -> :int\n  Tool.\n");
}

TEST(PromptRender, NoToolsNoToolList) {
  EXPECT_EQ(render({section({"a", "A", "Body."})}).find("Tools you can call"), std::string::npos);
}

TEST(PromptRender, TextEndsWithExactlyOneNewline) {
  EXPECT_EQ(render({section({"a", "A", "\n\nBody.\n\n\n"}), section({"b", "B", "  indented\n"})}),
            "## 1. A\n\nBody.\n\n## 2. B\n\n  indented\n");
}

TEST(PromptRender, EmptyPromptRendersNothing) {
  EXPECT_EQ(render({}), "");
  EXPECT_EQ(render({section({"a", "A", "x", "()", {tool("t")}, {}, {}, false})}), "");
}

TEST(PromptRender, StringsAreSubstitutedRaw) {
  EXPECT_EQ(render({section({"a", "A", "Hi {{name}}!", "(name :string)"})}, {{"name", "Ann \"Q\" O'Neil\n2"}}),
            "## 1. A\n\nHi Ann \"Q\" O'Neil\n2!\n");
}

TEST(PromptRender, OtherValuesAreSubstitutedAsJson) {
  EXPECT_EQ(render({section({"a", "A", "{{n}} {{x}} {{b}} {{tags}} {{obj}}",
                             "(n :int, x :float, b :bool, tags [:string], obj {z :int, a :int})"})},
                   json::parse(R"({"n": 42, "x": 1.5, "b": true, "tags": ["a", "b"], "obj": {"z": 1, "a": 2}})")),
            "## 1. A\n\n42 1.5 true [\"a\",\"b\"] {\"a\":2,\"z\":1}\n");
}

TEST(PromptRender, NestedFields) {
  EXPECT_EQ(render({section({"a", "A", "{{user.name}} lives in {{ user.address.city }}.",
                             "(user {name :string, address {city :string}})"})},
                   json::parse(R"({"user": {"name": "Ann", "address": {"city": "Oslo"}}})")),
            "## 1. A\n\nAnn lives in Oslo.\n");
}

TEST(PromptRender, MissingOrNullOptionalIsEmpty) {
  std::vector<ptc::Section> sections = {section({"a", "A", "Note: [{{note}}] City: [{{user.address.city}}]",
                                                 "(note :string?, user {address {city :string}?})"})};
  const std::string expected = "## 1. A\n\nNote: [] City: []\n";
  EXPECT_EQ(render(sections, json::parse(R"({"user": {}})")), expected);
  EXPECT_EQ(render(sections, json::parse(R"({"note": null, "user": {"address": null}})")), expected);
}

TEST(PromptRender, BodyThatFillsToNothingRendersJustTheHeading) {
  EXPECT_EQ(render({section({"a", "A", "{{note}}", "(note :string?)"}), section({"b", "B", "B."})}),
            "## 1. A\n\n## 2. B\n\nB.\n");
}

TEST(PromptRender, DynamicKeysThroughMaps) {
  auto sections = std::vector<ptc::Section>{section({"a", "A", "[{{meta.color}}] [{{meta.size}}]", "(meta :map)"})};
  EXPECT_EQ(render(sections, json::parse(R"({"meta": {"color": "red"}})")), "## 1. A\n\n[red] []\n");
}

TEST(PromptRender, ParamsAreCoercedBeforeSubstitution) {
  // Substituted as JSON, an int 42 and a string "42" differ.
  EXPECT_EQ(render({section({"a", "A", "{{req}} {{n}}", "(req {n :int}, n :int)"})},
                   json::parse(R"({"req": {"n": "42"}, "n": "7"})")),
            "## 1. A\n\n{\"n\":42} 7\n");
}

TEST(PromptRender, FirewalledFieldsAreHidden) {
  EXPECT_EQ(render({section({"a", "A", "{{user}}", "(user {name :string, _token :string})"})},
                   json::parse(R"({"user": {"name": "Ann", "_token": "s3cret"}})")),
            "## 1. A\n\n{\"_token\":\"<Firewalled>\",\"name\":\"Ann\"}\n");
}

TEST(PromptRender, ExtraParamsAreAllowed) {
  EXPECT_EQ(render({section({"a", "A", "{{n}}", "(n :int)"})}, json::parse(R"({"n": 1, "other": "x"})")),
            "## 1. A\n\n1\n");
}

TEST(PromptRender, EachSectionSeesTheSharedParams) {
  EXPECT_EQ(render({section({"a", "A", "{{n}}", "(n :int)"}), section({"b", "B", "{{n}} again", "(n :string)"})},
                   json::parse(R"({"n": "5"})")),
            "## 1. A\n\n5\n\n## 2. B\n\n5 again\n");
}

TEST(PromptRender, MissingRequiredParam) {
  auto prompt = support_prompt();
  expect_refusal([&] { prompt.render(json::parse(R"({"company": "Acme", "limit": 3})")); },
                 "Prompt params are invalid for section 'role':\n"
                 "Tool validation errors:\n"
                 "- language: missing required field\n",
                 {"role"}, "params");
}

TEST(PromptRender, InvalidParamInAChildSectionNamesTheFullPath) {
  auto prompt = support_prompt();
  expect_refusal([&] { prompt.render(json::parse(R"({"company": "Acme", "language": "en", "limit": "abc"})")); },
                 "Prompt params are invalid for section 'search-tips':\n"
                 "Tool validation errors:\n"
                 "- limit: expected int, got string \"abc\"\n",
                 {"tools", "search-tips"}, "params");
}

TEST(PromptRender, ParamsMustBeAnObject) {
  expect_refusal(
      [] {
        render({section({"a", "A", "x"})}, json::array());
      },
      "Prompt params are invalid for section 'a':\n"
      "Tool validation errors:\n"
      "- (root): expected map, got list\n",
      {"a"}, "params");
}

TEST(PromptRender, DisabledSectionsDoNotValidateParams) {
  EXPECT_EQ(render({section({"a", "A", "{{n}}", "(n :int)", {}, {}, {}, false}), section({"b", "B", "ok"})}),
            "## 1. B\n\nok\n");
}

TEST(Prompt, KeepsKeyAndSections) {
  auto prompt = support_prompt();
  EXPECT_EQ(prompt.key(), "support");
  ASSERT_EQ(prompt.sections().size(), 3u);
  EXPECT_EQ(prompt.sections()[1].key(), "tools");
}

TEST(Prompt, KeyMustFollowTheRule) {
  for (const std::string& key : std::vector<std::string>{"", "Support", "-p", "a b", std::string(65, 'p')})
    expect_refusal([&] { ptc::Prompt(key, {}); }, "Prompt key must match ^[a-z0-9][a-z0-9._-]{0,63}$.", {}, "key");
  EXPECT_NO_THROW(ptc::Prompt("support.v2_x-1", {}));
}

TEST(Prompt, DuplicateTopLevelSectionKey) {
  expect_refusal(
      [] {
        ptc::Prompt("p", {section({"a", "A", ""}), section({"b", "B", ""}), section({"a", "A2", ""})});
      },
      "Duplicate section key 'a'.", {"a"}, "key");
}

TEST(Prompt, DuplicateChildSectionKeyNamesTheFullPath) {
  expect_refusal(
      [] {
        ptc::Prompt("p", {section({"outer",
                                   "Outer",
                                   "",
                                   "()",
                                   {},
                                   {},
                                   {section({"c", "C", ""}), section({"d", "D", ""}), section({"c", "C2", ""})}})});
      },
      "Duplicate section key 'c'.", {"outer", "c"}, "key");
}

TEST(Prompt, SameKeyUnderDifferentParentsIsFine) {
  EXPECT_NO_THROW(ptc::Prompt("p", {section({"a", "A", "", "()", {}, {}, {section({"c", "C", ""})}}),
                                    section({"b", "B", "", "()", {}, {}, {section({"c", "C", ""})}}),
                                    section({"c", "C", ""})}));
}

TEST(Prompt, DuplicateToolAcrossSections) {
  expect_refusal(
      [] {
        ptc::Prompt("p", {section({"a", "A", "", "()", {tool("search")}}),
                          section({"b",
                                   "B",
                                   "",
                                   "()",
                                   {tool("other")},
                                   {},
                                   {section({"c", "C", "", "()", {tool("fetch"), tool("search")}})}})});
      },
      "Duplicate tool name registered for prompt.", {"b", "c"}, "search");
}

TEST(Prompt, DuplicateToolInParentAndChild) {
  expect_refusal(
      [] {
        ptc::Prompt("p",
                    {section({"a", "A", "", "()", {tool("t")}, {}, {section({"c", "C", "", "()", {tool("t")}})}})});
      },
      "Duplicate tool name registered for prompt.", {"a", "c"}, "t");
}

TEST(Prompt, DuplicateToolInADisabledSectionIsStillRefused) {
  expect_refusal(
      [] {
        ptc::Prompt("p", {section({"a", "A", "", "()", {tool("t")}}),
                          section({"b", "B", "", "()", {tool("t")}, {}, {}, false})});
      },
      "Duplicate tool name registered for prompt.", {"b"}, "t");
}

TEST(Prompt, DuplicateToolUnderADisabledSectionIsStillRefused) {
  expect_refusal(
      [] {
        ptc::Prompt("p", {section({"a", "A", "", "()", {tool("t")}}),
                          section({"b", "B", "", "()", {}, {}, {section({"c", "C", "", "()", {tool("t")}})}, false})});
      },
      "Duplicate tool name registered for prompt.", {"b", "c"}, "t");
}

// ---- the registry of what a rendered prompt offers ------------------------------------------------

/// A prompt whose `release` section (policy: deploy and lint need build first) holds `deploy`, beside a
/// `style` section and a disabled `later` one.
ptc::Prompt ops_prompt() {
  auto step = [](const char* name) {
    return ptc::make_tool(name, "A step.", "() -> :nil",
                          [](const json&, ptc::ToolContext&) { return ptc::ToolResult<json>::ok(nullptr); });
  };
  auto order = std::make_shared<ptc::SequentialDependencyPolicy>(std::map<std::string, std::set<std::string>>{
      {"deploy", {"build"}}, {"lint", {"build"}}});
  // Designated initializers would be shorter, but g++ 12 -Wextra flags the fields they leave out.
  auto section = [](const char* key, std::vector<ptc::Tool> tools, bool enabled = true) {
    ptc::SectionSpec spec;
    spec.title = key;
    spec.key = key;
    spec.tools = std::move(tools);
    spec.enabled = enabled;
    return spec;
  };
  ptc::SectionSpec release_spec = section("release", {step("build")});
  release_spec.policies = {order};
  release_spec.children = {ptc::Section(section("deploy", {step("deploy")}))};
  ptc::Section release(std::move(release_spec));
  ptc::Section style(section("style", {step("lint")}));
  ptc::Section later(section("later", {step("archive")}, false));
  return ptc::Prompt("ops", {release, style, later});
}

std::vector<std::string> names_of(const ptc::ToolRegistry& registry) {
  std::vector<std::string> names;
  for (const auto& t : registry.tools()) names.push_back(t.name());
  return names;
}

TEST(RegisterTools, OffersTheEnabledToolsUnderTheirSectionsPolicies) {
  const auto rendered = ops_prompt().render();
  ptc::ToolRegistry registry;
  rendered.register_tools(registry);
  EXPECT_EQ(names_of(registry), (std::vector<std::string>{"build", "deploy", "lint"}));

  ptc::Session session;
  auto call = [&](const char* name) { return registry.dispatch(session, ptc::ToolCall{"", name, json::object()}); };
  EXPECT_EQ(call("deploy").result.message, "Tool 'deploy' requires: build") << "the parent section's policy governs";
  EXPECT_EQ(call("lint").status, ptc::CallStatus::Succeeded) << "another section's policy does not";
  EXPECT_EQ(call("archive").status, ptc::CallStatus::UnknownTool) << "a disabled section offers nothing";
  EXPECT_EQ(call("build").status, ptc::CallStatus::Succeeded);
  EXPECT_EQ(call("deploy").status, ptc::CallStatus::Succeeded);
}

TEST(RegisterTools, AddsToWhatTheRegistryHasAndRefusesANameItHas) {
  const auto rendered = ops_prompt().render();
  ptc::ToolRegistry registry;
  registry.add(tool("search"));
  rendered.register_tools(registry);
  EXPECT_EQ(names_of(registry), (std::vector<std::string>{"search", "build", "deploy", "lint"}));
  ptc::ToolRegistry taken;
  taken.add(tool("lint"));
  EXPECT_THROW(rendered.register_tools(taken), ptc::DefinitionError);
}

// The constructor the registry had before register_tools, kept for a release.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
TEST(RegisterTools, TheDeprecatedConstructorRegistersTheSame) {
  const auto rendered = ops_prompt().render();
  const ptc::ToolRegistry registry(rendered);
  EXPECT_EQ(names_of(registry), (std::vector<std::string>{"build", "deploy", "lint"}));
}
#pragma GCC diagnostic pop

}  // namespace
