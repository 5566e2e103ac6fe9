#include <ptc/command_settings.hpp>

#include <ptc/file_input.hpp>
#include <ptc/json_text.hpp>

#include <set>

#include "text.hpp"
#include "json_keys.hpp"

namespace ptc {

using commands::at_path;
using commands::find_key;
using commands::index_path;
using commands::key_path;
using nlohmann::json;

json Permissions::to_json() const { return {{"allow", allow}, {"deny", deny}, {"ask", ask}}; }

std::vector<std::string> normalize_permission_list(const std::vector<std::string>& entries) {
  std::vector<std::string> out;
  std::set<std::string_view> seen;
  for (const auto& entry : entries) {
    auto trimmed = text::trim(entry);
    if (trimmed.empty() || seen.contains(trimmed)) continue;
    out.emplace_back(trimmed);
    seen.insert(trimmed);
  }
  return out;
}

namespace {

// A broken rule, and the object keys leading to it (so that a merged error can name its file).
struct Issue {
  std::vector<std::string> keys;
  std::string path;
  std::string rule;
};

bool numeric_identifier(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s)
    if (c < '0' || c > '9') return false;
  return s.size() == 1 || s.front() != '0';
}

bool alphanumeric_identifier(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s)
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '-')) return false;
  return true;
}

std::vector<std::string_view> split(std::string_view s, char sep) {
  std::vector<std::string_view> out;
  std::size_t start = 0;
  for (auto at = s.find(sep); at != std::string_view::npos; at = s.find(sep, start)) {
    out.push_back(s.substr(start, at - start));
    start = at + 1;
  }
  out.push_back(s.substr(start));
  return out;
}

// https://semver.org (2.0.0): MAJOR.MINOR.PATCH[-prerelease][+build], no leading zeros in numbers.
bool semver(std::string_view v) {
  auto plus = v.find('+');
  if (plus != std::string_view::npos) {
    for (auto id : split(v.substr(plus + 1), '.'))
      if (!alphanumeric_identifier(id)) return false;
    v = v.substr(0, plus);
  }
  auto dash = v.find('-');
  if (dash != std::string_view::npos) {
    for (auto id : split(v.substr(dash + 1), '.')) {
      if (!alphanumeric_identifier(id)) return false;
      bool digits = id.find_first_not_of("0123456789") == std::string_view::npos;
      if (digits && !numeric_identifier(id)) return false;
    }
    v = v.substr(0, dash);
  }
  auto core = split(v, '.');
  if (core.size() != 3) return false;
  for (auto n : core)
    if (!numeric_identifier(n)) return false;
  return true;
}

bool is_non_blank_string(const json& v) {
  return v.is_string() && !text::trim(v.get_ref<const std::string&>()).empty();
}

class Checker {
 public:
  std::optional<Issue> check(const json& root, CommandSettings& out) {
    if (!root.is_object())
      return Issue{{}, "", "settings must be a JSON object, got " + commands::json_type_name(root)};
    if (auto i = only(root, {}, "", {"$schema", "version", "signal_bus", "permissions", "commands"},
                      "expected $schema, version, signal_bus, permissions or commands"))
      return i;
    if (const json* v = find_key(root, "$schema")) {
      if (!is_non_blank_string(*v)) return Issue{{"$schema"}, "$schema", "must be a non-empty string"};
      out.schema = v->get<std::string>();
    }
    if (const json* v = find_key(root, "version")) {
      if (!v->is_string() || !semver(v->get_ref<const std::string&>()))
        return Issue{{"version"}, "version", "must be a SemVer version such as 1.2.3"};
      out.version = v->get<std::string>();
    }
    if (const json* v = find_key(root, "signal_bus"))
      if (auto i = signal_bus(*v, out)) return i;
    if (const json* v = find_key(root, "permissions"))
      if (auto i = permissions(*v, out.permissions)) return i;
    if (const json* v = find_key(root, "commands"))
      if (auto i = commands_section(*v, out)) return i;
    return std::nullopt;
  }

