// The tool loop: send, dispatch the calls the model asks for, send their results back, until the model
// answers; then check a typed answer and ask again with its errors until it holds.
#include <ptc/agent/agent.hpp>

#include <string>
#include <thread>
#include <utility>

#include <ptc/signature.hpp>

#include "answer.hpp"

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

// The text a call's result is sent back with, and whether it failed, in the model's order.
ToolResultPart result_part(const ToolCall& call, const ToolOutcome& outcome) {
  return {call.id, call.name, outcome.rendered, !outcome.success()};
}

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

}  // namespace

RunResult Agent::run_impl(const std::string& task, const Schema* answer, Conversation history) {
  RunResult result;
  result.conversation = std::move(history);
  Conversation& conversation = result.conversation;
  const auto emit = [this](const AgentEvent& event) {
    for (const auto& s : subscribers_) s(event);
  };
  auto fail = [&](RunError::Kind kind, std::string message) {
    result.error = RunError{kind, std::move(message)};
    return std::move(result);
  };

  // The run's own signal: the caller's cancellation and the run's timeout both raise it, so one check
  // stops the request in flight (the transport polls it) and the calls running (their environment).
  auto cancellation = options_.timeout ? std::make_shared<Cancellation>(Cancellation::Clock::now() + *options_.timeout)
                                       : std::make_shared<Cancellation>();
  std::jthread watcher;
  if (options_.cancellation) {
    watcher = std::jthread([outer = options_.cancellation, cancellation](std::stop_token stop) {
      while (!stop.stop_requested() && !cancellation->cancelled()) {
        if (outer->wait_for(std::chrono::milliseconds(20))) {
          cancellation->cancel(outer->reason());
          return;
        }
      }
    });
  }
  auto stopped = [&]() -> std::optional<RunError> {
    if (!cancellation->cancelled()) return std::nullopt;
    const std::string reason = cancellation->reason();
    if (reason == "timed out") return RunError{RunError::Kind::timed_out, "the run timed out"};
    return RunError{RunError::Kind::cancelled, "the run was cancelled: " + reason};
  };

  auto session = session_ ? session_ : std::make_shared<Session>();
  const std::vector<Tool> tools = registry_.tools();
  std::vector<const Tool*> offered;
  for (const auto& t : tools) offered.push_back(&t);
  std::optional<OutputSpec> output;
  if (answer) output = OutputSpec{*answer};

  Message user;
  user.text = task;
  if (answer) user.text += "\n\n" + detail::answer_instruction(*answer);
  conversation.messages.push_back(std::move(user));

  model_.on_retry([&](const RetryNotice& notice) { emit(notice); });
  struct Unhook {
    Model& model;
    ~Unhook() { model.on_retry(nullptr); }
  } unhook{model_};
  DispatchOptions dispatch = options_.dispatch;
  dispatch.environment.cancellation = cancellation;
  if (dispatch.environment.adapter.empty()) dispatch.environment.adapter = model_.provider();

  int answer_retry = 0;
  bool retry_turn = false;
  std::uint64_t requests = 0;
  for (;;) {
    if (auto e = stopped()) return fail(e->kind, e->message);
    if (!retry_turn && result.turns >= options_.limits.max_turns)
      return fail(RunError::Kind::limit, limit_message("turns (max_turns)", options_.limits.max_turns));
    if (requests >= options_.limits.max_requests)
      return fail(RunError::Kind::limit, limit_message("requests (max_requests)", options_.limits.max_requests));
    ++requests;
    if (!retry_turn) ++result.turns;
    emit(TurnStarted{requests, retry_turn});

    ModelRequest request;
    request.conversation = &conversation;
    request.tools = offered;
    request.tool_calls_allowed = !retry_turn;
    request.settings = &options_.settings;
    request.output = output ? &*output : nullptr;
    request.cancellation = cancellation;
    if (options_.stream) request.on_event = [&](const StreamEvent& e) { emit(e); };
    auto response = model_.complete(request);
    if (!response) {
      if (auto e = stopped()) return fail(e->kind, e->message);
      return fail(RunError::Kind::provider, response.error().message);
    }
    Message message = std::move(response->message);
    message.role = Role::assistant;
    result.usage += message.usage;
    emit(message.usage);
    const std::vector<ToolCall> calls = message.tool_calls;
    const std::string text = message.text;
    conversation.messages.push_back(std::move(message));
    if (auto hit = token_limit_hit(options_.limits, result.usage)) return fail(RunError::Kind::limit, *hit);

    if (!calls.empty()) {
      Message results;
      results.role = Role::tool;
      results.tool_results.resize(calls.size());
      if (retry_turn) {
        // The model was offered no tools: nothing runs, and each call is told so.
        for (std::size_t i = 0; i < calls.size(); ++i)
          results.tool_results[i] =
              refused_part(calls[i], "No tools are available in this turn: answer with the value.");
        conversation.messages.push_back(std::move(results));
        continue;
      }
      if (result.tool_calls + calls.size() > options_.limits.max_tool_calls)
        return fail(RunError::Kind::limit,
                    limit_message("tool calls (max_tool_calls)", options_.limits.max_tool_calls));
      result.tool_calls += calls.size();
      // Approval first, one call at a time (the hook may ask a person), then the approved calls together.
      std::vector<std::optional<ToolCall>> approved(calls.size());
      for (std::size_t i = 0; i < calls.size(); ++i) {
        Approval decision = options_.approve ? options_.approve(calls[i]) : Approval{Approve{}};
        if (auto* deny = std::get_if<Deny>(&decision)) {
          results.tool_results[i] = refused_part(calls[i], "The call was denied: " + deny->reason);
          emit(ToolCallFinished{calls[i], CallStatus::Denied, results.tool_results[i].content, {}});
          continue;
        }
        approved[i] = calls[i];
        if (auto* replace = std::get_if<ReplaceArguments>(&decision)) {
          approved[i]->arguments = replace->arguments;
          approved[i]->arguments_text.clear();
        }
      }
      // In the model's order, one after another: a session runs its calls one at a time, so that a
      // failed call's rollback cannot undo what another call changed meanwhile (docs/agent.md).
      for (std::size_t i = 0; i < calls.size(); ++i) {
        if (!approved[i]) continue;
        emit(ToolCallStarted{*approved[i]});
        ToolOutcome outcome;
        try {
          outcome = registry_.dispatch(*session, *approved[i], dispatch);
        } catch (const std::exception& e) {
          // A handler stopped the evaluation (PromptEvaluationError, a deadline): the model is told.
          outcome.status = CallStatus::HandlerException;
          outcome.rendered = std::string("The call could not run: ") + e.what();
          outcome.result.success = false;
        }
        results.tool_results[i] = result_part(*approved[i], outcome);
        ToolCallFinished finished{*approved[i], outcome.status, outcome.rendered, {}};
        if (outcome.status != CallStatus::InvalidArguments)
          for (const auto& w : outcome.validation.warnings) finished.warnings.push_back(w.path + ": " + w.message);
        emit(finished);
        if (stopped()) break;
      }
      if (auto e = stopped()) {
        // Every call gets a result, so that the transcript can be continued from.
        for (std::size_t i = 0; i < calls.size(); ++i)
          if (results.tool_results[i].call_id.empty() && results.tool_results[i].content.empty())
            results.tool_results[i] = refused_part(calls[i], "The run stopped before this call ran.");
        conversation.messages.push_back(std::move(results));
        return fail(e->kind, e->message);
      }
      conversation.messages.push_back(std::move(results));
      continue;
    }

    if (!answer) {
      result.text = text;
      return result;
    }
    detail::CheckedAnswer checked = detail::check_answer(text, *answer);
    if (checked.ok) {
      result.text = text;
      result.value = std::move(checked.value);
      result.warnings = std::move(checked.warnings);
      return result;
    }
    if (answer_retry >= options_.answer_retries) {
      std::string why = "the answer does not match " + render(*answer) + " after " +
                        std::to_string(options_.answer_retries) + " retries:";
      for (const auto& e : checked.errors) why.append("\n- ").append(e);
      if (checked.more_errors) why.append("\n- ... and ").append(std::to_string(checked.more_errors)).append(" more");
      result.text = text;
      return fail(RunError::Kind::answer_invalid, std::move(why));
    }
    ++answer_retry;
    Message feedback;
    feedback.text = detail::answer_feedback(checked, *answer, answer_retry, options_.answer_retries);
    emit(AnswerRejected{answer_retry, feedback.text});
    conversation.messages.push_back(std::move(feedback));
    retry_turn = true;
  }
}

}  // namespace ptc::agent
