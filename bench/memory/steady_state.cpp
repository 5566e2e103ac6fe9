// A long-running server's memory at a steady load: one session dispatches the generated
// `search_orders` a million times, as a server answering one client for days would, and the resident
// set is printed at checkpoints. The session keeps only the newest SessionOptions::log_limit
// ToolInvoked events (docs/tools.md, "Sessions"), so the resident set must stop growing once that
// many calls were made; the last line is the growth after the log filled, which should be ~0.
//
//   steady_state_bench [calls]      (default 1000000)

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>

#include "bench/dispatch.hpp"
#include "orders.ptc.cpp"

namespace {

long rss_kb() {
  std::ifstream in("/proc/self/status");
  std::string line;
  while (std::getline(in, line))
    if (line.rfind("VmRSS:", 0) == 0) return std::stol(line.substr(6));
  return -1;
}

}  // namespace

int main(int argc, char** argv) {
  const long calls = argc > 1 ? std::atol(argv[1]) : 1'000'000;
  ptc::ToolRegistry registry;
  ptc_gen::orders::register_tools(registry);
  const ptc::Tool tool = *registry.find("search_orders");
  ptc::Session session;
  const ptc::ToolCall call = bench::call_for(bench::Reply::OpenAI);
  const long settled = static_cast<long>(session.options().log_limit) * 10;
  std::printf("%12s %12s %10s %12s\n", "calls", "VmRSS kB", "log", "dropped");
  long at_settled = -1, last = -1;
  std::size_t bytes = 0;
  for (long i = 1; i <= calls; ++i) {
    bytes += bench::dispatch_to_reply(registry, session, call, bench::Reply::OpenAI, tool).size();
    if (i != 1000 && i != settled && i % 100'000 != 0 && i != calls) continue;
    last = rss_kb();
    if (i == settled) at_settled = last;
    // The log's size from what it dropped: log() would copy the whole log, and that copy would count.
    const std::size_t dropped = session.dropped<ptc::ToolInvoked>();
    std::printf("%12ld %12ld %10zu %12zu\n", i, last, static_cast<std::size_t>(i) - dropped, dropped);
  }
  if (bytes == 0) return 1;
  if (at_settled >= 0) std::printf("growth from call %ld to call %ld: %ld kB\n", settled, calls, last - at_settled);
  return 0;
}
