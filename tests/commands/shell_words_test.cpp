// The shell splitter: command lines split into simple commands and their words, exactly or not at
// all. Then the permission rules on such lines, checked as properties over generated lines: a line is
// allowed only when each of its simple commands is, denied when any is, and a construct the splitter
// does not read exactly is never allowed by a rule about the command.
#include <random>
#include <string>
#include <variant>
#include <vector>

#include <gtest/gtest.h>

#include <ptc/command_permissions.hpp>

#include "shell_words.hpp"

namespace {

using Words = std::vector<std::vector<std::string>>;

// The words of each simple command of `line`; fails the test when the line is refused.
Words split(const std::string& line) {
  auto result = ptc::commands::split_shell_commands(line);
  if (auto* refused = std::get_if<ptc::commands::Unsupported>(&result)) {
    ADD_FAILURE() << "refused (" << refused->construct << "): " << line;
    return {};
  }
  Words out;
  for (const auto& command : std::get<std::vector<ptc::commands::SimpleCommand>>(result)) out.push_back(command.words);
  return out;
}

// The construct the splitter refuses `line` for, or "split".
std::string refusal(const std::string& line) {
  auto result = ptc::commands::split_shell_commands(line);
  if (auto* refused = std::get_if<ptc::commands::Unsupported>(&result)) return refused->construct;
  return "split";
}

TEST(ShellWords, EmptyCommandsAreDropped) {
  for (const char* line : {"", "   ", "\t", ";", ";;", "&&", "||", "\n\n", " ; & | "})
    EXPECT_EQ(split(line), Words{}) << line;
}

TEST(ShellWords, EverySeparatorEndsACommand) {
  EXPECT_EQ(split("a; b & c && d | e || f |& g\nh"), (Words{{"a"}, {"b"}, {"c"}, {"d"}, {"e"}, {"f"}, {"g"}, {"h"}}));
  EXPECT_EQ(split("a;b&c&&d|e||f|&g"), (Words{{"a"}, {"b"}, {"c"}, {"d"}, {"e"}, {"f"}, {"g"}}));
  EXPECT_EQ(split("a &&& b"), (Words{{"a"}, {"b"}}));
  EXPECT_EQ(split("ls\t-la   /tmp "), (Words{{"ls", "-la", "/tmp"}}));
}

TEST(ShellWords, QuotesAreRemovedAndJoinWhatTheyTouch) {
  EXPECT_EQ(split("\"git\" di\\ff"), (Words{{"git", "diff"}}));
  EXPECT_EQ(split("echo 'a b;c' \"d|e\""), (Words{{"echo", "a b;c", "d|e"}}));
  EXPECT_EQ(split("a\"b\"'c'd"), (Words{{"abcd"}}));
  EXPECT_EQ(split("echo '' \"\""), (Words{{"echo", "", ""}}));
  EXPECT_EQ(split("echo \"it's\" 'say \"hi\"'"), (Words{{"echo", "it's", "say \"hi\""}}));
  EXPECT_EQ(split("echo '$(rm x)' '`rm x`' '>x'"), (Words{{"echo", "$(rm x)", "`rm x`", ">x"}}));
}

TEST(ShellWords, BackslashesEscapeOneCharacter) {
  EXPECT_EQ(split("a\\ b c\\;d \\'e"), (Words{{"a b", "c;d", "'e"}}));
  EXPECT_EQ(split("echo \\$\\(x\\)"), (Words{{"echo", "$(x)"}}));
  EXPECT_EQ(refusal("echo \\$(x)"), "subshell");     // only the $ is escaped: the ( opens a subshell
  EXPECT_EQ(split("ls \\"), (Words{{"ls", "\\"}}));  // a last backslash is itself
  // Inside double quotes only \$ \` \" \\ and a newline are escapes; elsewhere the backslash stays.
  EXPECT_EQ(split("echo \"a\\\"b\\$c\\\\d\\ne\\`f\""), (Words{{"echo", "a\"b$c\\d\\ne`f"}}));
}

TEST(ShellWords, ABackslashNewlineContinuesTheLine) {
  EXPECT_EQ(split("ls \\\n-la"), (Words{{"ls", "-la"}}));
  EXPECT_EQ(split("l\\\ns"), (Words{{"ls"}}));
  EXPECT_EQ(split("echo \"a\\\nb\""), (Words{{"echo", "ab"}}));
}

TEST(ShellWords, ParametersStayLiteralText) {
  EXPECT_EQ(split("echo $HOME $1 $? a$b \"$USER\""), (Words{{"echo", "$HOME", "$1", "$?", "a$b", "$USER"}}));
  EXPECT_EQ(split("echo $"), (Words{{"echo", "$"}}));
  EXPECT_EQ(split("echo a#b {x,y} ~ *"), (Words{{"echo", "a#b", "{x,y}", "~", "*"}}));
}

TEST(ShellWords, AnAssignmentIsRefusedOnlyAsTheFirstWord) {
  EXPECT_EQ(refusal("PATH=/tmp ls"), "variable assignment");
  EXPECT_EQ(refusal("A=1"), "variable assignment");
  EXPECT_EQ(refusal("ls; A='x' b"), "variable assignment");
  EXPECT_EQ(split("ls x=1 --opt=2"), (Words{{"ls", "x=1", "--opt=2"}}));
  // A quote before the '=' makes the word a command name, as in the shell.
  EXPECT_EQ(split("\"A\"=1 ls"), (Words{{"A=1", "ls"}}));
  EXPECT_EQ(split("A\"=1\" ls"), (Words{{"A=1", "ls"}}));
  EXPECT_EQ(split("=x"), (Words{{"=x"}}));
}

TEST(ShellWords, ReservedWordsAreRefusedOnlyAsCommandNames) {
  for (const char* word : {"if",   "then", "else",   "elif",     "fi",     "for",  "in", "while", "until", "do", "done",
                           "case", "esac", "select", "function", "coproc", "time", "!",  "{",     "}",     "[[", "]]"})
    EXPECT_EQ(refusal(std::string(word) + " x"), "compound command '" + std::string(word) + "'") << word;
  EXPECT_EQ(refusal("ls; fi"), "compound command 'fi'");
  EXPECT_EQ(split("echo if then time"), (Words{{"echo", "if", "then", "time"}}));
  EXPECT_EQ(split("iffy x"), (Words{{"iffy", "x"}}));
}

TEST(ShellWords, ConstructsThatHideWhatRunsAreRefused) {
  EXPECT_EQ(refusal("ls > x"), "redirection");
  EXPECT_EQ(refusal("ls 2>&1"), "redirection");
  EXPECT_EQ(refusal("cat < x"), "redirection");
  EXPECT_EQ(refusal("ls &>x"), "redirection");
  EXPECT_EQ(refusal("cat <<EOF"), "redirection");
  EXPECT_EQ(refusal("diff <(ls) x"), "redirection");
  EXPECT_EQ(refusal("(rm x)"), "subshell");
  EXPECT_EQ(refusal("ls x)"), "subshell");
  EXPECT_EQ(refusal("ls `rm x`"), "command substitution");
  EXPECT_EQ(refusal("ls $(rm x)"), "command substitution");
  EXPECT_EQ(refusal("echo $((1+2))"), "command substitution");
  EXPECT_EQ(refusal("echo ${X:=y}"), "parameter expansion");
  EXPECT_EQ(refusal("echo $[1+2]"), "arithmetic expansion");
  EXPECT_EQ(refusal("echo $'\\x72m'"), "ANSI-C quoting");
  EXPECT_EQ(refusal("echo $\"x\""), "locale quoting");
  EXPECT_EQ(refusal("ls # rm x"), "comment");
  EXPECT_EQ(refusal("ls\n#x"), "comment");
}

TEST(ShellWords, ExpansionsInsideDoubleQuotesAreRefusedToo) {
  EXPECT_EQ(refusal("echo \"$(rm x)\""), "command substitution");
  EXPECT_EQ(refusal("echo \"`rm x`\""), "command substitution");
  EXPECT_EQ(refusal("echo \"${X}\""), "parameter expansion");
  EXPECT_EQ(refusal("echo \"$[1]\""), "arithmetic expansion");
}

TEST(ShellWords, TheFirstRefusedConstructIsNamed) {
  EXPECT_EQ(refusal("ls > x $(y)"), "redirection");
  EXPECT_EQ(refusal("ls $(y) > x"), "command substitution");
  EXPECT_EQ(refusal("if x > y"), "redirection");  // read before the command ends
}

TEST(ShellWords, UnterminatedQuotesAreRefused) {
  EXPECT_EQ(refusal("echo 'abc"), "unterminated quote");
  EXPECT_EQ(refusal("echo \"abc"), "unterminated quote");
  EXPECT_EQ(refusal("echo \"abc\\\""), "unterminated quote");  // the last quote is escaped
  EXPECT_EQ(refusal("echo '"), "unterminated quote");
  EXPECT_EQ(refusal("\""), "unterminated quote");
  EXPECT_EQ(refusal("echo 'a\\'"), "split");  // no escapes inside single quotes
}

TEST(ShellWords, NulBytesAreRefusedWhereverTheyAre) {
  EXPECT_EQ(refusal(std::string("ls\0x", 4)), "NUL byte");
  EXPECT_EQ(refusal(std::string("echo \"a\0b\"", 10)), "NUL byte");
  EXPECT_EQ(refusal(std::string("\0", 1)), "NUL byte");
}

TEST(ShellWords, LongAndRepetitiveLinesSplitInOnePass) {
  std::string many;
  for (int i = 0; i < 20000; ++i) many += "a 'b' \"c\" d\\ e;";
  const Words words = split(many);
  ASSERT_EQ(words.size(), 20000u);
  EXPECT_EQ(words.back(), (std::vector<std::string>{"a", "b", "c", "d e"}));
  EXPECT_EQ(split(std::string(1 << 20, 'x')).at(0).at(0).size(), std::size_t{1} << 20);
  EXPECT_EQ(refusal(std::string(1 << 20, '\'')), "split");  // quotes pair up: every word is empty
  EXPECT_EQ(refusal(std::string((1 << 20) + 1, '"')), "unterminated quote");
}

TEST(ShellWords, TheTextOfACommandJoinsItsWordsWithSingleSpaces) {
  EXPECT_EQ((ptc::commands::SimpleCommand{{"git", "commit", "-m", "a  b"}}.text()), "git commit -m a  b");
  EXPECT_EQ((ptc::commands::SimpleCommand{{}}.text()), "");
  auto result = ptc::commands::split_shell_commands("git   diff\t--stat");
  ASSERT_TRUE(std::holds_alternative<std::vector<ptc::commands::SimpleCommand>>(result));
  EXPECT_EQ(std::get<0>(result).at(0).text(), "git diff --stat");
}

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
