#pragma once
// ptc::cli::run — gives any program that owns a ToolRegistry the subcommands `list`, `prompt`, `tokens`,
// `schema [--profile P]`, `definitions FORMAT`, `call NAME JSON [--mode M]`, `mcp [--http HOST:PORT]` and
// `agent [--provider P] [--model M] ... TASK`
// (docs/tools.md, "The command line of a tool program"; docs/mcp.md).

#include <functional>
#include <iosfwd>
#include <string>
#include <vector>

#include <ptc/server_identity.hpp>

namespace ptc {
class Session;
class ToolRegistry;
}  // namespace ptc

namespace ptc::cli {

struct Options {
  /// Runs on the fresh session `call` uses, and on each session `mcp` creates (one per client), e.g.
  /// to register a filesystem.
  std::function<void(Session&)> prepare_session{};
  /// How `mcp` names the server to clients. An empty name or version is the one the registry's
  /// generated tools offer (ptc_generate: the CMake project's, ToolRegistry::offer_server_identity),
  /// else the program's file name and "0.0.0".
  ServerIdentity server{};
  /// Deprecated, kept for a release: the fields `server` replaced, read only where its are empty. Not
  /// marked [[deprecated]]: g++ would then warn in every Options' implicit constructor and destructor.
  std::string server_name{};
  std::string server_version{};
  std::string server_title{};
};

/// `call` dispatches in a fresh Session; JSON may be `@FILE` or `-` (standard input) and defaults to {}.
/// It prints `{"status","success","message","value","warnings"}`, or for invalid arguments the text the
/// model would get (the validation report, or the message for malformed / non-object JSON).
/// `mcp` serves the tools over MCP on standard input and output (or Streamable HTTP with `--http`)
/// until the client disconnects or the process gets SIGTERM.
/// Exit codes: 0 success; 1 the call failed (validation report or failed result printed), a handler
/// stopped the evaluation, or `schema` cannot express a tool in the profile; 2 usage errors (unknown
/// subcommand, unknown tool, bad --mode or --profile, unreadable @FILE).
int run(const ToolRegistry& registry, int argc, const char* const* argv, const Options& options = {});
/// The same, with the arguments after the program name and explicit streams (`-` still reads std::cin).
int run(const ToolRegistry& registry, const std::vector<std::string>& args, std::ostream& out, std::ostream& err,
        const Options& options = {});

}  // namespace ptc::cli
