#pragma once
// ptc::agent::ClientModel — the model of the MCP client that called a tool, as an agent::Model. Code
// written against Model (an Agent, a typed run, a test) runs on the client's model from inside a
// handler, through MCP sampling (ToolContext::sample):
//
//   ptc::agent::ClientModel model(context);
//   ptc::agent::Agent agent(model, no_tools);
//   auto summary = agent.run<Summary>("Summarize PTC-7 in one line.");
//
// Sampling carries text: the conversation's user and assistant text goes as sampling messages, the
// system prompt as `systemPrompt`. The client's model cannot call tools through it, so a request that
// offers tools is sent without them, and a conversation that holds tool results is refused. An answer
// the run wants typed (OutputSpec) is asked for in the system prompt, with its JSON Schema; the agent
// checks it and asks again as it does with any provider.

#include <string>

#include <ptc/agent/model.hpp>
#include <ptc/tool_context.hpp>

namespace ptc::agent {

class ClientModel : public Model {
 public:
  /// The context must outlive the model: it is the handler's.
  explicit ClientModel(ToolContext& context) : context_(context) {}

  /// One sampling request. Errors: the client cannot sample (it did not declare the capability), it
  /// answered with an error, or the conversation holds what sampling cannot carry.
  Result<ModelResponse> complete(const ModelRequest& request) override;
  std::string provider() const override { return "mcp-client"; }

 private:
  ToolContext& context_;
};

}  // namespace ptc::agent
