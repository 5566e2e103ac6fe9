// ptc::cli::run: the list / prompt / schema / definitions / tokens / call subcommands over a small registry,
// in-process.

#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <ptc/cli.hpp>
#include <ptc/limits.hpp>
#include <ptc/error.hpp>
#include <ptc/filesystem.hpp>
#include <ptc/json_schema.hpp>
#include <ptc/mcp/wire.hpp>
#include <ptc/provider.hpp>
#include <ptc/tool_catalog.hpp>
#include <ptc/policy.hpp>
#include <ptc/registry.hpp>
#include <ptc/schema.hpp>
#include <ptc/session.hpp>
#include <ptc/signature.hpp>
#include <ptc/tool.hpp>
#include <ptc/tool_context.hpp>
#include <ptc/tool_errors.hpp>
#include <ptc/tool_result.hpp>
#include <ptc/validate.hpp>

#include "run_process.hpp"

namespace {

using nlohmann::json;
using Result = ptc::ToolResult<json>;
using ::testing::HasSubstr;
using ::testing::StartsWith;

struct CliOutput {
  int exit_code = -1;
  std::string out;
  std::string err;
};

CliOutput run_cli(const ptc::ToolRegistry& registry, const std::vector<std::string>& args,
                  const ptc::cli::Options& options = {}) {
  std::ostringstream out, err;
  CliOutput r;
  r.exit_code = ptc::cli::run(registry, args, out, err, options);
  r.out = out.str();
  r.err = err.str();
  return r;
}

/// Three tools: one that echoes, one that coerces, one whose handler reports a failure.
class CliRun : public ::testing::Test {
 protected:
  CliRun() {
    registry.add(ptc::make_tool("echo", "Echo text back.", "(text :string) -> :string",
                                [](const json& args, ptc::ToolContext&) { return Result::ok(args["text"]); }));
    registry.add(ptc::make_tool("add", "Add two integers.", "(a :int, b :int) -> :int",
                                [](const json& args, ptc::ToolContext&) {
                                  return Result::ok(args["a"].get<std::int64_t>() + args["b"].get<std::int64_t>());
                                }));
    registry.add(ptc::make_tool("fail", "Always fails.", "() -> :string",
                                [](const json&, ptc::ToolContext&) { return Result::error("disk full"); }));
  }
  CliOutput cli(const std::vector<std::string>& args) { return run_cli(registry, args); }

  ptc::ToolRegistry registry;
};

// ---- list, prompt, schema -------------------------------------------------------------------------

TEST_F(CliRun, ListPrintsOneSignatureLinePerToolInRegistrationOrder) {
  auto r = cli({"list"});
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_EQ(r.out, "echo(text :string) -> :string\nadd(a :int, b :int) -> :int\nfail() -> :string\n");
  EXPECT_EQ(r.err, "");
}

TEST_F(CliRun, PromptPrintsTheToolListAsTheModelSeesIt) {
  auto r = cli({"prompt"});
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_EQ(r.out,
            "## Tools you can call\n"
            "\n"
            "echo(text :string) -> :string\n"
            "  Echo text back.\n"
            "\n"
            "add(a :int, b :int) -> :int\n"
            "  Add two integers.\n"
            "\n"
            "fail() -> :string\n"
            "  Always fails.\n");
  EXPECT_EQ(r.err, "");
}

TEST(CliRunSchema, PrintsTheToolsDocumentIndented) {
  ptc::ToolRegistry registry;
  registry.add(ptc::make_tool("echo", "Echo text back.", "(text :string) -> :string",
                              [](const json& args, ptc::ToolContext&) { return Result::ok(args["text"]); }));
  auto r = run_cli(registry, {"schema"});
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_EQ(r.out, R"({
  "tools": [
    {
      "name": "echo",
      "description": "Echo text back.",
      "signature": "(text :string) -> :string",
      "malli": "[:=> [:cat :string] :string]",
      "input_schema": {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "type": "object",
        "properties": {
          "text": {
            "type": "string"
          }
        },
        "required": [
          "text"
        ],
        "additionalProperties": false
      },
      "output_schema": {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "type": "string"
      },
      "annotations": {
        "readOnlyHint": false,
        "destructiveHint": true,
        "idempotentHint": false,
        "openWorldHint": true
      }
    }
  ]
}
)");
  EXPECT_EQ(r.err, "");
}

