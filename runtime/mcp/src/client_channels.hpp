#pragma once
// How a handler's questions to its client (ToolContext::elicit, sample, roots) travel in each era:
//   - 2025: StreamChannel sends each as a JSON-RPC request on the call's own stream (the stdio output,
//     or the call's SSE response) and waits for the client's response, which arrives as any message
//     does (a line, a POST in the session) and is handed over by Client::resolve;
//   - 2026-07-28: RoundTripChannel answers from what the retried request brought (inputResponses, and
//     the answers of earlier rounds sealed in requestState); a question not answered yet ends the
//     handler with InputRequired, which the server turns into an `input_required` result.

#include <chrono>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include <ptc/cancellation.hpp>
#include <ptc/client_requests.hpp>
#include <ptc/tool_errors.hpp>

#include "jsonrpc.hpp"

namespace ptc::mcp {

class Client;
using Notify = std::function<void(const jsonrpc::Json& message)>;

/// Whether `capabilities` (a ClientCapabilities object) declares `capability`.
bool declares(const nlohmann::json& capabilities, std::string_view capability);

class StreamChannel : public ClientChannel {
 public:
  StreamChannel(std::shared_ptr<Client> client, Notify notify, std::shared_ptr<const Cancellation> cancellation,
                std::chrono::milliseconds timeout);
  bool supports(std::string_view capability) const override;
  Result<std::map<std::string, nlohmann::json>> ask(const std::vector<ClientRequest>& requests) override;

 private:
  std::shared_ptr<Client> client_;
  Notify notify_;
  std::shared_ptr<const Cancellation> cancellation_;
  std::chrono::milliseconds timeout_;
};

/// Ends a 2026-07-28 handler that asked what the request did not answer: the server answers
/// `input_required` with these requests and the answers known so far, sealed.
class InputRequired : public PromptEvaluationError {
 public:
  InputRequired(std::vector<ClientRequest> requests, nlohmann::json answers)
      : PromptEvaluationError("The call needs input from the client."),
        requests_(std::move(requests)),
        answers_(std::move(answers)) {}
  const std::vector<ClientRequest>& requests() const { return requests_; }
  const nlohmann::json& answers() const { return answers_; }

 private:
  std::vector<ClientRequest> requests_;
  nlohmann::json answers_;
};

class RoundTripChannel : public ClientChannel {
 public:
  /// `answers`: every answer known, by key (earlier rounds' and this request's inputResponses).
  RoundTripChannel(nlohmann::json capabilities, nlohmann::json answers)
      : capabilities_(std::move(capabilities)), answers_(std::move(answers)) {}
  bool supports(std::string_view capability) const override;
  Result<std::map<std::string, nlohmann::json>> ask(const std::vector<ClientRequest>& requests) override;

 private:
  nlohmann::json capabilities_;
  nlohmann::json answers_;
};

}  // namespace ptc::mcp
