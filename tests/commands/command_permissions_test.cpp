// Permission rules: narrowing to a command's allowed tools (raw-string wildcards), the decision for one
// tool use, and the tool policy that applies it to the calls an LLM makes.

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

}  // namespace