TEST_F(CliRun, SchemaProfileIsPassedOn) {
  const auto tools = registry.tools();
  for (auto profile : {ptc::Profile::OpenAI, ptc::Profile::Mcp}) {
    auto r = cli({"schema", "--profile", std::string(ptc::profile_name(profile))});
    EXPECT_EQ(r.exit_code, 0);
    EXPECT_EQ(r.out, ptc::tools_document(tools, profile)->dump(2) + "\n");
  }
  // The profiles differ for these tools (MCP wraps the non-object results), so the check above would
  // catch a profile that is dropped on the way.
  EXPECT_NE(ptc::tools_document(tools, ptc::Profile::Mcp)->dump(), ptc::tools_document(tools)->dump());
}

TEST(CliRunSchema, ProfileThatCannotExpressAToolExitsOne) {
  ptc::ToolRegistry registry;
  registry.add(ptc::make_tool("tag", "Attach metadata.", "(meta :map) -> :bool"));
  auto r = run_cli(registry, {"schema", "--profile", "openai"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.out, "");
  EXPECT_THAT(r.err, StartsWith("error: tool 'tag': openai cannot express a map with dynamic keys")) << r.err;
  EXPECT_EQ(run_cli(registry, {"schema"}).exit_code, 0);  // portable can
}

TEST_F(CliRun, UnknownProfileIsAUsageErrorListingTheValidNames) {
  auto r = cli({"schema", "--profile", "yaml"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err, "error: unknown profile 'yaml'; expected portable, openai, anthropic, gemini or mcp\n");
}

// ---- definitions ----------------------------------------------------------------------------------

/// Each tool rendered by `definition`, in registration order.
template <class Definition>
json each_tool(const ptc::ToolRegistry& registry, Definition definition) {
  json out = json::array();
  for (const auto& tool : registry.tools()) out.push_back(json::parse(definition(tool)->dump()));
  return out;
}

TEST_F(CliRun, DefinitionsPrintWhatEachProviderRequestTakesAsTools) {
  const json openai = each_tool(registry, ptc::openai_chat_tool);
  const json expected[][2] = {
      {"openai", openai},
      {"openai-responses", each_tool(registry, ptc::openai_responses_tool)},
      {"anthropic", each_tool(registry, ptc::anthropic_tool)},
      {"gemini", json::array({{{"functionDeclarations", each_tool(registry, ptc::gemini_function_declaration)}}})},
      {"mcp", {{"tools", each_tool(registry, [](const ptc::Tool& t) { return ptc::mcp_tool(t); })}}},
  };
  for (const auto& [format, want] : expected) {
    auto r = cli({"definitions", format.get<std::string>()});
    EXPECT_EQ(r.exit_code, 0) << format << r.err;
    EXPECT_EQ(r.err, "");
    EXPECT_EQ(json::parse(r.out), want) << format;
  }
  // OpenAI's array is ready for a strict-mode request: one function entry per tool, in order.
  ASSERT_EQ(openai.size(), 3u);
  EXPECT_EQ(openai[0]["type"], "function");
  EXPECT_EQ(openai[0]["function"]["name"], "echo");
  EXPECT_EQ(openai[2]["function"]["strict"], true);
}

TEST_F(CliRun, DefinitionsKeepTheKeyOrderOfTheProviderFunctions) {
  auto r = cli({"definitions", "anthropic"});
  ASSERT_EQ(r.exit_code, 0);
  EXPECT_LT(r.out.find("\"name\""), r.out.find("\"description\""));
  EXPECT_LT(r.out.find("\"description\""), r.out.find("\"input_schema\""));
}

TEST(CliRunDefinitions, ToolTheProviderCannotExpressExitsOneNamingIt) {
  ptc::ToolRegistry registry;
  registry.add(ptc::make_tool("tag", "Attach metadata.", "(meta :map) -> :bool"));
  auto r = run_cli(registry, {"definitions", "openai"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.out, "");
  EXPECT_THAT(r.err, StartsWith("error: tool 'tag': openai cannot express a map with dynamic keys")) << r.err;
  EXPECT_EQ(run_cli(registry, {"definitions", "anthropic"}).exit_code, 0);
}

TEST_F(CliRun, UnknownDefinitionsFormatIsAUsageError) {
  auto r = cli({"definitions", "yaml"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err, "error: unknown format 'yaml'; use openai, openai-responses, anthropic, gemini or mcp\n");
  EXPECT_EQ(cli({"definitions"}).exit_code, 2);
}

TEST_F(CliRun, ThePromptIsNotADefinitionsFormat) {
  auto r = cli({"definitions", "prompt"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, "error: unknown format 'prompt'; use openai, openai-responses, anthropic, gemini or mcp\n");
}

// ---- tokens ---------------------------------------------------------------------------------------

/// A directory holding o200k_base.tiktoken and cl100k_base.tiktoken that rank the 256 single bytes and
/// nothing else, so a text costs its length in bytes (tests/tokens compares the real tables with
/// gpt-tokenizer; this checks the subcommand around them).
std::string byte_rank_dir() {
  static const std::string dir = [] {
    char name[] = "/tmp/ptc-cli-ranks-XXXXXX";
    std::string made = ::mkdtemp(name);
    static const char* const kBase64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    std::string ranks;
    for (int b = 0; b < 256; ++b)
      ranks += std::string{kBase64[b >> 2], kBase64[(b & 3) << 4]} + "== " + std::to_string(b) + "\n";
    for (const char* file : {"/o200k_base.tiktoken", "/cl100k_base.tiktoken"}) std::ofstream(made + file) << ranks;
    return made;
  }();
  return dir;
}

TEST_F(CliRun, TokensPrintsATableOfEveryToolsRenderings) {
  auto r = cli({"tokens", "--tokenizer-data", byte_rank_dir()});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err, "");
  EXPECT_THAT(r.out, StartsWith("Tokens per tool and rendering (o200k_base / cl100k_base)\n"
                                "tool   prompt   openai   openai-responses  anthropic*  gemini*  mcp\n"));
  // A text costs its bytes here: echo's prompt entry is "echo(text :string) -> :string\n  Echo text back.\n".
  EXPECT_THAT(r.out, HasSubstr("\necho   48/48 "));
  EXPECT_THAT(r.out, HasSubstr("\ntotal  "));
}

TEST_F(CliRun, TokensJsonHasEachRenderingsTextAndCounts) {
  auto r = cli({"tokens", "--json", "--tokenizer-data", byte_rank_dir()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json report = json::parse(r.out);
  ASSERT_EQ(report["tools"].size(), 3u);
  const json& anthropic = report["tools"][0]["renderings"]["anthropic"];
  const std::string text = anthropic["text"];
  EXPECT_EQ(json::parse(text), json::parse(ptc::anthropic_tool(*registry.find("echo"))->dump()));
  EXPECT_EQ(anthropic["o200k_base"], text.size());
  EXPECT_EQ(anthropic["estimate"], true);
}

TEST_F(CliRun, TokensWithoutRankFilesIsAUsageErrorThatSaysWhereToPointIt) {
  ::unsetenv("PTC_TOKENIZER_DATA");
  auto r = cli({"tokens"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err,
            "error: tokens needs OpenAI's rank files (o200k_base.tiktoken, cl100k_base.tiktoken): give their "
            "directory with --tokenizer-data or PTC_TOKENIZER_DATA\n");
  auto missing = cli({"tokens", "--tokenizer-data", "/nonexistent"});
  EXPECT_EQ(missing.exit_code, 2);
  EXPECT_THAT(missing.err, HasSubstr("/nonexistent/o200k_base.tiktoken"));
  ::setenv("PTC_TOKENIZER_DATA", byte_rank_dir().c_str(), 1);
  EXPECT_EQ(cli({"tokens"}).exit_code, 0);
  ::unsetenv("PTC_TOKENIZER_DATA");
}

// ---- call -----------------------------------------------------------------------------------------

TEST_F(CliRun, CallPrintsTheOutcomeWithCoercionWarnings) {
  auto r = cli({"call", "add", R"({"a":"2","b":3})"});
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_EQ(r.out, R"({
  "status": "succeeded",
  "success": true,
  "message": "OK",
  "value": 5,
  "warnings": [
    {
      "path": "a",
      "message": "coerced string \"2\" to int"
    }
  ]
}
)");
  EXPECT_EQ(r.err, "");
}

TEST_F(CliRun, CallWithInvalidArgumentsPrintsTheValidationReportAndExitsOne) {
  auto r = cli({"call", "add", R"({"a":"two"})"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.out,
            "Tool validation errors:\n"
            "- a: expected int, got string \"two\"\n"
            "- b: missing required field\n");
  EXPECT_EQ(r.err, "");
}

TEST_F(CliRun, CallWithMalformedJsonPrintsTheMessageTheModelWouldGet) {
  auto r = cli({"call", "add", R"({"a":)"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_THAT(r.out, StartsWith("Tool arguments are not valid JSON: column 6: ")) << r.out;
  EXPECT_EQ(r.err, "");

  auto list = cli({"call", "add", "[1, 2]"});
  EXPECT_EQ(list.exit_code, 1);
  EXPECT_EQ(list.out, "Tool arguments must be a JSON object, got list.\n");
}

TEST_F(CliRun, CallWhoseHandlerFailsPrintsTheFailedResultAndExitsOne) {
  auto r = cli({"call", "fail", "{}"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.out, R"({
  "status": "failed",
  "success": false,
  "message": "disk full",
  "value": null,
  "warnings": []
}
)");
  EXPECT_EQ(r.err, "");
}

TEST_F(CliRun, CallWithoutJsonPassesNoArguments) {
  EXPECT_EQ(cli({"call", "fail"}).exit_code, 1);  // reached the handler
  auto r = cli({"call", "add"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.out, "Tool validation errors:\n- a: missing required field\n- b: missing required field\n");
}

TEST_F(CliRun, UnknownToolExitsTwoAndListsTheTools) {
  auto r = cli({"call", "nope", "{}"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err, "error: unknown tool 'nope'\navailable tools: echo, add, fail\n");
}

TEST_F(CliRun, StrictModeRejectsAnExtraField) {
  const std::string args = R"({"text":"hi","extra":1})";
  EXPECT_EQ(cli({"call", "echo", args}).exit_code, 0);  // enabled (the default) keeps extra fields
  auto r = cli({"call", "echo", args, "--mode", "strict"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.out, "Tool validation errors:\n- extra: unexpected field\n");
}

TEST_F(CliRun, WarnOnlyModeLetsABadArgumentThroughAsAWarning) {
  auto r = cli({"call", "echo", R"({"text":7})", "--mode", "warn_only"});
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_THAT(r.out, HasSubstr(R"("message": "expected string, got int 7")")) << r.out;
}

TEST_F(CliRun, UnknownModeIsAUsageErrorListingTheValidNames) {
  auto r = cli({"call", "echo", R"({"text":"hi"})", "--mode", "lenient"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err, "error: unknown mode 'lenient'; expected enabled, warn_only, strict or disabled\n");
}

TEST_F(CliRun, ArgumentsFromAFile) {
  const std::string path = ::testing::TempDir() + "cli_run_test_args.json";
  std::ofstream(path) << R"({"a": 40, "b": 2})";
  auto r = cli({"call", "add", "@" + path});
  std::remove(path.c_str());
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_THAT(r.out, HasSubstr(R"("value": 42,)")) << r.out;

  auto missing = cli({"call", "add", "@" + path});
  EXPECT_EQ(missing.exit_code, 2);
  EXPECT_EQ(missing.err, "error: cannot read " + path + ": No such file or directory\n");
}

TEST_F(CliRun, ArgumentFilesMustBeRegularFilesAndStandardInputIsBounded) {
  const std::string fifo = ::testing::TempDir() + "cli_run_test_fifo";
  std::remove(fifo.c_str());
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  auto blocked = cli({"call", "add", "@" + fifo});  // would wait for a writer forever
  std::remove(fifo.c_str());
  EXPECT_EQ(blocked.exit_code, 2);
  EXPECT_EQ(blocked.err, "error: cannot read " + fifo + ": not a regular file (a FIFO)\n");

  std::istringstream endless(std::string(ptc::limits::kFileBytes + 1, ' '));
  auto* saved = std::cin.rdbuf(endless.rdbuf());
  auto flood = cli({"call", "add", "-"});
  std::cin.rdbuf(saved);
  EXPECT_EQ(flood.exit_code, 2);
  EXPECT_EQ(flood.err, "error: cannot read <stdin>: more than " + std::to_string(ptc::limits::kFileBytes) +
                           " bytes (the limit)\n");
}

TEST_F(CliRun, ArgumentsFromStandardInput) {
  std::istringstream input(R"({"text": "from stdin"})");
  auto* saved = std::cin.rdbuf(input.rdbuf());
  auto r = cli({"call", "echo", "-"});
  std::cin.rdbuf(saved);
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_THAT(r.out, HasSubstr(R"("value": "from stdin",)")) << r.out;
}

// ---- sessions -------------------------------------------------------------------------------------

/// The example's setup in miniature: file tools under ReadBeforeWritePolicy, a filesystem per session.
class CliRunWorkspace : public ::testing::Test {
 protected:
  CliRunWorkspace() {
    auto read_first = std::make_shared<ptc::ReadBeforeWritePolicy>();
    registry.add(ptc::make_tool("read_file", "Read a file.", "(path :string) -> :string",
                                [](const json& args, ptc::ToolContext& context) {
                                  return Result::ok(context.filesystem().read(args["path"].get<std::string>()));
                                }),
                 {read_first});
    registry.add(ptc::make_tool("write_file", "Write a file.", "(path :string, content :string) -> {bytes :int}",
                                [](const json& args, ptc::ToolContext& context) {
                                  const auto& content = args["content"].get_ref<const std::string&>();
                                  context.filesystem().write(args["path"].get<std::string>(), content);
                                  return Result::ok({{"bytes", content.size()}});
                                }),
                 {read_first});
    options.prepare_session = [this](ptc::Session& session) {
      ++sessions;
      auto files = std::make_shared<ptc::InMemoryFilesystem>();
      files->write("notes.txt", "- buy milk\n");
      session.resources().add<ptc::Filesystem>(files);
    };
  }

  ptc::ToolRegistry registry;
  ptc::cli::Options options;
  int sessions = 0;
};

TEST_F(CliRunWorkspace, PrepareSessionSetsUpTheSessionOfTheCall) {
  auto r = run_cli(registry, {"call", "read_file", R"({"path":"notes.txt"})"}, options);
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_THAT(r.out, HasSubstr(R"("value": "- buy milk\n",)")) << r.out;
  EXPECT_EQ(sessions, 1);
  EXPECT_EQ(run_cli(registry, {"list"}, options).exit_code, 0);
  EXPECT_EQ(sessions, 1);  // only `call` needs a session
}

TEST_F(CliRunWorkspace, EachCallHasAFreshSessionSoAPolicyDenialShows) {
  EXPECT_EQ(run_cli(registry, {"call", "read_file", R"({"path":"notes.txt"})"}, options).exit_code, 0);
  // The read above happened in another session, so overwriting is still refused.
  auto r = run_cli(registry, {"call", "write_file", R"({"path":"notes.txt","content":"x"})"}, options);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.out, R"({
  "status": "denied",
  "success": false,
  "message": "File 'notes.txt' must be read before overwriting.",
  "value": null,
  "warnings": []
}
)");
  auto fresh = run_cli(registry, {"call", "write_file", R"({"path":"new.txt","content":"abc"})"}, options);
  EXPECT_EQ(fresh.exit_code, 0);
  EXPECT_THAT(fresh.out, HasSubstr(R"("bytes": 3)")) << fresh.out;
  EXPECT_EQ(sessions, 3);
}

TEST(CliRunErrors, HandlerExceptionBecomesAFailedOutcome) {
  ptc::ToolRegistry registry;
  registry.add(ptc::make_tool("divide", "Divide a by b.", "(a :float, b :float) -> :float",
                              [](const json& args, ptc::ToolContext&) {
                                if (args["b"].get<double>() == 0) throw std::domain_error("division by zero");
                                return Result::ok(args["a"].get<double>() / args["b"].get<double>());
                              }));
  auto r = run_cli(registry, {"call", "divide", R"({"a":1,"b":0})"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.out, R"({
  "status": "handler_exception",
  "success": false,
  "message": "Tool 'divide' execution failed: division by zero",
  "value": null,
  "warnings": []
}
)");
}

TEST(CliRunErrors, EvaluationStoppedByTheHandlerIsReportedOnStderr) {
  ptc::ToolRegistry registry;
  registry.add(ptc::make_tool("halt", "Stop everything.", "() -> :nil", [](const json&, ptc::ToolContext&) -> Result {
    throw ptc::PromptEvaluationError("budget exhausted", "halt");
  }));
  auto r = run_cli(registry, {"call", "halt"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err, "error: budget exhausted\n");
}

// ---- usage ----------------------------------------------------------------------------------------

TEST_F(CliRun, NoSubcommandIsAUsageError) {
  auto r = cli({});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.out, "");
  EXPECT_THAT(r.err,
              StartsWith("error: give a subcommand: list, prompt, schema, definitions, tokens, call, mcp or agent\n"))
      << r.err;
  EXPECT_THAT(r.err, HasSubstr("Usage:"));
}

TEST_F(CliRun, UnknownSubcommandOrOptionIsAUsageError) {
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"frob"}, {"list", "--bogus"}, {"call"}, {"schema", "--profile"}, {"list", "prompt"}}) {
    auto r = cli(args);
    EXPECT_EQ(r.exit_code, 2) << args[0];
    EXPECT_EQ(r.out, "") << args[0];
    EXPECT_THAT(r.err, StartsWith("error: ")) << args[0];
    EXPECT_THAT(r.err, HasSubstr("Usage:")) << args[0];
  }
  EXPECT_THAT(cli({"frob"}).err, StartsWith("error: The following argument was not expected: frob\n"));
  EXPECT_THAT(cli({"call"}).err, HasSubstr("Usage: call [OPTIONS] NAME [JSON]"));  // the subcommand's own usage
}

// The key file is read before anything is served: a bad one is one line and exit 2, and the secret
// in it is never shown.
TEST_F(CliRun, AStateKeyFileThatCannotBeUsedIsAUsageError) {
  char pattern[] = "/tmp/ptc-cli-state-key-XXXXXX";
  ASSERT_NE(::mkdtemp(pattern), nullptr);
  const std::string dir = pattern, open_key = dir + "/open.key", short_key = dir + "/short.key";
  const std::string secret = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";
  std::ofstream(open_key) << secret << "\n";
  ::chmod(open_key.c_str(), 0644);
  std::ofstream(short_key) << secret.substr(0, 32) << "\n";
  ::chmod(short_key.c_str(), 0600);
  const auto serve = [&](const std::string& file) {
    return cli({"mcp", "--http", "127.0.0.1:0", "--state-key-file", file});
  };
  auto r = serve(open_key);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err, "error: state key file " + open_key +
                       " is open to group or others (mode 0644); make it private: chmod 600 " + open_key + "\n");
  r = serve(short_key);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, "error: state key file " + short_key +
                       " must hold at least 64 hex digits (32 bytes of secret), e.g. from openssl rand -hex 32\n");
  EXPECT_EQ(r.err.find(secret.substr(0, 32)), std::string::npos);
  r = serve(dir + "/missing.key");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, "error: cannot read state key file " + dir + "/missing.key: No such file or directory\n");
  std::remove(open_key.c_str());
  std::remove(short_key.c_str());
  ::rmdir(dir.c_str());
}

TEST_F(CliRun, HelpGoesToStdoutAndExitsZero) {
  auto r = cli({"--help"});
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_EQ(r.err, "");
  for (const char* command : {"list", "prompt", "schema", "call"}) EXPECT_THAT(r.out, HasSubstr(command));

  auto call = cli({"call", "--help"});
  EXPECT_EQ(call.exit_code, 0);
  EXPECT_THAT(call.out, HasSubstr("--mode"));
}

TEST_F(CliRun, ArgcArgvOverloadUsesTheProgramNameWithoutItsDirectory) {
  // Usage goes to std::cerr; capture it by swapping the buffer.
  std::ostringstream err;
  auto* saved = std::cerr.rdbuf(err.rdbuf());
  const char* argv[] = {"/usr/local/bin/notes", "frob"};
  const int code = ptc::cli::run(registry, 2, argv);
  std::cerr.rdbuf(saved);
  EXPECT_EQ(code, 2);
  EXPECT_THAT(err.str(), HasSubstr("Usage: notes [OPTIONS]")) << err.str();
}

// ---- the example program --------------------------------------------------------------------------

#ifdef PTC_TOOLS_EXAMPLE
TEST(ToolsExample, DemoPrintsTheScriptedConversation) {
  auto r = ptc::test::run_process(PTC_TOOLS_EXAMPLE, {});
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_THAT(r.out, HasSubstr("> add {\"a\":\"2\",\"b\":3}   [succeeded]\n    5\n"
                               "    warning: a: coerced string \"2\" to int\n"));
  EXPECT_THAT(r.out, HasSubstr("[denied]\n    File 'notes.txt' must be read before overwriting.\n"));
  EXPECT_THAT(r.out, HasSubstr("[handler_exception]\n    Tool 'divide' execution failed: division by zero\n"));
}

TEST(ToolsExample, ArgumentsRunTheToolCli) {
  auto r = ptc::test::run_process(PTC_TOOLS_EXAMPLE, {"call", "read_file", R"({"path":"notes.txt"})"});
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_THAT(r.out, HasSubstr(R"("value": "- buy milk\n- call Bob\n",)")) << r.out;
}
#endif

}  // namespace
