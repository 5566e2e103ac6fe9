#pragma once
// ptc::ToolRegistry — the tools a program offers, and the dispatch pipeline that runs a call.

#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <shared_mutex>
#include <string>
#include <string_view>
#include <vector>

#include <ptc/limits.hpp>
#include <ptc/memory_budget.hpp>
#include <ptc/policy.hpp>
#include <ptc/prompt_template.hpp>
#include <ptc/resource.hpp>
#include <ptc/server_identity.hpp>
#include <ptc/session.hpp>
#include <ptc/tool.hpp>
#include <ptc/tool_call.hpp>
#include <ptc/tool_context.hpp>

namespace ptc {

class RenderedPrompt;

struct DispatchOptions {
  Mode mode = Mode::Enabled;  ///< how arguments (lenient) and results (strict) are validated
  CallEnvironment environment{};
  /// Timestamps for telemetry. Deadlines carry their own clock.
  std::shared_ptr<const Clock> clock = Clock::system();
  /// Argument text (JSON) longer than this is refused before it is parsed.
  std::size_t max_argument_bytes = limits::kArgumentBytes;
  /// What calls in flight may spend on their arguments, together: each call reserves
  /// MemoryBudget::kBytesPerArgumentByte times its argument bytes before they are parsed (more as a
  /// JSON value is built, for tools with JSON handlers) and is refused with MemoryBudget::refusal when
  /// that does not fit; the reservation ends with the call. By default one budget for the process
  /// (limits::kCallMemoryBytes); null: no budget.
  std::shared_ptr<MemoryBudget> memory_budget = MemoryBudget::process();
};

/// Thread-safe: tools may be added and calls dispatched from several threads at once. Calls in
/// different sessions run in parallel; in one session, calls of tools that run_shared() run beside each
/// other and every other call runs alone.
class ToolRegistry {
  struct Entry;

 public:
  ToolRegistry();
  /// The tools a rendered prompt offers, each governed by its sections' policies. Defined with prompts,
  /// so that the registry does not depend on them; write `prompt.register_tools(registry)` instead.
  [[deprecated("use RenderedPrompt::register_tools")]] explicit ToolRegistry(const RenderedPrompt& prompt);

  /// Throws DefinitionError("Duplicate tool name registered for prompt.", {}, name).
  void add(Tool tool, std::vector<std::shared_ptr<const ToolPolicy>> policies = {});
  /// A policy governing every tool, checked before the tool's own policies.
  void add_policy(std::shared_ptr<const ToolPolicy> policy);

  std::optional<Tool> find(std::string_view name) const;
  /// A tool looked up once and dispatched later without a second lookup (an MCP server checks what the
  /// tool needs before it queues the call). Empty when no tool has the name. It stays valid as long as
  /// the registry: tools are never removed.
  class Found {
   public:
    Found() = default;
    explicit operator bool() const { return entry_ != nullptr; }
    /// The tool; only when not empty.
    const Tool& tool() const;

   private:
    friend class ToolRegistry;
    explicit Found(const Entry* entry) : entry_(entry) {}
    const Entry* entry_ = nullptr;
  };
  Found lookup(std::string_view name) const;
  /// In registration order.
  std::vector<Tool> tools() const;
  std::size_t size() const;
  /// Whether calls of tool `name` may run beside each other in one session: the tool says it changes
  /// nothing (ToolHints::read_only) and no policy governs it, so there is nothing to roll back and
  /// nothing for a policy to count. Such a call holds the session's call lock shared and takes no
  /// snapshot; every other call (and an unknown name) holds it alone.
  bool runs_shared(std::string_view name) const;

  /// Runs one call through the pipeline (docs/tools.md): deadline, lookup, argument decoding,
  /// heartbeat, snapshot, context, validation and coercion, policies, deadline again, handler,
  /// policy updates, restore on failure, ToolInvoked, outcome. Tool failures come back as failed
  /// results; only PromptEvaluationError (and DeadlineExceededError) is thrown, after the session
  /// has been restored.
  ToolOutcome dispatch(Session& session, const ToolCall& call, const DispatchOptions& options = {}) const;
  /// The same for a tool already looked up (`found` is the lookup of `call.name`; empty: unknown tool).
  ToolOutcome dispatch(Session& session, Found found, const ToolCall& call, const DispatchOptions& options = {}) const;

