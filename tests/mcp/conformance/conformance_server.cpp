// The server the official MCP conformance suite tests (run.mjs): the tools its scenarios call by name,
// served by ptc::cli::run exactly as a user's program is (`conformance_server mcp --http HOST:PORT`).
// Scenarios for what ptc does not implement (logging, sampling, elicitation, resources, prompts,
// completions) have no tools here; baseline-*.yml lists them.

#include <chrono>
#include <functional>
#include <string>
#include <string_view>
#include <thread>

#include <ptc/cli.hpp>
#include <ptc/content.hpp>
#include <ptc/registry.hpp>
#include <ptc/tool.hpp>
#include <ptc/tool_context.hpp>

namespace {

// A 1x1 red PNG and 8 samples of 8 kHz silence as WAV, for the content scenarios.
constexpr std::string_view kPng(
    "\x89\x50\x4e\x47\x0d\x0a\x1a\x0a\x00\x00\x00\x0d\x49\x48\x44\x52\x00\x00\x00\x01\x00\x00\x00\x01\x08\x02"
    "\x00\x00\x00\x90\x77\x53\xde\x00\x00\x00\x0c\x49\x44\x41\x54\x78\x9c\x63\xf8\xcf\xc0\x00\x00\x03\x01"
    "\x01\x00\xc9\xfe\x92\xef\x00\x00\x00\x00\x49\x45\x4e\x44\xae\x42\x60\x82",
    69);
constexpr std::string_view kWav(
    "\x52\x49\x46\x46\x2c\x00\x00\x00\x57\x41\x56\x45\x66\x6d\x74\x20\x10\x00\x00\x00\x01\x00\x01\x00\x40\x1f"
    "\x00\x00\x40\x1f\x00\x00\x01\x00\x08\x00\x64\x61\x74\x61\x08\x00\x00\x00\x80\x80\x80\x80\x80\x80\x80\x80",
    52);

/// A tool without parameters that answers `text` and attaches what `attach` gives.
ptc::Tool with_content(std::string name, std::string description, std::string text,
                       std::function<void(ptc::ToolContext&)> attach) {
  return ptc::make_tool(std::move(name), std::move(description), "() -> :string",
                        [text = std::move(text), attach = std::move(attach)](const nlohmann::json&,
                                                                             ptc::ToolContext& context) {
                          attach(context);
                          return ptc::ToolResult<nlohmann::json>::ok(text);
                        });
}

ptc::Content embedded() {
  return ptc::Content::resource_text("test://embedded-resource", "text/plain", "This is an embedded resource content.");
}

}  // namespace

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
  registry.add(with_content("test_image_content", "Returns an image.", "A red pixel.",
                            [](ptc::ToolContext& c) { c.attach(ptc::Content::image(kPng, "image/png")); }));
  registry.add(with_content("test_audio_content", "Returns a sound.", "Silence.",
                            [](ptc::ToolContext& c) { c.attach(ptc::Content::audio(kWav, "audio/wav")); }));
  registry.add(with_content("test_embedded_resource", "Returns an embedded resource.", "A resource.",
                            [](ptc::ToolContext& c) { c.attach(embedded()); }));
  registry.add(with_content("test_multiple_content_types", "Returns text, an image and a resource.",
                            "Multiple content types test:", [](ptc::ToolContext& c) {
                              c.attach(ptc::Content::image(kPng, "image/png"));
                              c.attach(embedded());
                            }));
  ptc::cli::Options options;
  options.server.name = "ptc-conformance";
  options.server.version = "1.0.0";
  return ptc::cli::run(registry, argc, argv, options);
}
