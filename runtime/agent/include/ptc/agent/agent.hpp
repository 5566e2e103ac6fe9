#pragma once
// ptc::agent::Agent — runs a model over a ToolRegistry: send the conversation, dispatch the calls the
// model asks for through the registry (policies, deadlines, rollback, coercion as for every call),
// send the results back, until the model answers; then, when an answer type is asked for, check the
// answer against it and ask again with the errors until it holds.

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include <nlohmann/json.hpp>

#include <ptc/agent/conversation.hpp>
#include <ptc/agent/model.hpp>
#include <ptc/cancellation.hpp>
#include <ptc/registry.hpp>
#include <ptc/schema.hpp>
#include <ptc/session.hpp>
#include <ptc/validate.hpp>

namespace ptc::agent {

/// Where a run stops (Pydantic AI's UsageLimits). Hitting one ends the run with an error naming it.
struct Limits {
  std::uint64_t max_turns = 10;     ///< model requests that may call tools
  std::uint64_t max_requests = 50;  ///< every model request, answer retries included
  std::uint64_t max_tool_calls = 100;
  std::optional<std::uint64_t> max_input_tokens;
  std::optional<std::uint64_t> max_output_tokens;
  std::optional<std::uint64_t> max_total_tokens;
};

/// What the approval hook decides for a call before it runs.
struct Approve {};
struct Deny {
  std::string reason;  ///< the model gets it as the call's failed result
};
struct ReplaceArguments {
  nlohmann::json arguments;  ///< the call runs with these instead
};
using Approval = std::variant<Approve, Deny, ReplaceArguments>;

/// What happens during a run, in order, delivered to the subscribers as it happens.
struct TurnStarted {
  std::uint64_t turn = 0;  ///< 1-based, answer retries counted
  bool retry = false;      ///< an answer retry turn (no tools offered)
};
struct ToolCallStarted {
  ToolCall call;
};
struct ToolCallFinished {
  ToolCall call;
  CallStatus status = CallStatus::Succeeded;
  std::string rendered;               ///< what the model is told
  std::vector<std::string> warnings;  ///< coercions made to the arguments ("limit: coerced string \"5\" to int")
};
struct AnswerRejected {
  int attempt = 0;  ///< 1 for the first re-ask
  std::string feedback;
};
using AgentEvent =
    std::variant<TurnStarted, StreamEvent, ToolCallStarted, ToolCallFinished, RetryNotice, Usage, AnswerRejected>;

struct AgentOptions {
  Limits limits;
  ModelSettings settings;
  /// How many times an answer that does not validate is sent back with its errors.
  int answer_retries = 2;
  bool stream = false;  ///< stream every turn (StreamEvent events)
  DispatchOptions dispatch;
  /// How many calls of one turn may run at once. Only calls of tools that run shared (read-only and
  /// governed by no policy: ToolRegistry::runs_shared) run beside each other; 1 runs every call alone.
  std::size_t max_parallel_calls = 8;
  /// Runs before each call; unset: every call is approved.
  std::function<Approval(const ToolCall&)> approve;
  /// Raised: the request in flight is aborted and the running calls are told to stop.
  std::shared_ptr<Cancellation> cancellation;
  /// The run's wall-clock bound: the request in flight and the running calls stop when it passes.
  std::optional<std::chrono::milliseconds> timeout;
};

/// How a run ended without an answer.
struct RunError {
  enum class Kind { provider, limit, answer_invalid, cancelled, timed_out };
  Kind kind = Kind::provider;
  std::string message;
};

struct RunResult {
  /// The final answer's text; with an answer type, the validated value too.
  std::string text;
  nlohmann::json value = nullptr;
  std::vector<std::string> warnings;  ///< coercions made to the answer
  std::optional<RunError> error;      ///< set when the run did not end with an answer
  Usage usage;                        ///< summed over every request of the run
  std::uint64_t turns = 0;
  std::uint64_t tool_calls = 0;
  Conversation conversation;  ///< everything said, to write as a transcript or continue from
  bool ok() const { return !error; }
};

/// A run whose answer is a C++ value: RunResult, and the value decoded into T.
template <class T>
struct TypedRunResult : RunResult {
  std::optional<T> answer;  ///< set when the run answered (ok())
};

class Agent {
 public:
  /// The model and the registry must outlive the agent.
  Agent(Model& model, const ToolRegistry& registry, AgentOptions options = {});

  /// Subscribers get every AgentEvent of every run, on the run's thread (tool call events on the
  /// thread that ran the call, one at a time).
  void subscribe(std::function<void(const AgentEvent&)> subscriber);

  /// Runs `task` as a new user message after `history` (empty: a new conversation, with `system`).
  RunResult run(const std::string& task, Conversation history = {});
  /// The same, with an answer that must validate against `answer` (a Malli schema, e.g. a
  /// Signature's output), decoded leniently from what the model sends.
  RunResult run(const std::string& task, const Schema& answer, Conversation history = {});

  /// The same, with the answer decoded into `T`: any type ptc-gen made a codec for (a struct or enum
  /// marked PTC_ANSWER, or one a tool uses) and the standard types codecs support. Its schema is
  /// ptc::codec::schema_of<T>(). Defined in <ptc/agent/typed.hpp>, which <ptc/agent.hpp> includes.
  template <class T>
  TypedRunResult<T> run(const std::string& task, Conversation history = {});

  /// The run's session (tools' state); a new one per run unless set.
  void use_session(std::shared_ptr<Session> session);

 private:
  class Run;
  RunResult run_impl(const std::string& task, const Schema* answer, Conversation history);

  Model& model_;
  const ToolRegistry& registry_;
  AgentOptions options_;
  std::vector<std::function<void(const AgentEvent&)>> subscribers_;
  std::shared_ptr<Session> session_;
};

}  // namespace ptc::agent
