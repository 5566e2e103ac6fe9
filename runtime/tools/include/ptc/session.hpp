#pragma once
// ptc::Session — the state of one conversation: typed state slices, event logs, resources and an event
// dispatcher. Dispatch snapshots it before a tool call and restores it when the call fails.

#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <typeindex>
#include <utility>
#include <vector>

#include <ptc/events.hpp>
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
template <class E>
struct Log final : LogBase {
  std::vector<E> events;
};
}  // namespace detail

/// What `Session::snapshot()` captured: copies of the state slices and tokens of the snapshot-capable
/// resources. Logs are not part of it.
class SessionSnapshot {
 private:
  friend class Session;
  std::map<std::type_index, std::shared_ptr<const detail::SliceBase>> slices_;
  ResourceRegistry::Snapshot resources_;
};

/// Tool calls within one session are serialized (dispatch holds `call_mutex()` for a whole call);
/// calls in different sessions run in parallel. The slice and log maps are thread-safe; the values in
/// a slice are not, so touch them from tool handlers (which run serialized) or hold `call_mutex()`.
class Session {
 public:
  /// An empty id is replaced by a random UUID.
  explicit Session(std::string id = {});
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;
  ~Session();

  const std::string& id() const { return id_; }
  EventBus& dispatcher() { return dispatcher_; }
  ResourceRegistry& resources() { return resources_; }

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

  /// Appends to the log of E. Logs record what happened, so restore() leaves them alone.
  template <class E>
  void record(E event) {
    std::lock_guard lock(mutex_);
    auto& slot = logs_[std::type_index(typeid(E))];
    if (!slot) slot = std::make_unique<detail::Log<E>>();
    static_cast<detail::Log<E>&>(*slot).events.push_back(std::move(event));
  }
  /// A copy of the log of E, oldest first.
  template <class E>
  std::vector<E> log() const {
    std::lock_guard lock(mutex_);
    auto it = logs_.find(std::type_index(typeid(E)));
    return it == logs_.end() ? std::vector<E>{} : static_cast<const detail::Log<E>&>(*it->second).events;
  }
  /// From now on, every E published on `dispatcher()` is recorded in `log<E>()`. ToolInvoked is
  /// recorded from the start.
  template <class E>
  void record_events() {
    subscriptions_.push_back(dispatcher_.subscribe<E>([this](const E& e) { record(e); }));
  }

  /// Copies every state slice and snapshots every snapshot-capable resource.
  SessionSnapshot snapshot() const;
  /// Puts state slices and snapshot-capable resources back as they were at `snapshot`; slices first
  /// used after it go back to their default value. Logs are untouched.
  void restore(const SessionSnapshot& snapshot);
  /// Tells the snapshot-capable resources that `snapshot` will not be restored, so they can free what
  /// they kept for it (HostFilesystem's journal). Call it instead of restore(), not after it.
  void release(const SessionSnapshot& snapshot);

  /// Held by dispatch for each call. Recursive, so a handler may dispatch another tool in its own
  /// session.
  std::recursive_mutex& call_mutex() { return call_mutex_; }

 private:
  std::string id_;
  EventBus dispatcher_;
  ResourceRegistry resources_;
  mutable std::mutex mutex_;
  std::map<std::type_index, std::unique_ptr<detail::SliceBase>> slices_;
  std::map<std::type_index, std::unique_ptr<detail::LogBase>> logs_;
  std::vector<EventBus::SubscriptionId> subscriptions_;
  std::recursive_mutex call_mutex_;
};

}  // namespace ptc
