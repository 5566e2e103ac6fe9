#include "roots_filesystem.hpp"

#include <filesystem>
#include <set>
#include <system_error>

#include <ptc/resource.hpp>

namespace ptc::mcp {
namespace {

/// A mount name: the root's name when it is one path segment, else its directory's name.
std::string mount_name(const Root& root, const std::filesystem::path& directory) {
  const std::string& name = root.name;
  if (!name.empty() && name != "." && name != ".." && name.find('/') == std::string::npos &&
      name.find('\0') == std::string::npos)
    return name;
  std::string base = directory.filename().string();
  return base.empty() || base == "." || base == ".." ? "root" : base;
}

/// Whether `path` is `bound` or below it; both canonical.
bool inside(const std::filesystem::path& path, const std::filesystem::path& bound) {
  auto relative = path.lexically_relative(bound);
  return !relative.empty() && *relative.begin() != "..";
}

}  // namespace

std::optional<std::string> file_uri_path(std::string_view uri) {
  // {+path} percent-decodes what it matches, slashes included.
  static const UriTemplate local = UriTemplate::parse("file://{+path}").value();
  auto match = local.match(uri);
  if (!match) return std::nullopt;
  std::string path = match->front().second;
  if (path.starts_with("localhost/")) path.erase(0, std::string_view("localhost").size());
  if (!path.starts_with('/') || path.find('\0') != std::string::npos) return std::nullopt;
  return path;
}

std::shared_ptr<Filesystem> roots_filesystem(const std::vector<Root>& roots, const std::filesystem::path& within) {
  std::error_code bound_error;
  const std::filesystem::path bound = std::filesystem::canonical(within, bound_error);
  std::vector<MountedFilesystem::Mount> mounts;
  std::set<std::string> names;
  for (const auto& root : roots) {
    auto path = file_uri_path(root.uri);
    if (!path) continue;
    std::error_code ec;
    if (!std::filesystem::is_directory(*path, ec)) continue;
    std::shared_ptr<HostFilesystem> directory;
    try {
      directory = std::make_shared<HostFilesystem>(*path);
    } catch (const FilesystemError&) {
      continue;  // gone, or not readable, since is_directory looked
    }
    // Checked on what was opened, so a symlink on the way cannot lead outside the bound.
    if (bound_error || !inside(directory->root(), bound)) continue;
    const std::string base = mount_name(root, directory->root());
    std::string name = base;
    for (int n = 2; !names.insert(name).second; ++n) name = base + "-" + std::to_string(n);
    mounts.push_back({std::move(name), std::move(directory)});
  }
  if (mounts.size() == 1) return std::move(mounts.front().filesystem);
  return std::make_shared<MountedFilesystem>(std::move(mounts));
}

}  // namespace ptc::mcp
