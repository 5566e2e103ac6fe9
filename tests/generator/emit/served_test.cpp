// Resources and prompts from a hand-built model: registered around their generated readers and
// renderers, left out of tools.json, tools.md and the notes on hints, and checked by the runtime's
// own ptc::Resource when PTC_SIGNATURE renames what a URI template names.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "emit/emit.hpp"
#include "model_fixture.hpp"

namespace ptcgen::test {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

/// shop_model() with a resource template, a static resource and a prompt among its free functions.
model::HeaderModel served_model() {
  auto h = shop_model();
  auto item = tool("item", "An item.", "::shop::item", {param("sku", string_type())}, string_type());
  item.kind = model::ToolKind::Resource;
  item.uri = "shop://items/{sku}";
  item.mime_type = "text/markdown";
  item.completers.push_back({"sku", "::shop::skus", false, false, {}});
  auto all = tool("all", "Every item.", "::shop::all", {}, vector_of(string_type()));
  all.kind = model::ToolKind::Resource;
  all.uri = "shop://items";
  auto pitch = tool("pitch", "Sells an item.", "::shop::pitch", {param("sku", string_type())}, string_type());
  pitch.kind = model::ToolKind::Prompt;
  pitch.completers.push_back({"sku", "::shop::skus", false, true, {}});
  h.tools.insert(h.tools.begin() + 2, {item, all, pitch});
  return h;
}

const emit::OutputFile* find(const emit::Emitted& e, const std::string& name) {
  for (const auto& f : e.files)
    if (f.name == name) return &f;
  return nullptr;
}

TEST(EmitServed, ResourcesAndPromptsAreRegisteredAroundTheirTools) {
  const auto e = emit::emit_header(served_model());
  ASSERT_TRUE(e.errors.empty()) << e.errors.front().message;
  const std::string& cpp = find(e, "shop.ptc.cpp")->content;
  EXPECT_THAT(cpp, HasSubstr("static ptc::Resource item_resource() {\n"
                             "  ptc::ResourceOptions options;\n"
                             "  options.mime_type = \"text/markdown\";\n"
                             "  options.completers.emplace(\"sku\", [](const ptc::CompletionRequest& request) {\n"
                             "    return ::shop::skus(std::string(request.value));\n"
                             "  });\n"
                             "  return ptc::Resource(\"shop://items/{sku}\", item_tool(), std::move(options));\n"
                             "}\n"));
  EXPECT_THAT(cpp, HasSubstr("static ptc::Resource all_resource() {\n"
                             "  return ptc::Resource(\"shop://items\", all_tool());\n}\n"));
  EXPECT_THAT(cpp, HasSubstr("    return ::shop::skus(request);\n"));
  EXPECT_THAT(cpp, HasSubstr("std::vector<ptc::Tool> tools() {\n  return {\n    detail::search_tool(),\n"
                             "    detail::create_tool(),\n  };\n}\n"));
  EXPECT_THAT(cpp, HasSubstr("std::vector<ptc::Resource> resources() {\n  return {\n    detail::item_resource(),\n"
                             "    detail::all_resource(),\n  };\n}\n"));
  EXPECT_THAT(cpp, HasSubstr("  for (auto& resource : resources()) registry.add_resource(std::move(resource));\n"
                             "  for (auto& prompt : prompts()) registry.add_prompt(std::move(prompt));\n}\n"));
  // The class has no resources or prompts: its functions are as before.
  EXPECT_THAT(cpp, Not(HasSubstr("resources(::shop::Tracker& instance)")));
  const std::string& hpp = find(e, "shop.ptc.hpp")->content;
  EXPECT_THAT(hpp, HasSubstr("\nstd::vector<ptc::Resource> resources();\n"));
  EXPECT_THAT(hpp, HasSubstr("\nstd::vector<ptc::PromptTemplate> prompts();\n"));
  EXPECT_THAT(hpp, Not(HasSubstr("prompts(::shop::Tracker& instance)")));
}

TEST(EmitServed, ToolsJsonAndToolsMdListWhatAModelCalls) {
  const auto served = emit::emit_header(served_model());
  const auto plain = emit::emit_header(shop_model());
  EXPECT_EQ(find(served, "shop.tools.json")->content, find(plain, "shop.tools.json")->content);
  EXPECT_EQ(find(served, "shop.tools.md")->content, find(plain, "shop.tools.md")->content);
  // Resources and prompts cannot state hints (ptc-gen refuses them there), so they are not noted.
  EXPECT_EQ(served.notes.size(), plain.notes.size());
}

TEST(EmitServed, TheRuntimeChecksAReaderWhosePtcSignatureRenamesItsVariable) {
  auto h = served_model();
  h.tools[2].explicit_signature = "(id :string) -> :string";
  h.tools[2].location = {"shop.hpp", 42, 1};
  const auto e = emit::emit_header(h);
  ASSERT_EQ(e.errors.size(), 1u);
  EXPECT_EQ(e.errors[0].message,
            "resource 'item': The URI template's variable 'sku' is not a parameter of the reader 'item'.");
  EXPECT_EQ(e.errors[0].location.line, 42u);
}

TEST(EmitServed, ResourcesAreKeyedByUriAndPromptsByName) {
  auto h = served_model();
  h.tools[3].uri = "shop://items/{sku}";
  h.tools[3].params = h.tools[2].params;
  h.tools[4].name = "search";  // a prompt may share a tool's name
  const auto e = emit::emit_header(h);
  ASSERT_EQ(e.errors.size(), 1u);
  EXPECT_EQ(e.errors[0].message, "resource URI 'shop://items/{sku}' is used by an earlier resource of this header");
}

}  // namespace
}  // namespace ptcgen::test
