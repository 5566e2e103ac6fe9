#pragma once
// What well-known programs run when a command line names them: the command behind a wrapper (`sudo
// rm`, `env X=1 rm`, `xargs rm`, `find -exec rm`) and the script handed to a shell (`bash -c '...'`,
// `eval ...`). shell_line.hpp reads the syntax; this adds what the syntax does not show. Private to the
// runtime; docs/commands.md, "How shell rules read a command line", lists the programs.

#include <string>
#include <string_view>
#include <vector>

#include "shell_line.hpp"

namespace ptc::commands {

/// The commands that may run behind a command whose program is a wrapper (`sudo`, `env`, `nohup`,
/// `nice`, `timeout`, `xargs`, `exec`, ...; docs/commands.md lists them) or find with `-exec`.
struct Wrapped {
  /// Wrappers' options differ, so each of the first few words after a wrapper that is not an option or
  /// an assignment is taken as a place where the wrapped command may start: a candidate may be an
  /// option's value, but the command the wrapper runs is among them. An outer candidate comes first.
  std::vector<std::vector<std::string>> commands;
  /// False when there were more wrappers or candidates than are followed: one may have been missed.
  bool complete = true;
};
/// For deny and ask rules, which must see a command whatever wraps it.
Wrapped commands_behind(const std::vector<std::string>& words);

/// The program a command's first word names, without its directory (`/usr/bin/env` -> `env`): how
/// wrappers are recognised, and the form deny rules also see (`/bin/rm` is `rm` to them).
std::string_view program_name(std::string_view word);

/// read_shell_line, plus what the scripts its commands hand to a shell run, read the same way:
/// `bash -c 'rm -rf /'` runs `bash -c 'rm -rf /'` and `rm -rf /`. A script's unreadable parts are
/// reported as the line's.
ShellLine read_command_line(std::string_view line);

}  // namespace ptc::commands
