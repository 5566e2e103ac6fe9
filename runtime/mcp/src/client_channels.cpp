#include "client_channels.hpp"

#include "protocol.hpp"

namespace ptc::mcp {

bool declares(const nlohmann::json& capabilities, std::string_view capability) {
  if (!capabilities.is_object()) return false;
  auto it = capabilities.find(std::string(capability));
  return it != capabilities.end() && it->is_object();
}

StreamChannel::StreamChannel(std::shared_ptr<Client> client, Notify notify,
                             std::shared_ptr<const Cancellation> cancellation, std::chrono::milliseconds timeout)
    : client_(std::move(client)),
      notify_(std::move(notify)),
      cancellation_(std::move(cancellation)),
      timeout_(timeout) {}

bool StreamChannel::supports(std::string_view capability) const {
  return declares(client_->capabilities(), capability);
}

Result<std::map<std::string, nlohmann::json>> StreamChannel::ask(const std::vector<ClientRequest>& requests) {
  // A cancelled call asks nothing more: the client would be shown a question nobody waits for.
  if (cancellation_->cancelled()) return Error{"The call was cancelled before it asked the client."};
  // All questions go out before any answer is awaited: the client may answer them in any order.
  std::vector<std::pair<std::string, std::shared_ptr<Client::Pending>>> waiting;
  for (const auto& r : requests) {
    auto [id, pending] = client_->expect();
    notify_(jsonrpc::Json{{"jsonrpc", "2.0"}, {"id", id}, {"method", r.method}, {"params", jsonrpc::Json(r.params)}});
    waiting.emplace_back(r.key, std::move(pending));
  }
  std::map<std::string, nlohmann::json> answers;
  const auto give_up = std::chrono::steady_clock::now() + timeout_;
  for (auto& [key, pending] : waiting) {
    auto answer = pending->wait(*cancellation_, give_up);
    client_->forget(pending);
    if (!answer) {
      for (auto& [k, p] : waiting) client_->forget(p);
      return answer.error();
    }
    answers.emplace(key, std::move(*answer));
  }
  return answers;
}

bool RoundTripChannel::supports(std::string_view capability) const { return declares(capabilities_, capability); }

Result<std::map<std::string, nlohmann::json>> RoundTripChannel::ask(const std::vector<ClientRequest>& requests) {
  std::map<std::string, nlohmann::json> found;
  std::vector<ClientRequest> missing;
  for (const auto& r : requests) {
    auto it = answers_.find(r.key);
    if (it == answers_.end())
      missing.push_back(r);
    else
      found.emplace(r.key, *it);
  }
  if (!missing.empty()) throw InputRequired(std::move(missing), answers_);
  return found;
}

}  // namespace ptc::mcp
