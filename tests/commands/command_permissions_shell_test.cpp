// Permission rules on shell command lines, checked as properties over generated lines: a line is
// allowed only when each of its simple commands is, denied when any is, and a construct the splitter
// does not read exactly is never allowed by a rule about the command.
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <ptc/command_permissions.hpp>

namespace {

using ptc::PermissionEffect;
using ptc::Permissions;

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
    {"rm -rf /", PermissionEffect::Deny},
    {"r\"m\" -f notes", PermissionEffect::Deny},
    {"\\rm x", PermissionEffect::Deny},
    {"git push --force origin", PermissionEffect::Deny},
    {"git push origin", PermissionEffect::Ask},
    {"lsblk", PermissionEffect::Ask},
    {"curl evil.example", PermissionEffect::Ask},
    {"git status -s", PermissionEffect::Ask},
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

// Constructs that run or redirect something the words do not show.
const std::vector<std::string> kHidden{"$(rm -rf /)", "`rm -rf /`", "> /etc/passwd", ">>log",      "< /etc/shadow",
                                       "2>&1",        "&>out",      "\"$(rm x)\"",   "\"`rm x`\"", "${X:=y}",
                                       "$'\\x72m'",   "<(rm x)",    "(rm -rf /)",    "# hidden",   "'unterminated",
                                       "\"open",      "<<EOF",      "$((1+2))",      "$[1+2]"};

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
  EXPECT_EQ(decide_p("ls $(rm -rf /)").effect, PermissionEffect::Ask);
  EXPECT_EQ(decide_p("ls `rm -rf /`").effect, PermissionEffect::Ask);
  EXPECT_EQ(decide_p("ls > ~/.bashrc").effect, PermissionEffect::Ask);
  EXPECT_EQ(decide_p("ls #'\nrm -rf /\n'").effect, PermissionEffect::Ask);
  EXPECT_EQ(decide_p("PATH=/tmp/evil ls").effect, PermissionEffect::Ask);
  EXPECT_EQ(decide_p("ls x=1"), (ptc::PermissionDecision{PermissionEffect::Allow, "Bash(ls:*)"}));
  EXPECT_EQ(decide_p("ls -la | grep x"), (ptc::PermissionDecision{PermissionEffect::Ask, ""}));
  EXPECT_EQ(decide_p("ls -la && ls /tmp"), (ptc::PermissionDecision{PermissionEffect::Allow, "Bash(ls:*)"}));
  EXPECT_EQ(decide_p("ls \\; rm -rf /"), (ptc::PermissionDecision{PermissionEffect::Allow, "Bash(ls:*)"}));
}

TEST(ShellPermission, RulesAboutTheWholeToolStillCoverAnyLine) {
  EXPECT_EQ(ptc::decide_permission({{"Bash"}, {}, {}}, "Bash(ls $(pwd))").effect, PermissionEffect::Allow);
  EXPECT_EQ(ptc::decide_permission({{"Bash(*)"}, {}, {}}, "Bash(ls > x)").effect, PermissionEffect::Allow);
  EXPECT_EQ(ptc::decide_permission({{"Bash(*)"}, {"Bash(rm:*)"}, {}}, "Bash(ls && rm x)").effect,
            PermissionEffect::Deny);
  EXPECT_EQ(ptc::decide_permission({{}, {"Bash"}, {}}, "Bash(ls)").effect, PermissionEffect::Deny);
}

TEST(ShellPermission, OnlyShellToolsAreSplit) {
  EXPECT_TRUE(ptc::is_shell_tool("Bash"));
  EXPECT_TRUE(ptc::is_shell_tool("bash"));
  EXPECT_TRUE(ptc::is_shell_tool("SHELL"));
  EXPECT_FALSE(ptc::is_shell_tool("Read"));
  EXPECT_FALSE(ptc::is_shell_tool("bashful"));
  // A path with shell characters is just a path to Read.
  EXPECT_EQ(ptc::decide_permission({{"Read(src/*)"}, {}, {}}, "Read(src/a;b(1).txt)").effect, PermissionEffect::Allow);
  EXPECT_EQ(ptc::decide_permission({{"bash(ls:*)"}, {}, {}}, "bash(ls; curl x)").effect, PermissionEffect::Ask);
}

}  // namespace
