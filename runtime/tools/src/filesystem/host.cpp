#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <stdexcept>
#include <system_error>

#include <ptc/filesystem.hpp>

namespace ptc {

namespace fs = std::filesystem;

namespace {

// Linux refuses more than 40 links in one lookup (ELOOP); a loop of symlinks stops here too.
constexpr int kMaxSymlinks = 40;

[[noreturn]] void throw_missing(const std::string& path) {
  throw FilesystemError("File '" + path + "' does not exist.", path);
}

// "Cannot read 'a.txt': Permission denied."
[[noreturn]] void throw_failed(std::string_view action, const std::string& path, const std::error_code& ec) {
  throw FilesystemError("Cannot " + std::string(action) + " '" + path + "': " + ec.message() + ".", path);
}

std::error_code last_errno() { return {errno, std::generic_category()}; }

// A symlink_status/status that only throws for real failures: a missing file is a file_type.
fs::file_status status_of(const fs::path& host, const std::string& path, bool follow_links) {
  std::error_code ec;
  fs::file_status st = follow_links ? fs::status(host, ec) : fs::symlink_status(host, ec);
  if (ec && st.type() != fs::file_type::not_found) throw_failed("inspect", path, ec);
  return st;
}

// Segment-wise, so root "/tmp/a" does not contain "/tmp/ab".
bool is_within(const fs::path& root, const fs::path& host) {
  auto [root_end, host_it] = std::mismatch(root.begin(), root.end(), host.begin(), host.end());
  return root_end == root.end();
}

// Pushes the components of `relative` onto a stack of components still to walk, first one on top.
void push_components(std::vector<fs::path>& pending, const fs::path& relative) {
  std::vector<fs::path> parts(relative.begin(), relative.end());
  for (auto it = parts.rbegin(); it != parts.rend(); ++it) pending.push_back(*it);
}

struct FileCloser {
  void operator()(std::FILE* file) const { std::fclose(file); }
};
using File = std::unique_ptr<std::FILE, FileCloser>;

// C stdio rather than iostreams: it reports why it failed (errno) and does no text translation.
std::string read_bytes(const fs::path& host, const std::string& path) {
  File file(std::fopen(host.c_str(), "rb"));
  if (!file) throw_failed("read", path, last_errno());
  std::string content;
  char buffer[64 * 1024];
  std::size_t n = 0;
  while ((n = std::fread(buffer, 1, sizeof buffer, file.get())) > 0) content.append(buffer, n);
  if (std::ferror(file.get())) throw_failed("read", path, last_errno());
  return content;
}

void write_bytes(const fs::path& host, std::string_view content, const std::string& path) {
  File file(std::fopen(host.c_str(), "wb"));
  if (!file) throw_failed("write", path, last_errno());
  if (std::fwrite(content.data(), 1, content.size(), file.get()) != content.size()) {
    throw_failed("write", path, last_errno());
  }
  // fclose flushes: a full disk may only show up here.
  if (std::fclose(file.release()) != 0) throw_failed("write", path, last_errno());
}

}  // namespace

HostFilesystem::HostFilesystem(const fs::path& root) {
  std::error_code ec;
  root_ = fs::canonical(root, ec);
  if (ec) {
    throw FilesystemError("Filesystem root '" + root.string() + "' does not exist.", root.string());
  }
  if (!fs::is_directory(root_, ec)) {
    throw FilesystemError("Filesystem root '" + root.string() + "' is not a directory.", root.string());
  }
}

HostFilesystem::~HostFilesystem() = default;

std::string HostFilesystem::display(const fs::path& host) const {
  return host.lexically_relative(root_).generic_string();
}

// Walks `normalized` from the root one component at a time, as the kernel would, following every
// symlink. weakly_canonical is not enough: it stops at a dangling symlink, and writing through one
// ("out" -> "/etc/new") would create its target outside the root. Components that do not exist yet are
// kept as they are, so the result is also where write() will create the file.
fs::path HostFilesystem::real_location(const std::string& normalized) const {
  fs::path current = root_;
  std::vector<fs::path> pending;  // a stack: the next component is at the back
  push_components(pending, fs::path(normalized));
  int links_followed = 0;

  while (!pending.empty()) {
    const fs::path part = std::move(pending.back());
    pending.pop_back();
    if (part.empty() || part == ".") continue;
    if (part == "..") {
      current = current.parent_path();  // exact: `current` has no symlinks in it
      continue;
    }
    fs::path next = current / part;
    if (status_of(next, normalized, /*follow_links=*/false).type() != fs::file_type::symlink) {
      current = std::move(next);
      continue;
    }
    if (++links_followed > kMaxSymlinks) {
      throw FilesystemError("Path '" + normalized + "' has too many levels of symbolic links.", normalized);
    }
    std::error_code ec;
    const fs::path target = fs::read_symlink(next, ec);
    if (ec) throw_failed("inspect", normalized, ec);
    if (target.is_absolute()) current = target.root_path();
    push_components(pending, target.relative_path());
  }
  return current;
}

HostFilesystem::Location HostFilesystem::resolve(std::string_view path) const {
  auto normalized = normalize_path(path);
  if (!normalized) throw FilesystemError(normalized.error().message, std::string(path));
  Location location{std::move(normalized).value(), {}};
  location.host = real_location(location.path);
  if (!is_within(root_, location.host)) {
    throw FilesystemError("Path '" + std::string(path) + "' escapes the filesystem root.", std::string(path));
  }
  return location;
}

void HostFilesystem::remember(const fs::path& host) {
  if (generation_ == 0) return;  // no snapshot to go back to
  auto [it, inserted] = remembered_.try_emplace(host, generation_);
  if (!inserted) {
    if (it->second == generation_) return;  // already saved since the last snapshot
    it->second = generation_;
  }
  const std::string name = display(host);
  JournalEntry entry{host, std::nullopt, false};
  if (status_of(host, name, /*follow_links=*/true).type() == fs::file_type::regular) {
    entry.previous = read_bytes(host, name);
  }
  journal_.push_back(std::move(entry));
}

// create_directories, one level at a time, so each directory made is journaled (restore removes it)
// and a file in the way is named.
void HostFilesystem::create_parents(const Location& location) {
  std::vector<fs::path> missing;
  for (fs::path dir = location.host.parent_path(); dir != root_; dir = dir.parent_path()) {
    const fs::file_type type = status_of(dir, location.path, /*follow_links=*/true).type();
    if (type == fs::file_type::directory) break;
    if (type != fs::file_type::not_found) {
      throw FilesystemError("Cannot write '" + location.path + "': '" + display(dir) + "' is a file.", location.path);
    }
    missing.push_back(dir);
  }
  for (auto it = missing.rbegin(); it != missing.rend(); ++it) {
    std::error_code ec;
    fs::create_directory(*it, ec);
    if (ec) throw_failed("create directory", display(*it), ec);
    if (generation_ != 0) journal_.push_back(JournalEntry{*it, std::nullopt, true});
  }
}

std::string HostFilesystem::read(std::string_view path) const {
  std::lock_guard lock(mutex_);
  const Location location = resolve(path);
  // Only regular files: a directory reads as missing, and a FIFO would block forever.
  if (status_of(location.host, location.path, /*follow_links=*/true).type() != fs::file_type::regular) {
    throw_missing(location.path);
  }
  return read_bytes(location.host, location.path);
}

void HostFilesystem::write(std::string_view path, std::string_view content) {
  std::lock_guard lock(mutex_);
  const Location location = resolve(path);
  if (location.path.empty()) throw FilesystemError("Path '' is not a file.", location.path);
  switch (status_of(location.host, location.path, /*follow_links=*/true).type()) {
    case fs::file_type::regular:
    case fs::file_type::not_found: break;
    case fs::file_type::directory: throw FilesystemError("'" + location.path + "' is a directory.", location.path);
    default: throw FilesystemError("'" + location.path + "' is not a regular file.", location.path);
  }
  create_parents(location);
  remember(location.host);
  write_bytes(location.host, content, location.path);
}

void HostFilesystem::remove(std::string_view path) {
  std::lock_guard lock(mutex_);
  const Location location = resolve(path);
  if (status_of(location.host, location.path, /*follow_links=*/true).type() != fs::file_type::regular) {
    throw_missing(location.path);
  }
  remember(location.host);
  std::error_code ec;
  fs::remove(location.host, ec);
  if (ec) throw_failed("remove", location.path, ec);
}

bool HostFilesystem::exists(std::string_view path) const {
  std::lock_guard lock(mutex_);
  const Location location = resolve(path);
  return status_of(location.host, location.path, /*follow_links=*/true).type() == fs::file_type::regular;
}

std::vector<std::string> HostFilesystem::list(std::string_view directory) const {
  std::lock_guard lock(mutex_);
  const Location location = resolve(directory);
  std::vector<std::string> paths;
  if (status_of(location.host, location.path, /*follow_links=*/true).type() != fs::file_type::directory) return paths;

  // Symlinked directories are not descended into (the iterator's default), so a link to "/" lists
  // nothing; a symlinked file counts only if its real location is inside the root.
  std::error_code ec;
  fs::recursive_directory_iterator it(location.host, fs::directory_options::skip_permission_denied, ec);
  for (; !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
    const fs::directory_entry& entry = *it;
    std::error_code entry_ec;
    if (!entry.is_regular_file(entry_ec)) continue;
    if (entry.is_symlink(entry_ec)) {
      const fs::path real = fs::canonical(entry.path(), entry_ec);
      if (entry_ec || !is_within(root_, real)) continue;
    }
    // Named through `directory` as given (it may itself be a symlink inside the root).
    const std::string relative = entry.path().lexically_relative(location.host).generic_string();
    paths.push_back(location.path.empty() ? relative : location.path + '/' + relative);
  }
  if (ec) throw_failed("list", location.path, ec);
  std::sort(paths.begin(), paths.end());
  return paths;
}

std::any HostFilesystem::snapshot() const {
  std::lock_guard lock(mutex_);
  ++generation_;
  outstanding_.insert(journal_.size());
  return journal_.size();
}

void HostFilesystem::release(const std::any& token) {
  const auto* position = std::any_cast<std::size_t>(&token);
  if (position == nullptr) {
    throw std::invalid_argument("HostFilesystem::release: the token is not a HostFilesystem snapshot.");
  }
  std::lock_guard lock(mutex_);
  auto it = outstanding_.find(*position);
  if (it != outstanding_.end()) outstanding_.erase(it);
  if (!outstanding_.empty()) return;
  // Nothing can be restored any more: the saved contents are dead weight, and with no snapshot there is
  // nothing to journal until the next one.
  journal_.clear();
  remembered_.clear();
  generation_ = 0;
}

std::size_t HostFilesystem::journal_size() const {
  std::lock_guard lock(mutex_);
  return journal_.size();
}

void HostFilesystem::undo(const JournalEntry& entry) {
  const std::string name = display(entry.host);
  std::error_code ec;
  if (entry.previous) {
    // The parent may be gone if it was a directory a later write created and an earlier undo removed.
    fs::create_directories(entry.host.parent_path(), ec);
    if (ec) throw_failed("restore", name, ec);
    write_bytes(entry.host, *entry.previous, name);
    return;
  }
  if (entry.created_directory) {
    // Only if empty: a file another program put there is not ours to delete.
    if (fs::is_empty(entry.host, ec) && !ec) fs::remove(entry.host, ec);
    if (ec && ec != std::errc::no_such_file_or_directory) throw_failed("restore", name, ec);
    return;
  }
  fs::remove(entry.host, ec);
  if (ec) throw_failed("restore", name, ec);
}

void HostFilesystem::restore(const std::any& token) {
  const auto* position = std::any_cast<std::size_t>(&token);
  if (position == nullptr) {
    throw std::invalid_argument("HostFilesystem::restore: the token is not a HostFilesystem snapshot.");
  }
  std::lock_guard lock(mutex_);
  if (*position > journal_.size()) {
    throw std::invalid_argument("HostFilesystem::restore: the snapshot was already undone by an earlier restore.");
  }
  // Some of what remembered_ says was saved is about to be undone and dropped from the journal, so the
  // next change of every path must be saved again, even if an undo below fails.
  ++generation_;
  // This snapshot and every later one are used up.
  outstanding_.erase(outstanding_.upper_bound(*position), outstanding_.end());
  if (auto it = outstanding_.find(*position); it != outstanding_.end()) outstanding_.erase(it);
  // Newest first, each entry dropped once undone: if one fails, a second restore resumes there.
  while (journal_.size() > *position) {
    undo(journal_.back());
    journal_.pop_back();
  }
}

}  // namespace ptc
