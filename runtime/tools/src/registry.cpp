#include <exception>
#include <mutex>
#include <optional>
#include <utility>
#include <variant>

#include <ptc/coercion.hpp>
#include <ptc/firewall.hpp>
#include <ptc/json_input.hpp>
#include <ptc/prompt.hpp>
#include <ptc/registry.hpp>

namespace ptc {

namespace {

/// The arguments object, or the message for the model. Providers send "" or null for tools without
/// parameters now and then; both mean {}.
std::variant<nlohmann::json, std::string> decode_arguments(const nlohmann::json& raw) {
  nlohmann::json args = raw;
  if (raw.is_string()) {
    const auto& text = raw.get_ref<const std::string&>();
    if (text.find_first_not_of(" \t\r\n") == std::string::npos) return nlohmann::json::object();
    auto parsed = parse_json(text);
    if (!parsed) return "Tool arguments are not valid JSON: " + parsed.error().to_string();
    args = std::move(*parsed);
  }
  if (args.is_null()) return nlohmann::json::object();
  if (!args.is_object())
    return "Tool arguments must be a JSON object, got " + std::string(coercion::type_name(args)) + ".";
  return args;
}

/// Text the text path accepted, as the JSON path would have parsed it.
nlohmann::json as_given(const std::string& text) {
  auto parsed = parse_json(text);
  return parsed ? std::move(*parsed) : nlohmann::json(text);
}

std::string without_final_newline(std::string s) {
  if (!s.empty() && s.back() == '\n') s.pop_back();
  return s;
}

std::string deadline_message(const std::string& tool) {
  return "Deadline expired before tool '" + tool + "' could run.";
}

/// Moves an outcome's parts into its event for as long as it lives, and back.
class Lend {
 public:
  Lend(ToolOutcome& outcome, ToolInvoked& event) : outcome_(outcome), event_(event) {
    event_.call_id = std::move(outcome_.call_id);
    event_.name = std::move(outcome_.name);
    event_.params = std::move(outcome_.arguments);
    event_.result = std::move(outcome_.result);
    event_.rendered_output = std::move(outcome_.rendered);
  }
  ~Lend() {
    outcome_.call_id = std::move(event_.call_id);
    outcome_.name = std::move(event_.name);
    outcome_.arguments = std::move(event_.params);
    outcome_.result = std::move(event_.result);
    outcome_.rendered = std::move(event_.rendered_output);
  }
  Lend(const Lend&) = delete;
  Lend& operator=(const Lend&) = delete;

 private:
  ToolOutcome& outcome_;
  ToolInvoked& event_;
};

/// Marks the thread's reused event as being published, for as long as it lives (`flag` null: another
/// event is).
class Publishing {
 public:
  explicit Publishing(bool* flag) : flag_(flag) {
    if (flag_) *flag_ = true;
  }
  ~Publishing() {
    if (flag_) *flag_ = false;
  }
  Publishing(const Publishing&) = delete;
  Publishing& operator=(const Publishing&) = delete;

 private:
  bool* flag_;
};

/// One call on its way through the pipeline; the steps share what earlier steps found.
class Call {
 public:
  Call(Session& session, const ToolCall& call, const DispatchOptions& options)
      : session_(session), request_(call), options_(options) {
    out_.call_id = call.id;
    out_.name = call.name;
  }

  ToolOutcome& outcome() { return out_; }
  void set_arguments(LazyJson arguments) {
    out_.arguments = std::move(arguments);
    arguments_set_ = true;
  }

  /// Ends the call with a failed result the model reads.
  ToolOutcome fail(CallStatus status, std::string message, const Tool* tool) {
    out_.status = status;
    out_.result = ToolResult<LazyJson>::error(std::move(message));
    return finish(tool, false);
  }

  /// Renders the result and publishes ToolInvoked. `vouched`: the value is compact text a C++ type
  /// guarantees to match the tool's result schema, so it is the rendering as it stands, once its
  /// firewalled fields are hidden in the text itself.
  ToolOutcome finish(const Tool* tool, bool vouched) {
    if (!arguments_set_) set_arguments(given_arguments());
    const auto& r = out_.result;
    const bool shown = r.value && !r.exclude_value_from_context;
    const bool hides = tool && tool->result_has_firewall();
    std::optional<std::string> hidden;  // the vouched text with its firewalled fields hidden
    if (vouched && shown && hides) hidden = firewall_text(tool->result(), *r.value->text());
    if (vouched && shown && (hidden || !hides)) {
      out_.rendered = detail::render_tool_output_text(r.message, hidden ? *hidden : *r.value->text(), r.success);
      out_.visible_value = hidden ? LazyJson::from_text(std::move(*hidden)) : r.value;
    } else {
      const Schema* shown_by = hides ? &tool->result() : nullptr;
      out_.rendered = shown_by ? r.render(*shown_by) : r.render();
      if (shown) out_.visible_value = shown_by ? LazyJson(firewall(*shown_by, **r.value)) : *r.value;
    }
    // Each thread reuses one event from call to call, so that the ids are written into strings that
    // have room for them already; a call finished while that event is being published (a subscriber
    // dispatching a tool) gets an event of its own.
    thread_local ToolInvoked reused;
    thread_local bool publishing = false;
    std::optional<ToolInvoked> own;
    ToolInvoked& event = publishing ? own.emplace() : reused;
    assign_uuid(event.event_id);
    event.session_id = session_.id();
    event.status = out_.status;
    event.run_context = options_.environment.run_context;
    event.created_at = options_.clock->now();
    {
      // The event borrows the outcome's parts while it is published (subscribers see it const), and
      // gives them back however publishing ends: copying them would cost a string copy or a reference
      // count each.
      Lend lend(out_, event);
      Publishing guard(own ? nullptr : &publishing);
      session_.dispatcher().publish(event);
    }
    return std::move(out_);
  }

