#include <algorithm>
#include <exception>

#include <ptc/events.hpp>

namespace ptc {

EventBus::SubscriptionId EventBus::subscribe_erased(std::type_index type, Erased handler) {
  std::lock_guard lock(mutex_);
  const SubscriptionId id = next_id_++;
  auto& current = handlers_[type];
  auto next = current ? std::make_shared<Subscribers>(*current) : std::make_shared<Subscribers>();
  next->emplace_back(id, std::move(handler));
  current = std::move(next);
  subscriptions_.fetch_add(1, std::memory_order_release);
  return id;
}

bool EventBus::unsubscribe(SubscriptionId id) {
  std::lock_guard lock(mutex_);
  for (auto& [type, list] : handlers_) {
    const auto it = std::find_if(list->begin(), list->end(), [id](const auto& entry) { return entry.first == id; });
    if (it == list->end()) continue;
    auto next = std::make_shared<Subscribers>(*list);
    next->erase(next->begin() + (it - list->begin()));
    list = std::move(next);
    subscriptions_.fetch_sub(1, std::memory_order_release);
    return true;
  }
  return false;
}

bool EventBus::has_subscribers_erased(std::type_index type) const {
  std::lock_guard lock(mutex_);
  auto it = handlers_.find(type);
  return it != handlers_.end() && !it->second->empty();
}

PublishResult EventBus::publish_erased(std::type_index type, const void* event) const {
  std::shared_ptr<const Subscribers> targets;
  {
    std::lock_guard lock(mutex_);
    auto it = handlers_.find(type);
    if (it == handlers_.end()) return {};
    targets = it->second;
  }
  PublishResult result;
  for (const auto& [id, handler] : *targets) {
    try {
      handler(event);
      ++result.delivered;
    } catch (const std::exception& e) {
      result.errors.emplace_back(e.what());
    } catch (...) {
      result.errors.emplace_back("unknown exception");
    }
  }
  return result;
}

}  // namespace ptc
