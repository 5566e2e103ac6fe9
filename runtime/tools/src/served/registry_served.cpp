// ToolRegistry's resources and prompts, and the listeners told when any list changes or the program
// says a resource changed.

#include <mutex>
#include <shared_mutex>
#include <string>
#include <vector>

#include <ptc/registry.hpp>

namespace ptc {

namespace {

/// One listener. `calling` is held while it runs and while its handle retires it, so that once the
/// handle is gone the listener is not running and never runs again: its owner (an MCP server being
/// destroyed) may go. Recursive, so that a listener may drop its own handle.
template <class F>
struct Slot {
  explicit Slot(F f) : listener(std::move(f)) {}
  F listener;
  std::recursive_mutex calling;
  bool retired = false;
};

}  // namespace

struct ToolRegistry::Listeners {
  std::mutex mutex;
  std::uint64_t next = 0;  // one count for both kinds, so that an id names one listener
  std::map<std::uint64_t, std::shared_ptr<Slot<std::function<void(Change)>>>> changes;
  std::map<std::uint64_t, std::shared_ptr<Slot<std::function<void(const std::string&)>>>> updates;
};

namespace {

/// Adds `listener` to the map `member` of `store`, until the returned handle is destroyed. The handle
/// may outlive the registry: it holds the store weakly. It is not null, so that a caller can test it.
template <class Store, class Map, class F>
std::shared_ptr<void> listen(const std::shared_ptr<Store>& store, Map Store::*member, F listener) {
  std::uint64_t id = 0;
  {
    std::lock_guard lock(store->mutex);
    id = store->next++;
    (store.get()->*member).emplace(id, std::make_shared<Slot<F>>(std::move(listener)));
  }
  struct Handle {
    Handle(std::weak_ptr<Store> s, Map Store::*m, std::uint64_t i) : store(std::move(s)), member(m), id(i) {}
    Handle(const Handle&) = delete;
    Handle& operator=(const Handle&) = delete;
    std::weak_ptr<Store> store;
    Map Store::*member;
    std::uint64_t id;
    ~Handle() {
      auto s = store.lock();
      if (!s) return;
      typename Map::mapped_type gone;
      {
        std::lock_guard lock(s->mutex);
        auto& map = s.get()->*member;
        if (auto it = map.find(id); it != map.end()) {
          gone = std::move(it->second);
          map.erase(it);
        }
      }
      if (!gone) return;
      std::lock_guard wait(gone->calling);  // a call in progress on another thread ends first
      gone->retired = true;
    }
  };
  return std::make_shared<Handle>(store, member, id);
}

/// Calls every listener in the map `member` of `store` with `args`: outside the store's lock, with
/// copies, so that a listener may read the registry or drop its handle; one not retired meanwhile.
template <class Store, class Map, class... Args>
void tell(const std::shared_ptr<Store>& store, Map Store::*member, const Args&... args) {
  std::vector<typename Map::mapped_type> calls;
  {
    std::lock_guard lock(store->mutex);
    for (const auto& [id, f] : store.get()->*member) calls.push_back(f);
  }
  for (const auto& slot : calls) {
    std::lock_guard lock(slot->calling);
    if (!slot->retired) slot->listener(args...);
  }
}

}  // namespace

ToolRegistry::ToolRegistry() : listeners_(std::make_shared<Listeners>()) {}

void ToolRegistry::add_resource(Resource resource) {
  {
    std::unique_lock lock(mutex_);
    for (const auto& r : resources_)
      if (r.uri().text() == resource.uri().text())
        throw DefinitionError("Duplicate resource URI registered: '" + r.uri().text() + "'.", {}, "uri");
    resources_.push_back(std::move(resource));
  }
  changed(Change::Resources);
}

void ToolRegistry::add_prompt(PromptTemplate prompt) {
  {
    std::unique_lock lock(mutex_);
    for (const auto& p : prompts_)
      if (p.name() == prompt.name())
        throw DefinitionError("Duplicate prompt name registered: '" + p.name() + "'.", {}, "name");
    prompts_.push_back(std::move(prompt));
  }
  changed(Change::Prompts);
}

std::vector<Resource> ToolRegistry::resources() const {
  std::shared_lock lock(mutex_);
  return resources_;
}

std::vector<PromptTemplate> ToolRegistry::prompts() const {
  std::shared_lock lock(mutex_);
  return prompts_;
}

std::optional<PromptTemplate> ToolRegistry::find_prompt(std::string_view name) const {
  std::shared_lock lock(mutex_);
  for (const auto& p : prompts_)
    if (p.name() == name) return p;
  return std::nullopt;
}

std::optional<ToolRegistry::ResourceMatch> ToolRegistry::find_resource(std::string_view uri) const {
  std::shared_lock lock(mutex_);
  for (const auto& r : resources_)
    if (!r.is_template() && r.uri().text() == uri) return ResourceMatch{r, {}};
  for (const auto& r : resources_)
    if (r.is_template())
      if (auto variables = r.uri().match(uri)) return ResourceMatch{r, std::move(*variables)};
  return std::nullopt;
}

std::shared_ptr<void> ToolRegistry::on_change(std::function<void(Change)> listener) const {
  return listen(listeners_, &Listeners::changes, std::move(listener));
}

void ToolRegistry::changed(Change change) const { tell(listeners_, &Listeners::changes, change); }

std::shared_ptr<void> ToolRegistry::on_resource_updated(std::function<void(const std::string&)> listener) const {
  return listen(listeners_, &Listeners::updates, std::move(listener));
}

void ToolRegistry::notify_resource_updated(std::string_view uri) const {
  tell(listeners_, &Listeners::updates, std::string(uri));
}

}  // namespace ptc
