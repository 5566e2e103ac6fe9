// The tool loop: send, dispatch the calls the model asks for, send their results back, until the model
// answers; then check a typed answer and ask again with its errors until it holds.
#include <ptc/agent/agent.hpp>

#include <algorithm>
#include <string>
#include <system_error>
#include <thread>
#include <utility>

#include <ptc/signature.hpp>

#include "answer.hpp"
#include "model_channel.hpp"

namespace ptc::agent {

Agent::Agent(Model& model, const ToolRegistry& registry, AgentOptions options)
    : model_(model), registry_(registry), options_(std::move(options)) {}

void Agent::subscribe(std::function<void(const AgentEvent&)> subscriber) {
  subscribers_.push_back(std::move(subscriber));
}

void Agent::use_session(std::shared_ptr<Session> session) { session_ = std::move(session); }

RunResult Agent::run(const std::string& task, Conversation history) {
  return run_impl(task, nullptr, std::move(history));
}

RunResult Agent::run(const std::string& task, const Schema& answer, Conversation history) {
  return run_impl(task, &answer, std::move(history));
}

namespace {

ToolResultPart refused_part(const ToolCall& call, std::string reason) {
  return {call.id, call.name, std::move(reason), true};
}

std::string limit_message(std::string_view what, std::uint64_t limit) {
  return "the run reached its limit of " + std::to_string(limit) + " " + std::string(what);
}

// Which token limit the usage so far passes, if any.
std::optional<std::string> token_limit_hit(const Limits& limits, const Usage& usage) {
  if (limits.max_input_tokens && usage.input_tokens > *limits.max_input_tokens)
    return limit_message("input tokens (max_input_tokens)", *limits.max_input_tokens);
  if (limits.max_output_tokens && usage.output_tokens > *limits.max_output_tokens)
    return limit_message("output tokens (max_output_tokens)", *limits.max_output_tokens);
  if (limits.max_total_tokens && usage.total_tokens() > *limits.max_total_tokens)
    return limit_message("total tokens (max_total_tokens)", *limits.max_total_tokens);
  return std::nullopt;
}

// The run's own signal: the caller's cancellation and the run's timeout both raise it, so one check
// stops the request in flight (the transport polls it) and the calls running (their environment).
class RunSignal {
 public:
  RunSignal(const std::shared_ptr<Cancellation>& outer, std::optional<std::chrono::milliseconds> timeout)
      : signal_(timeout ? std::make_shared<Cancellation>(Cancellation::Clock::now() + *timeout)
                        : std::make_shared<Cancellation>()) {
    if (!outer) return;
    watcher_ = std::jthread([outer, signal = signal_](std::stop_token stop) {
      while (!stop.stop_requested() && !signal->cancelled()) {
        if (outer->wait_for(std::chrono::milliseconds(20))) {
          signal->cancel(outer->reason());
          return;
        }
      }
    });
  }
  const std::shared_ptr<Cancellation>& signal() const { return signal_; }
  std::optional<RunError> stopped() const {
    if (!signal_->cancelled()) return std::nullopt;
    const std::string reason = signal_->reason();
    if (reason == "timed out") return RunError{RunError::Kind::timed_out, "the run timed out"};
    return RunError{RunError::Kind::cancelled, "the run was cancelled: " + reason};
  }

 private:
  std::shared_ptr<Cancellation> signal_;
  std::jthread watcher_;
};

}  // namespace

// One run: its state, and the steps of the loop.
class Agent::Run {
 public:
  Run(Agent& agent, const Schema* answer, Conversation history)
      : agent_(agent),
        options_(agent.options_),
        answer_(answer),
        signal_(options_.cancellation, options_.timeout),
        session_(agent.session_ ? agent.session_ : std::make_shared<Session>()),
        tools_(agent.registry_.tools()) {
    result_.conversation = std::move(history);
    for (const auto& t : tools_) offered_.push_back(&t);
    if (answer_) output_ = OutputSpec{*answer_};
    dispatch_ = options_.dispatch;
    dispatch_.environment.cancellation = signal_.signal();
    if (dispatch_.environment.adapter.empty()) dispatch_.environment.adapter = agent.model_.provider();
    // A tool that samples (ToolContext::sample) is answered by this run's model, unless the caller
    // brought a client of its own.
    if (!dispatch_.environment.client)
      dispatch_.environment.client =
          std::make_shared<detail::ModelChannel>(agent.model_, options_.settings, dispatch_.environment.cancellation);
    agent_.model_.on_retry([this](const RetryNotice& notice) { emit(notice); });
  }
  ~Run() { agent_.model_.on_retry(nullptr); }
  Run(const Run&) = delete;
  Run& operator=(const Run&) = delete;

