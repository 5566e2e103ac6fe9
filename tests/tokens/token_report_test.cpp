#include <ptc/token_report.hpp>

#include <cstdlib>

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <ptc/signature.hpp>

namespace ptc {
namespace {

using ::testing::HasSubstr;

// A rank table of the 256 single bytes and nothing else: every byte is a token, so a text costs its
// length in bytes, which the tests can state without an oracle (tokens_test.cpp compares the real
// tables with gpt-tokenizer).
Encoding byte_encoding(std::string_view name) {
  static const char* const kBase64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string ranks;
  for (int b = 0; b < 256; ++b) {
    ranks += kBase64[b >> 2];
    ranks += kBase64[(b & 3) << 4];
    ranks += "== " + std::to_string(b) + "\n";
  }
  return Encoding::parse(name, ranks, "bytes.tiktoken").value();
}

std::vector<Encoding> encodings() { return {byte_encoding("o200k_base"), byte_encoding("cl100k_base")}; }

Tool tool(const std::string& name, const std::string& signature) {
  return Tool(ToolSpec{name, "Does things.", Signature::parse(signature).value(), nullptr});
}

TEST(TokenReport, CountsEveryRenderingOfEveryToolWithEveryEncoding) {
  const std::vector<Tool> tools{tool("forecast", "(city :string) -> :int"), tool("echo", "(text :string) -> :string")};
  const auto report = token_report(tools, encodings());
  EXPECT_EQ(report.encodings, (std::vector<std::string>{"o200k_base", "cl100k_base"}));
  ASSERT_EQ(report.tools.size(), 2u);
  EXPECT_EQ(report.tools[1].name, "echo");
  ASSERT_EQ(report.tools[0].renderings.size(), all_renderings().size());
  for (const auto& r : report.tools[0].renderings) {
    EXPECT_EQ(r.text, rendering_text(tools[0], r.rendering).value());
    EXPECT_EQ(r.tokens, (std::vector<std::size_t>{r.text.size(), r.text.size()})) << rendering_name(r.rendering);
  }
  EXPECT_EQ(report.total(Rendering::Mcp),
            report.tools[0].renderings[5].text.size() + report.tools[1].renderings[5].text.size());
}

TEST(TokenReport, LargestIsTheCostliestRenderingThatRendered) {
  const std::vector<Tool> tools{tool("anything", "(x :any) -> :int")};
  const auto report = token_report(tools, encodings());
  const RenderingCost* largest = report.tools[0].largest();
  ASSERT_NE(largest, nullptr);
  for (const auto& r : report.tools[0].renderings) {
    if (!r.error.empty()) {
      EXPECT_TRUE(r.tokens.empty());
      continue;
    }
    EXPECT_LE(r.tokens[0], largest->tokens[0]);
  }
  EXPECT_TRUE(largest->error.empty());
}

TEST(TokenReport, JsonHasTheTextsTheirCountsTheEstimatesAndTheTotals) {
  const std::vector<Tool> tools{tool("anything", "(x :any) -> :int"), tool("echo", "(text :string) -> :string")};
  const auto report = token_report(tools, encodings());
  const auto json = nlohmann::json::parse(token_report_json(report));
  EXPECT_EQ(json["encodings"], nlohmann::json::array({"o200k_base", "cl100k_base"}));
  const auto& echo = json["tools"][1];
  EXPECT_EQ(echo["name"], "echo");
  EXPECT_EQ(echo["renderings"]["prompt"]["text"], report.tools[1].renderings[0].text);
  EXPECT_EQ(echo["renderings"]["prompt"]["o200k_base"], report.tools[1].renderings[0].text.size());
  EXPECT_FALSE(echo["renderings"]["prompt"].contains("estimate"));
  EXPECT_EQ(echo["renderings"]["anthropic"]["estimate"], true);
  EXPECT_EQ(echo["renderings"]["gemini"]["estimate"], true);
  EXPECT_THAT(json["tools"][0]["renderings"]["gemini"]["error"].get<std::string>(), HasSubstr("gemini cannot express"));
  EXPECT_FALSE(json["tools"][0]["renderings"]["gemini"].contains("text"));
  // Totals add the tools that rendered.
  EXPECT_EQ(json["total"]["gemini"]["o200k_base"], report.tools[1].renderings[4].text.size());
  EXPECT_EQ(json["total"]["gemini"]["estimate"], true);
  EXPECT_EQ(json["total"]["openai"]["cl100k_base"], report.total(Rendering::OpenAIChat, 1));
  // The same report, the same bytes.
  EXPECT_EQ(token_report_json(token_report(tools, encodings())), token_report_json(report));
}

TEST(TokenReport, TableHasARowPerToolATotalAndSaysWhatIsEstimated) {
  const std::vector<Tool> tools{tool("anything", "(x :any) -> :int"), tool("echo", "(text :string) -> :string")};
  const auto report = token_report(tools, encodings());
  const std::string table = token_report_table(report);
  const auto cell = [&](std::size_t t, std::size_t r) {
    const auto& tokens = report.tools[t].renderings[r].tokens;
    return std::to_string(tokens[0]) + "/" + std::to_string(tokens[1]);
  };
  EXPECT_THAT(table, HasSubstr("Tokens per tool and rendering (o200k_base / cl100k_base)\n"));
  EXPECT_THAT(table, HasSubstr("tool      prompt"));
  EXPECT_THAT(table, HasSubstr("anthropic*"));
  EXPECT_THAT(table, HasSubstr("\necho      " + cell(1, 0) + " "));
  EXPECT_THAT(table, HasSubstr("\ntotal     "));
  EXPECT_THAT(table, HasSubstr("* an estimate: Anthropic and Gemini count with tokenizers of their own"));
  EXPECT_THAT(table, HasSubstr("Not rendered:\n- anything, openai: tool 'anything': openai cannot express :any"));
  EXPECT_THAT(table, HasSubstr("\n- anything, gemini: "));
  EXPECT_THAT(table, HasSubstr("\nanything  40/40   -        -  "));
}

TEST(TokenReport, EncodingsLoadFromADirectoryOrSayWhichFileIsMissing) {
  auto missing = load_report_encodings("/nonexistent/ptc-tokenizer-data");
  ASSERT_FALSE(missing.has_value());
  EXPECT_THAT(missing.error().message, HasSubstr("/nonexistent/ptc-tokenizer-data/o200k_base.tiktoken"));
}

TEST(TokenReport, TheOptionElseTheEnvironmentNamesTheDataDirectory) {
  ::setenv("PTC_TOKENIZER_DATA", "/somewhere/ranks", 1);
  EXPECT_EQ(tokenizer_data(""), std::filesystem::path("/somewhere/ranks"));
  EXPECT_EQ(tokenizer_data("/given"), std::filesystem::path("/given"));  // the option wins
  ::setenv("PTC_TOKENIZER_DATA", "", 1);
  EXPECT_EQ(tokenizer_data(""), std::nullopt);
  ::unsetenv("PTC_TOKENIZER_DATA");
  EXPECT_EQ(tokenizer_data(""), std::nullopt);
}

}  // namespace
}  // namespace ptc
