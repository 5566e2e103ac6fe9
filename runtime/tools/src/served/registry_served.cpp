// ToolRegistry's resources and prompts, and the listeners told when any list changes.

#include <mutex>
#include <shared_mutex>

#include <ptc/registry.hpp>

namespace ptc {

struct ToolRegistry::Listeners {
  std::mutex mutex;
  std::uint64_t next = 0;
  std::map<std::uint64_t, std::shared_ptr<const std::function<void(Change)>>> by_id;
};

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
  std::uint64_t id = 0;
  {
    std::lock_guard lock(listeners_->mutex);
    id = listeners_->next++;
    listeners_->by_id.emplace(id, std::make_shared<const std::function<void(Change)>>(std::move(listener)));
  }
  // The handle may outlive the registry: it holds the listeners weakly. It is not null, so that a
  // caller can test it.
  struct Handle {
    Handle(std::weak_ptr<Listeners> w, std::uint64_t i) : listeners(std::move(w)), id(i) {}
    Handle(const Handle&) = delete;
    Handle& operator=(const Handle&) = delete;
    std::weak_ptr<Listeners> listeners;
    std::uint64_t id;
    ~Handle() {
      if (auto l = listeners.lock()) {
        std::lock_guard lock(l->mutex);
        l->by_id.erase(id);
      }
    }
  };
  return std::make_shared<Handle>(listeners_, id);
}

void ToolRegistry::changed(Change change) const {
  // Called outside every lock, with copies, so a listener may read the registry or drop its handle.
  std::vector<std::shared_ptr<const std::function<void(Change)>>> calls;
  {
    std::lock_guard lock(listeners_->mutex);
    for (const auto& [id, f] : listeners_->by_id) calls.push_back(f);
  }
  for (const auto& f : calls) (*f)(change);
}

}  // namespace ptc
