#include <algorithm>
#include <set>
#include <stdexcept>

#include <ptc/filesystem.hpp>

namespace ptc {
namespace {

[[noreturn]] void throw_root(const std::string& path) {
  throw FilesystemError("File '" + path + "' is a directory.", path);
}

/// A snapshot of the mounts, by position; an empty token for a mount that cannot take one.
struct Tokens {
  const MountedFilesystem* owner = nullptr;
  std::vector<std::any> tokens;
};

const Tokens& tokens_of(const std::any& token, const MountedFilesystem* owner) {
  const auto* tokens = std::any_cast<Tokens>(&token);
  if (!tokens || tokens->owner != owner) throw std::invalid_argument("not a snapshot of this MountedFilesystem");
  return *tokens;
}

/// Runs `operation` on a mount; its errors name the path as this filesystem does ("app/x", not "x").
template <class Operation>
auto in_mount(const std::string& prefix, Operation&& operation) {
  try {
    return operation();
  } catch (const FilesystemError& e) {
    std::string message = e.what();
    const std::string quoted = "'" + e.path() + "'";
    if (auto at = message.find(quoted); at != std::string::npos)
      message.replace(at, quoted.size(), "'" + prefix + e.path() + "'");
    throw FilesystemError(message, prefix + e.path());
  }
}

}  // namespace

MountedFilesystem::MountedFilesystem(std::vector<Mount> mounts) : mounts_(std::move(mounts)) {
  std::set<std::string> names;
  for (const auto& m : mounts_) {
    if (m.name.empty() || m.name == "." || m.name == ".." || m.name.find('/') != std::string::npos)
      throw std::invalid_argument("a mount's name must be one path segment, not '" + m.name + "'");
    if (!names.insert(m.name).second) throw std::invalid_argument("the mount name '" + m.name + "' is used twice");
    if (!m.filesystem) throw std::invalid_argument("the mount '" + m.name + "' has no filesystem");
  }
}

MountedFilesystem::Target MountedFilesystem::resolve(std::string_view path) const {
  auto normalized = normalize_path(path);
  if (!normalized) throw FilesystemError(normalized.error().message, std::string(path));
  if (normalized->empty()) return {};
  const std::size_t slash = normalized->find('/');
  const std::string name = normalized->substr(0, slash);
  for (const auto& m : mounts_)
    if (m.name == name)
      return {m.filesystem.get(), name + "/", slash == std::string::npos ? "" : normalized->substr(slash + 1)};
  throw FilesystemError("Path '" + *normalized + "' is outside the mounted directories.", *normalized);
}

std::string MountedFilesystem::read(std::string_view path) const {
  const Target t = resolve(path);
  if (!t.filesystem || t.path.empty()) throw_root(t.prefix.empty() ? "" : t.prefix.substr(0, t.prefix.size() - 1));
  return in_mount(t.prefix, [&] { return t.filesystem->read(t.path); });
}

void MountedFilesystem::write(std::string_view path, std::string_view content) {
  const Target t = resolve(path);
  if (!t.filesystem) throw FilesystemError("Path '' is not a file.", "");
  if (t.path.empty()) throw_root(t.prefix.substr(0, t.prefix.size() - 1));
  in_mount(t.prefix, [&] { t.filesystem->write(t.path, content); });
}

void MountedFilesystem::remove(std::string_view path) {
  const Target t = resolve(path);
  if (!t.filesystem || t.path.empty()) throw_root(t.prefix.empty() ? "" : t.prefix.substr(0, t.prefix.size() - 1));
  in_mount(t.prefix, [&] { t.filesystem->remove(t.path); });
}

bool MountedFilesystem::exists(std::string_view path) const {
  auto normalized = normalize_path(path);
  if (!normalized) throw FilesystemError(normalized.error().message, std::string(path));
  for (const auto& m : mounts_)
    if (normalized->starts_with(m.name + "/"))
      return in_mount(m.name + "/", [&] { return m.filesystem->exists(normalized->substr(m.name.size() + 1)); });
  return false;  // the root, a mount itself (a directory), or a name not mounted
}

std::vector<std::string> MountedFilesystem::list(std::string_view directory) const {
  const Target t = resolve(directory);
  std::vector<std::string> out;
  auto add = [&out](const Mount& m, std::string_view below) {
    auto files = in_mount(m.name + "/", [&] { return m.filesystem->list(below); });
    for (auto& file : files) out.push_back(m.name + "/" + file);
  };
  if (!t.filesystem) {
    for (const auto& m : mounts_) add(m, "");
  } else {
    for (const auto& m : mounts_)
      if (m.filesystem.get() == t.filesystem) add(m, t.path);
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::any MountedFilesystem::snapshot() const {
  Tokens tokens{this, {}};
  for (const auto& m : mounts_) {
    const auto* snapshotable = dynamic_cast<const Snapshotable*>(m.filesystem.get());
    tokens.tokens.push_back(snapshotable ? snapshotable->snapshot() : std::any{});
  }
  return tokens;
}

void MountedFilesystem::restore(const std::any& token) {
  const Tokens& tokens = tokens_of(token, this);
  for (std::size_t i = 0; i < mounts_.size() && i < tokens.tokens.size(); ++i)
    if (auto* snapshotable = dynamic_cast<Snapshotable*>(mounts_[i].filesystem.get()))
      snapshotable->restore(tokens.tokens[i]);
}

void MountedFilesystem::release(const std::any& token) {
  const Tokens& tokens = tokens_of(token, this);
  for (std::size_t i = 0; i < mounts_.size() && i < tokens.tokens.size(); ++i)
    if (auto* snapshotable = dynamic_cast<Snapshotable*>(mounts_[i].filesystem.get()))
      snapshotable->release(tokens.tokens[i]);
}

}  // namespace ptc
