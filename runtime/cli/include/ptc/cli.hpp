#pragma once
// ptc::cli::run — gives any program that owns a ToolRegistry the subcommands `list`, `prompt`,
// `schema [--profile P]` and `call NAME JSON [--mode M]` (docs/tools.md, "The command line of a tool program").

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
  std::function<void(Session&)> prepare_session{};
};

/// `call` dispatches in a fresh Session; JSON may be `@FILE` or `-` (standard input) and defaults to {}.
/// It prints `{"status","success","message","value","warnings"}`, or for invalid arguments the text the
/// model would get (the validation report, or the message for malformed / non-object JSON).
/// Exit codes: 0 success; 1 the call failed (validation report or failed result printed), a handler
/// stopped the evaluation, or `schema` cannot express a tool in the profile; 2 usage errors (unknown
/// subcommand, unknown tool, bad --mode or --profile, unreadable @FILE).
int run(const ToolRegistry& registry, int argc, const char* const* argv, const Options& options = {});
/// The same, with the arguments after the program name and explicit streams (`-` still reads std::cin).
int run(const ToolRegistry& registry, const std::vector<std::string>& args, std::ostream& out, std::ostream& err,
        const Options& options = {});

}  // namespace ptc::cli
