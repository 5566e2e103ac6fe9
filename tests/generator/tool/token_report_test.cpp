// ptc-gen --token-report, --tokenizer-data and --token-budget, run on a header with OpenAI's rank files
// exported from gpt-tokenizer (tests/tokens/node), whose counts the reports are held to.

#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "run_process.hpp"
#include "scratch_dir.hpp"

namespace ptcgen::test {
namespace {

namespace fs = std::filesystem;

const char* const kHeader = R"(#pragma once
#include <string>
#include <ptc/annotate.hpp>
namespace shop {
/// Finds items by text.
/// \param query Words to look for.
PTC_TOOL() PTC_READ_ONLY std::string search(std::string query, int limit = 10);
/// Counts items.
PTC_TOOL() PTC_READ_ONLY int count();
}
)";

/// The rank files, exported once per test program from the pinned gpt-tokenizer (byte for byte OpenAI's
/// files: tests/tokens checks their sha256).
const std::string& rank_dir() {
  static const std::string dir = [] {
    const fs::path out = fs::temp_directory_path() / ("ptcgen_token_ranks_" + std::to_string(::getpid()));
    auto r = ptc::test::run_process(PTC_NODE, {PTC_TOKENS_NODE_DIR "/export_ranks.mjs", out.string()});
    if (r.exit_code != 0) ADD_FAILURE() << "exporting the rank files failed:\n" << r.err;
    return out.string();
  }();
  return dir;
}

class PtcGenTokens : public ScratchDirTest {
 protected:
  void SetUp() override {
    ScratchDirTest::SetUp();
    write("shop.hpp", kHeader);
  }
  ptc::test::ProcessResult gen(std::vector<std::string> options) const {
    options.insert(options.end(), {"--out-dir", path("out"), path("shop.hpp"), "--", "-std=c++20"});
    return ptc::test::run_process(PTC_GEN, options);
  }
};

TEST_F(PtcGenTokens, TheJsonReportHasEveryRenderingAndGptTokenizersCounts) {
  auto r = gen({"--token-report=" + path("tokens.json"), "--tokenizer-data=" + rank_dir()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "");
  EXPECT_TRUE(fs::exists(dir_ / "out" / "shop.ptc.cpp"));  // the report comes with the generation
  const auto report = nlohmann::json::parse(read("tokens.json"));
  ASSERT_EQ(report["tools"].size(), 2u);
  EXPECT_EQ(report["tools"][0]["name"], "search");
  const auto& prompt = report["tools"][0]["renderings"]["prompt"];
  EXPECT_EQ(prompt["text"].get<std::string>().rfind("search(query :string, limit :int?) -> :string\n", 0), 0u);
  for (const char* rendering : {"prompt", "openai", "openai-responses", "anthropic", "gemini", "mcp"})
    EXPECT_GT(report["tools"][1]["renderings"][rendering]["o200k_base"].get<int>(), 0) << rendering;
  // Every count is gpt-tokenizer's for the rendering's text, and each total their sum.
  auto oracle = ptc::test::run_process(PTC_NODE, {PTC_TOKENS_NODE_DIR "/check_report.mjs", path("tokens.json")});
  EXPECT_EQ(oracle.exit_code, 0) << oracle.err;
  EXPECT_EQ(oracle.out, "24 counts agree with gpt-tokenizer\n");
}

TEST_F(PtcGenTokens, TheOracleCatchesAWrongCount) {
  ASSERT_EQ(gen({"--token-report=" + path("tokens.json"), "--tokenizer-data=" + rank_dir()}).exit_code, 0);
  auto report = nlohmann::json::parse(read("tokens.json"));
  report["tools"][1]["renderings"]["gemini"]["cl100k_base"] =
      report["tools"][1]["renderings"]["gemini"]["cl100k_base"].get<int>() + 1;
  write("wrong.json", report.dump());
  auto oracle = ptc::test::run_process(PTC_NODE, {PTC_TOKENS_NODE_DIR "/check_report.mjs", path("wrong.json")});
  EXPECT_EQ(oracle.exit_code, 1);
  EXPECT_NE(oracle.err.find("count, gemini, cl100k_base: the report says"), std::string::npos) << oracle.err;
}

TEST_F(PtcGenTokens, TheTableGoesToStandardOutputAndBothFormsMayBeAskedFor) {
  auto r = gen({"--token-report", "--token-report=" + path("tokens.json"), "--tokenizer-data", rank_dir()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out.rfind("Tokens per tool and rendering (o200k_base / cl100k_base)\n"
                        "tool    prompt  openai",
                        0),
            0u)
      << r.out;
  EXPECT_NE(r.out.find("\nsearch  "), std::string::npos);
  EXPECT_NE(r.out.find("\ntotal   "), std::string::npos);
  EXPECT_TRUE(fs::exists(dir_ / "tokens.json"));
}

TEST_F(PtcGenTokens, ABudgetWarnsAtEachToolOverIt) {
  const auto report = [&] {
    gen({"--token-report=" + path("tokens.json"), "--tokenizer-data=" + rank_dir()});
    return nlohmann::json::parse(read("tokens.json"));
  }();
  const int search_mcp = report["tools"][0]["renderings"]["mcp"]["o200k_base"];
  const int count_mcp = report["tools"][1]["renderings"]["mcp"]["o200k_base"];
  ASSERT_LT(count_mcp, search_mcp);
  // Between the two: only search is over.
  const std::string budget = std::to_string(count_mcp);
  auto r = gen({"--token-budget=" + budget, "--tokenizer-data=" + rank_dir()});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err, path("shop.hpp") + ":7:38: warning: tool 'search' costs " + std::to_string(search_mcp) +
                       " o200k_base tokens as its mcp rendering, over the token budget of " + budget + "\n");
  r = gen({"--token-budget=" + budget, "--token-budget-error", "--tokenizer-data=" + rank_dir()});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find(":7:38: error: tool 'search' costs"), std::string::npos) << r.err;
  // At the largest rendering's cost, nothing is over.
  r = gen({"--token-budget=" + std::to_string(search_mcp), "--token-budget-error", "--tokenizer-data=" + rank_dir()});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err, "");
}

