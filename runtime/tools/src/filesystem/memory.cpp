#include <atomic>
#include <stdexcept>

#include <ptc/filesystem.hpp>

namespace ptc {

namespace {

// Throws FilesystemError naming the path as given when normalize_path refuses it.
std::string normalized_or_throw(std::string_view path) {
  auto normalized = normalize_path(path);
  if (!normalized) throw FilesystemError(normalized.error().message, std::string(path));
  return std::move(normalized).value();
}

[[noreturn]] void throw_missing(const std::string& path) {
  throw FilesystemError("File '" + path + "' does not exist.", path);
}

[[noreturn]] void throw_directory(const std::string& path) {
  throw FilesystemError("File '" + path + "' is a directory.", path);
}

// The files of a directory are the keys that start with "<directory>/" (the root: every key), so
// "a" never matches "ab/x".
std::string directory_prefix(const std::string& directory) {
  return directory.empty() ? std::string() : directory + '/';
}

// Directories exist implicitly, as prefixes of file paths: the root always, any other while a file is
// below it. Requires the caller to hold the mutex that guards `files`.
bool is_directory(const std::map<std::string, std::string, std::less<>>& files, const std::string& path) {
  if (path.empty()) return true;
  const std::string prefix = path + '/';
  auto below = files.lower_bound(prefix);
  return below != files.end() && below->first.starts_with(prefix);
}

}  // namespace

InMemoryFilesystem::InMemoryFilesystem() : files_(std::make_shared<Files>()) {}

InMemoryFilesystem::Files& InMemoryFilesystem::writable_files() {
  // use_count() is exact enough here: new owners are only made from ours, under mutex_. When it says 1
  // the last token holder may have just let go on another thread; the acquire fence pairs with the
  // release in shared_ptr's decrement, so whatever that thread did with the map happens before our
  // change.
  const bool exclusive = allocated_here_ && files_.use_count() == 1;
  if (exclusive) {
    std::atomic_thread_fence(std::memory_order_acquire);
    // The map was created non-const by this object (allocated_here_), so changing it is well defined.
    return const_cast<Files&>(*files_);
  }
  auto copy = std::make_shared<Files>(*files_);
  Files& result = *copy;
  files_ = std::move(copy);
  allocated_here_ = true;
  return result;
}

std::string InMemoryFilesystem::read(std::string_view path) const {
  const std::string normalized = normalized_or_throw(path);
  std::lock_guard lock(mutex_);
  auto it = files_->find(normalized);
  if (it != files_->end()) return it->second;
  if (is_directory(*files_, normalized)) throw_directory(normalized);
  throw_missing(normalized);
}

void InMemoryFilesystem::write(std::string_view path, std::string_view content) {
  const std::string normalized = normalized_or_throw(path);
  if (normalized.empty()) throw FilesystemError("Path '' is not a file.", normalized);

  std::lock_guard lock(mutex_);
  // The rules are the host's: a path cannot be both a file and a directory.
  if (is_directory(*files_, normalized)) throw_directory(normalized);
  for (std::size_t slash = normalized.find('/'); slash != std::string::npos; slash = normalized.find('/', slash + 1)) {
    const std::string parent = normalized.substr(0, slash);
    if (files_->contains(parent)) {
      throw FilesystemError("Cannot write '" + normalized + "': '" + parent + "' is a file.", normalized);
    }
  }
  writable_files().insert_or_assign(normalized, std::string(content));
}

void InMemoryFilesystem::remove(std::string_view path) {
  const std::string normalized = normalized_or_throw(path);
  std::lock_guard lock(mutex_);
  if (!files_->contains(normalized)) {
    if (is_directory(*files_, normalized)) throw_directory(normalized);
    throw_missing(normalized);
  }
  writable_files().erase(normalized);
}

bool InMemoryFilesystem::exists(std::string_view path) const {
  const std::string normalized = normalized_or_throw(path);
  std::lock_guard lock(mutex_);
  return files_->contains(normalized);
}

std::vector<std::string> InMemoryFilesystem::list(std::string_view directory) const {
  const std::string prefix = directory_prefix(normalized_or_throw(directory));
  std::lock_guard lock(mutex_);
  std::vector<std::string> paths;
  // The map is sorted, so the directory's files are one run starting at the prefix.
  for (auto it = files_->lower_bound(prefix); it != files_->end() && it->first.starts_with(prefix); ++it) {
    paths.push_back(it->first);
  }
  return paths;
}

std::any InMemoryFilesystem::snapshot() const {
  std::lock_guard lock(mutex_);
  return files_;
}

void InMemoryFilesystem::restore(const std::any& token) {
  const auto* files = std::any_cast<std::shared_ptr<const Files>>(&token);
  if (files == nullptr || *files == nullptr) {
    throw std::invalid_argument("InMemoryFilesystem::restore: the token is not an InMemoryFilesystem snapshot.");
  }
  std::lock_guard lock(mutex_);
  files_ = *files;
  // The token's map may have been made elsewhere; the next change copies it rather than trust that.
  allocated_here_ = false;
}

}  // namespace ptc
