#pragma once
// ptc::ToolContext — what a handler gets besides its arguments: the session, the deadline, the
// heartbeat, correlation ids and the session's resources.

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <ptc/budget.hpp>
#include <ptc/cancellation.hpp>
#include <ptc/client_requests.hpp>
#include <ptc/content.hpp>
#include <ptc/deadline.hpp>
#include <ptc/heartbeat.hpp>
#include <ptc/resources.hpp>
#include <ptc/run_context.hpp>

namespace ptc {

class Filesystem;
class Prompt;
class Schema;
class RenderedPrompt;
class Session;
class Tool;

/// Where a handler's progress reports go: `progress` so far, the `total` when known, and a message.
using ProgressSink = std::function<void(double progress, std::optional<double> total, std::string_view message)>;

/// Everything about one call that is not the tool itself; ToolRegistry::dispatch takes it.
struct CallEnvironment {
  const Prompt* prompt = nullptr;
  const RenderedPrompt* rendered_prompt = nullptr;
  std::string adapter{};  ///< provider adapter name, e.g. "openai"
  std::optional<Deadline> deadline{};
  std::shared_ptr<Heartbeat> heartbeat{};
  std::optional<RunContext> run_context{};
  /// Raised when the caller no longer wants the result (an MCP client cancelled, shutdown, timeout).
  std::shared_ptr<const Cancellation> cancellation{};
  /// Receives `ToolContext::report_progress` (an MCP server turns it into notifications/progress).
  ProgressSink progress{};
  /// The client a handler may ask (elicitation, sampling, roots); null when the call has none.
  std::shared_ptr<ClientChannel> client{};
};

class ToolContext {
 public:
  /// Built by dispatch; tests may build one to call a handler directly.
  ToolContext(const Tool& tool, Session& session, const CallEnvironment& environment, std::string call_id = {})
      : tool_(tool), session_(session), environment_(environment), call_id_(std::move(call_id)) {}

  const Tool& tool() const { return tool_; }
  /// The provider's id for this call ("call_abc123"), or empty.
  const std::string& call_id() const { return call_id_; }

  const Prompt* prompt() const { return environment_.prompt; }
  const RenderedPrompt* rendered_prompt() const { return environment_.rendered_prompt; }
  std::string_view adapter() const { return environment_.adapter; }
  Session& session() const { return session_; }
  const std::optional<Deadline>& deadline() const { return environment_.deadline; }
  Heartbeat* heartbeat() const { return environment_.heartbeat.get(); }
  const std::optional<RunContext>& run_context() const { return environment_.run_context; }

  /// The session's resources.
  SessionResources& resources() const;
  /// `resources().get<Filesystem>()`; throws MissingResourceError "No filesystem is registered."
  Filesystem& filesystem() const;
  /// `resources().get<BudgetTracker>()`; throws MissingResourceError "No budget tracker is registered."
  BudgetTracker& budget_tracker() const;
  /// Records a heartbeat, if the call has one. Long handlers call it between steps.
  void beat() const {
    if (environment_.heartbeat) environment_.heartbeat->beat();
  }
  /// Tells the caller how far the call is (and beats the heartbeat). `progress` should grow with each
  /// report; MCP drops a report that does not. Without a receiver it only beats.
  void report_progress(double progress, std::optional<double> total = std::nullopt,
                       std::string_view message = {}) const;
  /// Whether the caller asked the call to stop. A long handler checks it between steps and returns
  /// (a failed result is fine: nobody reads it).
  bool cancelled() const { return environment_.cancellation && environment_.cancellation->cancelled(); }
  /// The signal itself, to wait on (`wait_for`) instead of sleeping; nullptr when the call has none.
  const Cancellation* cancellation() const { return environment_.cancellation.get(); }
  /// Adds a block (an image, a sound, a resource's contents) to the call's answer, after the text of
  /// its value: MCP results carry them; the chat providers' tool messages are text and leave them out.
  void attach(Content content) { attachments_.push_back(std::move(content)); }
  /// What attach() collected, handed over once (dispatch moves it into the outcome).
  std::vector<Content> take_attachments() { return std::move(attachments_); }

  // ---- Asking the client that called (client_requests.hpp) ----------------------------------------

  /// Whether the client declared the capability: "elicitation", "sampling" or "roots".
  bool client_supports(std::string_view capability) const;
  /// Throws MissingClientCapability unless the client declared the capability.
  void require_client(std::string_view capability) const;
  /// Asks several things at once (one round trip under 2026-07-28); the answers by key. Refused with
  /// an error naming the capability when the client lacks one, and when the call has no client.
  Result<std::map<std::string, nlohmann::json>> ask_client(const std::vector<ClientRequest>& requests);
  /// Asks the user for a value of `schema`, a [:map ...] of strings, numbers, booleans and string enums
  /// (MCP's restricted form; anything else is an error naming the field). An accepted value is checked
  /// and coerced against the schema: one that does not match is an error with the report. `key` names
  /// the question (empty: "elicit-N").
  Result<Elicited<nlohmann::json>> elicit(std::string_view message, const Schema& schema, std::string key = {});
  /// The same for a C++ type, decoded by its codec. Defined in <ptc/codec/elicit.hpp>.
  template <class T>
  Result<Elicited<T>> elicit(std::string_view message, std::string key = {});
  /// Asks the client's model.
  Result<Sample> sample(SamplingRequest request);
  /// The client's roots.
  Result<std::vector<Root>> roots(std::string key = {});

 private:
  const Tool& tool_;
  Session& session_;
  const CallEnvironment& environment_;
  std::string call_id_;
  std::vector<Content> attachments_;
  int asked_ = 0;  // questions asked so far: the default keys count them
};

}  // namespace ptc
