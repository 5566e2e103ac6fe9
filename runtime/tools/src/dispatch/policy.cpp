#include <ptc/filesystem.hpp>
#include <ptc/policy.hpp>

#include <algorithm>
#include <ptc/session.hpp>
#include <ptc/tool.hpp>
#include <ptc/tool_context.hpp>

namespace ptc {

void ToolPolicy::on_result(const Tool&, const nlohmann::json&, const ToolResult<nlohmann::json>&, ToolContext&) const {}

// ---- SequentialDependencyPolicy -----------------------------------------------------------------

SequentialDependencyPolicy::SequentialDependencyPolicy(std::map<std::string, std::set<std::string>> dependencies)
    : dependencies_(std::move(dependencies)) {}

PolicyDecision SequentialDependencyPolicy::check(const Tool& tool, const nlohmann::json&, ToolContext& context) const {
  auto it = dependencies_.find(tool.name());
  if (it == dependencies_.end()) return PolicyDecision::allow();
  const auto& succeeded = context.session().state<State>().succeeded;
  std::string missing;  // std::set iterates in sorted order
  for (const auto& required : it->second) {
    if (succeeded.count(required)) continue;
    if (!missing.empty()) missing += ", ";
    missing += required;
  }
  if (missing.empty()) return PolicyDecision::allow();
  return PolicyDecision::deny("Tool '" + tool.name() + "' requires: " + missing);
}

void SequentialDependencyPolicy::on_result(const Tool& tool, const nlohmann::json&,
                                           const ToolResult<nlohmann::json>& result, ToolContext& context) const {
  if (result.success) context.session().state<State>().succeeded.insert(tool.name());
}

// ---- ReadBeforeWritePolicy ----------------------------------------------------------------------

namespace {
std::string strip_slashes(std::string_view s) {
  while (!s.empty() && s.front() == '/') s.remove_prefix(1);
  while (!s.empty() && s.back() == '/') s.remove_suffix(1);
  return std::string(s);
}
}  // namespace

ReadBeforeWritePolicy::ReadBeforeWritePolicy(Options options) : options_(std::move(options)) {
  options_.mount_point = strip_slashes(options_.mount_point);
}

std::optional<std::string> ReadBeforeWritePolicy::path_parameter(const Tool& tool) const {
  const auto& params = tool.signature().params();
  auto declared = [&](std::string_view key) {
    return std::any_of(params.begin(), params.end(), [&](const MapEntry& p) { return p.name == key; });
  };
  if (auto it = options_.path_parameters.find(tool.name()); it != options_.path_parameters.end())
    return declared(it->second) ? std::optional<std::string>(it->second) : std::nullopt;
  for (const char* key : {"path", "file_path"})
    if (declared(key)) return key;
  return std::nullopt;
}

std::optional<std::string> ReadBeforeWritePolicy::path_of(const nlohmann::json& params,
                                                          std::string_view parameter) const {
  if (!params.is_object()) return std::nullopt;
  auto it = params.find(parameter);
  if (it == params.end() || !it->is_string()) return std::nullopt;
  const nlohmann::json* raw = &*it;
  std::string path = strip_slashes(raw->get_ref<const std::string&>());
  const std::string& mount = options_.mount_point;
  if (!mount.empty()) {
    if (path == mount)
      path.clear();
    else if (path.size() > mount.size() && path.compare(0, mount.size(), mount) == 0 && path[mount.size()] == '/')
      path.erase(0, mount.size() + 1);
  }
  auto normalized = normalize_path(path);
  if (!normalized) return std::nullopt;
  return *normalized;
}

PolicyDecision ReadBeforeWritePolicy::check(const Tool& tool, const nlohmann::json& params,
                                            ToolContext& context) const {
  if (!options_.write_tools.count(tool.name())) return PolicyDecision::allow();
  const auto parameter = path_parameter(tool);
  auto path = parameter ? path_of(params, *parameter) : std::nullopt;
  // No path argument: there is no file this call could overwrite. A path outside the root is left to
  // the filesystem, which refuses it with its own error.
  if (!path) return PolicyDecision::allow();
  const auto* fs = context.resources().find<Filesystem>();
  const bool exists = fs == nullptr || fs->exists(*path);
  if (!exists) return PolicyDecision::allow();
  if (context.session().state<State>().read.count(*path)) return PolicyDecision::allow();
  return PolicyDecision::deny("File '" + *path + "' must be read before overwriting.");
}

void ReadBeforeWritePolicy::on_result(const Tool& tool, const nlohmann::json& params,
                                      const ToolResult<nlohmann::json>& result, ToolContext& context) const {
  if (!result.success || !options_.read_tools.count(tool.name())) return;
  const auto parameter = path_parameter(tool);
  if (auto path = parameter ? path_of(params, *parameter) : std::nullopt)
    context.session().state<State>().read.insert(*path);
}

}  // namespace ptc
