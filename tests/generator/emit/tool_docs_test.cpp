// tools.json and tools.md: the runtime's renderings of the same tools, byte for byte; profile problems;
// determinism.

#include <gtest/gtest.h>

#include <ptc/tool.hpp>
#include <ptc/tool_catalog.hpp>

#include "emit/emit.hpp"
#include "model/schema.hpp"
#include "model_fixture.hpp"

namespace ptcgen::test {
namespace {

const emit::OutputFile* find(const emit::Emitted& e, const std::string& name) {
  for (const auto& f : e.files)
    if (f.name == name) return &f;
  return nullptr;
}

std::vector<ptc::Tool> runtime_tools(const model::HeaderModel& h) {
  std::vector<ptc::Tool> tools;
  for (const auto& t : h.tools) {
    std::vector<ptc::ToolExample> examples;
    for (const auto& ex : t.examples)
      examples.push_back({"", nlohmann::json::parse(ex.input), nlohmann::json::parse(ex.output)});
    tools.emplace_back(ptc::ToolSpec{t.name, t.description, *model::signature_of(t, h), nullptr, false, examples});
  }
  return tools;
}

model::HeaderModel with_example() {
  auto h = shop_model();
  h.tools[0].examples.push_back(
      {R"({"query": "crash", "limit": 2})", R"([{"id": 1, "title": "Crash", "_email": "a@b.c"}])", {}});
  return h;
}

TEST(EmitDocs, TitleAndHintsReachToolsJsonAndTheRegistration) {
  auto h = shop_model();
  h.tools[0].title = "Search issues";
  h.tools[0].hints = {.stated = true, .read_only = true, .idempotent = true};
  const auto e = emit::emit_header(h);
  ASSERT_TRUE(e.errors.empty()) << e.errors.front().message;
  const auto doc = nlohmann::ordered_json::parse(find(e, "shop.tools.json")->content);
  EXPECT_EQ(doc["tools"][0]["annotations"].dump(),
            R"({"title":"Search issues","readOnlyHint":true,"destructiveHint":false,"idempotentHint":true,)"
            R"("openWorldHint":false})");
  // A tool without markers states MCP's defaults, which assume the worst.
  EXPECT_EQ(doc["tools"][1]["annotations"].dump(),
            R"({"readOnlyHint":false,"destructiveHint":true,"idempotentHint":false,"openWorldHint":true})");
  EXPECT_NE(find(e, "shop.ptc.cpp")
                ->content.find(
                    R"(std::move(invoker), false, {}, "Search issues", ptc::ToolHints{true, false, true, false}};)"),
            std::string::npos);
}

TEST(EmitDocs, WritesTheFourFiles) {
  const auto e = emit::emit_header(shop_model());
  ASSERT_TRUE(e.errors.empty()) << e.errors.front().message;
  ASSERT_EQ(e.files.size(), 4u);
  EXPECT_EQ(e.files[0].name, "shop.ptc.hpp");
  EXPECT_EQ(e.files[1].name, "shop.ptc.cpp");
  EXPECT_EQ(e.files[2].name, "shop.tools.json");
  EXPECT_EQ(e.files[3].name, "shop.tools.md");
}

TEST(EmitDocs, ToolsJsonIsTheRuntimesPortableDocument) {
  const auto h = with_example();
  const auto e = emit::emit_header(h);
  ASSERT_TRUE(e.errors.empty()) << e.errors.front().message;
  const auto tools = runtime_tools(h);
  EXPECT_EQ(find(e, "shop.tools.json")->content, ptc::tools_document(tools)->dump(2) + "\n");
  const auto doc = nlohmann::ordered_json::parse(find(e, "shop.tools.json")->content);
  ASSERT_EQ(doc["tools"].size(), 4u);
  EXPECT_EQ(doc["tools"][0]["name"], "search");
  EXPECT_EQ(doc["tools"][3]["name"], "reset");
  EXPECT_EQ(doc["tools"][0]["input_schema"]["properties"]["limit"]["default"], 10);
}

TEST(EmitDocs, ToolsMdIsTheRuntimesPromptList) {
  const auto h = with_example();
  const auto e = emit::emit_header(h);
  ASSERT_TRUE(e.errors.empty()) << e.errors.front().message;
  const auto md = find(e, "shop.tools.md")->content;
  EXPECT_EQ(md, ptc::render_tool_list(runtime_tools(h)));
  EXPECT_NE(md.find("search(query :string, limit :int[1..50]?) -> [{id :int"), std::string::npos) << md;
  EXPECT_NE(md.find("\"_email\":\"<Firewalled>\""), std::string::npos) << md;
}

TEST(EmitDocs, Deterministic) {
  const auto a = emit::emit_header(with_example());
  const auto b = emit::emit_header(with_example());
  ASSERT_EQ(a.files.size(), b.files.size());
  for (std::size_t i = 0; i < a.files.size(); ++i) {
    EXPECT_EQ(a.files[i].name, b.files[i].name);
    EXPECT_EQ(a.files[i].content, b.files[i].content) << a.files[i].name;
  }
}

TEST(EmitDocs, NoAbsolutePathsInTheText) {
  auto h = shop_model();
  h.include = "/home/someone/project/include/shop/shop.hpp";
  for (const auto& f : emit::emit_header(h).files) {
    if (f.name == "shop.ptc.hpp") continue;  // the include line is the extractor's choice
    EXPECT_EQ(f.content.find("/home/someone"), std::string::npos) << f.name;
  }
}

model::HeaderModel with_map_param() {
  auto h = shop_model();
  h.tools.resize(1);
  h.classes.clear();
  h.tools[0].params.push_back(param("labels", type(TypeKind::Map, "std::map<std::string, int>", {int_type()})));
  return h;
}

TEST(EmitDocs, ProfileProblemsAreWarningsUnlessTheProfileIsRequired) {
  const auto lenient = emit::emit_header(with_map_param());
  EXPECT_TRUE(lenient.errors.empty());
  EXPECT_EQ(lenient.files.size(), 4u);
  ASSERT_FALSE(lenient.warnings.empty());
  EXPECT_EQ(lenient.warnings[0].message.rfind("profile openai: tool 'search': ", 0), 0u) << lenient.warnings[0].message;
  EXPECT_EQ(lenient.warnings[0].location.file, "shop.hpp");
  EXPECT_EQ(lenient.warnings[0].location.line, 10u);

  const auto strict = emit::emit_header(with_map_param(), {{ptc::Profile::OpenAI}});
  ASSERT_FALSE(strict.errors.empty());
  EXPECT_EQ(strict.errors[0].message, lenient.warnings[0].message);
  EXPECT_TRUE(strict.files.empty());
}

TEST(EmitDocs, ToolRuleViolationsAreErrorsAtTheTool) {
  auto h = shop_model();
  h.tools[1].name = "Create";
  h.tools[1].location = {"shop.hpp", 20, 3};
  h.tools[2].description = "";
  h.tools[3].examples.push_back({"{}", "42", {"shop.hpp", 30, 5}});
  h.tools[0].examples.push_back({"{", "[]", {"shop.hpp", 31, 5}});
  const auto e = emit::emit_header(h);
  EXPECT_TRUE(e.files.empty());
  ASSERT_EQ(e.errors.size(), 4u);
  EXPECT_EQ(e.errors[0].message, "tool 'search': PTC_EXAMPLE input is not valid JSON");
  EXPECT_EQ(e.errors[0].location.line, 31u);
  EXPECT_EQ(e.errors[1].message, "tool 'Create': Tool name must match ^[a-z0-9_-]{1,64}$.");
  EXPECT_EQ(e.errors[1].location.line, 20u);
  EXPECT_EQ(e.errors[2].message, "tool 'count': Tool description must be 1-200 ASCII characters.");
  EXPECT_EQ(e.errors[3].message.rfind("tool 'reset': Tool example 0 ('') output does not match the result: ", 0), 0u)
      << e.errors[3].message;
}

TEST(EmitDocs, StructConstraintErrorsAreReportedAtTheStruct) {
  auto h = shop_model();
  model::Struct other;
  other.name = "shop::Other";
  other.cpp = "::shop::Other";
  other.fields.push_back(field("note", string_type()));
  other.fields.back().constraints.max = 3;
  other.location = {"shop.hpp", 40, 8};
  h.structs.push_back(other);
  const auto e = emit::emit_header(h);
  ASSERT_EQ(e.errors.size(), 1u);
  EXPECT_EQ(e.errors[0].message, "struct shop::Other: PTC_RANGE refines numbers, not :string");
  EXPECT_EQ(e.errors[0].location.line, 40u);
}

TEST(EmitDocs, DuplicateToolNamesAreErrors) {
  auto h = shop_model();
  h.tools[3].name = "count";
  const auto e = emit::emit_header(h);
  ASSERT_EQ(e.errors.size(), 1u);
  EXPECT_EQ(e.errors[0].message, "tool name 'count' is used by an earlier tool of this header");
}

TEST(EmitDocs, ExplicitSignatureProblemsAreErrors) {
  auto h = shop_model();
  h.tools[0].explicit_signature = "(q :string) -> :nil";
  const auto e = emit::emit_header(h);
  ASSERT_EQ(e.errors.size(), 1u);
  EXPECT_EQ(e.errors[0].message,
            "PTC_SIGNATURE of tool 'search' has 1 parameter but the C++ function has 2 (query, limit)");
}

TEST(EmitDocs, AResultOnlyPortableRefusesIsOneErrorNotOnePerChatProfile) {
  // The chat providers' result schemas follow the portable rules: a result those refuse is reported
  // by portable, not again under openai, anthropic and gemini.
  auto h = shop_model();
  model::Struct report;
  report.name = "shop::Report";
  report.cpp = "::shop::Report";
  report.fields.push_back(field("code", string_type()));
  report.fields.back().constraints.pattern = "(?i)x";
  h.structs.push_back(report);
  h.tools.push_back(tool("report", "Reports.", "::shop::report", {}, named(model::TypeKind::Struct, "shop::Report")));
  h.tools.back().location = {"shop.hpp", 50, 3};
  const auto e = emit::emit_header(h);
  EXPECT_TRUE(e.files.empty());
  ASSERT_EQ(e.errors.size(), 1u);
  EXPECT_EQ(e.errors[0].message.rfind("profile portable: tool 'report': portable cannot express [:re \"(?i)x\"]", 0),
            0u)
      << e.errors[0].message;
  EXPECT_EQ(e.errors[0].location.line, 50u);
  // MCP renders results with rules of its own (clients validate structuredContent), so it says so too.
  ASSERT_EQ(e.warnings.size(), 1u);
  EXPECT_EQ(e.warnings[0].message.rfind("profile mcp: tool 'report': mcp cannot express [:re", 0), 0u)
      << e.warnings[0].message;
}

}  // namespace
}  // namespace ptcgen::test
