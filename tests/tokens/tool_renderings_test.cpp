#include <ptc/tool_renderings.hpp>

#include <gtest/gtest.h>

#include <ptc/json_text.hpp>
#include <ptc/mcp/wire.hpp>
#include <ptc/provider.hpp>
#include <ptc/signature.hpp>
#include <ptc/tool_catalog.hpp>
#include <ptc/tool_list.hpp>

namespace ptc {
namespace {

Tool tool(const std::string& name, const std::string& signature) {
  return Tool(ToolSpec{name, "Forecast for the next days.", Signature::parse(signature).value(), nullptr});
}

TEST(ToolRenderings, NamesAreTheDefinitionsFormatsAndReadBack) {
  std::vector<std::string> names;
  for (Rendering r : all_renderings()) {
    names.emplace_back(rendering_name(r));
    EXPECT_EQ(rendering_from_name(rendering_name(r)), r);
  }
  EXPECT_EQ(names, (std::vector<std::string>{"prompt", "openai", "openai-responses", "anthropic", "gemini", "mcp"}));
  EXPECT_EQ(rendering_from_name("claude"), std::nullopt);
}

TEST(ToolRenderings, OnlyAnthropicAndGeminiAreEstimates) {
  for (Rendering r : all_renderings())
    EXPECT_EQ(rendering_is_estimate(r), r == Rendering::Anthropic || r == Rendering::Gemini) << rendering_name(r);
}

TEST(ToolRenderings, EachTextIsWhatItsProviderFunctionSends) {
  const Tool t = tool("forecast", "(city :string, days :int?) -> {high :float}");
  EXPECT_EQ(rendering_text(t, Rendering::Prompt).value(), render_tool_entry(describe_tools(std::span(&t, 1))[0]));
  EXPECT_EQ(rendering_text(t, Rendering::OpenAIChat).value(), compact_text(openai_chat_tool(t).value()));
  EXPECT_EQ(rendering_text(t, Rendering::OpenAIResponses).value(), compact_text(openai_responses_tool(t).value()));
  EXPECT_EQ(rendering_text(t, Rendering::Anthropic).value(), compact_text(anthropic_tool(t).value()));
  EXPECT_EQ(rendering_text(t, Rendering::Gemini).value(), compact_text(gemini_function_declaration(t).value()));
  EXPECT_EQ(rendering_text(t, Rendering::Mcp).value(), mcp_tool_text(t).value());
  // Compact: no space outside strings.
  EXPECT_EQ(rendering_text(t, Rendering::OpenAIChat).value().substr(0, 30), R"({"type":"function","function":)");
}

TEST(ToolRenderings, DefinitionsAreTheProviderFunctionsValues) {
  const Tool t = tool("forecast", "(city :string) -> :int");
  EXPECT_EQ(tool_definition(t, Rendering::Anthropic).value(), anthropic_tool(t).value());
  EXPECT_EQ(tool_definition(t, Rendering::Mcp).value(), mcp_tool(t).value());
  EXPECT_FALSE(tool_definition(t, Rendering::Prompt).has_value());
}

TEST(ToolRenderings, AProfileThatCannotExpressTheToolGivesItsError) {
  const Tool t = tool("anything", "(x :any) -> :int");
  auto gemini = rendering_text(t, Rendering::Gemini);
  ASSERT_FALSE(gemini.has_value());
  EXPECT_NE(gemini.error().message.find("gemini cannot express :any"), std::string::npos) << gemini.error().message;
  EXPECT_TRUE(rendering_text(t, Rendering::Prompt).has_value());
}

}  // namespace
}  // namespace ptc
