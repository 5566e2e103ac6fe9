#pragma once
// One dispatched `search_orders` call, from the arguments' JSON text to the text of the reply a
// provider gets, as the timed benchmarks and the instruction counter run it.

#include <string>

#include <ptc/ptc.hpp>

#include "bench/calls.hpp"

namespace bench {

/// Which provider's reply the call ends in.
enum class Reply { OpenAI, Anthropic, Mcp };

/// The call as each provider brings it: as text. OpenAI sends text, ptc's MCP server keeps the text of a
/// request's arguments, and an Anthropic client has the raw response text at hand too.
inline ptc::ToolCall call_for(Reply, const std::string& text = kCall) {
  return ptc::ToolCall{kCallId, "search_orders", text};
}

/// Dispatches `call` and returns the reply's JSON text, as a server sending it writes it.
inline std::string dispatch_to_reply(const ptc::ToolRegistry& registry, ptc::Session& session,
                                     const ptc::ToolCall& call, Reply reply, const ptc::Tool& tool) {
  const ptc::ToolOutcome outcome = registry.dispatch(session, call);
  switch (reply) {
    case Reply::OpenAI: return ptc::openai_chat_tool_message_text(outcome);
    case Reply::Anthropic: return ptc::anthropic_tool_result_text(outcome);
    case Reply::Mcp: return ptc::mcp_call_tool_result_text(outcome, tool);
  }
  return {};
}

}  // namespace bench
