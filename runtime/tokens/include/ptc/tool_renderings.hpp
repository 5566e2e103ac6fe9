#pragma once
// The texts ptc sends a model for one tool, one per way of offering it: the prompt's tool list entry, and
// the definition each provider's request (or MCP's tools/list) carries. What `definitions` prints and what
// the token report counts.

#include <optional>
#include <span>
#include <string>
#include <string_view>

#include <ptc/error.hpp>
#include <ptc/json_schema.hpp>
#include <ptc/tool.hpp>

namespace ptc {

enum class Rendering {
  Prompt,           ///< the tool's entry in the prompt's tool list (render_tool_entry)
  OpenAIChat,       ///< openai_chat_tool: Chat Completions, strict
  OpenAIResponses,  ///< openai_responses_tool
  Anthropic,        ///< anthropic_tool
  Gemini,           ///< gemini_function_declaration
  Mcp,              ///< mcp_tool: a tools/list entry, results wrapped as the 2025 protocol lists them
};

/// Every rendering, in the order above.
std::span<const Rendering> all_renderings() noexcept;
/// "prompt", "openai", "openai-responses", "anthropic", "gemini", "mcp".
std::string_view rendering_name(Rendering rendering) noexcept;
std::optional<Rendering> rendering_from_name(std::string_view name) noexcept;
/// Whether the model reading it counts tokens with a tokenizer nobody can run offline (Anthropic's,
/// Gemini's): OpenAI's encodings then only estimate its cost.
bool rendering_is_estimate(Rendering rendering) noexcept;

/// The definition a provider's request carries for `tool` (Prompt has none: an error). Errors are the
/// provider function's: a name the provider refuses, a type its schema profile cannot express.
Result<OrderedJson> tool_definition(const Tool& tool, Rendering rendering);
/// The text sent: the prompt entry as it is, a definition as compact JSON.
Result<std::string> rendering_text(const Tool& tool, Rendering rendering);

}  // namespace ptc
