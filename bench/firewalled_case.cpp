// bench_instructions' dispatch_firewalled case (bench/include/bench/firewalled_case.hpp).
#include "bench/firewalled_case.hpp"

#include <cstdlib>
#include <string>

#include <ptc/provider.hpp>

#include "bench/calls.hpp"
#include "customers.ptc.cpp"

namespace bench {

void dispatch_firewalled(long n) {
  ptc::ToolRegistry registry;
  ptc_gen::customers::register_tools(registry);
  ptc::Session session;
  const ptc::ToolCall call{kCallId, "find_customers", std::string(R"({"name":"Ada","limit":10})")};
  std::size_t bytes = 0;
  for (long i = 0; i < n; ++i) {
    const ptc::ToolOutcome outcome = registry.dispatch(session, call);
    // The case measures hiding a field: it must be hidden.
    if (outcome.rendered.find(R"("_email":"<Firewalled>")") == std::string::npos) std::abort();
    bytes += ptc::openai_chat_tool_message_text(outcome).size();
  }
  if (bytes == 0) std::abort();
}

}  // namespace bench
