#pragma once
// The `mcp` subcommand's --auth-* options, read into ptc::mcp::HttpAuth (docs/mcp.md, "Authorization").
// A token never appears on the command line: tokens come from a file or an environment variable.
// Private to ptc::cli.

#include <iosfwd>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include <ptc/error.hpp>
#include <ptc/mcp/auth.hpp>

namespace ptc::cli::detail {

struct McpAuthRequest {
  std::string tokens_file;
  std::string tokens_env;
  std::string jwks_file;
  std::string audience;
  std::string issuer;
  std::string resource;
  std::vector<std::string> servers;
  std::vector<std::string> scopes;

  /// Whether any --auth-* option was given.
  bool any() const;
};

void define_mcp_auth(CLI::App& mcp, McpAuthRequest& request);

/// The settings the options ask for (HttpAuth{} when none is given). The error is one line without
/// the "error: " its caller prints. Warnings about the sources (a tokens file other users may read) go
/// to `err`, each as "warning: ...".
Result<mcp::HttpAuth> mcp_auth(const McpAuthRequest& request, bool http, std::ostream& err);

}  // namespace ptc::cli::detail
