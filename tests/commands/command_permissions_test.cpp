// Permission rules: narrowing to a command's allowed tools (raw-string wildcards), the decision for one
// tool use, and the tool policy that applies it to the calls an LLM makes.

#include <functional>
#include <random>
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <ptc/command_permissions.hpp>
#include <ptc/command_policy.hpp>
#include <ptc/registry.hpp>
#include <ptc/session.hpp>
#include <ptc/tool.hpp>

namespace {

using ptc::PermissionEffect;
using ptc::Permissions;
using ::testing::ElementsAre;
using ::testing::IsEmpty;

TEST(Wildcard, StarStandsForAnyRunOfCharacters) {
  EXPECT_TRUE(ptc::wildcard_matches("Read", "Read"));
  EXPECT_FALSE(ptc::wildcard_matches("Read", "Reads"));
  EXPECT_TRUE(ptc::wildcard_matches("Bash(git diff:*)", "Bash(git diff:--stat)"));
  EXPECT_TRUE(ptc::wildcard_matches("Bash(git diff:*)", "Bash(git diff:)"));
  EXPECT_TRUE(ptc::wildcard_matches("*", ""));
  EXPECT_TRUE(ptc::wildcard_matches("a*b*c", "aXbYbZc"));
  EXPECT_FALSE(ptc::wildcard_matches("a*b*c", "aXbYbZ"));
  EXPECT_TRUE(ptc::wildcard_matches("Bash(*)", "Bash(a(b)c)"));
}

TEST(Wildcard, TokensAreNotParsed) {
  EXPECT_FALSE(ptc::wildcard_matches("Bash(git:*)", "Bash(git diff:*)"));
  EXPECT_FALSE(ptc::wildcard_matches("Bash(git:*)", "Bash(git diff:--stat)"));
  EXPECT_TRUE(ptc::wildcard_matches("Bash(git*)", "Bash(git diff:--stat)"));
}

TEST(RestrictPermissions, WithoutAllowedToolsNothingChanges) {
  Permissions p{{"Read", "Write"}, {"Bash(rm:*)"}, {"WebFetch"}};
  EXPECT_EQ(ptc::restrict_permissions(p, {}), p);
}

TEST(RestrictPermissions, AllowKeepsOnlyTheDeclaredToolsAndDenyAndAskSurviveWhole) {
  Permissions p{{"Read", "Write", "Grep"}, {"Write", "Bash(rm:*)"}, {"WebFetch", "Read"}};
  auto r = ptc::restrict_permissions(p, {"Read", "Grep"});
  EXPECT_THAT(r.allow, ElementsAre("Read", "Grep"));
  EXPECT_EQ(r.deny, p.deny);
  EXPECT_EQ(r.ask, p.ask);
}

TEST(RestrictPermissions, ACommandDeclaringEveryToolCannotDropTheUsersDenyRules) {
  Permissions p{{"Bash(ls:*)"}, {"Bash(rm:*)"}, {"Bash(git push:*)"}};
  auto r = ptc::restrict_permissions(p, {"Bash(*)"});
  EXPECT_EQ(r.deny, p.deny);
  EXPECT_EQ(r.ask, p.ask);
  EXPECT_EQ(ptc::decide_permission(r, "Bash(rm -rf /)").effect, PermissionEffect::Deny);
  EXPECT_EQ(ptc::decide_permission(r, "Bash(git push)").effect, PermissionEffect::Ask);
}

TEST(RestrictPermissions, AWildcardRuleCoversAConcreteAllowedTool) {
  auto r = ptc::restrict_permissions({{"Bash(git diff:*)"}, {}, {}}, {"Bash(git diff:--stat)"});
  EXPECT_THAT(r.allow, ElementsAre("Bash(git diff:--stat)"));
}

TEST(RestrictPermissions, AShorterWildcardDoesNotCoverALongerOne) {
  auto r = ptc::restrict_permissions({{"Bash(git:*)"}, {"Bash(git:*)"}, {}}, {"Bash(git diff:*)"});
  EXPECT_THAT(r.allow, IsEmpty());
  EXPECT_THAT(r.deny, ElementsAre("Bash(git:*)"));
}

TEST(RestrictPermissions, WildcardAllowedToolsKeepTheExactRulesTheyCover) {
  Permissions p{{"Bash(git diff:--stat)", "Bash(git diff:HEAD)", "Bash(ls)", "Bash(git diff:*)"},
                {},
                {"Bash(git diff:--cached)"}};
  auto r = ptc::restrict_permissions(p, {"Bash(git diff:*)"});
  EXPECT_THAT(r.allow, ElementsAre("Bash(git diff:*)", "Bash(git diff:--stat)", "Bash(git diff:HEAD)"));
  EXPECT_THAT(r.ask, ElementsAre("Bash(git diff:--cached)"));
}

TEST(RestrictPermissions, WildcardRulesAreNotKeptJustBecauseAWildcardToolMatchesThem) {
  auto r = ptc::restrict_permissions({{"Bash(git diff:-*)"}, {}, {}}, {"Bash(git diff:*)"});
  EXPECT_THAT(r.allow, IsEmpty());
}

TEST(PermissionRule, BareToolNamesAndClaudeCodePrefixes) {
  EXPECT_TRUE(ptc::permission_rule_matches("Read", "Read"));
  EXPECT_TRUE(ptc::permission_rule_matches("Read", "Read(src/a.cpp)"));
  EXPECT_FALSE(ptc::permission_rule_matches("Read", "ReadAll(src/a.cpp)"));
  EXPECT_TRUE(ptc::permission_rule_matches("Bash(git diff:*)", "Bash(git diff)"));
  EXPECT_TRUE(ptc::permission_rule_matches("Bash(git diff:*)", "Bash(git diff --stat)"));
  EXPECT_TRUE(ptc::permission_rule_matches("Bash(git diff:*)", "Bash(git diff:--stat)"));
  EXPECT_FALSE(ptc::permission_rule_matches("Bash(git diff:*)", "Bash(git difftool)"));
  EXPECT_TRUE(ptc::permission_rule_matches("Bash(git:*)", "Bash(git diff --stat)"));
  EXPECT_FALSE(ptc::permission_rule_matches("Bash(git status)", "Bash(git status -s)"));
  EXPECT_TRUE(ptc::permission_rule_matches("Read(src/*)", "Read(src/a.cpp)"));
}

TEST(PermissionDecision, DenyThenAskThenAllowAndOtherwiseAsk) {
  Permissions p{{"Bash", "Read"}, {"Bash(rm:*)"}, {"Bash(git push:*)"}};
  EXPECT_EQ(ptc::decide_permission(p, "Bash(rm -rf build)"),
            (ptc::PermissionDecision{PermissionEffect::Deny, "Bash(rm:*)"}));
  EXPECT_EQ(ptc::decide_permission(p, "Bash(git push origin)"),
            (ptc::PermissionDecision{PermissionEffect::Ask, "Bash(git push:*)"}));
  EXPECT_EQ(ptc::decide_permission(p, "Bash(ls)"), (ptc::PermissionDecision{PermissionEffect::Allow, "Bash"}));
  EXPECT_EQ(ptc::decide_permission(p, "Write(a.txt)"), (ptc::PermissionDecision{PermissionEffect::Ask, ""}));
  EXPECT_EQ(ptc::decide_permission({}, "Read"), (ptc::PermissionDecision{PermissionEffect::Ask, ""}));
}

TEST(PermissionDecision, TheFirstMatchingRuleOfABucketIsReported) {
  Permissions p{{"Read(src/*)", "Read"}, {}, {}};
  EXPECT_EQ(ptc::decide_permission(p, "Read(src/a)").rule, "Read(src/*)");
  EXPECT_EQ(ptc::permission_effect_name(PermissionEffect::Deny), "deny");
  EXPECT_EQ(ptc::permission_effect_name(PermissionEffect::Ask), "ask");
  EXPECT_EQ(ptc::permission_effect_name(PermissionEffect::Allow), "allow");
}

// A tool runtime with one `bash` tool governed by the policy.
struct Gate {
  explicit Gate(Permissions p, ptc::CommandPermissionPolicy::Options options = {}) {
    registry.add(ptc::make_tool("bash", "Run a shell command.", "(command :string) -> :string",
                                [this](const nlohmann::json& args, ptc::ToolContext&) {
                                  ran.push_back(args["command"].get<std::string>());
                                  return ptc::ToolResult<nlohmann::json>::ok("done");
                                }),
                 {std::make_shared<ptc::CommandPermissionPolicy>(std::move(p), std::move(options))});
  }
  ptc::ToolOutcome call(const std::string& command) {
    return registry.dispatch(session, ptc::ToolCall{"c1", "bash", {{"command", command}}});
  }
  ptc::ToolRegistry registry;
  ptc::Session session;
  std::vector<std::string> ran;
};

TEST(CommandPermissionPolicy, GatesTheToolsAnLlmCalls) {
  Gate gate({{"bash(git:*)"}, {"bash(git push:*)"}, {}});
  EXPECT_EQ(gate.call("git status").status, ptc::CallStatus::Succeeded);
  auto denied = gate.call("git push --force");
  EXPECT_EQ(denied.status, ptc::CallStatus::Denied);
  EXPECT_EQ(denied.result.message,
            "Tool use 'bash(git push --force)' is denied by permission rule 'bash(git push:*)'.");
  auto unknown = gate.call("ls");
  EXPECT_EQ(unknown.status, ptc::CallStatus::Denied);
  EXPECT_EQ(unknown.result.message, "Tool use 'bash(ls)' matches no permission rule and needs approval.");
  EXPECT_THAT(gate.ran, ElementsAre("git status"));
}

TEST(CommandPermissionPolicy, AskRulesNeedSomeoneToApprove) {
  Gate nobody({{}, {}, {"bash(make:*)"}});
  EXPECT_EQ(nobody.call("make test").result.message,
            "Tool use 'bash(make test)' needs approval (permission rule 'bash(make:*)').");

  std::vector<std::string> asked;
  Gate approver({{}, {}, {"bash(make:*)"}}, {[&](const std::string& use, const ptc::PermissionDecision& d) {
                                               asked.push_back(use + " by " + d.rule);
                                               return use == "bash(make test)";
                                             },
                                             ptc::describe_tool_use});
  EXPECT_EQ(approver.call("make test").status, ptc::CallStatus::Succeeded);
  auto refused = approver.call("make install");
  EXPECT_EQ(refused.status, ptc::CallStatus::Denied);
  EXPECT_EQ(refused.result.message, "Tool use 'bash(make install)' was not approved.");
  EXPECT_THAT(asked, ElementsAre("bash(make test) by bash(make:*)", "bash(make install) by bash(make:*)"));
}

TEST(CommandPermissionPolicy, DescribesAToolUseByItsMainArgument) {
  auto tool = ptc::make_tool("read_file", "Read a file.", "(path :string, limit :int?) -> :string");
  EXPECT_EQ(ptc::describe_tool_use(tool, {{"path", "src/a.cpp"}, {"limit", 3}}), "read_file(src/a.cpp)");
  EXPECT_EQ(ptc::describe_tool_use(tool, {{"limit", 3}}), "read_file");
  EXPECT_EQ(ptc::describe_tool_use(tool, {{"path", 3}}), "read_file");
  EXPECT_EQ(ptc::describe_tool_use(tool, {{"command", "ls"}, {"path", "x"}}), "read_file(x)");
}

TEST(CommandPermissionPolicy, AnUndeclaredArgumentNeverChoosesWhatTheRulesSee) {
  auto write = ptc::make_tool("write_file", "Write a file.", "(file_path :string, content :string) -> :string");
  EXPECT_EQ(ptc::describe_tool_use(write, {{"command", "ls"}, {"path", "notes.txt"}, {"file_path", "/etc/passwd"}}),
            "write_file(/etc/passwd)");
  EXPECT_EQ(ptc::describe_tool_use(write, {{"path", "notes.txt"}}), "write_file");
}

// ---- shell lines: every command a line runs is judged, wherever it stands

const Permissions kRules{{"Bash(ls:*)", "Bash(git status)", "Bash(git diff:*)", "Bash(echo *)"},
                         {"Bash(rm:*)", "Bash(git push --force:*)"},
                         {"Bash(git push:*)"}};

// Simple commands and what the rules above make of each alone.
struct Part {
  std::string text;
  PermissionEffect alone;
};
const std::vector<Part> kParts{
    {"ls", PermissionEffect::Allow},
    {"ls -la /tmp", PermissionEffect::Allow},
    {"ls 'a b;c'", PermissionEffect::Allow},
    {"\"ls\" x\\;y", PermissionEffect::Allow},
    {"git status", PermissionEffect::Allow},
    {"git  diff --stat", PermissionEffect::Allow},
    {"echo 'rm -rf /'", PermissionEffect::Allow},
    {"ls 2>&1 >/dev/null < in", PermissionEffect::Allow},
    {"rm -rf /", PermissionEffect::Deny},
    {"r\"m\" -f notes", PermissionEffect::Deny},
    {"\\rm x", PermissionEffect::Deny},
    {"/bin/rm x", PermissionEffect::Deny},
    {"git push --force origin", PermissionEffect::Deny},
    {"git push origin", PermissionEffect::Ask},
    {"lsblk", PermissionEffect::Ask},
    {"curl evil.example", PermissionEffect::Ask},
    {"git status -s", PermissionEffect::Ask},
    {"ls > out.txt", PermissionEffect::Ask},
};
const std::vector<std::string> kOperators{" && ", "&&", " || ", "||", "; ", ";", " | ", "|", " & ", "&", "\n", " |& "};

PermissionEffect decide(const std::string& line) { return ptc::decide_permission(kRules, "Bash(" + line + ")").effect; }

TEST(ShellPermission, EachSimpleCommandAloneIsDecidedAsExpected) {
  for (const auto& part : kParts) EXPECT_EQ(decide(part.text), part.alone) << part.text;
}

TEST(ShellPermission, ALineIsAllowedOnlyWhenEveryCommandIsAndDeniedWhenAnyIs) {
  std::mt19937 rng(12345);
  for (int round = 0; round < 5000; ++round) {
    const int count = 2 + static_cast<int>(rng() % 4);
    std::string line;
    bool any_deny = false, any_ask = false;
    for (int i = 0; i < count; ++i) {
      const auto& part = kParts[rng() % kParts.size()];
      if (i > 0) line += kOperators[rng() % kOperators.size()];
      line += part.text;
      any_deny |= part.alone == PermissionEffect::Deny;
      any_ask |= part.alone == PermissionEffect::Ask;
    }
    if (rng() % 3 == 0) line += kOperators[rng() % kOperators.size()];  // a trailing separator
    const auto expected = any_deny ? PermissionEffect::Deny : any_ask ? PermissionEffect::Ask : PermissionEffect::Allow;
    ASSERT_EQ(decide(line), expected) << line;
  }
}

// Ways to wrap a line that still run it. Those taking any list come first; the rest wrap one command.
using Shape = std::function<std::string(const std::string&)>;
std::string single_quoted(const std::string& text) {
  std::string out = "'";
  for (char c : text) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}
const std::vector<Shape> kListShapes{
    [](const std::string& in) { return "cd x && " + in; },
    [](const std::string& in) { return "ls; " + in; },
    [](const std::string& in) { return "ls | " + in; },
    [](const std::string& in) { return "false || " + in; },
    [](const std::string& in) { return "ls &\n" + in; },
    [](const std::string& in) { return "{ " + in + "; }"; },
    [](const std::string& in) { return "( " + in + " )"; },
    [](const std::string& in) { return "(cd x; " + in + ")"; },
    [](const std::string& in) { return "if true; then " + in + "; fi"; },
    [](const std::string& in) { return "if false; then ls; else " + in + "; fi"; },
    [](const std::string& in) { return "while true; do " + in + "; done"; },
    [](const std::string& in) { return "until false\ndo\n" + in + "\ndone"; },
    [](const std::string& in) { return "for f in a b; do " + in + "; done"; },
    [](const std::string& in) { return "select x in a; do " + in + "; done"; },
    [](const std::string& in) { return "case $x in a|b) ls;; *) " + in + ";; esac"; },
    [](const std::string& in) { return "f() { " + in + "; }; f"; },
    [](const std::string& in) { return "[[ -d x ]] && " + in; },
    [](const std::string& in) { return "(( 1 )) && " + in; },
    [](const std::string& in) { return "time " + in; },
    [](const std::string& in) { return "time -p " + in; },
    [](const std::string& in) { return "! " + in; },
    [](const std::string& in) { return "ls # a comment\n" + in; },
    [](const std::string& in) { return "cat <<EOF\nhello\nEOF\n" + in; },
    // A space after `$(`: `$((` opens arithmetic when the inner line starts with `(`.
    [](const std::string& in) { return "echo $( " + in + ")"; },
    [](const std::string& in) { return "echo \"$( " + in + ")\""; },
    [](const std::string& in) { return "cat <(" + in + ")"; },
    [](const std::string& in) { return "ls >(" + in + ")"; },
    [](const std::string& in) { return "bash -c " + single_quoted(in); },
    [](const std::string& in) { return "sh -ec " + single_quoted(in); },
    [](const std::string& in) { return "eval " + single_quoted(in); },
    [](const std::string& in) { return "sudo -u root bash -c " + single_quoted(in); },
};
const std::vector<Shape> kCommandShapes{
    [](const std::string& in) { return "FOO=1 " + in; },
    [](const std::string& in) { return "A=1 B='x y' " + in; },
    [](const std::string& in) { return in + " 2>&1"; },
    [](const std::string& in) { return ">/dev/null " + in; },
    [](const std::string& in) { return in + " > out.txt"; },
    [](const std::string& in) { return "sudo " + in; },
    [](const std::string& in) { return "sudo -u root " + in; },
    [](const std::string& in) { return "env -i X=1 " + in; },
    [](const std::string& in) { return "nohup " + in; },
    [](const std::string& in) { return "nice -n 5 " + in; },
    [](const std::string& in) { return "timeout 5 " + in; },
    [](const std::string& in) { return "xargs -n1 " + in; },
    [](const std::string& in) { return "command " + in; },
    [](const std::string& in) { return "exec " + in; },
    [](const std::string& in) { return "/usr/bin/env " + in; },
};

TEST(ShellPermission, ADeniedCommandIsDeniedInEveryShape) {
  for (const auto& shape : kListShapes)
    EXPECT_EQ(decide(shape("rm -rf /")), PermissionEffect::Deny) << shape("rm -rf /");
  for (const auto& shape : kCommandShapes)
    EXPECT_EQ(decide(shape("rm -rf /")), PermissionEffect::Deny) << shape("rm -rf /");
  EXPECT_EQ(decide("find . -name '*.o' -exec rm {} \\;"), PermissionEffect::Deny);
  EXPECT_EQ(decide("ls 2>&1 | git push --force"), PermissionEffect::Deny);
}

TEST(ShellPermission, ADeniedCommandIsDeniedInShapesWithinShapes) {
  std::mt19937 rng(4242);
  for (int round = 0; round < 3000; ++round) {
    std::string line = kParts[8 + rng() % 5].text;  // one of the denied parts
    if (rng() % 2) line = kCommandShapes[rng() % kCommandShapes.size()](line);
    const int depth = 1 + static_cast<int>(rng() % 4);
    for (int i = 0; i < depth; ++i) line = kListShapes[rng() % kListShapes.size()](line);
    ASSERT_EQ(decide(line), PermissionEffect::Deny) << line;
  }
}

TEST(ShellPermission, AnAllowedCommandStaysAllowedInShapesThatAddNothing) {
  for (const char* line : {"{ ls; }", "(ls -la)", "if ls; then echo x; fi", "for f in a; do ls $f; done", "time ls",
                           "! ls", "ls 2>&1 >/dev/null", "echo $(ls)", "ls | echo done", "case x in *) ls;; esac",
                           "[[ -f x ]] && ls", "ls # rm -rf /", "ls <<EOF\n$HOME rm -rf /\nEOF"})
    EXPECT_EQ(decide(line), PermissionEffect::Allow) << line;
}

TEST(ShellPermission, AssignmentsRedirectionsToFilesAndUnknownCommandsAskAndSayWhy) {
  auto decision = [](const std::string& line) { return ptc::decide_permission(kRules, "Bash(" + line + ")"); };
  EXPECT_EQ(decision("PATH=/tmp/evil ls"),
            (ptc::PermissionDecision{PermissionEffect::Ask, "", "no allow rule covers `PATH=/tmp/evil ls`"}));
  EXPECT_EQ(decision("ls > ~/.bashrc"),
            (ptc::PermissionDecision{PermissionEffect::Ask, "",
                                     "`ls` writes to `~/.bashrc` by redirection, which `Bash(ls:*)` does not allow"}));
  EXPECT_EQ(decision("ls -la | grep x"),
            (ptc::PermissionDecision{PermissionEffect::Ask, "", "no allow rule covers `grep x`"}));
  EXPECT_EQ(decision("ls; $(echo ls)"),
            (ptc::PermissionDecision{
                PermissionEffect::Ask, "",
                "the line cannot be read exactly: a computed command name `$(echo ls)` at column 5"}));
  EXPECT_EQ(decision("ls 'open"),
            (ptc::PermissionDecision{PermissionEffect::Ask, "",
                                     "the line cannot be read exactly: an unterminated quote at column 4"}));
}

// Constructs that hide what runs, or write what the rules cannot see.
const std::vector<std::string> kHidden{"$(rm -rf /)",   "`rm -rf /`",     "> /etc/passwd",      ">>log",
                                       "&>out",         "\"$(rm x)\"",    "\"`rm x`\"",         "<(rm x)",
                                       ">(rm x)",       "(rm -rf /)",     "'unterminated",      "\"open",
                                       "${X:-$(rm x)}", "$(( $(rm x) ))", "<<EOF\n$(rm x)\nEOF"};

TEST(ShellPermission, AHiddenConstructIsNeverAllowedByARuleAboutTheCommand) {
  std::mt19937 rng(777);
  for (int round = 0; round < 3000; ++round) {
    std::string line = "ls";
    const int extra = static_cast<int>(rng() % 3);
    for (int i = 0; i < extra; ++i) line += kOperators[rng() % kOperators.size()] + "git status";
    const auto& hidden = kHidden[rng() % kHidden.size()];
    line += (rng() % 2 ? " " : kOperators[rng() % kOperators.size()]) + hidden;
    ASSERT_NE(decide(line), PermissionEffect::Allow) << line;
  }
}

TEST(ShellPermission, TheIssuesExamples) {
  const Permissions p{{"Bash(ls:*)"}, {"Bash(rm:*)"}, {}};
  auto decide_p = [&](const std::string& line) { return ptc::decide_permission(p, "Bash(" + line + ")"); };
  EXPECT_EQ(decide_p("ls && rm -rf /"), (ptc::PermissionDecision{PermissionEffect::Deny, "Bash(rm:*)"}));
  EXPECT_EQ(decide_p("ls; rm -rf /").effect, PermissionEffect::Deny);
  EXPECT_EQ(decide_p("ls\nrm -rf /").effect, PermissionEffect::Deny);
  EXPECT_EQ(decide_p("ls $(rm -rf /)").effect, PermissionEffect::Deny);
  EXPECT_EQ(decide_p("ls `rm -rf /`").effect, PermissionEffect::Deny);
  EXPECT_EQ(decide_p("ls #'\nrm -rf /\n'").effect, PermissionEffect::Deny);
  EXPECT_EQ(decide_p("ls x=1"), (ptc::PermissionDecision{PermissionEffect::Allow, "Bash(ls:*)"}));
  EXPECT_EQ(decide_p("ls -la && ls /tmp"), (ptc::PermissionDecision{PermissionEffect::Allow, "Bash(ls:*)"}));
  EXPECT_EQ(decide_p("ls \\; rm -rf /"), (ptc::PermissionDecision{PermissionEffect::Allow, "Bash(ls:*)"}));
}

TEST(ShellPermission, RulesAboutTheWholeToolCoverAnyLineOnlyWhenNoShellRuleCouldObject) {
  EXPECT_EQ(ptc::decide_permission({{"Bash"}, {}, {}}, "Bash(ls $(pwd))").effect, PermissionEffect::Allow);
  EXPECT_EQ(ptc::decide_permission({{"Bash(*)"}, {}, {}}, "Bash(ls > x)").effect, PermissionEffect::Allow);
  EXPECT_EQ(ptc::decide_permission({{"Bash"}, {}, {}}, "Bash($cmd x)"),
            (ptc::PermissionDecision{PermissionEffect::Allow, "Bash"}));
  EXPECT_EQ(ptc::decide_permission({{"Bash"}, {"Read(/etc/*)"}, {}}, "Bash($cmd x)").effect, PermissionEffect::Allow);
  EXPECT_EQ(ptc::decide_permission({{"Bash"}, {"Bash(rm:*)"}, {}}, "Bash($cmd x)").effect, PermissionEffect::Ask);
  EXPECT_EQ(ptc::decide_permission({{"Bash"}, {}, {"sh(curl:*)"}}, "Bash($cmd x)").effect, PermissionEffect::Ask);
  EXPECT_EQ(ptc::decide_permission({{"*"}, {"*(rm:*)"}, {}}, "Bash($cmd x)").effect, PermissionEffect::Ask);
  EXPECT_EQ(ptc::decide_permission({{"Bash(*)"}, {"Bash(rm:*)"}, {}}, "Bash(ls && rm x)").effect,
            PermissionEffect::Deny);
  EXPECT_EQ(ptc::decide_permission({{}, {"Bash"}, {}}, "Bash(ls)").effect, PermissionEffect::Deny);
}

TEST(ShellPermission, ShellToolsAreOneToolToTheRulesWhateverTheirSpelling) {
  EXPECT_TRUE(ptc::is_shell_tool("Bash"));
  EXPECT_TRUE(ptc::is_shell_tool("bash"));
  EXPECT_TRUE(ptc::is_shell_tool("SHELL"));
  EXPECT_FALSE(ptc::is_shell_tool("Read"));
  EXPECT_FALSE(ptc::is_shell_tool("bashful"));
  const Permissions p{{"Bash(ls:*)"}, {"Bash(rm:*)"}, {"BASH(curl:*)"}};
  for (const char* tool : {"Bash", "bash", "BASH", "sh", "Shell"}) {
    const std::string t(tool);
    EXPECT_EQ(ptc::decide_permission(p, t + "(rm -rf /)"),
              (ptc::PermissionDecision{PermissionEffect::Deny, "Bash(rm:*)"}))
        << t;
    EXPECT_EQ(ptc::decide_permission(p, t + "(ls && curl x)").effect, PermissionEffect::Ask) << t;
    EXPECT_EQ(ptc::decide_permission(p, t + "(ls -la)").effect, PermissionEffect::Allow) << t;
  }
  EXPECT_EQ(ptc::decide_permission({{}, {"bash"}, {}}, "Bash").effect, PermissionEffect::Deny);
  // Other tools are matched exactly, as the registry finds them: `read` is not `Read`.
  EXPECT_EQ(ptc::decide_permission({{}, {"Read"}, {}}, "read(x)").effect, PermissionEffect::Ask);
  // A path with shell characters is just a path to Read.
  EXPECT_EQ(ptc::decide_permission({{"Read(src/*)"}, {}, {}}, "Read(src/a;b(1).txt)").effect, PermissionEffect::Allow);
}

TEST(CommandPermissionPolicy, SaysWhyALineNeedsApproval) {
  Gate gate({{"Bash(ls:*)"}, {}, {}});
  EXPECT_EQ(gate.call("ls > notes.txt").result.message,
            "Tool use 'bash(ls > notes.txt)' needs approval: `ls` writes to `notes.txt` by redirection, which "
            "`Bash(ls:*)` does not allow.");
}

}  // namespace