TEST_F(PtcGenTokens, ABudgetOverrunIsASarifResultOfItsRule) {
  auto r = gen({"--token-budget=5", "--tokenizer-data=" + rank_dir(), "--diagnostics-format=sarif",
                "--diagnostics-file=" + path("out.sarif")});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  const auto sarif = nlohmann::json::parse(read("out.sarif"));
  const auto& results = sarif["runs"][0]["results"];
  ASSERT_EQ(results.size(), 2u) << results.dump(2);
  EXPECT_EQ(results[0]["ruleId"], "ptc/token-budget");
  EXPECT_EQ(results[0]["level"], "warning");
  EXPECT_EQ(results[0]["locations"][0]["physicalLocation"]["region"]["startLine"], 7);
  EXPECT_EQ(results[1]["locations"][0]["physicalLocation"]["region"]["startLine"], 9);
}

TEST_F(PtcGenTokens, WithoutRankFilesCountingFailsSayingWhereToPointIt) {
  auto r = ptc::test::run_process("/usr/bin/env", {"-u", "PTC_TOKENIZER_DATA", PTC_GEN, "--token-report", "--out-dir",
                                                   path("out"), path("shop.hpp"), "--", "-std=c++20"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err,
            "ptc-gen: error: counting tokens needs OpenAI's rank files (o200k_base.tiktoken, cl100k_base.tiktoken): "
            "give their directory with --tokenizer-data or PTC_TOKENIZER_DATA (docs/tokens.md)\n");
  r = gen({"--token-report", "--tokenizer-data=" + path("nowhere")});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find(path("nowhere") + "/o200k_base.tiktoken"), std::string::npos) << r.err;
  // The environment names the directory when the option does not.
  r = ptc::test::run_process("/usr/bin/env", {"PTC_TOKENIZER_DATA=" + rank_dir(), PTC_GEN, "--token-report",
                                              "--out-dir", path("out"), path("shop.hpp"), "--", "-std=c++20"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
}

TEST_F(PtcGenTokens, OptionsThatCannotGoTogetherAreUsageErrors) {
  auto r = gen({"--watch", "--token-report"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, "ptc-gen: --watch cannot be combined with --token-report or --token-budget\n");
  r = gen({"--print-signatures", "--token-budget=10"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, "ptc-gen: --print-signatures cannot be combined with --token-report or --token-budget\n");
  r = gen({"--token-budget-error"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, "ptc-gen: --token-budget-error needs --token-budget\n");
}

}  // namespace
}  // namespace ptcgen::test
