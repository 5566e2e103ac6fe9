// A program served by ptc::cli::run, as any user's is, for bench/startup/run.sh: built twice, with
// the 1000 generated tools of many_tools.hpp (PTC_STARTUP_TOOLS) and with none, so the difference of
// the two start-ups (`list`, and MCP initialize + tools/list) is what the generated tools cost.
#include <ptc/cli.hpp>
#include <ptc/registry.hpp>

#ifdef PTC_STARTUP_TOOLS
#include "many_tools.ptc.hpp"
#endif

int main(int argc, char** argv) {
  ptc::ToolRegistry registry;
#ifdef PTC_STARTUP_TOOLS
  ptc_gen::many_tools::register_tools(registry);
#endif
  ptc::cli::Options options;
  options.server.name = "ptc-startup";
  options.server.version = "1.0.0";
  return ptc::cli::run(registry, argc, argv, options);
}
