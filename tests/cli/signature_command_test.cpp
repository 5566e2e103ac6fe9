// `ptc signature ...` (cli/app/signature_command.cpp) run as a program: output shapes and exit codes of
// README.md, "The ptc command".

#include <cstdio>

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "run_process.hpp"

namespace {

using ptc::test::ProcessResult;

ProcessResult ptc_cli(std::vector<std::string> args) { return ptc::test::run_process(PTC_CLI, args); }

TEST(Cli, ParsePrintsCanonicalShorthand) {
  auto r = ptc_cli({"signature", "parse", "(a :int b :string)->{:id :int :email :string?}"});
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_EQ(r.out, "(a :int, b :string) -> {id :int, email :string?}\n");
  EXPECT_EQ(r.err, "");
}

TEST(Cli, MalliPrintsCanonicalMalli) {
  auto r = ptc_cli({"signature", "malli", "(a :int, b :string) -> :bool"});
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_EQ(r.out, "[:=> [:cat :int :string] :boolean]\n");
}

TEST(Cli, MalliFlagReadsMalliText) {
  auto r = ptc_cli({"signature", "parse", "--malli", "[:=> [:catn [:q :string]] [:vector :int]]"});
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_EQ(r.out, "(q :string) -> [:int]\n");
  auto back = ptc_cli({"signature", "malli", "--malli", "[:map [:n {:default 3} :int]]"});
  EXPECT_EQ(back.exit_code, 0);
  EXPECT_EQ(back.out, "[:=> [:cat] [:map [:n {:default 3} :int]]]\n");
}

TEST(Cli, ParseErrorGoesToStderrWithExitOne) {
  auto r = ptc_cli({"signature", "parse", "(a :integer) -> :int"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.out, "");
  EXPECT_TRUE(r.err.starts_with("error: column 4: unknown type :integer; valid types are :string :int :float"))
      << r.err;
}

TEST(Cli, ValidateInputCoercesAndReportsWarnings) {
  auto r =
      ptc_cli({"signature", "validate", "(id :int, name :string) -> :bool", "--input", R"({"id":"42","name":"Al"})"});
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_EQ(
      r.out,
      R"({"ok":true,"value":{"id":42,"name":"Al"},"errors":[],"warnings":[{"path":"id","message":"coerced string \"42\" to int"}]})"
      "\n");
}

TEST(Cli, ValidateOutputIsStrictAndExitsOneWhenInvalid) {
  auto r = ptc_cli({"signature", "validate", "() -> {count :int}", "--output", R"({"count":"5"})"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(
      r.out,
      R"({"ok":false,"value":{"count":"5"},"errors":[{"path":"count","message":"expected int, got string \"5\""}],"warnings":[]})"
      "\n");
}

TEST(Cli, ValidateModes) {
  auto strict =
      ptc_cli({"signature", "validate", "(id :int) -> :any", "--input", R"({"id":1,"x":2})", "--mode", "strict"});
  EXPECT_EQ(strict.exit_code, 1);
  EXPECT_NE(strict.out.find(R"({"path":"x","message":"unexpected field"})"), std::string::npos) << strict.out;
  auto warn =
      ptc_cli({"signature", "validate", "(id :int) -> :any", "--input", R"({"id":"x"})", "--mode", "warn_only"});
  EXPECT_EQ(warn.exit_code, 0);
  EXPECT_EQ(
      warn.out,
      R"({"ok":true,"value":{"id":"x"},"errors":[],"warnings":[{"path":"id","message":"expected int, got string \"x\""}]})"
      "\n");
  auto off = ptc_cli({"signature", "validate", "(id :int) -> :any", "--input", R"({"id":"x"})", "--mode", "disabled"});
  EXPECT_EQ(off.exit_code, 0);
  EXPECT_EQ(off.out, R"({"ok":true,"value":{"id":"x"},"errors":[],"warnings":[]})"
                     "\n");
}

TEST(Cli, ValidateUsageErrorsExitTwo) {
  EXPECT_EQ(ptc_cli({"signature", "validate", "(id :int) -> :any", R"({"id":1})"}).exit_code, 2);
  EXPECT_EQ(ptc_cli({"signature", "validate", "(id :int) -> :any", "--input", "--output", "{}"}).exit_code, 2);
  auto bad_mode = ptc_cli({"signature", "validate", "(id :int) -> :any", "--input", "{}", "--mode", "lenient"});
  EXPECT_EQ(bad_mode.exit_code, 2);
  EXPECT_EQ(bad_mode.err, "error: unknown mode 'lenient'; expected enabled, warn_only, strict or disabled\n");
  EXPECT_EQ(ptc_cli({"signature", "frobnicate", "x"}).exit_code, 2);
  EXPECT_EQ(ptc_cli({}).exit_code, 2);
}

