#pragma once
// What a tool may ask the client that called it while it runs: a value from the user (elicitation), a
// completion from the client's model (sampling), the client's roots. An MCP server answers them, in
// either protocol era: a request on the call's stream in 2025-11-25, a multi round-trip request
// (`input_required`, the handler run again with the answers) in 2026-07-28. Elsewhere (a provider's
// tool call, the CLI) there is no client to ask, and asking says so.
//
// A handler asks through its ToolContext: `context.elicit<Confirm>("Delete PTC-7?")` (with
// <ptc/codec/elicit.hpp>), `context.sample({...})`, `context.roots()`. Under 2026-07-28 the handler runs
// again from the start once the client has answered, so code before a question must be safe to run
// twice (read, do not write, before asking), and must ask the same questions in the same order.

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include <ptc/error.hpp>
#include <ptc/tool_errors.hpp>

namespace ptc {

/// One question: a key naming it within the call, the MCP method, and its params.
struct ClientRequest {
  std::string key;
  std::string method;  ///< "elicitation/create", "sampling/createMessage" or "roots/list"
  nlohmann::json params = nlohmann::json::object();
  /// The client capability the method needs: "elicitation", "sampling" or "roots".
  std::string capability() const;
};

/// The caller's side of ClientRequests, set on CallEnvironment::client by the MCP server.
class ClientChannel {
 public:
  virtual ~ClientChannel() = default;
  /// Whether the client declared the capability ("elicitation", "sampling", "roots").
  virtual bool supports(std::string_view capability) const = 0;
  /// The answers (each method's result), by key. An error when the client answered with one, went
  /// away, or took longer than the server allows. Under 2026-07-28 it may end the handler instead
  /// (by throwing a PromptEvaluationError the server catches) to ask by round trip.
  virtual Result<std::map<std::string, nlohmann::json>> ask(const std::vector<ClientRequest>& requests) = 0;
};

/// Thrown by ToolContext::require_client when the client lacks a capability the tool cannot do without.
/// It ends the call (the session is restored); an MCP server answers -32021 naming the capability.
class MissingClientCapability : public PromptEvaluationError {
 public:
  explicit MissingClientCapability(std::string capability)
      : PromptEvaluationError("The client did not declare the '" + capability + "' capability this tool needs."),
        capability_(std::move(capability)) {}
  const std::string& capability() const noexcept { return capability_; }

 private:
  std::string capability_;
};

/// What the user did with an elicitation.
enum class ElicitAction { accept, decline, cancel };

/// The answer to an elicitation: the action, and the value when the user accepted.
template <class T>
struct Elicited {
  ElicitAction action = ElicitAction::cancel;
  std::optional<T> value;
  bool accepted() const { return action == ElicitAction::accept && value.has_value(); }
};

struct SamplingMessage {
  std::string role = "user";  ///< "user" or "assistant"
  std::string text;
};

/// A sampling/createMessage request: text messages and the model settings a server may suggest.
struct SamplingRequest {
  std::vector<SamplingMessage> messages;
  std::string system_prompt{};
  std::uint64_t max_tokens = 1024;
  std::optional<double> temperature{};
  std::vector<std::string> stop_sequences{};
  std::string key{};  ///< names the question (2026 inputRequests); empty: "sample-N"
};

/// The client model's answer.
struct Sample {
  std::string role;  ///< "assistant"
  std::string text;  ///< the text of the answer (empty when it was not text)
  std::string model;
  std::string stop_reason;
};

/// One of the client's roots: a directory or other location it lets servers work in.
struct Root {
  std::string uri;  ///< file:///home/me/project
  std::string name;
};

class Schema;

namespace detail {
/// The restricted schema MCP elicitation allows (a flat object of strings, numbers, integers, booleans
/// and string enums) for a [:map ...] of such fields, or an error naming the field that cannot be one.
Result<nlohmann::json> elicitation_schema(const Schema& schema);
/// The roots of a roots/list result (entries without a string `uri` are left out), or an error when it
/// holds no list.
Result<std::vector<Root>> roots_of(const nlohmann::json& answer);
}  // namespace detail

}  // namespace ptc
