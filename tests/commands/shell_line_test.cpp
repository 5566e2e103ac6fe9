// The shell reader: every simple command a line may run, with its words, wherever it stands; what it
// cannot read exactly is named with its column.
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "shell_line.hpp"

namespace {

using ptc::commands::read_shell_line;
using Words = std::vector<std::vector<std::string>>;

// The words of each simple command of `line`; fails the test when a part was not read.
Words commands(const std::string& line) {
  const auto read = read_shell_line(line);
  for (const auto& what : read.unreadable) ADD_FAILURE() << "unreadable (" << what << "): " << line;
  Words out;
  for (const auto& command : read.commands) out.push_back(command.words);
  return out;
}

// The first part of `line` that was not read, or "read".
std::string unreadable(const std::string& line) {
  const auto read = read_shell_line(line);
  return read.unreadable.empty() ? "read" : read.unreadable.front();
}

TEST(ShellLine, EmptyCommandsAreDropped) {
  for (const char* line : {"", "   ", "\t", ";", "&&", "||", "\n\n", " ; & | ", "# only a comment"})
    EXPECT_EQ(commands(line), Words{}) << line;
}

TEST(ShellLine, EverySeparatorEndsACommand) {
  EXPECT_EQ(commands("a; b & c && d | e || f |& g\nh"),
            (Words{{"a"}, {"b"}, {"c"}, {"d"}, {"e"}, {"f"}, {"g"}, {"h"}}));
  EXPECT_EQ(commands("a;b&c&&d|e||f|&g"), (Words{{"a"}, {"b"}, {"c"}, {"d"}, {"e"}, {"f"}, {"g"}}));
  EXPECT_EQ(commands("ls\t-la   /tmp "), (Words{{"ls", "-la", "/tmp"}}));
}

TEST(ShellLine, QuotesAreRemovedAndJoinWhatTheyTouch) {
  EXPECT_EQ(commands("\"git\" di\\ff"), (Words{{"git", "diff"}}));
  EXPECT_EQ(commands("echo 'a b;c' \"d|e\""), (Words{{"echo", "a b;c", "d|e"}}));
  EXPECT_EQ(commands("a\"b\"'c'd"), (Words{{"abcd"}}));
  EXPECT_EQ(commands("echo '' \"\""), (Words{{"echo", "", ""}}));
  EXPECT_EQ(commands("echo '$(rm x)' '`rm x`' '>x'"), (Words{{"echo", "$(rm x)", "`rm x`", ">x"}}));
  EXPECT_EQ(commands("echo \"a\\\"b\\$c\\\\d\\ne\\`f\""), (Words{{"echo", "a\"b$c\\d\\ne`f"}}));
  EXPECT_EQ(commands("ls \\\n-la"), (Words{{"ls", "-la"}}));
  EXPECT_EQ(commands("ls \\"), (Words{{"ls", "\\"}}));
}

TEST(ShellLine, ParametersStayText) {
  EXPECT_EQ(commands("echo $HOME $1 $? a$b \"$USER\" $"), (Words{{"echo", "$HOME", "$1", "$?", "a$b", "$USER", "$"}}));
  EXPECT_EQ(commands("echo ${X:-y} $((1+2)) $[3] $'\\x41'"),
            (Words{{"echo", "${X:-y}", "$((1+2))", "$[3]", "$'\\x41'"}}));
}

TEST(ShellLine, CommandsAreFoundInEveryCompoundCommand) {
  EXPECT_EQ(commands("{ ls; rm x; }"), (Words{{"ls"}, {"rm", "x"}}));
  EXPECT_EQ(commands("(cd a && rm x)"), (Words{{"cd", "a"}, {"rm", "x"}}));
  EXPECT_EQ(commands("( (cd a) ; (rm x) )"), (Words{{"cd", "a"}, {"rm", "x"}}));
  EXPECT_EQ(commands("if test -f x; then rm x; elif a; then b; else c; fi"),
            (Words{{"test", "-f", "x"}, {"rm", "x"}, {"a"}, {"b"}, {"c"}}));
  EXPECT_EQ(commands("while true; do rm x; done"), (Words{{"true"}, {"rm", "x"}}));
  EXPECT_EQ(commands("until false\ndo\n  rm x\ndone"), (Words{{"false"}, {"rm", "x"}}));
  EXPECT_EQ(commands("for f in *.txt a b; do rm \"$f\"; done"), (Words{{"rm", "$f"}}));
  EXPECT_EQ(commands("for f do rm $f; done"), (Words{{"rm", "$f"}}));
  EXPECT_EQ(commands("for ((i=0; i<3; i++)); do rm x; done"), (Words{{"rm", "x"}}));
  EXPECT_EQ(commands("select x in a b; do rm $x; done"), (Words{{"rm", "$x"}}));
  EXPECT_EQ(commands("case $x in a|b) rm a;; (c) rm c;& *) ls ;;& esac"), (Words{{"rm", "a"}, {"rm", "c"}, {"ls"}}));
  EXPECT_EQ(commands("case x in\n a) case y in b) rm b;; esac;;\n c) ls\nesac; pwd"),
            (Words{{"rm", "b"}, {"ls"}, {"pwd"}}));
  EXPECT_EQ(commands("f() { rm x; }; f"), (Words{{"rm", "x"}, {"f"}}));
  EXPECT_EQ(commands("function g { rm x; }"), (Words{{"rm", "x"}}));
  EXPECT_EQ(commands("[[ -f x && $y < 3 ]] && rm x"), (Words{{"rm", "x"}}));
  EXPECT_EQ(commands("(( x > 2 )) || rm x"), (Words{{"rm", "x"}}));
}

TEST(ShellLine, PrefixWordsAreNotCommands) {
  EXPECT_EQ(commands("! rm x"), (Words{{"rm", "x"}}));
  EXPECT_EQ(commands("time rm x"), (Words{{"rm", "x"}}));
  EXPECT_EQ(commands("time -p ! rm x"), (Words{{"rm", "x"}}));
  EXPECT_EQ(commands("echo if then time"), (Words{{"echo", "if", "then", "time"}}));
  EXPECT_EQ(commands("\"if\" x"), (Words{{"if", "x"}}));  // quoted: a command named if
  const auto read = read_shell_line("FOO=1 B='x y' rm x; C=2");
  ASSERT_EQ(read.commands.size(), 2u);
  EXPECT_EQ(read.commands[0].assignments, (std::vector<std::string>{"FOO=1", "B=x y"}));
  EXPECT_EQ(read.commands[0].words, (std::vector<std::string>{"rm", "x"}));
  EXPECT_EQ(read.commands[0].text_with_assignments(), "FOO=1 B=x y rm x");
  EXPECT_EQ(read.commands[1].assignments, (std::vector<std::string>{"C=2"}));
  EXPECT_TRUE(read.commands[1].words.empty());
  // A quote before the '=' makes the word a command name, as in the shell.
  EXPECT_EQ(commands("\"A\"=1 ls"), (Words{{"A=1", "ls"}}));
  EXPECT_EQ(commands("ls x=1 --opt=2"), (Words{{"ls", "x=1", "--opt=2"}}));
}

TEST(ShellLine, RedirectionsAreTakenOutAndWritesRecorded) {
  const auto read = read_shell_line("2>&1 ls >out.txt -la 2>/dev/null < in >>log &>/dev/null 3>&- >&2 <<<word");
  ASSERT_EQ(read.commands.size(), 1u);
  EXPECT_TRUE(read.unreadable.empty());
  EXPECT_EQ(read.commands[0].words, (std::vector<std::string>{"ls", "-la"}));
  EXPECT_EQ(read.commands[0].writes, (std::vector<std::string>{"out.txt", "log"}));
  EXPECT_EQ(read_shell_line("{ ls; } > x").commands.back().writes, (std::vector<std::string>{"x"}));
  EXPECT_EQ(read_shell_line("echo hi >| a &>> b <> c >&d").commands[0].writes,
            (std::vector<std::string>{"a", "b", "c", "d"}));
}

TEST(ShellLine, HereDocumentBodiesAreData) {
  EXPECT_EQ(commands("cat <<EOF\nrm -rf /\nEOF\nls"), (Words{{"cat"}, {"ls"}}));
  EXPECT_EQ(commands("cat <<-'E' && pwd\n\trm x\n\tE\nls"), (Words{{"cat"}, {"pwd"}, {"ls"}}));
  EXPECT_EQ(commands("cat <<'EOF'\n$(rm x)\nEOF"), (Words{{"cat"}}));  // quoted: no substitution
  EXPECT_EQ(unreadable("cat <<EOF\n$(rm x)\nEOF"), "a substitution in a here-document at column 5");
}

TEST(ShellLine, SubstitutionsAreReadAsCommands) {
  EXPECT_EQ(commands("ls $(rm x) `pwd`"), (Words{{"rm", "x"}, {"pwd"}, {"ls", "$(rm x)", "`pwd`"}}));
  EXPECT_EQ(commands("echo \"a $(rm x; ls) b\""), (Words{{"rm", "x"}, {"ls"}, {"echo", "a $(rm x; ls) b"}}));
  EXPECT_EQ(commands("diff <(rm a) >(rm b)"), (Words{{"rm", "a"}, {"rm", "b"}, {"diff", "<(rm a)", ">(rm b)"}}));
  EXPECT_EQ(commands("echo $(echo $(rm x))"), (Words{{"rm", "x"}, {"echo", "$(rm x)"}, {"echo", "$(echo $(rm x))"}}));
  EXPECT_EQ(commands("echo `echo \\`rm x\\``"),
            (Words{{"rm", "x"}, {"echo", "`rm x`"}, {"echo", "`echo \\`rm x\\``"}}));
  EXPECT_EQ(commands("x=$(rm y) ls"), (Words{{"rm", "y"}, {"ls"}}));
  EXPECT_EQ(commands("echo $(case a in a) rm x;; esac)"),
            (Words{{"rm", "x"}, {"echo", "$(case a in a) rm x;; esac)"}}));
}

TEST(ShellLine, WhatCannotBeReadIsNamedWithItsColumn) {
  EXPECT_EQ(unreadable("$cmd -rf /"), "a computed command name `$cmd` at column 1");
  EXPECT_EQ(unreadable("ls; $(which rm) x"), "a computed command name `$(which rm)` at column 5");
  EXPECT_EQ(unreadable("/bin/r? -rf /"), "a computed command name `/bin/r?` at column 1");
  EXPECT_EQ(unreadable("{rm,-rf,/}"), "a computed command name `{rm,-rf,/}` at column 1");
  EXPECT_EQ(unreadable("~/bin/tool"), "a computed command name `~/bin/tool` at column 1");
  EXPECT_EQ(unreadable("[ab]c x"), "a computed command name `[ab]c` at column 1");
  EXPECT_EQ(unreadable("echo 'abc"), "an unterminated quote at column 6");
  EXPECT_EQ(unreadable("echo \"abc\\\""), "an unterminated quote at column 6");
  EXPECT_EQ(unreadable("echo `abc"), "an unterminated backquote at column 6");
  EXPECT_EQ(unreadable("echo $(abc"), "a substitution without its `)` at column 6");
  EXPECT_EQ(unreadable("echo ${abc"), "an unterminated ${ at column 6");
  EXPECT_EQ(unreadable("echo $((1+2)"), "an arithmetic expression without its `))` at column 6");
  EXPECT_EQ(unreadable("echo ${x:-$(rm y)}"), "a substitution inside ${...} at column 6");
  EXPECT_EQ(unreadable("echo $(( $(rm y) ))"), "a substitution inside an arithmetic expression at column 6");
  EXPECT_EQ(unreadable("echo $((rm x; rm y))"), "commands or text inside an arithmetic expression at column 6");
  EXPECT_EQ(unreadable("((x = \"1\"))"), "commands or text inside an arithmetic expression at column 2");
  EXPECT_EQ(unreadable("ls x)"), "a `)` without its `(` at column 5");
  EXPECT_EQ(unreadable("(ls"), "a `(` without its `)` at column 4");
  EXPECT_EQ(unreadable("ls (x)"), "a `(` after a word at column 4");
  // bash reads `((` as arithmetic first, and as two subshells only when that fails: not read here.
  EXPECT_EQ(unreadable("((cd a) ; (rm x))"), "an arithmetic expression without its `))` at column 2");
  EXPECT_EQ(unreadable("a=(1 2)"), "an array assignment at column 3");
  EXPECT_EQ(unreadable("ls >"), "a redirection without a target at column 4");
  EXPECT_EQ(unreadable("ls > ; rm x"), "a redirection without a target at column 4");
  EXPECT_EQ(unreadable("ls ;; x"), "`;;` outside a case at column 4");
  EXPECT_EQ(unreadable("case x in a) ls"), "a case without its esac at column 16");
  EXPECT_EQ(unreadable(std::string("ls\0x", 4)), "a NUL byte at column 3");
  EXPECT_EQ(unreadable("echo 'a\\'"), "read");  // no escapes inside single quotes
}

TEST(ShellLine, ARedirectionWithoutATargetKeepsWhatFollows) {
  const auto read = read_shell_line("ls > ; rm x");
  ASSERT_EQ(read.commands.size(), 2u);
  EXPECT_EQ(read.commands[1].text(), "rm x");
}

TEST(ShellLine, NestingIsBounded) {
  std::string deep = "rm x";
  for (int i = 0; i < 40; ++i) deep = "echo $(" + deep + ")";
  const auto read = read_shell_line(deep);
  ASSERT_FALSE(read.unreadable.empty());
  EXPECT_EQ(read.unreadable.front(), "substitutions nested more than 16 deep at column 118");
  std::string backquotes = "rm x";
  for (int i = 0; i < 8; ++i) {  // each level doubles the backslashes; 2^8 of them at the deepest
    std::string escaped;
    for (char c : backquotes) escaped += (c == '`' || c == '\\') ? std::string("\\") + c : std::string(1, c);
    backquotes = "echo `" + escaped + "`";
  }
  const auto nested = read_shell_line(backquotes);
  EXPECT_TRUE(nested.unreadable.empty());
  EXPECT_EQ(nested.commands.front().text(), "rm x");
}

TEST(ShellLine, LongLinesAreReadInOnePassAndTooLongOnesNotAtAll) {
  std::string many;
  for (int i = 0; i < 4000; ++i) many += "a 'b' \"c\" d\\ e;";
  const Words words = commands(many);
  ASSERT_EQ(words.size(), 4000u);
  EXPECT_EQ(words.back(), (std::vector<std::string>{"a", "b", "c", "d e"}));
  EXPECT_EQ(commands(std::string(ptc::commands::kMaxShellLine, 'x')).at(0).at(0).size(), ptc::commands::kMaxShellLine);
  EXPECT_EQ(unreadable(std::string(ptc::commands::kMaxShellLine + 1, 'x')),
            "a line longer than 65536 bytes at column 1");
  EXPECT_EQ(unreadable(std::string(ptc::commands::kMaxShellLine, '\'')), "read");  // quotes pair up
  EXPECT_EQ(unreadable(std::string(ptc::commands::kMaxShellLine - 1, '"')), "an unterminated quote at column 65535");
}

TEST(ShellLine, TheTextOfACommandJoinsItsWordsWithSingleSpaces) {
  EXPECT_EQ((ptc::commands::SimpleCommand{{}, {"git", "commit", "-m", "a  b"}, {}}.text()), "git commit -m a  b");
  EXPECT_EQ((ptc::commands::SimpleCommand{}.text()), "");
  EXPECT_EQ(read_shell_line("git   diff\t--stat").commands.at(0).text(), "git diff --stat");
}

}  // namespace
