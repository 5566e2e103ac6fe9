// The quickstart: an issue tracker whose tools come from tracker.hpp through ptc_generate.
//   quickstart list | prompt | schema [--profile openai] | call NAME '<json>' [--mode strict]
// Run scripts/demo.sh to see it answer a well-formed call, a quirky one and a broken one.

#include <chrono>

#include <ptc/ptc.hpp>

#include "tracker.ptc.hpp"

int main(int argc, char** argv) {
  using namespace std::chrono;
  // A fixed clock keeps the demo's output the same on every run.
  const auto fixed = sys_days{year{2025} / 12 / 29} + hours{10} + minutes{30};
  tracker::Tracker tracker([fixed] { return tracker::Clock::time_point{fixed}; });
  tracker.create_issue("Crash when saving an empty file", tracker::Priority::urgent, {"bug"});
  tracker.create_issue("Typo in the settings dialog", tracker::Priority::low, {"ui"});

  ptc::ToolRegistry registry;
  ptc_gen::tracker::register_tools(registry);           // free functions: suggest_priority
  ptc_gen::tracker::register_tools(registry, tracker);  // member tools of tracker::Tracker
  return ptc::cli::run(registry, argc, argv);
}
