#include <ptc/ptc.hpp>

#include "weather.ptc.hpp"

int main(int argc, char** argv) {
  ptc::ToolRegistry registry;
  ptc_gen::weather::register_tools(registry);
  return ptc::cli::run(registry, argc, argv);
}
