#include "listeners.hpp"

#include "protocol.hpp"

namespace ptc::mcp {
namespace {

constexpr std::string_view kSubscriptionIdKey = "io.modelcontextprotocol/subscriptionId";
/// A listen stream names a bounded number of URIs, so a filter cannot grow without end.
constexpr std::size_t kMaxListenUris = 1024;

bool flag(const nlohmann::json& object, const char* key) {
  auto it = object.find(key);
  return it != object.end() && it->is_boolean() && it->get<bool>();
}

}  // namespace

nlohmann::json ListenFilter::to_json() const {
  nlohmann::json out = nlohmann::json::object();
  if (tools) out["toolsListChanged"] = true;
  if (prompts) out["promptsListChanged"] = true;
  if (resources) out["resourcesListChanged"] = true;
  if (!resource_uris.empty()) out["resourceSubscriptions"] = resource_uris;
  return out;
}

ListenFilter ListenFilter::from_json(const nlohmann::json& notifications) {
  ListenFilter out;
  if (!notifications.is_object()) return out;
  out.tools = flag(notifications, "toolsListChanged");
  out.prompts = flag(notifications, "promptsListChanged");
  out.resources = flag(notifications, "resourcesListChanged");
  if (auto uris = notifications.find("resourceSubscriptions"); uris != notifications.end() && uris->is_array())
    for (const auto& uri : *uris)
      if (uri.is_string() && out.resource_uris.size() < kMaxListenUris)
        out.resource_uris.insert(uri.get<std::string>());
  return out;
}

std::shared_ptr<void> Listeners::add(Listener listener) {
  std::uint64_t id = 0;
  {
    std::lock_guard lock(state_->mutex);
    id = state_->next++;
    state_->listeners.emplace(id, std::make_shared<const Listener>(std::move(listener)));
  }
  // A handle that is not null (transports test it), and removes the listener when the last copy goes.
  struct Handle {
    Handle(std::weak_ptr<State> w, std::uint64_t i) : state(std::move(w)), id(i) {}
    Handle(const Handle&) = delete;
    Handle& operator=(const Handle&) = delete;
    std::weak_ptr<State> state;
    std::uint64_t id;
    ~Handle() {
      if (auto s = state.lock()) {
        std::shared_ptr<const Listener> gone;  // destroyed outside the lock
        std::lock_guard lock(s->mutex);
        auto it = s->listeners.find(id);
        if (it == s->listeners.end()) return;
        gone = std::move(it->second);
        s->listeners.erase(it);
      }
    }
  };
  return std::make_shared<Handle>(state_, id);
}

std::shared_ptr<void> Listeners::add_client(const std::shared_ptr<Client>& client, Send send) {
  ListenFilter all;
  all.tools = all.resources = all.prompts = true;
  return add(Listener{client, nullptr, std::move(all), std::move(send)});
}

std::shared_ptr<void> Listeners::add_subscription(nlohmann::json id, ListenFilter filter, Send send) {
  return add(Listener{{}, std::move(id), std::move(filter), std::move(send)});
}

void Listeners::publish(const std::function<bool(const Listener&)>& wants, const std::string& method,
                        nlohmann::json params) {
  // Sent outside the lock, from copies: a send may block on a slow client's queue or end a stream.
  std::vector<std::shared_ptr<const Listener>> chosen;
  {
    std::lock_guard lock(state_->mutex);
    for (const auto& [key, listener] : state_->listeners)
      if (wants(*listener)) chosen.push_back(listener);
  }
  for (const auto& listener : chosen) {
    jsonrpc::Json p(params);
    if (!listener->id.is_null())
      p["_meta"] = jsonrpc::Json{{std::string(kSubscriptionIdKey), jsonrpc::Json(listener->id)}};
    listener->send(jsonrpc::notification(method, std::move(p)));
  }
}

void Listeners::list_changed(List list) {
  const char* method = list == List::Tools       ? "notifications/tools/list_changed"
                       : list == List::Resources ? "notifications/resources/list_changed"
                                                 : "notifications/prompts/list_changed";
  publish(
      [list](const Listener& l) {
        // A 2025 client hears once its initialize chose the era; a 2026 client that shares the stdio
        // process asked for nothing, and is sent nothing it did not ask for.
        if (l.id.is_null()) {
          auto client = l.client.lock();
          if (!client || !client->legacy_version()) return false;
        }
        return list == List::Tools ? l.filter.tools : list == List::Resources ? l.filter.resources : l.filter.prompts;
      },
      method, nlohmann::json::object());
}

void Listeners::resource_updated(const std::string& uri) {
  publish(
      [&uri](const Listener& l) {
        if (l.id.is_null()) {  // a 2025 client: the URIs it subscribed to
          auto client = l.client.lock();
          return client && client->legacy_version() && client->subscribed(uri);
        }
        return l.filter.resource_uris.count(uri) != 0;
      },
      "notifications/resources/updated", nlohmann::json{{"uri", uri}});
}

}  // namespace ptc::mcp
