#pragma once
// A tool call as a provider sends it, and what dispatching it produced.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include <ptc/content.hpp>
#include <ptc/deadline.hpp>
#include <ptc/lazy_json.hpp>
#include <ptc/run_context.hpp>
#include <ptc/tool_result.hpp>
#include <ptc/validate.hpp>

namespace ptc {

struct ToolCall {
  std::string id;  ///< the provider's call id, echoed in the reply; may be empty
  std::string name;
  /// A JSON object, or a string holding the object's JSON text. Arguments that arrive as text (from
  /// OpenAI, an MCP request, the command line) are best passed as that string: a generated tool
  /// decodes the text itself and no tree is built, and any other tool gets it parsed once.
  nlohmann::json arguments = nlohmann::json::object();
};

enum class CallStatus {
  Succeeded,         ///< the handler returned a successful result
  Failed,            ///< the handler returned a failed result (or threw ToolValidationError)
  UnknownTool,       ///< no tool of that name
  NoHandler,         ///< the tool has no handler
  InvalidArguments,  ///< malformed JSON, not an object, or validation errors
  Denied,            ///< a policy said no
  HandlerException,  ///< the handler threw
  InvalidResult,     ///< the handler's value does not match the tool's result schema
};
std::string_view status_name(CallStatus s);  ///< "succeeded", "failed", "unknown_tool", ...

/// What dispatch returns: the result plus what the provider reply and the logs need.
struct ToolOutcome {
  std::string call_id;
  std::string name;
  CallStatus status = CallStatus::Succeeded;
  /// The arguments after coercion (as given when they could not be decoded). A generated tool's are
  /// kept as text and become JSON when read.
  LazyJson arguments;
  /// Errors and warnings from checking the arguments; `validation.report()` is the text the model gets
  /// for InvalidArguments. Warnings (coercions made) are kept on success too. Like every Validation it
  /// stores the first limits::kStoredIssues issues of each list and counts the rest. Its `value` stays
  /// null: the coerced arguments are `arguments`.
  Validation validation;
  /// A generated tool's value is kept as the text its codec wrote and becomes JSON when read.
  ToolResult<LazyJson> result;
  /// `result.render(tool.output())`: what the model sees.
  std::string rendered;
  /// The value as the model may see it (firewalled), or nullopt when it has none or it is excluded.
  std::optional<LazyJson> visible_value;
  /// Blocks the handler attached (ToolContext::attach), in order.
  std::vector<Content> attachments;

  bool success() const { return result.success; }
};

/// Published on the session's dispatcher after every dispatched call, and kept in the session's
/// `log<ToolInvoked>()` (which survives restores).
struct ToolInvoked {
  std::string event_id;  ///< random UUID
  std::string session_id;
  std::string call_id;
  std::string name;
  LazyJson params;  ///< coerced arguments
  ToolResult<LazyJson> result;
  std::string rendered_output;
  CallStatus status = CallStatus::Succeeded;
  std::optional<RunContext> run_context;
  TimePoint created_at;
};

}  // namespace ptc
