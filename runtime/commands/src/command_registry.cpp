#include <ptc/command_registry.hpp>

#include <algorithm>

#include <ptc/json_text.hpp>
#include <ptc/signal_bus.hpp>

#include "json_keys.hpp"

namespace ptc {

using nlohmann::json;

std::string_view command_scope_name(CommandScope scope) {
  switch (scope) {
    case CommandScope::Global: return "global";
    case CommandScope::Project: return "project";
    case CommandScope::Manual: return "manual";
  }
  return "manual";
}

namespace {

std::vector<std::filesystem::path> command_files(const std::filesystem::path& root) {
  std::vector<std::filesystem::path> files;
  std::error_code ec;
  auto dir = root / "commands";
  if (root.empty() || !std::filesystem::is_directory(dir, ec)) return files;
  for (std::filesystem::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec))
    if (it->path().extension() == ".md" && it->is_regular_file(ec))
      files.push_back(std::filesystem::absolute(it->path(), ec));
  std::sort(files.begin(), files.end());
  return files;
}

}  // namespace

Result<std::unique_ptr<CommandRegistry>> CommandRegistry::open(CommandRegistryOptions options) {
  std::unique_ptr<CommandRegistry> registry(new CommandRegistry(std::move(options)));
  auto catalog = registry->load({});
  if (!catalog) return catalog.error();
  registry->catalog_ = std::move(*catalog);
  return registry;
}

Result<std::shared_ptr<const CommandDefinition>> CommandRegistry::read(const std::filesystem::path& file) const {
  auto parsed = parse_command_file(file);
  if (!parsed) return parsed.error();
  if (!parsed->model && options_.default_model) parsed->model = options_.default_model;
  return std::shared_ptr<const CommandDefinition>(std::make_shared<CommandDefinition>(std::move(*parsed)));
}

Result<CommandRegistry::Catalog> CommandRegistry::load(const std::vector<std::filesystem::path>& manual) const {
  Catalog catalog;
  for (auto [root, scope] :
       {std::pair{&options_.global_root, CommandScope::Global}, {&options_.project_root, CommandScope::Project}}) {
    std::map<std::string, std::filesystem::path> defined_here;
    for (const auto& file : command_files(*root)) {
      auto command = read(file);
      if (!command) return command.error();
      const std::string& name = (*command)->name;
      auto [previous, fresh] = defined_here.emplace(name, file);
      if (!fresh)
        return Error{file.string() + ": name: '" + name + "' is already the name of " + previous->second.string()};
      catalog[name] = Entry{std::move(*command), scope};
    }
  }
  for (const auto& file : manual) {
    auto command = read(file);
    if (!command) return command.error();
    std::string name = (*command)->name;
    catalog[name] = Entry{std::move(*command), CommandScope::Manual};
  }
  return catalog;
}

std::shared_ptr<const CommandDefinition> CommandRegistry::find(std::string_view name) const {
  auto found = entry(name);
  return found ? found->command : nullptr;
}

std::optional<CommandRegistry::Entry> CommandRegistry::entry(std::string_view name) const {
  std::shared_lock lock(catalog_mutex_);
  auto it = catalog_.find(name);
  if (it == catalog_.end()) return std::nullopt;
  return it->second;
}

std::vector<std::string> CommandRegistry::list_commands() const {
  std::shared_lock lock(catalog_mutex_);
  std::vector<std::string> names;
  for (const auto& [name, _] : catalog_) names.push_back(name);
  return names;
}

std::size_t CommandRegistry::size() const {
  std::shared_lock lock(catalog_mutex_);
  return catalog_.size();
}

void CommandRegistry::replace(Catalog catalog) {
  std::unique_lock lock(catalog_mutex_);
  catalog_ = std::move(catalog);
}

void CommandRegistry::emit(std::string type, json data) const {
  if (options_.bus) options_.bus->publish(Signal::make(std::move(type), "/jido_command/registry", std::move(data)));
}

Error CommandRegistry::fail(const std::string& operation, std::string error, json extra) const {
  extra["operation"] = operation;
  extra["error"] = error;
  emit("command.registry.failed", std::move(extra));
  return Error{std::move(error)};
}

Result<json> CommandRegistry::reload() {
  std::lock_guard change(change_mutex_);
  std::size_t previous = size();
  auto catalog = load(manual_paths_);
  if (!catalog)
    return fail("reload", catalog.error().message, {{"previous_count", previous}, {"current_count", previous}});
  std::size_t current = catalog->size();
  replace(std::move(*catalog));
  json data{{"previous_count", previous}, {"current_count", current}};
  emit("command.registry.reloaded", data);
  return data;
}

Result<json> CommandRegistry::register_command(const json& path) {
  std::lock_guard change(change_mutex_);
  auto given = commands::non_blank_string(&path);
  if (!given)
    return fail("register", "invalid_path: a command path must be a non-empty string", {{"path", plain_text(path)}});
  std::error_code ec;
  auto absolute = std::filesystem::absolute(*given, ec).lexically_normal();
  auto command = read(absolute);
  if (!command) return fail("register", command.error().message, {{"path", absolute.string()}});

  std::string name = (*command)->name;
  auto paths = manual_paths_;
  bool again = std::erase(paths, absolute) > 0;
  paths.push_back(absolute);
  Catalog catalog;
  if (again) {
    // The file may now declare another name: what its old name shadowed must come back.
    auto reloaded = load(paths);
    if (!reloaded) return fail("register", reloaded.error().message, {{"path", absolute.string()}});
    catalog = std::move(*reloaded);
  } else {
    std::shared_lock lock(catalog_mutex_);
    catalog = catalog_;
    catalog[name] = Entry{std::move(*command), CommandScope::Manual};
  }
  manual_paths_ = std::move(paths);
  std::size_t current = catalog.size();
  replace(std::move(catalog));
  json data{{"name", name}, {"path", absolute.string()}, {"scope", "manual"}, {"current_count", current}};
  emit("command.registered", data);
  return data;
}

Result<json> CommandRegistry::unregister_command(const json& name) {
  std::lock_guard change(change_mutex_);
  auto given = commands::non_blank_string(&name);
  if (!given)
    return fail("unregister", "invalid_name: a command name must be a non-empty string", {{"name", plain_text(name)}});
  auto found = entry(*given);
  if (!found) return fail("unregister", "unknown command '" + *given + "'", {{"name", *given}});

  Catalog catalog;
  if (found->scope == CommandScope::Manual) {
    auto remaining = manual_paths_;
    std::erase(remaining, found->command->path);
    auto reloaded = load(remaining);
    if (!reloaded) return fail("unregister", reloaded.error().message, {{"name", *given}});
    catalog = std::move(*reloaded);
    manual_paths_ = std::move(remaining);
  } else {
    std::shared_lock lock(catalog_mutex_);
    catalog = catalog_;
    catalog.erase(*given);
  }
  std::size_t current = catalog.size();
  replace(std::move(catalog));
  json data{{"name", *given}, {"current_count", current}};
  emit("command.unregistered", data);
  return data;
}

}  // namespace ptc
