#pragma once
// What a tool run by an Agent may ask its caller: sampling (ToolContext::sample), answered by the
// agent's own model, so a tool that samples runs under an Agent as under an MCP client (ClientModel is
// the other direction). There is no user to elicit from and no roots: those are not supported.

#include <memory>
#include <mutex>

#include <ptc/agent/model.hpp>
#include <ptc/client_requests.hpp>

namespace ptc::agent::detail {

class ModelChannel : public ClientChannel {
 public:
  /// The model, the run's settings (its model name and defaults) and cancellation outlive the channel.
  ModelChannel(Model& model, const ModelSettings& settings, std::shared_ptr<const Cancellation> cancellation)
      : model_(model), settings_(settings), cancellation_(std::move(cancellation)) {}

  bool supports(std::string_view capability) const override { return capability == "sampling"; }
  Result<std::map<std::string, nlohmann::json>> ask(const std::vector<ClientRequest>& requests) override;

 private:
  Result<nlohmann::json> sample(const nlohmann::json& params);

  Model& model_;
  const ModelSettings& settings_;
  std::shared_ptr<const Cancellation> cancellation_;
  std::mutex mutex_;  // a run's parallel calls take turns with the model
};

}  // namespace ptc::agent::detail
