#include <ptc/tool_renderings.hpp>

#include <array>

#include <ptc/json_text.hpp>
#include <ptc/mcp/wire.hpp>
#include <ptc/provider.hpp>
#include <ptc/tool_catalog.hpp>
#include <ptc/tool_list.hpp>

namespace ptc {

namespace {

struct Entry {
  Rendering rendering;
  std::string_view name;
  bool estimate;
};
// The names are `definitions`' format names, so a report's column and the command that prints its
// text agree.
constexpr std::array<Entry, 6> kEntries{{
    {Rendering::Prompt, "prompt", false},
    {Rendering::OpenAIChat, "openai", false},
    {Rendering::OpenAIResponses, "openai-responses", false},
    {Rendering::Anthropic, "anthropic", true},
    {Rendering::Gemini, "gemini", true},
    {Rendering::Mcp, "mcp", false},
}};
constexpr std::array<Rendering, 6> kAll{Rendering::Prompt,    Rendering::OpenAIChat, Rendering::OpenAIResponses,
                                        Rendering::Anthropic, Rendering::Gemini,     Rendering::Mcp};

const Entry& entry(Rendering rendering) noexcept { return kEntries[static_cast<std::size_t>(rendering)]; }

}  // namespace

std::span<const Rendering> all_renderings() noexcept { return kAll; }

std::string_view rendering_name(Rendering rendering) noexcept { return entry(rendering).name; }

std::optional<Rendering> rendering_from_name(std::string_view name) noexcept {
  for (const auto& e : kEntries)
    if (e.name == name) return e.rendering;
  return std::nullopt;
}

bool rendering_is_estimate(Rendering rendering) noexcept { return entry(rendering).estimate; }

Result<OrderedJson> tool_definition(const Tool& tool, Rendering rendering) {
  switch (rendering) {
    case Rendering::OpenAIChat: return openai_chat_tool(tool);
    case Rendering::OpenAIResponses: return openai_responses_tool(tool);
    case Rendering::Anthropic: return anthropic_tool(tool);
    case Rendering::Gemini: return gemini_function_declaration(tool);
    case Rendering::Mcp: return mcp_tool(tool);
    case Rendering::Prompt: break;
  }
  return Error{"the prompt rendering is text, not a definition"};
}

Result<std::string> rendering_text(const Tool& tool, Rendering rendering) {
  if (rendering == Rendering::Prompt) return render_tool_entry(describe_tools(std::span(&tool, 1)).front());
  // The server writes its tools/list entries with mcp_tool_text, from a generated tool's listing.
  if (rendering == Rendering::Mcp) return mcp_tool_text(tool);
  auto definition = tool_definition(tool, rendering);
  if (!definition) return definition.error();
  return compact_text(*definition);
}

}  // namespace ptc
