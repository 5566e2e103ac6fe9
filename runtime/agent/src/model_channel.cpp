#include "model_channel.hpp"

namespace ptc::agent::detail {
namespace {

using nlohmann::json;

/// The text of a sampling message's content: one text block, or a list of blocks whose texts join.
Result<std::string> content_text(const json& content) {
  auto block_text = [](const json& block) -> Result<std::string> {
    if (!block.is_object() || !block.contains("type") || block["type"] != "text" || !block.contains("text") ||
        !block["text"].is_string())
      return Error{"the agent's model answers text only, and a message holds another kind of content"};
    return block["text"].get<std::string>();
  };
  if (!content.is_array()) return block_text(content);
  std::string out;
  for (const auto& block : content) {
    auto text = block_text(block);
    if (!text) return text;
    out += *text;
  }
  return out;
}

/// A sampling/createMessage request's params as the agent's conversation.
Result<Conversation> conversation_of(const json& params) {
  Conversation out;
  if (auto system = params.find("systemPrompt"); system != params.end() && system->is_string())
    out.system = system->get<std::string>();
  auto messages = params.find("messages");
  if (messages == params.end() || !messages->is_array() || messages->empty())
    return Error{"a sampling request needs a non-empty list of messages"};
  for (const auto& m : *messages) {
    if (!m.is_object() || !m.contains("content")) return Error{"a sampling message needs content"};
    auto text = content_text(m["content"]);
    if (!text) return text.error();
    Message message;
    message.role = m.contains("role") && m["role"] == "assistant" ? Role::assistant : Role::user;
    message.text = std::move(*text);
    out.messages.push_back(std::move(message));
  }
  return out;
}

}  // namespace

Result<json> ModelChannel::sample(const json& params) {
  auto conversation = conversation_of(params);
  if (!conversation) return conversation.error();
  ModelSettings settings = settings_;
  if (auto max = params.find("maxTokens"); max != params.end() && max->is_number_unsigned())
    settings.max_output_tokens = max->get<std::uint64_t>();
  if (auto t = params.find("temperature"); t != params.end() && t->is_number()) settings.temperature = t->get<double>();
  ModelRequest request;
  request.conversation = &*conversation;
  request.tool_calls_allowed = false;
  request.settings = &settings;
  request.cancellation = cancellation_;
  std::lock_guard lock(mutex_);
  auto response = model_.complete(request);
  if (!response) return response.error();
  return json{{"role", "assistant"},
              {"content", {{"type", "text"}, {"text", response->message.text}}},
              {"model", settings.model.empty() ? model_.provider() : settings.model},
              {"stopReason", response->stop_reason}};
}

Result<std::map<std::string, json>> ModelChannel::ask(const std::vector<ClientRequest>& requests) {
  std::map<std::string, json> answers;
  for (const auto& r : requests) {
    if (r.method != "sampling/createMessage")
      return Error{"The agent's model cannot answer " + r.method + ": only sampling is answered under an Agent."};
    auto answer = sample(r.params);
    if (!answer) return Error{"The agent's model could not answer: " + answer.error().message};
    answers[r.key] = std::move(*answer);
  }
  return answers;
}

}  // namespace ptc::agent::detail
