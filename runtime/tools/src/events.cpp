#include <exception>

#include <ptc/events.hpp>

namespace ptc {

EventBus::SubscriptionId EventBus::subscribe_erased(std::type_index type, Erased handler) {
  std::lock_guard lock(mutex_);
  const SubscriptionId id = next_id_++;
  handlers_[type].emplace_back(id, std::make_shared<const Erased>(std::move(handler)));
  return id;
}

bool EventBus::unsubscribe(SubscriptionId id) {
  std::lock_guard lock(mutex_);
  for (auto& [type, list] : handlers_) {
    for (auto it = list.begin(); it != list.end(); ++it) {
      if (it->first == id) {
        list.erase(it);
        return true;
      }
    }
  }
  return false;
}

PublishResult EventBus::publish_erased(std::type_index type, const void* event) const {
  // Copy the subscriber list so subscribers can (un)subscribe or publish without deadlocking.
  std::vector<std::shared_ptr<const Erased>> targets;
  {
    std::lock_guard lock(mutex_);
    auto it = handlers_.find(type);
    if (it != handlers_.end())
      for (const auto& entry : it->second) targets.push_back(entry.second);
  }
  PublishResult result;
  for (const auto& handler : targets) {
    try {
      (*handler)(event);
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
