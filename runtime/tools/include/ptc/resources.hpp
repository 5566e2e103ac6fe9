#pragma once
// Typed objects a session lends to tool handlers: `context.resources().get<Filesystem>()`. Not MCP
// resources, which a server lists and clients read (<ptc/resource.hpp>).

#include <any>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <type_traits>
#include <typeindex>
#include <utility>
#include <vector>

#include <ptc/tool_errors.hpp>

namespace ptc {

/// A resource whose state a session snapshots before each tool call and restores when the call fails.
class Snapshotable {
 public:
  virtual ~Snapshotable() = default;
  /// An opaque token for the current state; cheap to take (journal position, copy-on-write copy...).
  virtual std::any snapshot() const = 0;
  /// Back to the state `snapshot()` returned `token` for. Tokens taken later become invalid.
  virtual void restore(const std::any& token) = 0;
  /// The snapshot behind `token` will not be restored: what was kept for it may be freed. Dispatch
  /// releases the snapshot of every successful call.
  virtual void release(const std::any& token) { (void)token; }
};

namespace detail {
std::string type_display_name(const std::type_info& type);
}

/// One resource per type, registered under the type handlers ask for: register an
/// InMemoryFilesystem as `add<Filesystem>(...)`. Thread-safe.
class SessionResources {
 public:
  /// Replaces a resource already registered under T.
  template <class T>
  void add(std::shared_ptr<T> resource) {
    std::shared_ptr<Snapshotable> snap;
    if constexpr (std::is_base_of_v<Snapshotable, T>) {
      snap = resource;
    } else if constexpr (std::is_polymorphic_v<T>) {
      snap = std::dynamic_pointer_cast<Snapshotable>(resource);
    }
    std::lock_guard lock(mutex_);
    entries_[std::type_index(typeid(T))] = Entry{std::static_pointer_cast<void>(resource), std::move(snap)};
  }

  /// The resource registered under T, or nullptr.
  template <class T>
  T* find() const {
    std::lock_guard lock(mutex_);
    auto it = entries_.find(std::type_index(typeid(T)));
    return it == entries_.end() ? nullptr : static_cast<T*>(it->second.object.get());
  }

  /// Throws MissingResourceError "No resource of type <T> is registered."
  template <class T>
  T& get() const {
    if (T* r = find<T>()) return *r;
    throw MissingResourceError("No resource of type " + detail::type_display_name(typeid(T)) + " is registered.");
  }

  template <class T>
  bool contains() const {
    return find<T>() != nullptr;
  }

  /// Tokens of every snapshot-capable resource.
  struct Snapshot {
    std::vector<std::pair<std::shared_ptr<Snapshotable>, std::any>> tokens;
  };
  Snapshot snapshot() const {
    std::lock_guard lock(mutex_);
    Snapshot s;
    for (const auto& [type, entry] : entries_)
      if (entry.snapshotable) s.tokens.emplace_back(entry.snapshotable, entry.snapshotable->snapshot());
    return s;
  }
  void restore(const Snapshot& s) {
    for (const auto& [resource, token] : s.tokens) resource->restore(token);
  }
  void release(const Snapshot& s) {
    for (const auto& [resource, token] : s.tokens) resource->release(token);
  }

 private:
  struct Entry {
    std::shared_ptr<void> object;
    std::shared_ptr<Snapshotable> snapshotable;
  };
  mutable std::mutex mutex_;
  std::map<std::type_index, Entry> entries_;
};

/// The name SessionResources had before MCP resources (<ptc/resource.hpp>) took the word "resource".
using ResourceRegistry [[deprecated("renamed SessionResources")]] = SessionResources;

}  // namespace ptc
