// `ptc`: the runtime's command-line front end.

#include <CLI/CLI.hpp>

#include "command_command.hpp"
#include "signature_command.hpp"

int main(int argc, char** argv) {
  CLI::App app{"ptc: typed LLM tools from signatures. See `ptc <command> --help`."};
  app.require_subcommand(1);
  int exit_code = 0;
  ptc::app::add_signature_command(app, exit_code);
  ptc::app::add_command_command(app, exit_code);
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    app.exit(e);
    return 2;
  }
  return exit_code;
}