  RunResult go(const std::string& task) {
    Message user;
    user.text = task;
    if (answer_) user.text += "\n\n" + detail::answer_instruction(*answer_);
    conversation().messages.push_back(std::move(user));
    for (;;) {
      if (auto e = signal_.stopped()) return fail(e->kind, e->message);
      if (auto hit = request_limit_hit()) return fail(RunError::Kind::limit, *hit);
      auto response = send();
      if (!response) {
        if (auto e = signal_.stopped()) return fail(e->kind, e->message);
        return fail(RunError::Kind::provider, response.error().message);
      }
      const std::vector<ToolCall> calls = response->tool_calls;
      const std::string text = response->text;
      conversation().messages.push_back(std::move(*response));
      if (auto hit = token_limit_hit(options_.limits, result_.usage)) return fail(RunError::Kind::limit, *hit);
      if (!calls.empty()) {
        if (auto error = answer_calls(calls)) return fail(error->kind, error->message);
        continue;
      }
      if (!answer_) {
        result_.text = text;
        return std::move(result_);
      }
      if (auto done = take_answer(text)) return std::move(*done);
    }
  }

 private:
  Conversation& conversation() { return result_.conversation; }

  void emit(const AgentEvent& event) const {
    for (const auto& s : agent_.subscribers_) s(event);
  }

  RunResult fail(RunError::Kind kind, std::string message) {
    result_.error = RunError{kind, std::move(message)};
    return std::move(result_);
  }

  std::optional<std::string> request_limit_hit() const {
    if (!retry_turn_ && result_.turns >= options_.limits.max_turns)
      return limit_message("turns (max_turns)", options_.limits.max_turns);
    if (requests_ >= options_.limits.max_requests)
      return limit_message("requests (max_requests)", options_.limits.max_requests);
    return std::nullopt;
  }

  // One model request; the assistant's message, its usage counted.
  Result<Message> send() {
    ++requests_;
    if (!retry_turn_) ++result_.turns;
    emit(TurnStarted{requests_, retry_turn_});
    ModelRequest request;
    request.conversation = &result_.conversation;
    request.tools = offered_;
    request.tool_calls_allowed = !retry_turn_;
    request.settings = &options_.settings;
    request.output = output_ ? &*output_ : nullptr;
    request.cancellation = signal_.signal();
    if (options_.stream) request.on_event = [this](const StreamEvent& e) { emit(e); };
    auto response = agent_.model_.complete(request);
    if (!response) return response.error();
    Message message = std::move(response->message);
    message.role = Role::assistant;
    result_.usage += message.usage;
    emit(message.usage);
    return message;
  }

  // The results of a turn's calls, in the model's order, as the next user turn; an error ends the run.
  std::optional<RunError> answer_calls(const std::vector<ToolCall>& calls) {
    Message results;
    results.role = Role::tool;
    results.tool_results.resize(calls.size());
    if (retry_turn_) {
      // The model may not call tools in this turn: nothing runs, and each call is told so.
      for (std::size_t i = 0; i < calls.size(); ++i)
        results.tool_results[i] = refused_part(calls[i], "No tools are available in this turn: answer with the value.");
      conversation().messages.push_back(std::move(results));
      return std::nullopt;
    }
    if (result_.tool_calls + calls.size() > options_.limits.max_tool_calls)
      return RunError{RunError::Kind::limit,
                      limit_message("tool calls (max_tool_calls)", options_.limits.max_tool_calls)};
    result_.tool_calls += calls.size();
    // Approval first, one call at a time (the hook may ask a person), then the approved calls.
    std::vector<std::optional<ToolCall>> approved(calls.size());
    for (std::size_t i = 0; i < calls.size(); ++i) approved[i] = approve(calls[i], results.tool_results[i]);
    for (std::size_t next = 0; next < calls.size() && !signal_.stopped();) {
      const std::vector<std::size_t> group = next_group(approved, next);
      run_group(approved, group, results.tool_results);
    }
    auto stopped = signal_.stopped();
    if (stopped) {
      // Every call gets a result, so that the transcript can be continued from.
      for (std::size_t i = 0; i < calls.size(); ++i)
        if (approved[i] && results.tool_results[i].call_id.empty() && results.tool_results[i].content.empty())
          results.tool_results[i] = refused_part(calls[i], "The run stopped before this call ran.");
    }
    conversation().messages.push_back(std::move(results));
    return stopped;
  }

  // The call to run (as given, or with replaced arguments), or nullopt with `refusal` filled in.
  std::optional<ToolCall> approve(const ToolCall& call, ToolResultPart& refusal) {
    Approval decision = options_.approve ? options_.approve(call) : Approval{Approve{}};
    if (auto* deny = std::get_if<Deny>(&decision)) {
      refusal = refused_part(call, "The call was denied: " + deny->reason);
      emit(ToolCallFinished{call, CallStatus::Denied, refusal.content, {}});
      return std::nullopt;
    }
    ToolCall out = call;
    if (auto* replace = std::get_if<ReplaceArguments>(&decision)) out.arguments = replace->arguments;
    return out;
  }

