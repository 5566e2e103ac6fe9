#pragma once
// ptc::cli::run — gives any program that owns a ToolRegistry the subcommands `list`, `prompt`,
// `schema [--profile P]` and `call NAME JSON [--mode M]` (docs/tools.md, DESIGN.md section 10).

#include <functional>
#include <iosfwd>
#include <string>
#include <vector>

namespace ptc {
class Session;
class ToolRegistry;
}  // namespace ptc

namespace ptc::cli {

struct Options {
  /// Runs on the fresh session `call` uses, e.g. to register a filesystem.
  std::function<void(Session&)> prepare_session;
};

/// Exit codes: 0 success; 1 the call failed (validation report or failed result printed); 2 usage
/// errors (unknown subcommand, unknown tool, bad --mode or --profile).
int run(const ToolRegistry& registry, int argc, const char* const* argv, const Options& options = {});
/// The same, with the arguments after the program name and explicit streams.
int run(const ToolRegistry& registry, const std::vector<std::string>& args, std::ostream& out, std::ostream& err,
        const Options& options = {});

}  // namespace ptc::cli
