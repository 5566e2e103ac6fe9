#pragma once
// ptc::agent::Model — a model takes the conversation, the tools and the settings, and returns the
// assistant's turn. The providers (<ptc/agent/providers.hpp>) and the test models
// (<ptc/agent/testing.hpp>) implement it; so may a program.

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include <ptc/agent/conversation.hpp>
#include <ptc/cancellation.hpp>
#include <ptc/error.hpp>
#include <ptc/schema.hpp>
#include <ptc/tool.hpp>

namespace ptc::agent {

/// Something the model sent while a streamed turn was arriving, delivered as it arrived.
struct StreamEvent {
  enum class Kind { text_delta, tool_call_delta };
  Kind kind = Kind::text_delta;
  std::string text;       ///< text_delta: the new text; tool_call_delta: the new argument text
  std::size_t index = 0;  ///< tool_call_delta: which call of the turn (0-based, the model's order)
  std::string call_id;    ///< tool_call_delta: the call's id once known
  std::string name;       ///< tool_call_delta: the tool's name once known
};

/// The answer the run wants, requested with the provider's structured-output feature where it has one.
struct OutputSpec {
  Schema schema;
  std::string name = "answer";  ///< the name some providers want for the schema
};

struct ModelSettings {
  std::string model;  ///< the provider's model name
  std::optional<double> temperature;
  std::optional<std::uint64_t> max_output_tokens;  ///< Anthropic requires one: 4096 when unset
  bool parallel_tool_calls = true;
};

struct ModelRequest {
  const Conversation* conversation = nullptr;
  /// The registry's tools, in registration order.
  std::vector<const Tool*> tools;
  /// False in an answer retry: the model may not call tools. Providers that can read a history of calls
  /// without the tools' definitions get none; Anthropic, which cannot, gets them with `tool_choice`
  /// "none".
  bool tool_calls_allowed = true;
  const ModelSettings* settings = nullptr;
  const OutputSpec* output = nullptr;  ///< null: free text
  /// Set: stream the turn (server-sent events) and call this for every event as it arrives.
  std::function<void(const StreamEvent&)> on_event;
  /// Raised: abort the request in flight.
  std::shared_ptr<const Cancellation> cancellation;
};

/// A transport retry about to happen: which attempt failed, why, and how long until the next.
struct RetryNotice {
  int attempt = 0;  ///< 1 for the first retry
  std::string reason;
  std::chrono::milliseconds delay{0};
};

struct ModelResponse {
  Message message;          ///< role assistant, with its usage
  std::string stop_reason;  ///< as the provider said it ("stop", "tool_use", "STOP", ...)
};

class Model {
 public:
  virtual ~Model() = default;
  /// An error says which provider, which status and the provider's own message.
  virtual Result<ModelResponse> complete(const ModelRequest& request) = 0;
  /// "openai", "anthropic", ... or a test model's name.
  virtual std::string provider() const = 0;
  /// Receives transport retries (for the run's events); a model without a transport ignores it.
  virtual void on_retry(std::function<void(const RetryNotice&)>) {}
};

}  // namespace ptc::agent
