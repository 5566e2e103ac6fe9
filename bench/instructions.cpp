// Runs one benchmarked case a given number of times, for bench/callgrind.sh: instruction counts under
// callgrind are the same from run to run, where timings on this machine move by a tenth or more.
//
//   bench_instructions <case> <iterations>
//
// It also prints, on stderr, how many times operator new ran (`allocations: N`), which the script
// turns into allocations per call the same way.
//
// The script runs each case twice with different iteration counts and divides the difference, so
// start-up and first-call costs drop out.

#include <cstdio>
#include <cstdlib>
#include <functional>
#include <map>
#include <string>

#include "bench/allocations.hpp"
#include "bench/calls.hpp"
#include "bench/dispatch.hpp"
#include "bench/firewalled_case.hpp"
#include "bench/ondemand.hpp"
#include "orders.ptc.cpp"

namespace {

using GeneratedArgs = ptc_gen::orders::detail::search_orders_args;

void decode(const std::string& text, long n) {
  for (long i = 0; i < n; ++i) {
    GeneratedArgs args;
    const auto result = ptc::codec::decode_only(text, args);
    if (!result.ok || args.limit != 20) std::abort();
  }
}

void ondemand(const std::string& text, long n) {
  for (long i = 0; i < n; ++i) {
    bench::ondemand::SearchArgs args;
    if (!bench::ondemand::decode(text, args)) std::abort();
  }
}

/// `observed`: the session keeps its log (the library's default), so every call builds its ToolInvoked;
/// otherwise nobody observes the calls, as in the MCP server's sessions, and none is built.
void dispatch(bench::Reply reply, long n, bool observed = true) {
  ptc::ToolRegistry registry;
  ptc_gen::orders::register_tools(registry);
  const ptc::Tool tool = *registry.find("search_orders");
  ptc::Session session({}, observed ? ptc::SessionOptions{} : ptc::SessionOptions{.log_limit = 0});
  const ptc::ToolCall call = bench::call_for(reply);
  std::size_t bytes = 0;
  for (long i = 0; i < n; ++i) bytes += bench::dispatch_to_reply(registry, session, call, reply, tool).size();
  if (bytes == 0) std::abort();
}

/// dispatch_openai with the reply as JSON (openai_chat_tool_message), for a program that puts the message
/// into a request tree: the difference from dispatch_openai is what the JSON form costs over the text.
void dispatch_openai_json(long n) {
  ptc::ToolRegistry registry;
  ptc_gen::orders::register_tools(registry);
  ptc::Session session;
  const ptc::ToolCall call = bench::call_for(bench::Reply::OpenAI);
  std::size_t members = 0;
  for (long i = 0; i < n; ++i) members += ptc::openai_chat_tool_message(registry.dispatch(session, call)).size();
  if (members == 0) std::abort();
}

const std::map<std::string, std::function<void(long)>> kCases = {
    {"decode", [](long n) { decode(bench::kCall, n); }},
    {"decode_permuted", [](long n) { decode(bench::kPermutedCall, n); }},
    {"decode_coerced", [](long n) { decode(bench::kCoercedCall, n); }},
    {"ondemand", [](long n) { ondemand(bench::kCall, n); }},
    {"ondemand_permuted", [](long n) { ondemand(bench::kPermutedCall, n); }},
    {"dispatch_openai", [](long n) { dispatch(bench::Reply::OpenAI, n); }},
    {"dispatch_openai_json", dispatch_openai_json},
    {"dispatch_anthropic", [](long n) { dispatch(bench::Reply::Anthropic, n); }},
    {"dispatch_mcp", [](long n) { dispatch(bench::Reply::Mcp, n); }},
    {"dispatch_unobserved", [](long n) { dispatch(bench::Reply::OpenAI, n, false); }},
    {"dispatch_firewalled", bench::dispatch_firewalled},
};

}  // namespace

int main(int argc, char** argv) {
  if (argc == 2 && std::string(argv[1]) == "--list") {
    for (const auto& [name, run] : kCases) std::printf("%s\n", name.c_str());
    return 0;
  }
  const auto it = argc == 3 ? kCases.find(argv[1]) : kCases.end();
  if (it == kCases.end()) {
    std::fprintf(stderr, "usage: bench_instructions <case> <iterations> | --list\n");
    return 2;
  }
  it->second(std::atol(argv[2]));
  std::fprintf(stderr, "allocations: %ld\n", bench::allocations());
  return 0;
}
