#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <map>
#include <optional>
#include <stdexcept>
#include <system_error>
#include <utility>

#include <dirent.h>
#include <fcntl.h>
#include <linux/openat2.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <ptc/file_input.hpp>
#include <ptc/filesystem.hpp>

#include "file_kind.hpp"

namespace ptc {

namespace fs = std::filesystem;

namespace {

// Linux refuses more than 40 links in one lookup (ELOOP); the walk and write() stop there too.
constexpr int kMaxSymlinks = 40;

class Fd {
 public:
  Fd() = default;
  explicit Fd(int fd) : fd_(fd) {}
  Fd(Fd&& other) noexcept : fd_(std::exchange(other.fd_, -1)) {}
  Fd& operator=(Fd&& other) noexcept {
    if (this != &other) {
      reset();
      fd_ = std::exchange(other.fd_, -1);
    }
    return *this;
  }
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  ~Fd() { reset(); }
  int get() const { return fd_; }
  int release() { return std::exchange(fd_, -1); }
  explicit operator bool() const { return fd_ >= 0; }

 private:
  void reset() {
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
  }
  int fd_ = -1;
};

[[noreturn]] void throw_missing(const std::string& path) {
  throw FilesystemError("File '" + path + "' does not exist.", path);
}

// "File 'd' is a directory.", "File 'p' is not a regular file (a FIFO).": what is there, not "missing".
[[noreturn]] void throw_not_a_file(const std::string& path, mode_t mode) {
  if (S_ISDIR(mode)) throw FilesystemError("File '" + path + "' is a directory.", path);
  throw FilesystemError("File '" + path + "' is not a regular file (" + text::file_kind(mode) + ").", path);
}

[[noreturn]] void throw_escape(const std::string& path) {
  throw FilesystemError("Path '" + path + "' escapes the filesystem root.", path);
}

// "Cannot read 'a.txt': Permission denied." The two errors every resolution can give get their own words.
[[noreturn]] void throw_errno(std::string_view action, const std::string& path, int error) {
  if (error == EXDEV) throw_escape(path);
  if (error == ELOOP) throw FilesystemError("Path '" + path + "' has too many levels of symbolic links.", path);
  throw FilesystemError("Cannot " + std::string(action) + " '" + path + "': " + std::strerror(error) + ".", path);
}

std::string normalized_or_throw(std::string_view path) {
  auto normalized = normalize_path(path);
  if (!normalized) throw FilesystemError(normalized.error().message, std::string(path));
  return std::move(normalized).value();
}

// "a/b/c" -> {"a/b", "c"}; "c" -> {"", "c"}.
std::pair<std::string, std::string> split_parent(const std::string& path) {
  const auto slash = path.rfind('/');
  if (slash == std::string::npos) return {"", path};
  return {path.substr(0, slash), path.substr(slash + 1)};
}

std::string join(const std::string& dir, const std::string& name) { return dir.empty() ? name : dir + '/' + name; }

std::vector<std::string> components(std::string_view path) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (start <= path.size()) {
    const auto slash = path.find('/', start);
    const auto end = slash == std::string_view::npos ? path.size() : slash;
    if (end > start) out.emplace_back(path.substr(start, end - start));
    if (slash == std::string_view::npos) break;
    start = slash + 1;
  }
  return out;
}

std::optional<std::string> link_target(int dir, const std::string& name) {
  std::string buffer(4096, '\0');
  const ssize_t n = ::readlinkat(dir, name.c_str(), buffer.data(), buffer.size());
  if (n < 0 || static_cast<std::size_t>(n) >= buffer.size()) return std::nullopt;
  buffer.resize(static_cast<std::size_t>(n));
  return buffer;
}

std::atomic<bool> g_no_openat2{false};  // the kernel said ENOSYS once: stop asking

// openat2 beneath `root`: symlinks are followed while they stay below it, an escape is EXDEV.
int open_beneath_kernel(int root, const std::string& path, int flags, mode_t mode) {
  open_how how{};
  how.flags = static_cast<std::uint64_t>(flags);
  how.mode = (flags & O_CREAT) ? mode : 0;
  how.resolve = RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS;
  const char* name = path.empty() ? "." : path.c_str();
  long fd = 0;
  do fd = ::syscall(SYS_openat2, root, name, &how, sizeof how);
  while (fd < 0 && errno == EAGAIN);
  return static_cast<int>(fd);
}

// The same rules without openat2: one component at a time, each opened O_NOFOLLOW relative to the
// directory descriptor before it, symlinks read and their components walked in turn, ".." taken from
// our own stack of descriptors, never from the kernel's idea of the path.
int open_beneath_walk(int root, const std::string& path, int flags, mode_t mode) {
  std::vector<Fd> stack;  // the directories walked into; empty: the root
  auto current = [&] { return stack.empty() ? root : stack.back().get(); };
  std::vector<std::string> pending = components(path);
  std::reverse(pending.begin(), pending.end());  // the next component is at the back
  const bool follow_last = !(flags & O_NOFOLLOW);
  int links = 0;
  auto follow = [&](int dir, const std::string& name) {
    auto target = link_target(dir, name);
    if (!target) return false;
    if (++links > kMaxSymlinks) {
      errno = ELOOP;
      return false;
    }
    if (!target->empty() && target->front() == '/') {
      errno = EXDEV;
      return false;
    }
    auto parts = components(*target);
    for (auto it = parts.rbegin(); it != parts.rend(); ++it) pending.push_back(std::move(*it));
    return true;
  };
  while (!pending.empty()) {
    std::string part = std::move(pending.back());
    pending.pop_back();
    if (part == ".") continue;
    if (part == "..") {
      if (stack.empty()) {
        errno = EXDEV;
        return -1;
      }
      stack.pop_back();
      continue;
    }
    struct stat st {};
    if (::fstatat(current(), part.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0) {
      if (errno == ENOENT && pending.empty() && (flags & O_CREAT)) break;
      return -1;
    }
    if (S_ISLNK(st.st_mode) && (!pending.empty() || follow_last)) {
      if (!follow(current(), part)) return -1;
      continue;
    }
    if (pending.empty()) {
      pending.push_back(std::move(part));  // the leaf, opened below
      break;
    }
    Fd next(::openat(current(), part.c_str(), O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
    if (!next) return -1;
    stack.push_back(std::move(next));
  }
  if (pending.empty()) return ::openat(current(), ".", flags, mode);
  return ::openat(current(), pending.back().c_str(), flags | O_NOFOLLOW, mode);
}

}  // namespace

struct HostFilesystem::Impl {
  struct JournalEntry {
    std::string path;                     // normalized, the file itself (symlinks at the path followed)
    std::optional<std::string> previous;  // its content; nullopt: it did not exist
    std::optional<std::string> link;      // it was a symlink with this target (removed by remove())
    bool created_directory = false;       // a directory write() created; undone by removing it if empty
  };
  struct Token {
    std::uint64_t owner;
    std::uint64_t sequence;
  };

  Fd root;
  bool walk_only = false;
  std::uint64_t id = next_id();
  std::vector<JournalEntry> journal;
  // Bumped by each snapshot (and restore), so only the first change after one is kept. 0: no snapshot
  // is outstanding, so nothing needs to be journaled.
  std::size_t generation = 0;
  std::map<std::string, std::size_t> remembered;  // path -> generation its old content was saved in
  std::uint64_t next_sequence = 1;
  std::map<std::uint64_t, std::size_t> outstanding;  // snapshot sequence -> journal position

  static std::uint64_t next_id() {
    static std::atomic<std::uint64_t> counter{1};
    return counter++;
  }

  // A descriptor for `path` beneath the root, or an invalid Fd with errno set.
  Fd open(const std::string& path, int flags, mode_t mode = 0) const {
    flags |= O_CLOEXEC;
    if (!walk_only && !g_no_openat2.load(std::memory_order_relaxed)) {
      const int fd = open_beneath_kernel(root.get(), path, flags, mode);
      if (fd >= 0 || errno != ENOSYS) return Fd(fd);
      g_no_openat2.store(true, std::memory_order_relaxed);
    }
    return Fd(open_beneath_walk(root.get(), path, flags, mode));
  }

  // Why `path` could not be opened to `action` it: a missing file, a symlink whose target is missing
  // (the leaf is a symlink, looked at beneath the root without following it), or the error as it came.
  [[noreturn]] void throw_unopened(std::string_view action, const std::string& path, int error) const {
    if (error != ENOENT && error != ENOTDIR) throw_errno(action, path, error);
    const auto [parent, leaf] = split_parent(path);
    Fd dir = leaf.empty() ? Fd() : open(parent, O_PATH | O_DIRECTORY);
    struct stat st {};
    if (dir && ::fstatat(dir.get(), leaf.c_str(), &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISLNK(st.st_mode))
      throw FilesystemError("File '" + path + "' is a symbolic link whose target does not exist.", path);
    throw_missing(path);
  }

  Fd open_directory(const std::string& path, std::string_view action, const std::string& name) const {
    Fd dir = open(path, O_PATH | O_DIRECTORY);
    if (!dir) throw_errno(action, name, errno);
    return dir;
  }

  // The parent directory of `path`, created level by level when missing (each level journaled unless
  // `journal_created` is false), opened beneath the root. `name` is the path as the caller knows it.
  Fd make_parents(const std::string& parent, const std::string& name, bool journal_created) {
    Fd dir = open_directory("", "write", name);
    std::string prefix;
    for (const auto& part : components(parent)) {
      const std::string next = join(prefix, part);
      Fd opened = open(next, O_PATH | O_DIRECTORY);
      if (!opened && errno == ENOENT) {
        if (::mkdirat(dir.get(), part.c_str(), 0777) != 0 && errno != EEXIST)
          throw_errno("create directory", next, errno);
        if (journal_created && generation != 0) journal.push_back({next, std::nullopt, std::nullopt, true});
        opened = open(next, O_PATH | O_DIRECTORY);
      }
      if (!opened && errno == ENOTDIR)
        throw FilesystemError("Cannot write '" + name + "': '" + next + "' is a file.", name);
      if (!opened) throw_errno("write", name, errno);
      dir = std::move(opened);
      prefix = next;
    }
    return dir;
  }

  void remember(const std::string& path, int dir, const std::string& leaf, std::size_t max_bytes) {
    if (generation == 0) return;  // no snapshot to go back to
    auto [it, inserted] = remembered.try_emplace(path, generation);
    if (!inserted) {
      if (it->second == generation) return;  // already saved since the last snapshot
      it->second = generation;
    }
    JournalEntry entry{path, std::nullopt, std::nullopt, false};
    struct stat st {};
    if (::fstatat(dir, leaf.c_str(), &st, AT_SYMLINK_NOFOLLOW) == 0) {
      if (S_ISLNK(st.st_mode)) {
        entry.link = link_target(dir, leaf);
      } else if (S_ISREG(st.st_mode)) {
        Fd file(::openat(dir, leaf.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC));
        if (!file) throw_errno("read", path, errno);
        auto content = read_descriptor(file.get(), path, max_bytes);
        if (!content)
          throw FilesystemError("Cannot save '" + path + "' for a snapshot: " + content.error().message, path);
        entry.previous = std::move(*content);
      }
    }
    journal.push_back(std::move(entry));
  }

  // A new file in `dir` renamed over `leaf`: readers see the old content or the new, never a mix, and
  // the name is replaced rather than opened, so a symlink swapped in at the last moment is not followed.
  static void replace_file(int dir, const std::string& leaf, std::string_view content, const std::string& name) {
    static std::atomic<std::uint64_t> counter{0};
    struct stat old {};
    const bool had = ::fstatat(dir, leaf.c_str(), &old, AT_SYMLINK_NOFOLLOW) == 0 && S_ISREG(old.st_mode);
    std::string temp;
    Fd file;
    for (int attempt = 0; attempt < 100 && !file; ++attempt) {
      temp = ".ptc-" + std::to_string(::getpid()) + "-" + std::to_string(counter++) + ".tmp";
      file = Fd(::openat(dir, temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666));
      if (!file && errno != EEXIST) throw_errno("write", name, errno);
    }
    if (!file) throw_errno("write", name, EEXIST);
    auto fail = [&](int error) {
      ::unlinkat(dir, temp.c_str(), 0);
      throw_errno("write", name, error);
    };
    if (had) ::fchmod(file.get(), old.st_mode & 07777);
    for (std::size_t done = 0; done < content.size();) {
      const ssize_t n = ::write(file.get(), content.data() + done, content.size() - done);
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) fail(errno);
      done += static_cast<std::size_t>(n);
    }
    // close reports a full disk on some filesystems.
    if (::close(file.release()) != 0) fail(errno);
    if (::renameat(dir, temp.c_str(), dir, leaf.c_str()) != 0) fail(errno);
  }

  void undo(const JournalEntry& entry) {
    const auto [parent, leaf] = split_parent(entry.path);
    if (entry.previous || entry.link) {
      // The parent may be gone if it was a directory a later write created and an earlier undo removed.
      Fd dir = make_parents(parent, entry.path, /*journal_created=*/false);
      if (entry.link) {
        if (::unlinkat(dir.get(), leaf.c_str(), 0) != 0 && errno != ENOENT) throw_errno("restore", entry.path, errno);
        if (::symlinkat(entry.link->c_str(), dir.get(), leaf.c_str()) != 0) throw_errno("restore", entry.path, errno);
        return;
      }
      replace_file(dir.get(), leaf, *entry.previous, entry.path);
      return;
    }
    Fd dir = open(parent, O_PATH | O_DIRECTORY);
    if (!dir) {
      if (errno == ENOENT) return;  // already gone with its directory
      throw_errno("restore", entry.path, errno);
    }
    if (entry.created_directory) {
      // Only if empty: a file another program put there is not ours to delete.
      if (::unlinkat(dir.get(), leaf.c_str(), AT_REMOVEDIR) != 0 && errno != ENOENT && errno != ENOTEMPTY &&
          errno != EEXIST)
        throw_errno("restore", entry.path, errno);
      return;
    }
    if (::unlinkat(dir.get(), leaf.c_str(), 0) != 0 && errno != ENOENT) throw_errno("restore", entry.path, errno);
  }

  const Token& token_of(const std::any& token, std::string_view operation) const {
    const auto* t = std::any_cast<Token>(&token);
    if (t == nullptr)
      throw std::invalid_argument("HostFilesystem::" + std::string(operation) +
                                  ": the token is not a HostFilesystem snapshot.");
    if (t->owner != id)
      throw std::invalid_argument("HostFilesystem::" + std::string(operation) +
                                  ": the token is a snapshot of another filesystem.");
    if (!outstanding.contains(t->sequence))
      throw std::invalid_argument("HostFilesystem::" + std::string(operation) +
                                  ": the snapshot was already released or undone by an earlier restore.");
    return *t;
  }
};

HostFilesystem::HostFilesystem(const fs::path& root, Options options)
    : options_(options), impl_(std::make_unique<Impl>()) {
  std::error_code ec;
  root_ = fs::canonical(root, ec);
  if (ec) throw FilesystemError("Filesystem root '" + root.string() + "' does not exist.", root.string());
  impl_->root = Fd(::open(root_.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC));
  if (!impl_->root) throw FilesystemError("Filesystem root '" + root.string() + "' is not a directory.", root.string());
  // canonical() and open() walk the path apart: a directory swapped for a symlink between them would
  // root this filesystem elsewhere. What the descriptor names is compared with what was resolved.
  std::error_code proc_error;
  const fs::path opened = fs::read_symlink("/proc/self/fd/" + std::to_string(impl_->root.get()), proc_error);
  if (!proc_error && opened != root_)
    throw FilesystemError("Filesystem root '" + root.string() + "' changed while it was opened.", root.string());
  impl_->walk_only = options.resolver == Resolver::Walk;
}

HostFilesystem::~HostFilesystem() = default;

std::string HostFilesystem::read(std::string_view path) const {
  const std::string name = normalized_or_throw(path);
  std::lock_guard lock(mutex_);
  struct stat st {};
  {
    // The type is looked at through an O_PATH descriptor first: a device's driver is never asked to open,
    // and a socket, which open() refuses, is still named for what it is.
    Fd probe = impl_->open(name, O_PATH);
    if (!probe) impl_->throw_unopened("read", name, errno);
    if (::fstat(probe.get(), &st) != 0) throw_errno("read", name, errno);
    if (!S_ISREG(st.st_mode)) throw_not_a_file(name, st.st_mode);
  }
  // O_NONBLOCK: a FIFO swapped in since the probe must not block the open; it is refused below.
  Fd file = impl_->open(name, O_RDONLY | O_NONBLOCK | O_NOCTTY);
  if (!file) impl_->throw_unopened("read", name, errno);
  if (::fstat(file.get(), &st) != 0) throw_errno("read", name, errno);
  if (!S_ISREG(st.st_mode)) throw_not_a_file(name, st.st_mode);
  if (static_cast<std::uint64_t>(st.st_size) > options_.max_file_bytes)
    throw FilesystemError(
        "File '" + name + "' is larger than the limit of " + std::to_string(options_.max_file_bytes) + " bytes.", name);
  const int flags = ::fcntl(file.get(), F_GETFL);
  if (flags >= 0) ::fcntl(file.get(), F_SETFL, flags & ~O_NONBLOCK);
  auto content = read_descriptor(file.get(), name, options_.max_file_bytes);
  if (!content) throw FilesystemError("Cannot read '" + name + "': " + content.error().message, name);
  return std::move(*content);
}

void HostFilesystem::write(std::string_view path, std::string_view content) {
  const std::string name = normalized_or_throw(path);
  std::lock_guard lock(mutex_);
  if (name.empty()) throw FilesystemError("Path '' is not a file.", name);
  // A symlink at the path is written at its target: each hop is resolved beneath the root again.
  std::string target = name;
  for (int hops = 0;; ++hops) {
    const auto [parent, leaf] = split_parent(target);
    Fd dir = impl_->make_parents(parent, name, /*journal_created=*/true);
    struct stat st {};
    const bool present = ::fstatat(dir.get(), leaf.c_str(), &st, AT_SYMLINK_NOFOLLOW) == 0;
    if (present && S_ISLNK(st.st_mode)) {
      if (hops >= kMaxSymlinks) throw_errno("write", name, ELOOP);
      auto link = link_target(dir.get(), leaf);
      if (!link) throw_errno("write", name, errno);
      if (!link->empty() && link->front() == '/') throw_escape(name);
      auto next = normalize_path(join(parent, *link));
      if (!next) throw_escape(name);
      if (next->empty()) throw_not_a_file(name, S_IFDIR);
      target = std::move(*next);
      continue;
    }
    if (present && !S_ISREG(st.st_mode)) throw_not_a_file(name, st.st_mode);
    impl_->remember(target, dir.get(), leaf, options_.max_file_bytes);
    Impl::replace_file(dir.get(), leaf, content, name);
    return;
  }
}

void HostFilesystem::remove(std::string_view path) {
  const std::string name = normalized_or_throw(path);
  std::lock_guard lock(mutex_);
  const auto [parent, leaf] = split_parent(name);
  if (leaf.empty()) throw_not_a_file(name, S_IFDIR);
  Fd dir = impl_->open(parent, O_PATH | O_DIRECTORY);
  if (!dir && (errno == ENOENT || errno == ENOTDIR)) throw_missing(name);
  if (!dir) throw_errno("remove", name, errno);
  struct stat st {};
  if (::fstatat(dir.get(), leaf.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0) {
    if (errno == ENOENT || errno == ENOTDIR) throw_missing(name);
    throw_errno("remove", name, errno);
  }
  // A symlink is removed itself, whatever it points at (or whether it points at anything).
  if (!S_ISREG(st.st_mode) && !S_ISLNK(st.st_mode)) throw_not_a_file(name, st.st_mode);
  impl_->remember(name, dir.get(), leaf, options_.max_file_bytes);
  if (::unlinkat(dir.get(), leaf.c_str(), 0) != 0) throw_errno("remove", name, errno);
}

bool HostFilesystem::exists(std::string_view path) const {
  const std::string name = normalized_or_throw(path);
  std::lock_guard lock(mutex_);
  Fd file = impl_->open(name, O_PATH);
  if (!file && (errno == ENOENT || errno == ENOTDIR)) return false;
  if (!file) throw_errno("inspect", name, errno);
  struct stat st {};
  return ::fstat(file.get(), &st) == 0 && S_ISREG(st.st_mode);
}

std::vector<std::string> HostFilesystem::list(std::string_view directory) const {
  const std::string name = normalized_or_throw(directory);
  std::lock_guard lock(mutex_);
  std::vector<std::string> paths;
  Fd top = impl_->open(name, O_RDONLY | O_DIRECTORY);
  if (!top && (errno == ENOENT || errno == ENOTDIR)) return paths;
  if (!top) throw_errno("list", name, errno);
  // Depth first over descriptors; symlinked directories are not descended into, and a symlinked file
  // counts only if it resolves to a regular file beneath the root.
  std::vector<std::pair<Fd, std::string>> pending;
  pending.emplace_back(std::move(top), name);
  while (!pending.empty()) {
    auto [dir, prefix] = std::move(pending.back());
    pending.pop_back();
    DIR* stream = ::fdopendir(::dup(dir.get()));
    if (stream == nullptr) throw_errno("list", prefix, errno);
    std::vector<std::string> entries;
    while (const dirent* entry = ::readdir(stream)) {
      const std::string_view entry_name = entry->d_name;
      if (entry_name != "." && entry_name != "..") entries.emplace_back(entry_name);
    }
    ::closedir(stream);
    for (const auto& entry_name : entries) {
      struct stat st {};
      if (::fstatat(dir.get(), entry_name.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0) continue;
      const std::string child = join(prefix, entry_name);
      if (S_ISREG(st.st_mode)) {
        paths.push_back(child);
      } else if (S_ISDIR(st.st_mode)) {
        Fd sub(::openat(dir.get(), entry_name.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
        if (sub) pending.emplace_back(std::move(sub), child);
      } else if (S_ISLNK(st.st_mode)) {
        Fd target = impl_->open(child, O_PATH);
        struct stat target_st {};
        if (target && ::fstat(target.get(), &target_st) == 0 && S_ISREG(target_st.st_mode)) paths.push_back(child);
      }
    }
  }
  std::sort(paths.begin(), paths.end());
  return paths;
}

std::any HostFilesystem::snapshot() const {
  std::lock_guard lock(mutex_);
  ++impl_->generation;
  const std::uint64_t sequence = impl_->next_sequence++;
  impl_->outstanding.emplace(sequence, impl_->journal.size());
  return Impl::Token{impl_->id, sequence};
}

void HostFilesystem::release(const std::any& token) {
  std::lock_guard lock(mutex_);
  const auto& t = impl_->token_of(token, "release");
  impl_->outstanding.erase(t.sequence);
  if (!impl_->outstanding.empty()) return;
  // Nothing can be restored any more: the saved contents are dead weight, and with no snapshot there is
  // nothing to journal until the next one.
  impl_->journal.clear();
  impl_->remembered.clear();
  impl_->generation = 0;
}

std::size_t HostFilesystem::journal_size() const {
  std::lock_guard lock(mutex_);
  return impl_->journal.size();
}

void HostFilesystem::restore(const std::any& token) {
  std::lock_guard lock(mutex_);
  const auto& t = impl_->token_of(token, "restore");
  const std::size_t position = impl_->outstanding.at(t.sequence);
  // Some of what `remembered` says was saved is about to be undone and dropped from the journal, so the
  // next change of every path must be saved again, even if an undo below fails.
  ++impl_->generation;
  // Every later snapshot is used up; this one can be restored again.
  impl_->outstanding.erase(impl_->outstanding.upper_bound(t.sequence), impl_->outstanding.end());
  // Newest first, each entry dropped once undone: if one fails, a second restore resumes there.
  while (impl_->journal.size() > position) {
    impl_->undo(impl_->journal.back());
    impl_->journal.pop_back();
  }
}

}  // namespace ptc