 private:
  /// The arguments as given, for calls that end before they are decoded. Text over the limit is refused
  /// unread; the outcome and the event say its size instead of holding two more copies of it.
  LazyJson given_arguments() const {
    const nlohmann::json& a = request_.arguments;
    if (!a.is_string()) return a;
    const auto& text = a.get_ref<const std::string&>();
    if (text.size() > options_.max_argument_bytes)
      return nlohmann::json("<" + std::to_string(text.size()) + " bytes of arguments, over the limit>");
    return a;
  }

  Session& session_;
  const ToolCall& request_;
  const DispatchOptions& options_;
  ToolOutcome out_;
  bool arguments_set_ = false;
};

}  // namespace

ToolRegistry::ToolRegistry(const RenderedPrompt& prompt) {
  for (const auto& tool : prompt.tools()) add(tool, prompt.policies_for(tool.name()));
}

void ToolRegistry::add(Tool tool, std::vector<std::shared_ptr<const ToolPolicy>> policies) {
  std::unique_lock lock(mutex_);
  if (by_name_.count(tool.name()))
    throw PromptValidationError("Duplicate tool name registered for prompt.", {}, tool.name());
  auto entry = std::make_shared<const Entry>(Entry{std::move(tool), std::move(policies)});
  by_name_.emplace(entry->tool.name(), entry);
  entries_.push_back(std::move(entry));
}

void ToolRegistry::add_policy(std::shared_ptr<const ToolPolicy> policy) {
  std::unique_lock lock(mutex_);
  policies_.push_back(std::move(policy));
}

const ToolRegistry::Entry* ToolRegistry::lookup(std::string_view name) const {
  std::shared_lock lock(mutex_);
  auto it = by_name_.find(name);
  return it == by_name_.end() ? nullptr : it->second.get();
}

std::vector<std::shared_ptr<const ToolPolicy>> ToolRegistry::global_policies() const {
  std::shared_lock lock(mutex_);
  return policies_;
}

std::optional<Tool> ToolRegistry::find(std::string_view name) const {
  if (const Entry* entry = lookup(name)) return entry->tool;
  return std::nullopt;
}

std::vector<Tool> ToolRegistry::tools() const {
  std::shared_lock lock(mutex_);
  std::vector<Tool> out;
  out.reserve(entries_.size());
  for (const auto& e : entries_) out.push_back(e->tool);
  return out;
}

std::size_t ToolRegistry::size() const {
  std::shared_lock lock(mutex_);
  return entries_.size();
}

ToolOutcome ToolRegistry::dispatch(Session& session, const ToolCall& request, const DispatchOptions& options) const {
  std::lock_guard serialized(session.call_mutex());
  const CallEnvironment& env = options.environment;
  Call call(session, request, options);

  // 1. Deadline: an evaluation out of time stops here rather than producing a result.
  if (env.deadline && env.deadline->expired())
    throw DeadlineExceededError(deadline_message(request.name), request.name);

  // 2. Lookup.
  const Entry* entry = lookup(request.name);
  if (!entry) return call.fail(CallStatus::UnknownTool, "Unknown tool '" + request.name + "'.", nullptr);
  const Tool& tool = entry->tool;
  if (!tool.has_handler())
    return call.fail(CallStatus::NoHandler, "Tool '" + tool.name() + "' has no handler and cannot be called.", &tool);

  // 3. Argument decoding. Text arguments go to the invoker's text path first (generated invokers
  // decode and validate in one pass there); anything it declines is parsed here as before. What the
  // text path throws surfaces at step 7, where the JSON path would have thrown it.
  // The text of an object given with its text (arguments_text) is offered too; declined, the object is
  // used as it is.
  const std::string* text = request.arguments.is_string() ? &request.arguments.get_ref<const std::string&>()
                            : request.arguments.is_object() && !request.arguments_text.empty() ? &request.arguments_text
                                                                                               : nullptr;
  if (text && text->size() > options.max_argument_bytes)
    return call.fail(
        CallStatus::InvalidArguments,
        "Tool arguments are larger than the limit of " + std::to_string(options.max_argument_bytes) + " bytes.", &tool);
  std::optional<ToolInvoker::Prepared> from_text;
  std::exception_ptr text_failure;
  if (text) {
    try {
      from_text = tool.invoker()->prepare_text(*text, options.mode);
    } catch (...) {
      text_failure = std::current_exception();
    }
  }
  const bool text_path = from_text || text_failure;
  // The arguments as given, for the outcome when the text path refused them.
  const auto given = [&] { return request.arguments.is_string() ? as_given(*text) : request.arguments; };
  nlohmann::json args;
  if (!text_path) {
    auto decoded = decode_arguments(request.arguments);
    if (auto* message = std::get_if<std::string>(&decoded))
      return call.fail(CallStatus::InvalidArguments, std::move(*message), &tool);
    args = std::move(std::get<nlohmann::json>(decoded));
    call.set_arguments(args);
  }

  // 4. Heartbeat, 5. snapshot, 6. context.
  if (env.heartbeat) env.heartbeat->beat();
  const SessionSnapshot snapshot = session.snapshot();
  ToolContext context(tool, session, env, request.id);
  // A failed call goes back to the snapshot, which is then released like a successful call's: the
  // snapshot could be restored again, and a resource keeps what it saved for it until it is released.
  auto rollback = [&] {
    session.restore(snapshot);
    session.release(snapshot);
  };
  auto failed = [&](CallStatus status, std::string message) {
    rollback();
    return call.fail(status, std::move(message), &tool);
  };
  auto execution_failed = [&](std::string_view what) {
    return failed(CallStatus::HandlerException, "Tool '" + tool.name() + "' execution failed: " + std::string(what));
  };

  try {
    // 7. Validation with coercion.
    if (text_failure) {
      call.set_arguments(given());
      std::rethrow_exception(text_failure);
    }
    ToolInvoker::Prepared prepared = text_path ? std::move(*from_text) : tool.invoker()->prepare(args, options.mode);
    call.outcome().validation = std::move(prepared.validation);
    call.outcome().validation.value = nullptr;
    if (!call.outcome().validation.ok || !prepared.run) {
      // The arguments as given, as the JSON path reports them.
      if (text_path) call.set_arguments(given());
      // The report says what failed in its first line ("Tool validation errors:"); no prefix repeats it.
      return failed(CallStatus::InvalidArguments, without_final_newline(call.outcome().validation.report()));
    }
    call.set_arguments(prepared.arguments);
    const LazyJson& params = prepared.arguments;

    // 8. Policies, fail-closed: registry-wide first, then the tool's own. The arguments become JSON
    // only when there is a policy to read them.
    auto policies = global_policies();
    policies.insert(policies.end(), entry->policies.begin(), entry->policies.end());
    for (const auto& policy : policies) {
      PolicyDecision decision = policy->check(tool, *params, context);
      if (!decision.allowed) return failed(CallStatus::Denied, std::move(decision.reason));
    }

    // 9. Deadline again: validation and policies took time too.
    if (env.deadline && env.deadline->expired())
      throw DeadlineExceededError(deadline_message(tool.name()), tool.name());

    // 10. Handler.
    ToolResult<LazyJson> result;
    CallStatus status = CallStatus::Succeeded;
    try {
      result = prepared.run(context);
      if (!result.success) status = CallStatus::Failed;
    } catch (const ToolValidationError& e) {
      result = ToolResult<LazyJson>::error(std::string("Tool validation failed: ") + e.what());
      status = CallStatus::Failed;
    }

    // The result must match the signature: output is checked strictly (docs/validation.md). A typed
    // value already matches the schema's structure by its C++ type; only refinements need checking.
    const bool vouched =
        prepared.typed_results && result.value && result.value->text() != nullptr && !tool.result_has_refinements();
    if (result.success && result.value && options.mode != Mode::Disabled && !vouched) {
      auto check = validate(tool.result(), **result.value, {Direction::Output, options.mode});
      if (!check.ok)
        return failed(CallStatus::InvalidResult, "Tool '" + tool.name() +
                                                     "' returned a value that does not match its result type:\n" +
                                                     without_final_newline(check.report()));
    }

    // 11. Policy updates, for successes only.
    if (result.success && !policies.empty()) {
      const ToolResult<nlohmann::json> seen = result;  // the value parsed, once, for the policies
      for (const auto& policy : policies) policy->on_result(tool, *params, seen, context);
    }

    // 12. Restore on failure, 13. telemetry, 14. the outcome.
    if (result.success)
      session.release(snapshot);
    else
      rollback();
    call.outcome().status = status;
    call.outcome().result = std::move(result);
    call.outcome().attachments = context.take_attachments();
    return call.finish(&tool, vouched);
  } catch (const PromptEvaluationError&) {
    rollback();
    throw;
  } catch (const std::exception& e) {
    return execution_failed(e.what());
  } catch (...) {
    return execution_failed("unknown exception");
  }
}

}  // namespace ptc
