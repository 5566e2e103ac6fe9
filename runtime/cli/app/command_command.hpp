#pragma once
// `ptc command ...`: list, invoke and dispatch markdown commands; reload, register and unregister them.

#include <CLI/CLI.hpp>

namespace ptc::app {

/// Adds the `command` subcommand; after parsing, `exit_code` holds the exit code of what was asked.
void add_command_command(CLI::App& app, int& exit_code);

}  // namespace ptc::app
