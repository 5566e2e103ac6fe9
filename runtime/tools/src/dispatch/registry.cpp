// ptc::ToolRegistry: the tools, and the dispatch pipeline that runs a call through the steps its header
// lists, numbered here. It knows nothing of prompts: RenderedPrompt::register_tools fills a registry.

#include <algorithm>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <shared_mutex>
#include <stdexcept>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <variant>
#include <vector>

#include <ptc/coercion.hpp>
#include <ptc/firewall.hpp>
#include <ptc/json_input.hpp>
#include <ptc/json_text.hpp>
#include <ptc/registry.hpp>

#include "text.hpp"

namespace ptc {

namespace {

/// The arguments object parsed from `text`, or the message for the model. Providers send "" or null
/// for tools without parameters now and then; both mean {}. Members the tool's parameters do not
/// declare are checked but neither built nor held: their names go to `dropped` (a count and the first
/// few), which validation reports (report_dropped_fields), and no policy or handler sees them, so a large
/// value in an undeclared field, or hundreds of thousands of such fields, cost no memory.
std::variant<nlohmann::json, std::string> parse_arguments(const std::string& text, const Schema& params,
                                                          std::function<bool(std::size_t)> charge,
                                                          DroppedFields& dropped) {
  if (text.find_first_not_of(" \t\r\n") == std::string::npos) return nlohmann::json::object();
  JsonParseOptions options;
  options.charge = std::move(charge);
  if (params.kind() == Kind::Map)
    options.keep = [&params, &dropped](std::string_view key) {
      if (params.find(key)) return true;
      dropped.add(key);
      return false;
    };
  auto parsed = parse_json(text, options);
  if (!parsed) return "Tool arguments are not valid JSON: " + parsed.error().to_string();
  return std::move(*parsed);
}

/// About how many bytes the text of `value` takes, for a call that brings its arguments as an object
/// alone: what its memory reservation is counted from.
std::size_t text_bytes(const nlohmann::json& value) {
  switch (value.type()) {
    case nlohmann::json::value_t::object: {
      std::size_t n = 2;
      for (auto it = value.begin(); it != value.end(); ++it) n += it.key().size() + 4 + text_bytes(it.value());
      return n;
    }
    case nlohmann::json::value_t::array: {
      std::size_t n = 2;
      for (const auto& item : value) n += 1 + text_bytes(item);
      return n;
    }
    case nlohmann::json::value_t::string: return value.get_ref<const std::string&>().size() + 2;
    default: return 4;
  }
}

/// The message for the model when `args` is not an arguments object (null means {}), else nullopt.
std::optional<std::string> not_an_object(const nlohmann::json& args) {
  if (args.is_null() || args.is_object()) return std::nullopt;
  return "Tool arguments must be a JSON object, got " + std::string(coercion::type_name(args)) + ".";
}

/// Arguments text as the outcome of a refused call holds it: the value it parses to (the string itself
/// when it does not parse), kept as text until somebody reads it. A copy of the text costs its size; the
/// value would cost many times more, and is seldom read.
LazyJson given_text(std::string_view text) {
  struct Given {
    std::string text;
  };
  return LazyJson::deferred(std::make_shared<const Given>(Given{std::string(text)}), [](const void* source) {
    const std::string& given = static_cast<const Given*>(source)->text;
    auto parsed = parse_json(given);
    return compact_text(parsed ? *parsed : nlohmann::json(given));
  });
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

using Policies = std::vector<std::shared_ptr<const ToolPolicy>>;

/// Step 3's result: the arguments as the invoker's text path took them, or as the JSON path decoded them.
struct Decoded {
  const std::string* text = nullptr;              ///< the text offered to the text path
  std::optional<ToolInvoker::Prepared> prepared;  ///< the invoker's, once it took the text
  std::exception_ptr failure;                     ///< what the text path threw, rethrown at step 7
  nlohmann::json args;                            ///< the JSON path's arguments, when parsed here
  bool owned = false;                             ///< `args` holds them; else they are the request's object
  DroppedFields dropped;                          ///< undeclared members the parse left out of `args`
  std::string refusal;                            ///< the message for the model when the arguments are refused
  bool text_path() const { return prepared || failure; }
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
  /// The tool found at step 2, which failures and the rendering go by.
  void set_tool(const Tool& tool) { tool_ = &tool; }
  /// The session's state before the tool ran (step 5): from here on a failure restores it.
  void set_snapshot(const SessionSnapshot& snapshot) { snapshot_ = &snapshot; }

  /// 3. Argument decoding. Text arguments go to the invoker's text path first (generated invokers
  /// decode and validate in one pass there); anything it declines is parsed here as before. What the
  /// text path throws surfaces at step 7, where the JSON path would have thrown it.
  Decoded decode() {
    Decoded out;
    const nlohmann::json& raw = request_.arguments;
    out.text = raw.is_string() ? &raw.get_ref<const std::string&>() : nullptr;
    if (out.text && out.text->size() > options_.max_argument_bytes) {
      out.refusal =
          "Tool arguments are larger than the limit of " + std::to_string(options_.max_argument_bytes) + " bytes.";
      return out;
    }
    // Admission: the memory the arguments will cost is reserved before anything is parsed.
    const std::size_t bytes = out.text ? out.text->size() : text_bytes(raw);
    if (!reserve(bytes * MemoryBudget::kBytesPerArgumentByte, out)) return out;
    if (out.text) {
      try {
        out.prepared = tool_->invoker()->prepare(ToolArguments::text(*out.text), options_.mode);
      } catch (...) {
        out.failure = std::current_exception();
      }
    }
    decoded_ = true;  // refusals below clear it
    if (out.text_path()) return out;
    if (raw.is_string()) {
      // The value is built as nlohmann::json, which may cost more than the first reservation: it grows
      // with what is built, up to kMaxBytesPerArgumentByte, and the parse stops when it cannot.
      std::size_t needed = 0;
      auto charge = [&](std::size_t built) {
        needed = std::min(built, bytes * MemoryBudget::kMaxBytesPerArgumentByte);
        return reservation_.grow_to(needed);
      };
      auto parsed =
          parse_arguments(raw.get_ref<const std::string&>(), tool_->signature().input(),
                          options_.memory_budget ? std::function<bool(std::size_t)>(charge) : nullptr, out.dropped);
      if (auto* message = std::get_if<std::string>(&parsed)) {
        out.refusal = options_.memory_budget && needed > reservation_.bytes() ? options_.memory_budget->refusal(needed)
                                                                              : std::move(*message);
        decoded_ = false;
        return out;
      }
      out.args = std::move(std::get<nlohmann::json>(parsed));
      out.owned = true;
    }
    const nlohmann::json& args = out.owned ? out.args : raw;
    if (auto message = not_an_object(args)) {
      out.refusal = std::move(*message);
      decoded_ = false;
      return out;
    }
    if (args.is_null()) {
      out.args = nlohmann::json::object();
      out.owned = true;
    }
    return out;
  }

  /// Reserves `bytes` of the memory budget for this call, or refuses it.
  bool reserve(std::size_t bytes, Decoded& out) {
    if (!options_.memory_budget) return true;
    if (auto r = options_.memory_budget->try_reserve(bytes)) {
      reservation_ = std::move(*r);
      return true;
    }
    out.refusal = options_.memory_budget->refusal(bytes);
    return false;
  }

  /// 7. Validation with coercion: the invoker's Prepared, its validation moved into the outcome. Throws
  /// what the text path threw, with the arguments as given.
  ToolInvoker::Prepared prepare(Decoded& decoded) {
    if (decoded.failure) {
      set_given_arguments();
      std::rethrow_exception(decoded.failure);
    }
    if (!decoded.text_path()) {
      const ToolArguments arguments =
          decoded.owned ? ToolArguments::owned(decoded.args) : ToolArguments::borrowed(request_.arguments);
      decoded.prepared = tool_->invoker()->prepare(arguments, options_.mode);
      if (!decoded.prepared) throw std::logic_error("the tool's invoker declined an arguments object");
    }
    ToolInvoker::Prepared prepared = std::move(*decoded.prepared);
    // Undeclared fields the parse left out are reported where the walk would have reported them: last.
    if (decoded.dropped.size() != 0)
      report_dropped_fields(prepared.validation, tool_->signature().input(), decoded.dropped, options_.mode);
    out_.validation = std::move(prepared.validation);
    out_.validation.value = nullptr;
    return prepared;
  }

  /// The arguments as given, for a call refused once they were decoded.
  void set_given_arguments() { set_arguments(decoded_arguments()); }

  /// 8. The reason of the first policy that denies the call, if one does. The arguments become JSON only
  /// when there is a policy to read them.
  std::optional<std::string> check_policies(const Policies& policies, const LazyJson& params,
                                            ToolContext& context) const {
    for (const auto& policy : policies) {
      PolicyDecision decision = policy->check(*tool_, *params, context);
      if (!decision.allowed) return std::move(decision.reason);
    }
    return std::nullopt;
  }

  /// 11. What a successful call tells the policies.
  void update_policies(const Policies& policies, const LazyJson& params, ToolContext& context) const {
    if (policies.empty()) return;
    const ToolResult<nlohmann::json> seen = out_.result;  // the value parsed, once, for the policies
    for (const auto& policy : policies) policy->on_result(*tool_, *params, seen, context);
  }

  /// 10. The handler. A ToolValidationError it throws is a failed result, as its message says.
  CallStatus run(const ToolInvoker::Prepared& prepared, ToolContext& context) {
    try {
      out_.result = prepared.run(context);
      return out_.result.success ? CallStatus::Succeeded : CallStatus::Failed;
    } catch (const ToolValidationError& e) {
      out_.result = ToolResult<LazyJson>::error(std::string("Tool validation failed: ") + e.what());
      return CallStatus::Failed;
    }
  }

  /// The result must match the signature: output is checked strictly (docs/validation.md). A `vouched`
  /// value already matches the schema's structure by its C++ type; only refinements need checking.
  /// Returns the message for the model when it does not match.
  std::optional<std::string> check_result(bool vouched) const {
    const auto& result = out_.result;
    if (!result.success || !result.value || options_.mode == Mode::Disabled || vouched) return std::nullopt;
    auto check = validate(tool_->output(), **result.value, {Direction::Output, options_.mode});
    if (check.ok) return std::nullopt;
    return "Tool '" + tool_->name() + "' returned a value that does not match its result type:\n" +
           without_final_newline(check.report());
  }

  /// Ends the call with a failed result the model reads, the session restored when a snapshot was taken.
  ToolOutcome fail(CallStatus status, std::string message) {
    rollback();
    out_.status = status;
    out_.result = ToolResult<LazyJson>::error(std::move(message));
    return finish(false);
  }

  ToolOutcome execution_failed(std::string_view what) {
    return fail(CallStatus::HandlerException, "Tool '" + tool_->name() + "' execution failed: " + std::string(what));
  }

  /// 12. A successful call keeps what it changed; a failed one goes back to the snapshot. Either way the
  /// snapshot is released: it could be restored again, and a resource keeps what it saved for it until
  /// it is released.
  void settle(CallStatus status) {
    if (status != CallStatus::Succeeded)
      rollback();
    else if (snapshot_)
      session_.release(*snapshot_);
    out_.status = status;
  }

  void rollback() {
    if (!snapshot_) return;
    session_.restore(*snapshot_);
    session_.release(*snapshot_);
  }

  /// 13, 14. Renders the result and publishes ToolInvoked. `vouched`: the value is compact text a C++
  /// type guarantees to match the tool's result schema, so it is the rendering as it stands, once its
  /// firewalled fields are hidden in the text itself.
  ToolOutcome finish(bool vouched) {
    if (!arguments_set_) set_arguments(decoded_ ? decoded_arguments() : given_arguments());
    render(vouched);
    publish();
    return std::move(out_);
  }

 private:
  void render(bool vouched) {
    const auto& r = out_.result;
    const bool shown = r.value && !r.exclude_value_from_context;
    const bool hides = tool_ && tool_->result_has_firewall();
    std::optional<std::string> hidden;  // the vouched text with its firewalled fields hidden
    if (vouched && shown && hides) hidden = firewall_text(tool_->output(), *r.value->text());
    if (vouched && shown && (hidden || !hides)) {
      out_.rendered = detail::render_tool_output_text(r.message, hidden ? *hidden : *r.value->text(), r.success);
      out_.visible_value = hidden ? LazyJson::from_text(std::move(*hidden)) : r.value;
    } else {
      const Schema* shown_by = hides ? &tool_->output() : nullptr;
      out_.rendered = shown_by ? r.render(*shown_by) : r.render();
      if (shown) out_.visible_value = shown_by ? LazyJson(firewall(*shown_by, **r.value)) : *r.value;
    }
  }

  void publish() {
    if (!session_.events().has_subscribers<ToolInvoked>()) return;  // nobody observes: no event to build
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
    // The event borrows the outcome's parts while it is published (subscribers see it const), and
    // gives them back however publishing ends: copying them would cost a string copy or a reference
    // count each.
    Lend lend(out_, event);
    Publishing guard(own ? nullptr : &publishing);
    session_.events().publish(event);
  }

  /// The arguments as given, for calls that end before they are decoded. Text over the limit is refused
  /// unread; the outcome and the event say its size instead of holding two more copies of it.
  LazyJson given_arguments() const {
    const nlohmann::json& a = request_.arguments;
    if (!a.is_string()) return a;
    const auto& text = a.get_ref<const std::string&>();
    if (text.size() > options_.max_argument_bytes) {
      // Appended: g++ 12 warns falsely (-Wrestrict) on a literal + std::string&&.
      std::string said = "<";
      said.append(std::to_string(text.size())).append(" bytes of arguments, over the limit>");
      return nlohmann::json(std::move(said));
    }
    return a;
  }

  /// The arguments as decoded, for calls refused or failed after decoding: as text until somebody
  /// reads them (given_text), since their value may cost many times its text. An object is copied.
  LazyJson decoded_arguments() const {
    const nlohmann::json& a = request_.arguments;
    if (a.is_null()) return nlohmann::json::object();
    if (a.is_string()) {
      const auto& text = a.get_ref<const std::string&>();
      if (text.find_first_not_of(" \t\r\n") == std::string::npos) return nlohmann::json::object();
      return given_text(text);
    }
    return LazyJson(a);
  }

  Session& session_;
  const ToolCall& request_;
  const DispatchOptions& options_;
  const Tool* tool_ = nullptr;
  const SessionSnapshot* snapshot_ = nullptr;
  ToolOutcome out_;
  bool arguments_set_ = false;
  bool decoded_ = false;  // step 3 accepted the arguments
  // The call's share of options_.memory_budget, from step 3 until the call ends (also by an exception).
  MemoryBudget::Reservation reservation_;
};

/// The rule of ToolRegistry::runs_shared: a read-only tool that no policy governs.
bool shares_session(const Tool& tool, const Policies& policies) { return tool.hints().read_only && policies.empty(); }

/// The session's call lock as one dispatch holds it: shared for a call that runs beside others, alone
/// for the rest. A thread that holds it already (a handler dispatching in its own session) goes on
/// without waiting for itself, except that a call needing it alone under a shared hold is refused:
/// it would wait for the other shared holders, who may be waiting for it.
class CallLock {
 public:
  CallLock(Session& session, bool shared) {
    for (const auto& [held, held_shared] : held_)
      if (held == &session) {
        refused_ = held_shared && !shared;
        return;
      }
    if (shared)
      session.call_mutex().lock_shared();
    else
      session.call_mutex().lock();
    session_ = &session;
    shared_ = shared;
    held_.emplace_back(&session, shared);
  }
  CallLock(const CallLock&) = delete;
  CallLock& operator=(const CallLock&) = delete;
  ~CallLock() {
    if (!session_) return;
    held_.pop_back();  // holds nest, so this thread's newest is ours
    if (shared_)
      session_->call_mutex().unlock_shared();
    else
      session_->call_mutex().unlock();
  }
  bool refused() const { return refused_; }

 private:
  static thread_local std::vector<std::pair<const Session*, bool>> held_;  // session, shared
  Session* session_ = nullptr;
  bool shared_ = false;
  bool refused_ = false;
};
thread_local std::vector<std::pair<const Session*, bool>> CallLock::held_;

}  // namespace

void ToolRegistry::add(Tool tool, std::vector<std::shared_ptr<const ToolPolicy>> policies) {
  {
    std::unique_lock lock(mutex_);
    if (by_name_.count(tool.name()))
      throw DefinitionError("Duplicate tool name registered: '" + tool.name() + "'.", {}, tool.name());
    auto entry = std::make_shared<const Entry>(Entry{std::move(tool), std::move(policies)});
    by_name_.emplace(entry->tool.name(), entry);
    entries_.push_back(std::move(entry));
  }
  changed(Change::Tools);
}

void ToolRegistry::add_policy(std::shared_ptr<const ToolPolicy> policy) {
  std::unique_lock lock(mutex_);
  policies_.push_back(std::move(policy));
}

const ToolRegistry::Entry* ToolRegistry::entry_of(std::string_view name) const {
  std::shared_lock lock(mutex_);
  auto it = by_name_.find(name);
  return it == by_name_.end() ? nullptr : it->second.get();
}

std::vector<std::shared_ptr<const ToolPolicy>> ToolRegistry::policies_of(const Entry& entry) const {
  std::vector<std::shared_ptr<const ToolPolicy>> out;
  {
    std::shared_lock lock(mutex_);
    out = policies_;
  }
  out.insert(out.end(), entry.policies.begin(), entry.policies.end());
  return out;
}

std::optional<Tool> ToolRegistry::find(std::string_view name) const {
  if (const Entry* entry = entry_of(name)) return entry->tool;
  return std::nullopt;
}

ToolRegistry::Found ToolRegistry::lookup(std::string_view name) const { return Found(entry_of(name)); }

const Tool& ToolRegistry::Found::tool() const { return entry_->tool; }

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

bool ToolRegistry::runs_shared(std::string_view name) const {
  const Entry* entry = entry_of(name);
  return entry && shares_session(entry->tool, policies_of(*entry));
}

void ToolRegistry::offer_server_identity(std::string_view name, std::string_view version) {
  std::unique_lock lock(mutex_);
  if (offered_identity_.name.empty()) offered_identity_.name = name;
  if (offered_identity_.version.empty()) offered_identity_.version = version;
}

ServerIdentity ToolRegistry::offered_server_identity() const {
  std::shared_lock lock(mutex_);
  return offered_identity_;
}

// "Unknown tool 'serch'. The nearest tool names: search, fetch." A model that invented a name gets the
// real ones to choose from: the five nearest by edit distance, ties in registration order.
std::string ToolRegistry::unknown_tool_message(const std::string& name) const {
  constexpr std::size_t kShown = 5;
  constexpr std::size_t kLongest = 64;                                    // bounds the cost of comparing a hostile name
  std::vector<std::tuple<std::size_t, std::size_t, std::string>> ranked;  // distance, order, name
  {
    std::shared_lock lock(mutex_);
    for (const auto& entry : entries_) {
      const std::string& candidate = entry->tool.name();
      const std::size_t limit = std::max(name.size(), candidate.size());
      const std::size_t d =
          name.size() > kLongest || candidate.size() > kLongest ? limit : text::edit_distance(name, candidate, limit);
      ranked.emplace_back(d, ranked.size(), candidate);
    }
  }
  std::sort(ranked.begin(), ranked.end());
  std::string out = "Unknown tool '" + name + "'.";
  if (ranked.empty()) return out;
  out += ranked.size() == 1 ? " The only tool is: " : " The nearest tool names: ";
  for (std::size_t i = 0; i < std::min(kShown, ranked.size()); ++i)
    out.append(i ? ", " : "").append(std::get<2>(ranked[i]));
  return out + ".";
}

ToolOutcome ToolRegistry::dispatch(Session& session, const ToolCall& request, const DispatchOptions& options) const {
  return dispatch(session, lookup(request.name), request, options);
}

ToolOutcome ToolRegistry::dispatch(Session& session, Found found, const ToolCall& request,
                                   const DispatchOptions& options) const {
  // 2. Lookup, first: the tool and the policies governing it decide how the session's call lock is
  // held. The policies are taken once, so those checked in step 8 are those the lock was chosen for.
  const Entry* entry = found.entry_;
  const Policies policies = entry ? policies_of(*entry) : Policies{};
  return run(session, entry, policies, request, options);
}

ToolOutcome ToolRegistry::dispatch_reader(Session& session, const Tool& reader, const ToolCall& request,
                                          const DispatchOptions& options) const {
  const Entry entry{reader, {}};
  return run(session, &entry, {}, request, options);
}

ToolOutcome ToolRegistry::run(Session& session, const Entry* entry, const Policies& policies, const ToolCall& request,
                              const DispatchOptions& options) const {
  const CallEnvironment& env = options.environment;
  const bool shared = entry && shares_session(entry->tool, policies);
  CallLock lock(session, shared);
  Call call(session, request, options);

  // 1. Deadline: an evaluation out of time stops here rather than producing a result.
  if (env.deadline && env.deadline->expired())
    throw DeadlineExceededError(deadline_message(request.name), request.name);

  if (!entry) return call.fail(CallStatus::UnknownTool, unknown_tool_message(request.name));
  const Tool& tool = entry->tool;
  call.set_tool(tool);
  if (lock.refused())
    return call.fail(CallStatus::Denied,
                     "Tool '" + tool.name() + "' may change the session, so a read-only tool cannot call it.");
  if (!tool.has_handler())
    return call.fail(CallStatus::NoHandler, "Tool '" + tool.name() + "' has no handler and cannot be called.");

  // 3. Argument decoding.
  Decoded decoded = call.decode();
  if (!decoded.refusal.empty()) return call.fail(CallStatus::InvalidArguments, std::move(decoded.refusal));

  // 4. Heartbeat, 5. snapshot, 6. context.
  if (env.heartbeat) env.heartbeat->beat();
  std::optional<SessionSnapshot> snapshot;  // a shared call changes nothing to restore
  if (!shared) call.set_snapshot(snapshot.emplace(session.snapshot()));
  ToolContext context(tool, session, env, request.id);

  try {
    // 7. Validation with coercion.
    ToolInvoker::Prepared prepared = call.prepare(decoded);
    if (!call.outcome().validation.ok || !prepared.run) {
      call.set_given_arguments();
      // The report says what failed in its first line ("Tool validation errors:"); no prefix repeats it.
      return call.fail(CallStatus::InvalidArguments, without_final_newline(call.outcome().validation.report()));
    }
    call.set_arguments(prepared.arguments);
    const LazyJson& params = prepared.arguments;

    // 8. Policies, fail-closed: registry-wide first, then the tool's own.
    if (auto denial = call.check_policies(policies, params, context))
      return call.fail(CallStatus::Denied, std::move(*denial));

    // 9. Deadline again: validation and policies took time too.
    if (env.deadline && env.deadline->expired())
      throw DeadlineExceededError(deadline_message(tool.name()), tool.name());

    // 10. Handler, and its result checked.
    const CallStatus status = call.run(prepared, context);
    const ToolResult<LazyJson>& result = call.outcome().result;
    const bool vouched =
        prepared.typed_results && result.value && result.value->text() != nullptr && !tool.result_has_refinements();
    if (auto mismatch = call.check_result(vouched)) return call.fail(CallStatus::InvalidResult, std::move(*mismatch));

    // 11. Policy updates, for successes only.
    if (result.success) call.update_policies(policies, params, context);

    // 12. Restore on failure, 13. telemetry, 14. the outcome.
    call.settle(status);
    call.outcome().attachments = context.take_attachments();
    return call.finish(vouched);
  } catch (const PromptEvaluationError&) {
    call.rollback();
    throw;
  } catch (const std::exception& e) {
    return call.execution_failed(e.what());
  } catch (...) {
    return call.execution_failed("unknown exception");
  }
}

}  // namespace ptc