  // The approved calls from `next` on that run together, advancing `next` past them: a run of calls
  // of tools that run shared (read-only, no policy), or any other call alone. So what the model asked
  // to change happens in the order it asked, after the calls before it and before those after it, and a
  // failed call's rollback cannot undo what another call changed meanwhile (docs/agent.md).
  std::vector<std::size_t> next_group(const std::vector<std::optional<ToolCall>>& approved, std::size_t& next) const {
    std::vector<std::size_t> group;
    for (; next < approved.size() && group.size() < std::max<std::size_t>(options_.max_parallel_calls, 1); ++next) {
      if (!approved[next]) continue;
      const bool shared = options_.max_parallel_calls > 1 && agent_.registry_.runs_shared(approved[next]->name);
      if (!shared && !group.empty()) break;
      group.push_back(next);
      if (!shared) return ++next, group;
    }
    return group;
  }

  // Runs the calls of `group` at once, each on its own thread but the first, which runs on this one.
  // Events go out from this thread: every start, then every result in the model's order.
  void run_group(const std::vector<std::optional<ToolCall>>& approved, const std::vector<std::size_t>& group,
                 std::vector<ToolResultPart>& parts) {
    for (std::size_t k : group) emit(ToolCallStarted{*approved[k]});
    std::vector<ToolOutcome> outcomes(group.size());
    {
      std::vector<std::jthread> workers;
      for (std::size_t n = 1; n < group.size(); ++n) {
        try {
          workers.emplace_back([&, n] { outcomes[n] = call_tool(*approved[group[n]]); });
        } catch (const std::system_error&) {  // no thread to be had: the call runs here instead
          outcomes[n] = call_tool(*approved[group[n]]);
        }
      }
      if (!group.empty()) outcomes[0] = call_tool(*approved[group[0]]);
    }  // the workers join here
    for (std::size_t n = 0; n < group.size(); ++n) parts[group[n]] = finish_call(*approved[group[n]], outcomes[n]);
  }

  // Thread-safe: it reads the run's state and changes none of it.
  ToolOutcome call_tool(const ToolCall& call) const noexcept {
    ToolOutcome outcome;
    try {
      return agent_.registry_.dispatch(*session_, call, dispatch_);
    } catch (const std::exception& e) {
      // A handler stopped the evaluation (PromptEvaluationError, a deadline): the model is told.
      outcome.rendered = std::string("The call could not run: ") + e.what();
    } catch (...) {
      outcome.rendered = "The call could not run.";
    }
    outcome.status = CallStatus::HandlerException;
    outcome.result.success = false;
    return outcome;
  }

  ToolResultPart finish_call(const ToolCall& call, const ToolOutcome& outcome) const {
    ToolCallFinished finished{call, outcome.status, outcome.rendered, {}};
    if (outcome.status != CallStatus::InvalidArguments)
      for (const auto& w : outcome.validation.warnings) finished.warnings.push_back(w.path + ": " + w.message);
    emit(finished);
    return {call.id, call.name, outcome.rendered, !outcome.success()};
  }

  // The run's result when `text` holds the answer or the retries are spent; nullopt after asking again.
  std::optional<RunResult> take_answer(const std::string& text) {
    detail::CheckedAnswer checked = detail::check_answer(text, *answer_);
    result_.text = text;
    if (checked.ok) {
      result_.value = std::move(checked.value);
      result_.warnings = std::move(checked.warnings);
      return std::move(result_);
    }
    if (answer_retry_ >= options_.answer_retries) {
      std::string why = "the answer does not match " + render(*answer_) + " after " +
                        std::to_string(options_.answer_retries) + " retries:";
      for (const auto& e : checked.errors) why.append("\n- ").append(e);
      if (checked.more_errors) why.append("\n- ... and ").append(std::to_string(checked.more_errors)).append(" more");
      return fail(RunError::Kind::answer_invalid, std::move(why));
    }
    ++answer_retry_;
    Message feedback;
    feedback.text = detail::answer_feedback(checked, *answer_, answer_retry_, options_.answer_retries);
    emit(AnswerRejected{answer_retry_, feedback.text});
    conversation().messages.push_back(std::move(feedback));
    retry_turn_ = true;
    return std::nullopt;
  }

  Agent& agent_;
  const AgentOptions& options_;
  const Schema* answer_;
  RunSignal signal_;
  std::shared_ptr<Session> session_;
  const std::vector<Tool> tools_;
  std::vector<const Tool*> offered_;
  std::optional<OutputSpec> output_;
  DispatchOptions dispatch_;
  RunResult result_;
  int answer_retry_ = 0;
  bool retry_turn_ = false;
  std::uint64_t requests_ = 0;
};

RunResult Agent::run_impl(const std::string& task, const Schema* answer, Conversation history) {
  Run run(*this, answer, std::move(history));
  return run.go(task);
}

}  // namespace ptc::agent
