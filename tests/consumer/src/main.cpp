#include <ptc/cli.hpp>
#include <ptc/registry.hpp>

#include "weather.ptc.hpp"

int main(int argc, char** argv) {
  ptc::ToolRegistry registry;
  ptc_gen::weather::register_tools(registry);
  // Options as users write them, naming only the fields they set (warning-free under -Wextra).
  const ptc::cli::Options options{.prepare_session = [](ptc::Session&) {}};
  return ptc::cli::run(registry, argc, argv, options);
}
