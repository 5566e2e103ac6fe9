// The server the official MCP conformance suite tests (run.mjs): the tools its scenarios call by name,
// served by ptc::cli::run exactly as a user's program is (`conformance_server mcp --http HOST:PORT`).
// Scenarios for what ptc does not implement (non-text content, logging, sampling, elicitation,
// resources, prompts, completions) have no tools here; baseline-*.yml lists them.

#include <chrono>
#include <thread>

#include <ptc/cli.hpp>
#include <ptc/registry.hpp>
#include <ptc/tool.hpp>
#include <ptc/tool_context.hpp>

int main(int argc, char** argv) {
  using Result = ptc::ToolResult<nlohmann::json>;
  ptc::ToolRegistry registry;
  registry.add(ptc::make_tool("test_simple_text", "Returns a simple text response.", "() -> :string",
                              [](const nlohmann::json&, ptc::ToolContext&) {
                                return Result::ok("This is a simple text response for testing.");
                              }));
  registry.add(ptc::make_tool("test_error_handling", "Always fails, to test error results.", "() -> :string",
                              [](const nlohmann::json&, ptc::ToolContext&) {
                                return Result::error("This tool intentionally returns an error for testing");
                              }));
  registry.add(ptc::make_tool("test_tool_with_progress", "Reports progress three times, then completes.",
                              "() -> :string", [](const nlohmann::json&, ptc::ToolContext& context) {
                                for (int step = 0; step <= 100; step += 50) {
                                  context.report_progress(step, 100, "step " + std::to_string(step / 50 + 1));
                                  // Progress sent in the same read as the response is dropped by
                                  // clients that hand notifications on a turn later.
                                  std::this_thread::sleep_for(std::chrono::milliseconds(50));
                                }
                                return Result::ok("Progress complete");
                              }));
  ptc::cli::Options options;
  options.server_name = "ptc-conformance";
  options.server_version = "1.0.0";
  return ptc::cli::run(registry, argc, argv, options);
}