 private:
  static std::optional<Issue> only(const json& object, const std::vector<std::string>& keys, const std::string& path,
                                   std::set<std::string_view> allowed, std::string_view expected) {
    for (const auto& [key, _] : object.items()) {
      auto name = commands::normalized_key(key);
      if (allowed.contains(name)) continue;
      auto trail = keys;
      trail.emplace_back(name);
      return Issue{trail, key_path(path, key), "unknown key; " + std::string(expected)};
    }
    return std::nullopt;
  }

  static std::optional<Issue> signal_bus(const json& bus, CommandSettings& out) {
    const std::vector<std::string> keys{"signal_bus"};
    if (!bus.is_object()) return Issue{keys, "signal_bus", "must be an object"};
    if (auto i = only(bus, keys, "signal_bus", {"name", "middleware"}, "expected name or middleware")) return i;
    if (const json* name = find_key(bus, "name")) {
      std::string value = name->is_string() ? std::string(text::trim(name->get_ref<const std::string&>())) : "";
      value = std::string(commands::normalized_key(value));
      if (value.empty()) return Issue{{"signal_bus", "name"}, "signal_bus.name", "must be a non-empty string"};
      out.bus_name = value;
    }
    if (const json* middleware = find_key(bus, "middleware")) {
      const std::vector<std::string> mkeys{"signal_bus", "middleware"};
      if (!middleware->is_array()) return Issue{mkeys, "signal_bus.middleware", "must be a list"};
      out.logger_levels.clear();
      for (std::size_t i = 0; i < middleware->size(); ++i) {
        LogLevel level = LogLevel::Debug;
        if (auto issue = middleware_item((*middleware)[i], index_path("signal_bus.middleware", i), level)) return issue;
        out.logger_levels.push_back(level);
      }
    }
    return std::nullopt;
  }

  static std::optional<Issue> middleware_item(const json& item, const std::string& path, LogLevel& level) {
    auto issue = [&](std::string where, std::string rule) {
      return Issue{{"signal_bus", "middleware"}, std::move(where), std::move(rule)};
    };
    if (!item.is_object()) return issue(path, "must be an object");
    for (const auto& [key, _] : item.items()) {
      auto name = commands::normalized_key(key);
      if (name != "module" && name != "opts") return issue(key_path(path, key), "unknown key; expected module or opts");
    }
    const json* module = find_key(item, "module");
    if (!module) return issue(path, "module is required");
    if (!module->is_string() || module->get_ref<const std::string&>() != LoggerMiddleware::kModule)
      return issue(key_path(path, "module"), "unsupported middleware " + compact_text(*module) + "; the only one is " +
                                                 std::string(LoggerMiddleware::kModule));
    if (const json* opts = find_key(item, "opts")) {
      std::string opath = key_path(path, "opts");
      if (!opts->is_object()) return issue(opath, "must be an object");
      for (const auto& [key, _] : opts->items())
        if (commands::normalized_key(key) != "level")
          return issue(key_path(opath, key), "unknown key; the only option is level");
      if (const json* l = find_key(*opts, "level")) {
        auto parsed = l->is_string() ? log_level_from_name(l->get_ref<const std::string&>()) : std::nullopt;
        if (!parsed) return issue(key_path(opath, "level"), "must be one of debug, info, warn, warning, error");
        level = *parsed;
      }
    }
    return std::nullopt;
  }

  static std::optional<Issue> permissions(const json& perms, Permissions& out) {
    const std::vector<std::string> keys{"permissions"};
    if (!perms.is_object()) return Issue{keys, "permissions", "must be an object"};
    if (auto i = only(perms, keys, "permissions", {"allow", "deny", "ask"}, "expected allow, deny or ask")) return i;
    for (auto [name, bucket] : {std::pair{"allow", &out.allow}, {"deny", &out.deny}, {"ask", &out.ask}}) {
      const json* v = find_key(perms, name);
      if (!v) continue;
      std::string path = key_path("permissions", name);
      std::vector<std::string> entries;
      if (v->is_string()) {
        for (auto part : split(v->get_ref<const std::string&>(), ',')) entries.emplace_back(part);
      } else if (v->is_array()) {
        for (std::size_t i = 0; i < v->size(); ++i) {
          if (!(*v)[i].is_string()) return Issue{{"permissions", name}, index_path(path, i), "must be a string"};
          entries.push_back((*v)[i].get<std::string>());
        }
      } else {
        return Issue{{"permissions", name}, path, "must be a list of strings or a comma-separated string"};
      }
      *bucket = normalize_permission_list(entries);
    }
    return std::nullopt;
  }

