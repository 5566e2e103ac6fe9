#pragma once
// The part of POSIX shell syntax that permission rules need: a command line split into its simple
// commands and their words. Anything outside the accepted subset is reported, never guessed at, so a
// caller can fall back to asking. docs/commands.md, "How Bash rules read a command line", has the
// grammar. Private to the runtime.

#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace ptc::commands {

/// One simple command: its words after quote removal (`"git" di\ff` -> git, diff).
struct SimpleCommand {
  std::vector<std::string> words;
  /// The words joined by single spaces: the text permission rules are matched against.
  std::string text() const;
};

/// Why a command line was not split: "command substitution", "redirection", ...
struct Unsupported {
  std::string construct;
};

/// The simple commands of `line`, separated by `;`, `&`, `&&`, `|`, `||`, `|&` or newlines (empty ones
/// are dropped), or the first construct the splitter does not parse exactly.
std::variant<std::vector<SimpleCommand>, Unsupported> split_shell_commands(std::string_view line);

}  // namespace ptc::commands
