#pragma once
// Who hears what the server says on its own: list_changed when the registry gains a tool, resource or
// prompt, and resources/updated when the program says a resource changed. Two kinds of listener:
//   - a 2025 client's push channel (the stdio output, or an HTTP session's GET stream): every list
//     change, and updates of the URIs it subscribed to (resources/subscribe);
//   - a 2026-07-28 `subscriptions/listen` stream: only what its filter asked for, each notification
//     tagged with the listen request's id.

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>

#include <nlohmann/json.hpp>

#include "jsonrpc.hpp"

namespace ptc::mcp {

class Client;

/// What a subscriptions/listen request asked for, or (all true) what a 2025 client hears.
struct ListenFilter {
  bool tools = false;
  bool resources = false;
  bool prompts = false;
  std::set<std::string> resource_uris;  ///< resources/updated for these
  /// The filter as the acknowledgement echoes it: what was asked and will be honoured.
  nlohmann::json to_json() const;
  /// Reads `notifications` of subscriptions/listen; unknown members are ignored (not honoured).
  static ListenFilter from_json(const nlohmann::json& notifications);
};

class Listeners {
 public:
  using Send = std::function<void(const jsonrpc::Json& message)>;
  enum class List { Tools, Resources, Prompts };

  /// A 2025 client's push channel. Held until the returned handle is destroyed.
  std::shared_ptr<void> add_client(const std::shared_ptr<Client>& client, Send send);
  /// A subscriptions/listen stream, tagged with `id`. Held until the returned handle is destroyed.
  std::shared_ptr<void> add_subscription(nlohmann::json id, ListenFilter filter, Send send);

  void list_changed(List list);
  void resource_updated(const std::string& uri);

 private:
  struct Listener {
    std::weak_ptr<Client> client;  ///< 2025: the client, whose subscriptions decide updates
    nlohmann::json id;             ///< 2026: the listen request's id
    ListenFilter filter;
    Send send;
  };
  std::shared_ptr<void> add(Listener listener);
  /// Sends `message` to each listener `wants` picks; `tag` adds the subscription id (2026).
  void publish(const std::function<bool(const Listener&)>& wants, const std::string& method, nlohmann::json params);

  struct State {
    std::mutex mutex;
    std::uint64_t next = 0;
    std::map<std::uint64_t, std::shared_ptr<const Listener>> listeners;
  };
  std::shared_ptr<State> state_ = std::make_shared<State>();
};

}  // namespace ptc::mcp
