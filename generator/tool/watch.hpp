#pragma once
// ptc-gen --watch: generate, then generate again whenever a file the last run read changes, until
// SIGINT or SIGTERM. Linux (inotify); no LLVM, so the loop is tested on its own.

#include <functional>
#include <string>
#include <vector>

namespace ptcgen::tool {

/// One generation: whether it succeeded, and every file it read (the headers and what they include),
/// which the next change is looked for in.
struct Generation {
  bool ok = false;
  std::vector<std::string> files_read;
};

/// Runs `generate`, printing a line that starts with `ptc-gen: begin` before each run and one that
/// starts with `ptc-gen: end` after it (an editor's background task matches them; the run's
/// diagnostics come between), then waits for a change to a file the last run read, or to one of
/// `always` (the headers named on the command line, watched even when a run could not read them), and
/// runs it again. Changes that come within a few milliseconds of each other (an editor writing a file
/// and renaming it into place) make one run. Returns 0 when SIGINT or SIGTERM stops it (after the run
/// under way finishes), 1 when watching cannot start. Lines go to stderr, as the diagnostics do.
int watch(const std::function<Generation()>& generate, const std::vector<std::string>& always);

}  // namespace ptcgen::tool
