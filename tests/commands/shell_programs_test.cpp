// What programs run besides themselves: the command behind a wrapper, find's -exec, the script handed
// to a shell or to eval.
#include <algorithm>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "shell_programs.hpp"

namespace {

using ptc::commands::commands_behind;
using ptc::commands::read_command_line;
using Words = std::vector<std::string>;

std::vector<std::string> behind(const Words& words) {
  std::vector<std::string> out;
  for (const auto& candidate : commands_behind(words).commands)
    out.push_back(ptc::commands::SimpleCommand{{}, candidate, {}}.text());
  return out;
}

std::vector<std::string> texts(const std::string& line) {
  std::vector<std::string> out;
  for (const auto& command : read_command_line(line).commands) out.push_back(command.text());
  return out;
}

TEST(ShellPrograms, TheCommandBehindAWrapperIsAmongItsCandidates) {
  EXPECT_EQ(behind({"sudo", "rm", "-rf", "/"}), (std::vector<std::string>{"rm -rf /", "/"}));
  EXPECT_EQ(behind({"sudo", "-u", "root", "rm", "x"}), (std::vector<std::string>{"root rm x", "rm x", "x"}));
  EXPECT_EQ(behind({"env", "-i", "A=1", "B=2", "rm", "x"}), (std::vector<std::string>{"rm x", "x"}));
  EXPECT_EQ(behind({"/usr/bin/timeout", "5", "rm", "x"}), (std::vector<std::string>{"5 rm x", "rm x", "x"}));
  EXPECT_EQ(behind({"git", "commit", "-m", "rm x"}), std::vector<std::string>{});  // not a wrapper
  EXPECT_EQ(behind({"find", ".", "-name", "*.o", "-exec", "rm", "{}", ";", "-print"}),
            (std::vector<std::string>{"rm {}"}));
  EXPECT_EQ(behind({"find", ".", "-execdir", "sudo", "rm", "{}", "+"}),
            (std::vector<std::string>{"sudo rm {}", "rm {}", "{}"}));
  EXPECT_TRUE(commands_behind({"sudo", "rm"}).complete);
}

TEST(ShellPrograms, WrappersAreFollowedThroughOtherWrappers) {
  const auto candidates = behind({"sudo", "nice", "-n", "5", "nohup", "rm", "x"});
  EXPECT_NE(std::find(candidates.begin(), candidates.end(), "rm x"), candidates.end());
  Words eight(8, "nohup");
  eight.push_back("rm");
  const auto deep = behind(eight);
  EXPECT_EQ(deep.back(), "rm") << "eight wrappers deep is followed";
}

TEST(ShellPrograms, WhatIsNotFollowedIsReported) {
  Words many(40, "sudo");
  many.push_back("rm");
  const auto wrapped = commands_behind(many);
  EXPECT_FALSE(wrapped.complete);
  EXPECT_LE(wrapped.commands.size(), 32u);
  const auto read = read_command_line("nohup nohup nohup nohup nohup nohup nohup nohup nohup rm x");
  ASSERT_EQ(read.unreadable.size(), 1u);
  EXPECT_EQ(read.unreadable[0], "more wrapped commands behind `nohup` than are followed");
}

TEST(ShellPrograms, ScriptsHandedToAShellAreRead) {
  EXPECT_EQ(texts("bash -c 'cd x && rm -rf /'"),
            (std::vector<std::string>{"bash -c cd x && rm -rf /", "cd x", "rm -rf /"}));
  EXPECT_EQ(texts("sh -ec \"rm a\""), (std::vector<std::string>{"sh -ec rm a", "rm a"}));
  EXPECT_EQ(texts("sudo -u u zsh -lc 'rm b'"), (std::vector<std::string>{"sudo -u u zsh -lc rm b", "rm b"}));
  EXPECT_EQ(texts("su root -c 'rm c'"), (std::vector<std::string>{"su root -c rm c", "rm c"}));
  EXPECT_EQ(texts("su --command='rm d'"), (std::vector<std::string>{"su --command=rm d", "rm d"}));
  EXPECT_EQ(texts("eval 'rm' e"), (std::vector<std::string>{"eval rm e", "rm e"}));
  EXPECT_EQ(texts("bash script.sh"), (std::vector<std::string>{"bash script.sh"}));  // a file: not read
}

TEST(ShellPrograms, AScriptsUnreadablePartsAreTheLines) {
  const auto read = read_command_line("bash -c 'ls $(pwd'");
  ASSERT_EQ(read.unreadable.size(), 1u);
  EXPECT_EQ(read.unreadable[0], "in the script of `bash`: a substitution without its `)` at column 4");
}

TEST(ShellPrograms, NestedScriptsAreBounded) {
  std::string line = "rm x";
  for (int i = 0; i < 20; ++i) line = "eval " + line;  // each eval's script is the rest of the line
  const auto read = read_command_line(line);
  ASSERT_FALSE(read.unreadable.empty());
  EXPECT_NE(read.unreadable.back().find("a script nested more than 16 deep at column 1"), std::string::npos)
      << read.unreadable.back();
  EXPECT_EQ(read.commands.size(), 17u);
}

}  // namespace
