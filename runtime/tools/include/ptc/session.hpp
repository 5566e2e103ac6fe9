#pragma once
// ptc::Session — the state of one conversation: typed state slices, event logs, resources and an event
// dispatcher. Dispatch snapshots it before a tool call and restores it when the call fails.

#include <algorithm>
#include <cstddef>
#include <map>
#include <memory>
#include <mutex>
#include <shared_mutex>
#include <string>
#include <typeindex>
#include <utility>
#include <vector>

#include <ptc/events.hpp>
#include <ptc/limits.hpp>
#include <ptc/resources.hpp>
#include <ptc/uuid.hpp>  // make_uuid, declared here before it moved to core

namespace ptc {

namespace detail {
struct SliceBase {
  virtual ~SliceBase() = default;
  virtual std::unique_ptr<SliceBase> clone() const = 0;
  virtual void assign_from(const SliceBase& other) = 0;
  virtual void reset() = 0;
};
template <class T>
struct Slice final : SliceBase {
  T value{};
  std::unique_ptr<SliceBase> clone() const override { return std::make_unique<Slice>(*this); }
  void assign_from(const SliceBase& other) override { value = static_cast<const Slice&>(other).value; }
  void reset() override { value = T{}; }
};
struct LogBase {
  virtual ~LogBase() = default;
};
/// The newest events, at most `limit`, in a ring: once full, an event is assigned over the oldest, so
/// a steady stream of events reuses the slots (and the strings' buffers in them) instead of freeing
/// one event and allocating the next.
template <class E>
struct Log final : LogBase {
  std::vector<E> events;  // oldest at `start` once full, else at 0
  std::size_t start = 0;
  std::size_t dropped = 0;

  void add(const E& event, std::size_t limit) {
    if (limit == 0) {
      ++dropped;
      return;
    }
    if (events.size() < limit) {
      // Grown by hand so that the capacity never passes the limit.
      if (events.size() == events.capacity())
        events.reserve(std::min(limit, std::max<std::size_t>(8, 2 * events.size())));
      events.push_back(event);
      return;
    }
    events[start] = event;
    start = start + 1 == events.size() ? 0 : start + 1;
    ++dropped;
  }
  std::vector<E> in_order() const {
    std::vector<E> out;
    out.reserve(events.size());
    out.insert(out.end(), events.begin() + static_cast<std::ptrdiff_t>(start), events.end());
    out.insert(out.end(), events.begin(), events.begin() + static_cast<std::ptrdiff_t>(start));
    return out;
  }
};
}  // namespace detail

/// What `Session::snapshot()` captured: copies of the state slices and tokens of the snapshot-capable
/// resources. Logs are not part of it.
class SessionSnapshot {
 private:
  friend class Session;
  std::map<std::type_index, std::shared_ptr<const detail::SliceBase>> slices_;
  SessionResources::Snapshot resources_;
};

struct SessionOptions {
  /// Events kept in each log (`log<E>()`), newest last; recording one more drops the oldest. 0 keeps
  /// none, and then ToolInvoked is not recorded at all: a call in a session with no log and no
  /// subscriber builds no event (what the MCP server and `call` choose; docs/tools.md, "Events").
  /// Bounded so that a session serving calls for days does not grow without end.
  std::size_t log_limit = limits::kSessionLogEntries;
};

/// Dispatch holds `call_mutex()` for a whole call: alone for a call that may change the session, shared
/// for calls of read-only tools (ToolRegistry::runs_shared), which run beside each other. Calls in
/// different sessions run in parallel. The slice and log maps are thread-safe; the values in a slice
/// are not, so change them from tool handlers that are not read-only or while holding `call_mutex()`.
class Session {
 public:
  /// An empty id is replaced by a random UUID.
  explicit Session(std::string id = {}, SessionOptions options = {});
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;
  ~Session();

  const std::string& id() const { return id_; }
  /// The session's event bus: dispatch publishes ToolInvoked on it, handlers their own events.
  EventBus& events() { return events_; }
  [[deprecated("use events(): it returns the session's EventBus")]] EventBus& dispatcher() { return events_; }
  SessionResources& resources() { return resources_; }

  /// The state slice of type T (default-constructed on first use). T must be copyable: snapshots copy
  /// it. The reference stays valid for the session's life, across restores.
  template <class T>
  T& state() {
    std::lock_guard lock(mutex_);
    auto& slot = slices_[std::type_index(typeid(T))];
    if (!slot) slot = std::make_unique<detail::Slice<T>>();
    return static_cast<detail::Slice<T>&>(*slot).value;
  }
  /// The slice of type T if it was ever used, else nullptr.
  template <class T>
  const T* find_state() const {
    std::lock_guard lock(mutex_);
    auto it = slices_.find(std::type_index(typeid(T)));
    return it == slices_.end() ? nullptr : &static_cast<const detail::Slice<T>&>(*it->second).value;
  }

  /// Appends to the log of E, dropping its oldest event once it holds `log_limit` of them. Logs
  /// record what happened, so restore() leaves them alone.
  template <class E>
  void record(const E& event) {
    std::lock_guard lock(mutex_);
    auto& slot = logs_[std::type_index(typeid(E))];
    if (!slot) slot = std::make_unique<detail::Log<E>>();
    static_cast<detail::Log<E>&>(*slot).add(event, options_.log_limit);
  }
  /// A copy of the log of E, oldest first: the last `log_limit` events recorded.
  template <class E>
  std::vector<E> log() const {
    std::lock_guard lock(mutex_);
    auto it = logs_.find(std::type_index(typeid(E)));
    if (it == logs_.end()) return {};
    return static_cast<const detail::Log<E>&>(*it->second).in_order();
  }
  /// How many events of E were dropped from the log to respect `log_limit`.
  template <class E>
  std::size_t dropped() const {
    std::lock_guard lock(mutex_);
    auto it = logs_.find(std::type_index(typeid(E)));
    return it == logs_.end() ? 0 : static_cast<const detail::Log<E>&>(*it->second).dropped;
  }
  const SessionOptions& options() const { return options_; }
  /// From now on, every E published on `events()` is recorded in `log<E>()`. ToolInvoked is
  /// recorded from the start when `log_limit` is not 0.
  template <class E>
  void record_events() {
    subscriptions_.push_back(events_.subscribe<E>([this](const E& e) { record(e); }));
  }

  /// Copies every state slice and snapshots every snapshot-capable resource.
  SessionSnapshot snapshot() const;
  /// Puts state slices and snapshot-capable resources back as they were at `snapshot`; slices first
  /// used after it go back to their default value. Logs are untouched.
  void restore(const SessionSnapshot& snapshot);
  /// Tells the snapshot-capable resources that `snapshot` will not be restored, so they can free what
  /// they kept for it (HostFilesystem's journal). Call it instead of restore(), not after it.
  void release(const SessionSnapshot& snapshot);

  /// Held by dispatch for each call, shared or alone as above. A handler may dispatch another tool in
  /// its own session: dispatch knows the thread holds it already.
  std::shared_mutex& call_mutex() { return call_mutex_; }

 private:
  std::string id_;
  SessionOptions options_;
  EventBus events_;
  SessionResources resources_;
  mutable std::mutex mutex_;
  std::map<std::type_index, std::unique_ptr<detail::SliceBase>> slices_;
  std::map<std::type_index, std::unique_ptr<detail::LogBase>> logs_;
  std::vector<EventBus::SubscriptionId> subscriptions_;
  std::shared_mutex call_mutex_;
};

}  // namespace ptc