TEST(Cli, ValidateMalformedJsonIsAnErrorWithPosition) {
  auto r = ptc_cli({"signature", "validate", "(id :int) -> :any", "--input", R"({"id": })"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_TRUE(r.err.starts_with("error: column 8: invalid JSON: ")) << r.err;
  std::string deep(100000, '[');
  auto d = ptc_cli({"signature", "validate", ":any", "--output", deep});
  EXPECT_EQ(d.exit_code, 1);
  EXPECT_EQ(d.err, "error: invalid JSON: nesting deeper than 512 levels\n");
}

TEST(Cli, RenderPrintsThePromptEntry) {
  auto r = ptc_cli({"signature", "render", "(query :string, limit :int) -> [{id :int, title :string}]", "--name",
                    "search", "--description", "Search for items matching query."});
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_EQ(r.out,
            "search(query :string, limit :int) -> [{id :int, title :string}]\n  Search for items matching query.\n");
}

TEST(Cli, RenderRefusesANameNoToolCouldHave) {
  auto r = ptc_cli({"signature", "render", "(q :string) -> :nil", "--name", "Bad Name!"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err, "error: invalid tool name 'Bad Name!'; tool names must match ^[a-z0-9_-]{1,64}$\n");
}

TEST(Cli, JsonSchemaPrintsInputAndOutput) {
  auto r = ptc_cli({"signature", "json-schema", "(q :string, n :int?) -> :string", "--profile", "mcp"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto j = nlohmann::ordered_json::parse(r.out);
  EXPECT_EQ(
      j.dump(),
      R"({"input":{"type":"object","properties":{"q":{"type":"string"},"n":{"anyOf":[{"type":"integer"},{"type":"null"}]}},"required":["q"],"additionalProperties":false},)"
      R"("output":{"type":"object","properties":{"result":{"type":"string"}},"required":["result"],"additionalProperties":false}})");
}

TEST(Cli, JsonSchemaRefusalNamesThePath) {
  auto r = ptc_cli({"signature", "json-schema", "(meta {tags :map}) -> :int", "--profile", "openai"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err,
            "error: openai cannot express a map with dynamic keys (:map / [:map-of K V]); use a map with named "
            "fields at meta.tags\n");
  EXPECT_EQ(ptc_cli({"signature", "json-schema", ":int", "--profile", "cohere"}).exit_code, 2);
}

TEST(Cli, HelpDescribesCommands) {
  auto r = ptc_cli({"signature", "validate", "--help"});
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_NE(r.out.find("--mode"), std::string::npos);
  EXPECT_NE(r.out.find("exit 0 valid, 1 invalid, 2 usage"), std::string::npos);
}

}  // namespace

namespace {

TEST(Cli, ValidateReadsJsonFromAFile) {
  std::string path = testing::TempDir() + "/ptc_cli_args.json";
  {
    std::FILE* f = std::fopen(path.c_str(), "w");
    ASSERT_NE(f, nullptr);
    std::fputs(R"({"id":"7"})", f);
    std::fclose(f);
  }
  auto r = ptc_cli({"signature", "validate", "(id :int) -> :nil", "--input", "@" + path});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(
      r.out,
      R"({"ok":true,"value":{"id":7},"errors":[],"warnings":[{"path":"id","message":"coerced string \"7\" to int"}]})"
      "\n");
  auto missing = ptc_cli({"signature", "validate", "(id :int) -> :nil", "--input", "@/nonexistent/ptc.json"});
  EXPECT_EQ(missing.exit_code, 2);
  EXPECT_EQ(missing.err, "error: cannot read /nonexistent/ptc.json: No such file or directory\n");
  auto directory = ptc_cli({"signature", "validate", "(id :int) -> :nil", "--input", "@/tmp"});
  EXPECT_EQ(directory.exit_code, 2);
  EXPECT_EQ(directory.err, "error: cannot read /tmp: not a regular file (a directory)\n");
  auto zero = ptc_cli({"signature", "validate", "(id :int) -> :nil", "--input", "@/dev/zero"});
  EXPECT_EQ(zero.exit_code, 2);
  EXPECT_EQ(zero.err, "error: cannot read /dev/zero: not a regular file (a character device)\n");
}

// Each path of `signature validate` is linear in its input: 200,000 keys take about a second, and a
// quadratic step (ordered_json's parser looked each key up among the ones before it) took minutes and
// ran into ctest's timeout for this test.
TEST(Cli, ValidateIsLinearInTheNumberOfKeys) {
  std::string path = testing::TempDir() + "/ptc_cli_wide.json";
  {
    std::string text = "{";
    for (int i = 0; i < 200000; ++i) text += (i ? ",\"k" : "\"k") + std::to_string(i) + "\":" + std::to_string(i);
    text += "}";
    std::FILE* f = std::fopen(path.c_str(), "w");
    ASSERT_NE(f, nullptr);
    std::fputs(text.c_str(), f);
    std::fclose(f);
  }
  auto output = ptc_cli({"signature", "validate", "() -> :map", "--output", "@" + path});
  EXPECT_EQ(output.exit_code, 0) << output.err;
  auto parsed = nlohmann::json::parse(output.out);
  EXPECT_EQ(parsed["value"].size(), 200000u);
  EXPECT_EQ(parsed["value"]["k199999"], 199999);
  auto input = ptc_cli({"signature", "validate", "(k0 :int) -> :nil", "--input", "@" + path});
  EXPECT_EQ(input.exit_code, 0) << input.err;
  EXPECT_EQ(nlohmann::json::parse(input.out)["value"]["k0"], 0);
}

}  // namespace