  static std::optional<Issue> commands_section(const json& section, CommandSettings& out) {
    const std::vector<std::string> keys{"commands"};
    if (!section.is_object()) return Issue{keys, "commands", "must be an object"};
    if (auto i = only(section, keys, "commands", {"default_model", "max_concurrent"},
                      "expected default_model or max_concurrent"))
      return i;
    if (const json* v = find_key(section, "default_model")) {
      if (!is_non_blank_string(*v))
        return Issue{{"commands", "default_model"}, "commands.default_model", "must be a non-empty string"};
      out.default_model = std::string(text::trim(v->get_ref<const std::string&>()));
    }
    if (const json* v = find_key(section, "max_concurrent")) {
      bool positive = (v->is_number_unsigned() && v->get<std::uint64_t>() > 0) ||
                      (v->is_number_integer() && !v->is_number_unsigned() && v->get<std::int64_t>() > 0);
      if (!positive)
        return Issue{{"commands", "max_concurrent"}, "commands.max_concurrent", "must be a positive integer"};
      out.max_concurrent = static_cast<std::size_t>(v->get<std::uint64_t>());
    }
    return std::nullopt;
  }
};

json merge(const json& base, const json& over) {
  if (!base.is_object() || !over.is_object()) return over;
  json out = base;
  for (const auto& [key, value] : over.items()) out[key] = out.contains(key) ? merge(out[key], value) : value;
  return out;
}

// The file a merged value came from: the project's when it has something at those keys (it wins).
bool has_keys(const json& root, const std::vector<std::string>& keys) {
  const json* at = &root;
  for (const auto& key : keys) {
    if (!at->is_object() || !at->contains(key)) return false;
    at = &(*at)[key];
  }
  return true;
}

struct SettingsFile {
  std::filesystem::path path;
  json value = json::object();
};

Result<SettingsFile> read_settings(const std::filesystem::path& root) {
  SettingsFile file{root / "settings.json"};
  std::error_code ec;
  if (!std::filesystem::exists(file.path, ec)) return file;
  auto content = read_regular_file(file.path);
  if (!content) return Error{content.error().message};
  auto parsed = commands::parse_json_checking_keys(*content);
  if (!parsed) return Error{file.path.string() + ": " + parsed.error().to_string()};
  if (!parsed->is_object())
    return Error{file.path.string() + ": settings must be a JSON object, got " + commands::json_type_name(*parsed)};
  if (auto conflict = commands::find_conflicting_keys(*parsed, "")) return Error{file.path.string() + ": " + *conflict};
  file.value = commands::with_normalized_keys(*parsed);
  return file;
}

}  // namespace

Result<CommandSettings> settings_from_json(const json& settings) {
  if (auto conflict = commands::find_conflicting_keys(settings, "")) return Error{*conflict};
  CommandSettings out;
  if (auto issue = Checker{}.check(settings, out)) return Error{at_path(issue->path, issue->rule)};
  return out;
}

Result<CommandSettings> load_command_settings(const std::filesystem::path& global_root,
                                              const std::filesystem::path& project_root) {
  auto global = read_settings(global_root);
  if (!global) return global.error();
  auto project = read_settings(project_root);
  if (!project) return project.error();
  json merged = merge(global->value, project->value);
  CommandSettings out;
  auto issue = Checker{}.check(merged, out);
  if (!issue) return out;
  const auto& file = has_keys(project->value, issue->keys) ? project->path : global->path;
  return Error{file.string() + ": " + at_path(issue->path, issue->rule)};
}

}  // namespace ptc
