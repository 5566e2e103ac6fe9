// A dispatched call of the generated `search_orders`, from the arguments' text to the text of each
// provider's reply (README.md, "Performance"): what a program serving the tool pays per call, to
// compare with the decode alone (codec_bench.cpp) in the same run.

#include <benchmark/benchmark.h>

#include "bench/dispatch.hpp"
#include "orders.ptc.hpp"

namespace {

void BM_Dispatch(benchmark::State& state) {
  const auto reply = static_cast<bench::Reply>(state.range(0));
  ptc::ToolRegistry registry;
  ptc_gen::orders::register_tools(registry);
  const ptc::Tool tool = *registry.find("search_orders");
  ptc::Session session;
  const ptc::ToolCall call = bench::call_for(reply);
  for (auto _ : state) {
    std::string text = bench::dispatch_to_reply(registry, session, call, reply, tool);
    benchmark::DoNotOptimize(text);
  }
}
// 0: OpenAI chat tool message, 1: Anthropic tool_result, 2: MCP CallToolResult.
BENCHMARK(BM_Dispatch)->ArgName("reply")->Arg(0)->Arg(1)->Arg(2);

/// The same call ending in the OpenAI reply as a JSON value (to put in a request), which should cost
/// no more than the text form plus building its three members.
void BM_DispatchToJson(benchmark::State& state) {
  ptc::ToolRegistry registry;
  ptc_gen::orders::register_tools(registry);
  ptc::Session session;
  const ptc::ToolCall call = bench::call_for(bench::Reply::OpenAI);
  for (auto _ : state) {
    nlohmann::json message = ptc::openai_chat_tool_message(registry.dispatch(session, call));
    benchmark::DoNotOptimize(message);
  }
}
BENCHMARK(BM_DispatchToJson);

}  // namespace
