#pragma once
// The part of bash syntax that permission rules need: every simple command a command line may run,
// wherever it stands (lists and pipelines, `{ }` and `( )`, the bodies of if, while, until, for, select
// and case, function bodies, command and process substitutions, behind `!` and `time`), with its words
// after quote removal and its redirections taken out. What is not read exactly is reported with its
// column, never guessed at, so that a caller can refuse to allow the line. docs/commands.md, "How
// shell rules read a command line", has the rules. Private to the runtime.

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace ptc::commands {

/// One simple command as the shell would run it.
struct SimpleCommand {
  std::vector<std::string> assignments;  ///< `NAME=value` words before the command name (quotes removed)
  std::vector<std::string> words;        ///< the command name and its arguments (quotes removed)
  /// Where its output redirections write, other than /dev/null and file descriptors (`> out.txt`).
  std::vector<std::string> writes;

  std::string text() const;  ///< the words joined by single spaces: what rules are matched against
  /// The assignments and the words joined by single spaces (`FOO=1 make test`).
  std::string text_with_assignments() const;
};

/// What a command line runs, as far as it can be read.
struct ShellLine {
  /// Every simple command, the substitutions' included (an inner command comes before its outer one).
  std::vector<SimpleCommand> commands;
  /// What could not be read exactly, each as "<what> at column <n>" (a byte count from 1). A computed
  /// command name (`$cmd`, `$(which rm)`, `/bin/r?`, `{rm,-rf,/}`) is one: the program is unknown.
  /// Empty when the whole line was read.
  std::vector<std::string> unreadable;
};

/// How deeply substitutions and nested scripts may nest before the rest is left unread.
inline constexpr int kMaxShellNesting = 16;
/// The longest line read; a longer one is unreadable as a whole (docs/limits.md).
inline constexpr std::size_t kMaxShellLine = 64 * 1024;

/// Reads `line`; `depth` says how deeply it is nested already (a script found inside another line).
ShellLine read_shell_line(std::string_view line, int depth = 0);

}  // namespace ptc::commands
