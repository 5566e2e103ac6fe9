#include <gtest/gtest.h>

#include <ptc/section.hpp>
#include <ptc/tool_errors.hpp>

#include "named_policy.hpp"

namespace {

using Path = std::vector<std::string>;

using ptc::test::NamedPolicy;

ptc::Tool tool(std::string name) { return ptc::make_tool(std::move(name), "Does a thing.", "(q :string) -> :string"); }

ptc::SectionSpec spec(std::string key = "guidance", std::string title = "Guidance",
                      std::string template_text = "Be brief.", std::string params = "()") {
  ptc::SectionSpec s;
  s.key = std::move(key);
  s.title = std::move(title);
  s.template_text = std::move(template_text);
  s.params = std::move(params);
  return s;
}

// The error a section spec is refused with; a test failure if it is accepted.
ptc::DefinitionError refusal(ptc::SectionSpec s) {
  try {
    ptc::Section section(std::move(s));
  } catch (const ptc::DefinitionError& e) {
    return e;
  }
  ADD_FAILURE() << "the section was accepted";
  return ptc::DefinitionError("(accepted)");
}

void expect_refusal(ptc::SectionSpec s, const std::string& message, const Path& path, const std::string& field) {
  auto e = refusal(std::move(s));
  EXPECT_EQ(e.message(), message);
  EXPECT_EQ(e.section_path(), path);
  EXPECT_EQ(e.field(), field);
}

const std::string kKeyRule = "Section key must match ^[a-z0-9][a-z0-9._-]{0,63}$.";
const std::string kTitleRule = "Section title must be a non-empty single line.";

TEST(Section, KeepsItsParts) {
  auto s = spec("guidance", "Guidance", "Hello {{user.name}}.", "(user {name :string})");
  s.tools = {tool("search"), tool("fetch")};
  auto policy = std::make_shared<NamedPolicy>("p");
  s.policies = {policy};
  s.children = {ptc::Section(spec("child", "Child"))};
  s.enabled = false;
  ptc::Section section(std::move(s));
  EXPECT_EQ(section.key(), "guidance");
  EXPECT_EQ(section.title(), "Guidance");
  EXPECT_EQ(section.template_text(), "Hello {{user.name}}.");
  ASSERT_EQ(section.params().params().size(), 1u);
  EXPECT_EQ(section.params().params()[0].name, "user");
  ASSERT_EQ(section.tools().size(), 2u);
  EXPECT_EQ(section.tools()[0].name(), "search");
  EXPECT_EQ(section.tools()[1].name(), "fetch");
  ASSERT_EQ(section.policies().size(), 1u);
  EXPECT_EQ(section.policies()[0], policy);
  ASSERT_EQ(section.children().size(), 1u);
  EXPECT_EQ(section.children()[0].key(), "child");
  EXPECT_FALSE(section.enabled());
}

TEST(Section, EnabledByDefault) { EXPECT_TRUE(ptc::Section(spec()).enabled()); }

TEST(Section, CopiesShareOneDefinition) {
  ptc::Section a(spec());
  ptc::Section b = a;
  EXPECT_EQ(&a.template_text(), &b.template_text());
}

TEST(Section, KeysThatFollowTheRule) {
  for (const std::string& key :
       std::vector<std::string>{"a", "0", "guidance", "a.b_c-d", "9lives", std::string(64, 'k')})
    EXPECT_EQ(ptc::Section(spec(key)).key(), key);
}

TEST(Section, KeysThatBreakTheRule) {
  for (const std::string& key :
       std::vector<std::string>{"", "Guidance", "-x", ".x", "_x", "a b", "a/b", "caf\xc3\xa9", std::string(65, 'k')})
    expect_refusal(spec(key), kKeyRule, {key}, "key");
}

TEST(Section, TitleIsTrimmed) {
  EXPECT_EQ(ptc::Section(spec("g", "  Guidance \t")).title(), "Guidance");
  EXPECT_EQ(ptc::Section(spec("g", "Guidance\n")).title(), "Guidance");
}

TEST(Section, TitleMustBeOneNonEmptyLine) {
  for (const std::string& title : std::vector<std::string>{"", "   ", "\t\n", "Two\nlines", "Carriage\rreturn"})
    expect_refusal(spec("g", title), kTitleRule, {"g"}, "title");
}

TEST(Section, KeyIsCheckedBeforeTitle) { expect_refusal(spec("Bad", ""), kKeyRule, {"Bad"}, "key"); }

TEST(Section, ParamsMayBeABareListOrASignature) {
  EXPECT_TRUE(ptc::Section(spec("g", "G", "", "()")).params().params().empty());
  EXPECT_TRUE(ptc::Section(spec("g", "G", "", "")).params().params().empty());
  auto bare = ptc::Section(spec("g", "G", "{{n}}", "(n :int)"));
  ASSERT_EQ(bare.params().params().size(), 1u);
  EXPECT_EQ(bare.params().params()[0].name, "n");
  // The result type is irrelevant: only the parameters are used.
  auto full = ptc::Section(spec("g", "G", "{{n}}", "(n :int) -> [:string]"));
  ASSERT_EQ(full.params().params().size(), 1u);
  EXPECT_EQ(full.params().params()[0].name, "n");
}

TEST(Section, ParamsThatDoNotParse) {
  for (const std::string& params :
       std::vector<std::string>{"(n :integer)", "(n :int", "(n :int) ->", "(n :int) x", "(a :int, a :int)"}) {
    auto parsed = ptc::Signature::parse(params);
    ASSERT_FALSE(parsed.ok()) << params;
    expect_refusal(spec("g", "G", "", params), "Section params do not parse: " + parsed.error().to_string(), {"g"},
                   "params");
  }
}

TEST(Section, ParamsErrorNamesTheColumn) {
  auto e = refusal(spec("g", "G", "", "(n :integer)"));
  EXPECT_TRUE(e.message().starts_with("Section params do not parse: column 4: ")) << e.message();
}

TEST(Section, PlaceholdersMustNameParams) {
  expect_refusal(spec("g", "G", "Hi {{nobody}}.", "(name :string)"),
                 "placeholder {{nobody}}: no parameter named 'nobody'", {"g"}, "template");
}

TEST(Section, PlaceholderFieldsMustExist) {
  expect_refusal(spec("g", "G", "{{user.age}}", "(user {name :string})"),
                 "placeholder {{user.age}}: user has no field 'age'", {"g"}, "template");
}

TEST(Section, MalformedPlaceholders) {
  expect_refusal(spec("g", "G", "x {{}}", "()"), "empty placeholder {{}}", {"g"}, "template");
  expect_refusal(spec("g", "G", "x {{name", "(name :string)"), "unclosed placeholder '{{'", {"g"}, "template");
}

TEST(Section, OnlyTheFirstPlaceholderProblemIsReported) {
  expect_refusal(spec("g", "G", "{{a}} {{b}}", "()"), "placeholder {{a}}: no parameter named 'a'", {"g"}, "template");
}

TEST(Section, PlaceholdersThroughDynamicAndOptionalFields) {
  EXPECT_NO_THROW(ptc::Section(spec("g", "G", "{{meta.anything}} {{user.address.city}}",
                                    "(meta :map, user {address {city :string}?})")));
}

TEST(Section, DuplicateToolNames) {
  auto s = spec("tools");
  s.tools = {tool("search"), tool("fetch"), tool("search")};
  expect_refusal(std::move(s), "Duplicate tool name registered for prompt.", {"tools"}, "search");
}

TEST(Section, DistinctToolNamesAreFine) {
  auto s = spec("tools");
  s.tools = {tool("search"), tool("fetch")};
  EXPECT_NO_THROW(ptc::Section(std::move(s)));
}

}  // namespace
