// `ptc command ...` (cli/app/command_command.cpp) run as a program: output, --signals, exit codes, and
// errors that name the file.

#include <stdlib.h>

#include <algorithm>

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "command_test_support.hpp"
#include "run_process.hpp"

namespace {

using nlohmann::json;
using ptc::test::ProcessResult;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::StartsWith;

std::vector<json> lines_of(const std::string& out) {
  std::vector<json> lines;
  std::size_t start = 0;
  for (auto end = out.find('\n'); end != std::string::npos; start = end + 1, end = out.find('\n', start))
    lines.push_back(json::parse(out.substr(start, end - start)));
  return lines;
}

class CommandCli : public ::testing::Test {
 protected:
  CommandCli() {
    dir.write("project/settings.json",
              R"js({"permissions": {"allow": ["Read"]}, "commands": {"default_model": "sonnet"}})js");
    dir.write(
        "project/commands/review.md",
        ptc::test::command_text("name: review\ndescription: Review a PR\nallowed-tools: Read, Write\n"
                                "jido:\n  hooks: {pre: true, after: true}\n  schema:\n"
                                "    pr: {type: integer, required: true}\n    focus: {type: string, default: tests}\n",
                                "Review #{{pr}} ({{focus}})."));
    dir.write("global/commands/hello.md",
              ptc::test::command_text("name: hello\ndescription: Greets\n", "Hello {{who}}!"));
  }
  ProcessResult ptc(std::vector<std::string> args) {
    args.insert(args.end(), {"--root", (dir / "project").string(), "--global-root", (dir / "global").string()});
    return ptc::test::run_process(PTC_CLI, args);
  }

