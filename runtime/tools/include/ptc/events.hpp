#pragma once
// A typed publish/subscribe bus. Tool dispatch publishes ToolInvoked on the session's dispatcher;
// handlers may publish their own event types.

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <typeindex>
#include <utility>
#include <vector>

namespace ptc {

/// What happened to one published event.
struct PublishResult {
  std::size_t delivered = 0;        ///< subscribers that ran without throwing
  std::vector<std::string> errors;  ///< what the others threw; one failing subscriber does not stop the rest
  bool ok() const { return errors.empty(); }
};

/// Thread-safe. Subscribers run on the publishing thread, in subscription order, outside the lock (a
/// subscriber may publish or subscribe).
class EventBus {
 public:
  using SubscriptionId = std::uint64_t;

  template <class E>
  SubscriptionId subscribe(std::function<void(const E&)> handler) {
    return subscribe_erased(std::type_index(typeid(E)),
                            [h = std::move(handler)](const void* e) { h(*static_cast<const E*>(e)); });
  }
  /// Returns false if `id` was not subscribed.
  bool unsubscribe(SubscriptionId id);

  template <class E>
  PublishResult publish(const E& event) const {
    return publish_erased(std::type_index(typeid(E)), &event);
  }
  /// Whether an E published now would reach anybody: a publisher whose event costs something to build
  /// asks first (dispatch builds no ToolInvoked for a session that nobody observes).
  template <class E>
  bool has_subscribers() const {
    return subscriptions_.load(std::memory_order_acquire) != 0 && has_subscribers_erased(std::type_index(typeid(E)));
  }

 private:
  using Erased = std::function<void(const void*)>;
  SubscriptionId subscribe_erased(std::type_index type, Erased handler);
  PublishResult publish_erased(std::type_index type, const void* event) const;
  bool has_subscribers_erased(std::type_index type) const;

  // Each type's subscribers are replaced, never changed in place, so publish() takes the current list
  // with one reference count and runs it outside the lock, however subscribers (un)subscribe meanwhile.
  using Subscribers = std::vector<std::pair<SubscriptionId, Erased>>;
  mutable std::mutex mutex_;
  SubscriptionId next_id_ = 1;
  std::map<std::type_index, std::shared_ptr<const Subscribers>> handlers_;
  // Subscriptions of every type, read without the lock: most buses have none.
  std::atomic<std::size_t> subscriptions_{0};
};

/// The name before 0.2, when "dispatch" also meant running a tool call (ToolRegistry::dispatch) and the
/// command queue (CommandDispatcher); docs/architecture.md, "Names".
using EventDispatcher [[deprecated("renamed ptc::EventBus")]] = EventBus;

}  // namespace ptc