  /// The name and version a server of this registry goes by when the program names none: mcp::Server
  /// fills an empty ServerInfo name or version from them when it is built, and so does ptc::cli::run's
  /// `mcp`. Generated register_tools() offers the CMake project's (ptc_generate, docs/ptc-gen.md). An
  /// empty value, and a field an earlier offer set, are left alone: the first registration wins.
  void offer_server_identity(std::string_view name, std::string_view version);
  /// What the offers set (name and version only).
  ServerIdentity offered_server_identity() const;

  // ---- What an MCP server serves besides tools (docs/mcp.md) -------------------------------------

  /// Throws DefinitionError (field "uri") when a resource with the same URI or template is registered.
  void add_resource(Resource resource);
  /// Throws DefinitionError (field "name") when a prompt of that name is registered.
  void add_prompt(PromptTemplate prompt);
  /// In registration order.
  std::vector<Resource> resources() const;
  std::vector<PromptTemplate> prompts() const;
  std::optional<PromptTemplate> find_prompt(std::string_view name) const;

  struct ResourceMatch {
    Resource resource;
    /// The template's variables as the URI gave them (percent-decoded), in template order.
    std::vector<std::pair<std::string, std::string>> variables;
  };
  /// The resource `uri` names: the static resource of that URI, else the first template (in
  /// registration order) that matches it.
  std::optional<ResourceMatch> find_resource(std::string_view uri) const;
  /// Runs a resource's reader or a prompt's renderer through the dispatch pipeline, as a call of a tool
  /// that changes nothing: its arguments are decoded, checked and coerced as a tool's, its result
  /// checked, ToolInvoked published; it holds the session's call lock shared, takes no snapshot, and no
  /// policy governs it (policies govern what tools do).
  ToolOutcome dispatch_reader(Session& session, const Tool& reader, const ToolCall& call,
                              const DispatchOptions& options = {}) const;

  /// What changed: a tool, a resource or a prompt was added.
  enum class Change { Tools, Resources, Prompts };
  /// Calls `listener` after every change, on the thread that made it, until the returned handle is
  /// destroyed (an MCP server sends list_changed notifications from it).
  [[nodiscard]] std::shared_ptr<void> on_change(std::function<void(Change)> listener) const;
  /// Tells the MCP servers serving this registry that the resource at `uri` changed: clients subscribed
  /// to it get notifications/resources/updated (2025 resources/subscribe, 2026 subscriptions/listen
  /// naming it). Safe from any thread, a tool's handler included; the listeners run on the caller's
  /// thread. A program served by ptc::cli::run, which owns its server, says so here.
  void notify_resource_updated(std::string_view uri) const;
  /// Calls `listener` with the URI of every notify_resource_updated, on the thread that called it, until
  /// the returned handle is destroyed (an MCP server sends notifications/resources/updated from it).
  [[nodiscard]] std::shared_ptr<void> on_resource_updated(std::function<void(const std::string&)> listener) const;

 private:
  struct Entry {
    Tool tool;
    std::vector<std::shared_ptr<const ToolPolicy>> policies;
  };
  /// Entries are never removed, so the pointer stays valid as long as the registry lives.
  const Entry* entry_of(std::string_view name) const;
  /// The policies governing the entry's calls: registry-wide first, then the tool's own.
  std::vector<std::shared_ptr<const ToolPolicy>> policies_of(const Entry& entry) const;
  std::string unknown_tool_message(const std::string& name) const;
  ToolOutcome run(Session& session, const Entry* entry, const std::vector<std::shared_ptr<const ToolPolicy>>& policies,
                  const ToolCall& request, const DispatchOptions& options) const;
  void changed(Change change) const;

  mutable std::shared_mutex mutex_;
  std::vector<std::shared_ptr<const Entry>> entries_;
  std::map<std::string, std::shared_ptr<const Entry>, std::less<>> by_name_;
  std::vector<std::shared_ptr<const ToolPolicy>> policies_;
  ServerIdentity offered_identity_;
  std::vector<Resource> resources_;
  std::vector<PromptTemplate> prompts_;
  struct Listeners;
  std::shared_ptr<Listeners> listeners_;
};

}  // namespace ptc
