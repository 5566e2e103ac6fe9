#pragma once
// ptc::agent::Conversation — what was said in a run, as a value: provider-neutral messages that every
// provider's wire format is written from, kept as JSON lines (a transcript) and read back to continue.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include <ptc/error.hpp>
#include <ptc/tool_call.hpp>

namespace ptc::agent {

enum class Role { user, assistant, tool };
std::string_view role_name(Role role);  ///< "user", "assistant", "tool"

/// A call's result as the model is told it: the text ptc rendered, and whether the call failed (each
/// provider marks that its own way: Anthropic's `is_error`, an `error` field in Gemini's response).
struct ToolResultPart {
  std::string call_id;
  std::string name;
  std::string content;
  bool is_error = false;
  friend bool operator==(const ToolResultPart&, const ToolResultPart&) = default;
};

/// Tokens a request used, as the provider reported them (0 when it did not).
struct Usage {
  std::uint64_t requests = 0;
  std::uint64_t input_tokens = 0;
  std::uint64_t output_tokens = 0;
  std::uint64_t cached_input_tokens = 0;  ///< part of input_tokens
  std::uint64_t reasoning_tokens = 0;     ///< part of output_tokens
  std::uint64_t total_tokens() const { return input_tokens + output_tokens; }
  Usage& operator+=(const Usage& other);
  friend bool operator==(const Usage&, const Usage&) = default;
};

struct Message {
  Role role = Role::user;
  /// user: the task or a follow-up; assistant: the answer text (may be empty beside tool calls).
  std::string text;
  /// assistant: the calls the model asked for, in its order; `arguments` is the JSON text it sent.
  std::vector<ToolCall> tool_calls;
  /// tool: the results of one turn's calls, in the model's order.
  std::vector<ToolResultPart> tool_results;
  /// assistant: what the provider requires back verbatim in later requests (Anthropic's thinking
  /// blocks, Gemini's thought signatures, Responses' reasoning items): the provider's own items, sent
  /// again unchanged when the conversation goes back to the same provider (`provider`), dropped for
  /// another one.
  nlohmann::json raw = nullptr;
  std::string provider;  ///< who wrote `raw` ("openai", "openai-responses", "anthropic", "gemini")
  Usage usage;           ///< assistant: what the request that produced it used
};

struct Conversation {
  std::string system;  ///< instructions sent as each provider's system prompt; may be empty
  std::vector<Message> messages;

  /// JSON lines: a first line `{"system":...}`, then one message per line. The same conversation
  /// writes the same bytes. Secrets never enter a conversation, so a transcript holds none.
  std::string to_json_lines() const;
  /// Reads what to_json_lines wrote; an error names the line.
  static Result<Conversation> from_json_lines(std::string_view text);
};

nlohmann::json to_json(const Message& message);
Result<Message> message_from_json(const nlohmann::json& value);

}  // namespace ptc::agent
