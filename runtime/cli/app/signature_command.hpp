#pragma once
// `ptc signature ...`: parse, print, validate and render signatures from the command line.

#include <CLI/CLI.hpp>

namespace ptc::app {

/// Adds the `signature` subcommand; after parsing, `exit_code` holds the exit code of what was asked.
void add_signature_command(CLI::App& app, int& exit_code);

}  // namespace ptc::app
