#pragma once
// One dispatched `search_orders` call, from the arguments' JSON text to the text of the reply a
// provider gets, as the timed benchmarks and the instruction counter run it.

#include <string>

#include <ptc/ptc.hpp>

#include "bench/calls.hpp"

namespace bench {

/// Which provider's reply the call ends in.
enum class Reply { OpenAI, Anthropic, Mcp };

/// The call as each provider brings it: OpenAI and Anthropic's parsed `input` differ in form, but both
/// reach dispatch as text here (an Anthropic client has the raw response text at hand, too); MCP
/// brings the parsed object and its text, as ptc's server cuts it out of the request.
inline ptc::ToolCall call_for(Reply reply, const std::string& text = kCall) {
  ptc::ToolCall call{kCallId, "search_orders", text, {}};
  if (reply == Reply::Mcp) {
    call.arguments = nlohmann::json::parse(text);
    call.arguments_text = text;
  }
  return call;
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
