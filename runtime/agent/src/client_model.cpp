#include <ptc/agent/client_model.hpp>

#include <ptc/json_schema.hpp>
#include <ptc/json_text.hpp>

namespace ptc::agent {
namespace {

/// The system prompt, and what a typed answer must look like.
Result<std::string> system_prompt(const ModelRequest& request) {
  std::string text = request.conversation->system;
  if (!request.output) return text;
  auto schema = to_json_schema(request.output->schema, Profile::Portable);
  if (!schema) return Error{"the answer's schema cannot be rendered: " + schema.error().to_string()};
  if (!text.empty()) text += "\n\n";
  text += "Answer with JSON only, one value matching this JSON Schema:\n" + compact_text(*schema);
  return text;
}

}  // namespace

Result<ModelResponse> ClientModel::complete(const ModelRequest& request) {
  if (!request.conversation) return Error{"mcp-client: the request has no conversation"};
  SamplingRequest sampling;
  for (const auto& m : request.conversation->messages) {
    if (m.role == Role::tool || !m.tool_calls.empty())
      return Error{"mcp-client: sampling carries text only, and this conversation holds tool calls"};
    sampling.messages.push_back({m.role == Role::user ? "user" : "assistant", m.text});
  }
  auto system = system_prompt(request);
  if (!system) return system.error();
  sampling.system_prompt = std::move(*system);
  if (request.settings) {
    if (request.settings->max_output_tokens) sampling.max_tokens = *request.settings->max_output_tokens;
    sampling.temperature = request.settings->temperature;
  }
  auto sample = context_.sample(std::move(sampling));
  if (!sample) return Error{"mcp-client: " + sample.error().message};
  ModelResponse out;
  out.message.role = Role::assistant;
  out.message.text = std::move(sample->text);
  out.message.provider = provider();
  out.message.usage.requests = 1;  // sampling reports no token counts
  out.stop_reason = std::move(sample->stop_reason);
  return out;
}

}  // namespace ptc::agent