  ptc::test::TempDir dir;
};

TEST_F(CommandCli, ListPrintsTheNamesOnePerLine) {
  auto r = ptc({"command", "list"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "hello\nreview\n");
  EXPECT_EQ(r.err, "");
}

TEST_F(CommandCli, InvokePrintsTheResult) {
  auto r = ptc({"command", "invoke", "review", "--params", R"js({"pr":"7"})js", "--context", R"js({"user":"ann"})js",
                "--invocation-id", "inv-1"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto out = json::parse(r.out);
  EXPECT_EQ(out["invocation_id"], "inv-1");
  EXPECT_EQ(out["result"],
            json::parse(R"js({"command":"review","prompt":"Review #7 (tests).","params":{"pr":7,"focus":"tests"},
    "allowed_tools":["Read","Write"],"model":"sonnet","permissions":{"allow":["Read"],"deny":[],"ask":[]}})js"));
  EXPECT_EQ(r.err, "");
}

TEST_F(CommandCli, ParamsMayComeFromAFile) {
  auto file = dir.write("params.json", R"js({"who": "Ada"})js");
  auto r = ptc({"command", "invoke", "hello", "--params", "@" + file.string()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(json::parse(r.out)["result"]["prompt"], "Hello Ada!");
}

TEST_F(CommandCli, SignalsArePrintedInOrderBeforeTheResult) {
  auto r = ptc({"command", "invoke", "review", "--params", R"js({"pr":1})js", "--signals"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto lines = lines_of(r.out);
  ASSERT_EQ(lines.size(), 3u);
  EXPECT_EQ(lines[0]["type"], "jido.hooks.pre");
  EXPECT_EQ(lines[1]["type"], "jido.hooks.after");
  EXPECT_EQ(lines[1]["data"]["status"], "ok");
  for (const char* key : {"id", "type", "source", "time", "data"}) EXPECT_TRUE(lines[0].contains(key)) << key;
  EXPECT_EQ(lines[2]["invocation_id"], lines[0]["data"]["invocation_id"]);
}

TEST_F(CommandCli, InvokeFailuresGoToStderrWithExitOne) {
  auto r = ptc({"command", "invoke", "review", "--params", R"js({"pr":"seven"})js"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err, "error: invalid params for command 'review': pr: expected int, got string \"seven\"\n");
  auto ghost = ptc({"command", "invoke", "ghost"});
  EXPECT_EQ(ghost.exit_code, 1);
  EXPECT_EQ(ghost.err, "error: unknown command 'ghost'\n");
  auto not_object = ptc({"command", "invoke", "hello", "--params", "[1]"});
  EXPECT_EQ(not_object.exit_code, 1);
  EXPECT_EQ(not_object.err, "error: params must be an object, got list\n");
  auto malformed = ptc({"command", "invoke", "hello", "--context", "{"});
  EXPECT_EQ(malformed.exit_code, 1);
  EXPECT_THAT(malformed.err, StartsWith("error: --context: column 2: invalid JSON: syntax error"));
  auto repeated = ptc({"command", "invoke", "hello", "--params", R"js({"who":{"a":1,":a":2}})js"});
  EXPECT_EQ(repeated.exit_code, 1);
  // Named in key order: the text was parsed (refusing exact repeats) before the names were compared.
  EXPECT_EQ(repeated.err, "error: --params: who: conflicting keys \":a\" and \"a\"\n");
}

TEST_F(CommandCli, DispatchRunsThroughTheDispatcher) {
  auto r =
      ptc({"command", "dispatch", "review", "--params", R"js({"pr":3})js", "--invocation-id", "inv-3", "--signals"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto lines = lines_of(r.out);
  std::vector<std::string> types;
  for (std::size_t i = 0; i + 1 < lines.size(); ++i) types.push_back(lines[i]["type"]);
  EXPECT_THAT(types, ElementsAre("command.invoke", "jido.hooks.pre", "jido.hooks.after", "command.completed"));
  EXPECT_EQ(lines.back(), (json{{"invocation_id", "inv-3"}}));
  EXPECT_EQ(lines[3]["data"]["result"]["result"]["permissions"]["allow"], json::array({"Read"}));
}

TEST_F(CommandCli, AFailedDispatchExitsOne) {
  auto r = ptc({"command", "dispatch", "review", "--invocation-id", "inv-4"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.out, "{\"invocation_id\":\"inv-4\"}\n");
  EXPECT_EQ(r.err, "error: invalid params for command 'review': pr: missing required field\n");
}

TEST_F(CommandCli, RegistryOperationsPrintTheirSignalData) {
  auto reload = ptc({"command", "reload", "--signals"});
  ASSERT_EQ(reload.exit_code, 0) << reload.err;
  auto lines = lines_of(reload.out);
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_EQ(lines[0]["type"], "command.registry.reloaded");
  EXPECT_EQ(lines[1], (json{{"previous_count", 2}, {"current_count", 2}}));

  auto file = dir.write("extra/extra.md", ptc::test::command_text("name: extra\ndescription: Extra\n"));
  auto reg = ptc({"command", "register", file.string()});
  ASSERT_EQ(reg.exit_code, 0) << reg.err;
  EXPECT_EQ(json::parse(reg.out),
            (json{{"name", "extra"}, {"path", file.string()}, {"scope", "manual"}, {"current_count", 3}}));

  auto unreg = ptc({"command", "unregister", "hello"});
  ASSERT_EQ(unreg.exit_code, 0) << unreg.err;
  EXPECT_EQ(json::parse(unreg.out), (json{{"name", "hello"}, {"current_count", 1}}));

  auto ghost = ptc({"command", "unregister", "ghost", "--signals"});
  EXPECT_EQ(ghost.exit_code, 1);
  EXPECT_EQ(json::parse(ghost.out)["type"], "command.registry.failed");
  EXPECT_EQ(ghost.err, "error: unknown command 'ghost'\n");

  auto blank = ptc({"command", "register", " "});
  EXPECT_EQ(blank.exit_code, 1);
  EXPECT_EQ(blank.err, "error: invalid_path: a command path must be a non-empty string\n");
}

TEST_F(CommandCli, BadSettingsAndCommandFilesNameTheFileAndTheRule) {
  auto settings = dir.write("project/settings.json", R"js({"commands": {"max_concurrent": "many"}})js");
  auto r = ptc({"command", "list"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err, "error: " + settings.string() + ": commands.max_concurrent: must be a positive integer\n");
  std::filesystem::remove(settings);
  auto file = dir.write("project/commands/broken.md",
                        ptc::test::command_text("name: broken\ndescription: B\nargument-hint: x\n"));
  r = ptc({"command", "list"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err, "error: " + file.string() +
                       ": argument-hint: unknown key; expected name, description, model, allowed-tools (or "
                       "allowed_tools) or jido\n");
}

TEST_F(CommandCli, UsageErrorsExitTwo) {
  EXPECT_EQ(ptc::test::run_process(PTC_CLI, {"command"}).exit_code, 2);
  EXPECT_EQ(ptc::test::run_process(PTC_CLI, {"command", "invoke"}).exit_code, 2);
  EXPECT_EQ(ptc({"command", "list", "--bogus"}).exit_code, 2);
  EXPECT_EQ(ptc({"command", "list", "--params", "{}"}).exit_code, 2);
  EXPECT_EQ(ptc({"command", "frobnicate"}).exit_code, 2);
}

TEST_F(CommandCli, RootsDefaultToDotJidoCodeHereAndInHome) {
  ptc::test::TempDir home;
  home.write(".jido_code/commands/mine.md", ptc::test::command_text("name: mine\ndescription: Mine\n"));
  const char* old = getenv("HOME");
  std::string saved = old ? old : "";
  setenv("HOME", home.path().c_str(), 1);
  auto r = ptc::test::run_process(PTC_CLI, {"command", "list", "--root", (dir / "project").string()});
  if (old)
    setenv("HOME", saved.c_str(), 1);
  else
    unsetenv("HOME");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "mine\nreview\n");
}

// Each input of `ptc command` is handled in time linear in its size: 200,000 params, a body of 200,000
// placeholders and 2,000 command files take about a second together; a quadratic step would take
// minutes and run into this test's timeout (tests/CMakeLists.txt).
TEST_F(CommandCli, LargeInputsAreHandledInLinearTime) {
  std::string params = "{";
  for (int i = 0; i < 200000; ++i) params += (i ? ",\"k" : "\"k") + std::to_string(i) + "\":" + std::to_string(i);
  dir.write("params.json", params + "}");
  auto invoked = ptc({"command", "invoke", "hello", "--params", "@" + (dir / "params.json").string()});
  ASSERT_EQ(invoked.exit_code, 0) << invoked.err;
  EXPECT_EQ(json::parse(invoked.out)["result"]["params"].size(), 200000u);

  std::string body;
  for (int i = 0; i < 200000; ++i) body += "{{who}} ";
  dir.write("project/commands/long.md", ptc::test::command_text("name: long\ndescription: Long\n", body));
  auto rendered = ptc({"command", "invoke", "long", "--params", R"js({"who":"ab"})js"});
  ASSERT_EQ(rendered.exit_code, 0) << rendered.err;
  EXPECT_EQ(json::parse(rendered.out)["result"]["prompt"].get<std::string>().size(), 200000u * 3);

  for (int i = 0; i < 2000; ++i)
    dir.write("project/commands/c" + std::to_string(i) + ".md",
              ptc::test::command_text("name: c" + std::to_string(i) + "\ndescription: C\n", "x"));
  auto listed = ptc({"command", "list"});
  ASSERT_EQ(listed.exit_code, 0) << listed.err;
  EXPECT_EQ(std::count(listed.out.begin(), listed.out.end(), '\n'), 2003);
}

}  // namespace
