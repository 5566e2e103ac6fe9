#pragma once
// Filesystems handed to tools as resources: an in-memory one and a host directory confined to its
// root. Both are snapshot-capable, so a failed tool call leaves the files as they were.

#include <any>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include <ptc/error.hpp>
#include <ptc/limits.hpp>
#include <ptc/resources.hpp>

namespace ptc {

/// A path that is not allowed or a file operation that failed. `what()` names the path.
class FilesystemError : public std::runtime_error {
 public:
  FilesystemError(const std::string& message, std::string path) : std::runtime_error(message), path_(std::move(path)) {}
  const std::string& path() const noexcept { return path_; }

 private:
  std::string path_;
};

/// Paths inside a filesystem: '/'-separated, relative to its root ("notes/a.txt"). A leading '/' means
/// the root too. "." segments and repeated slashes are dropped, ".." goes up one level; going above
/// the root is an error ("Path '../x' escapes the filesystem root."). The root itself is "".
Result<std::string> normalize_path(std::string_view path);

/// What tools see. Implementations are thread-safe. Every method throws FilesystemError on a path
/// normalize_path rejects.
class Filesystem {
 public:
  virtual ~Filesystem() = default;

  /// Throws FilesystemError saying what is at the path when it is not a regular file:
  /// "File '<path>' does not exist.", "File '<path>' is a directory." (the root "" is one),
  /// "File '<path>' is not a regular file (a FIFO)." (a socket, a character device, a block device),
  /// "File '<path>' is a symbolic link whose target does not exist.".
  virtual std::string read(std::string_view path) const = 0;
  /// Creates or replaces a file; missing parent directories are created. Throws FilesystemError
  /// "File '<path>' is a directory." (or not a regular file, as read() words it) for what it must not
  /// replace, and "Path '' is not a file." for the root.
  virtual void write(std::string_view path, std::string_view content) = 0;
  /// Removes a file, or a symlink itself (never its target). Throws FilesystemError with read()'s words
  /// for a missing file, a directory, or another file that is not a regular one.
  virtual void remove(std::string_view path) = 0;
  /// True for a regular file (a symlink counts as its target); false for anything else, missing or not.
  virtual bool exists(std::string_view path) const = 0;
  /// Files below `directory` (recursively), as normalized paths, sorted.
  virtual std::vector<std::string> list(std::string_view directory = "") const = 0;
};

/// Files held in memory. Snapshots share the file map (copy on write), so taking one is O(1).
class InMemoryFilesystem final : public Filesystem, public Snapshotable {
 public:
  InMemoryFilesystem();
  std::string read(std::string_view path) const override;
  void write(std::string_view path, std::string_view content) override;
  void remove(std::string_view path) override;
  bool exists(std::string_view path) const override;
  std::vector<std::string> list(std::string_view directory = "") const override;

  std::any snapshot() const override;
  void restore(const std::any& token) override;

 private:
  using Files = std::map<std::string, std::string, std::less<>>;
  /// The map to change in place, copied first if a snapshot shares it. Requires mutex_.
  Files& writable_files();

  mutable std::mutex mutex_;
  std::shared_ptr<const Files> files_;  // shared with snapshot tokens, never changed while shared
  bool allocated_here_ = true;          // files_ was made here as a mutable map (not taken from a token)
};

/// A directory on the host, confined by descriptor: the root is opened once, and every operation
/// resolves its path beneath that descriptor (openat2 with RESOLVE_BENEATH where the kernel has it, a
/// component-by-component O_NOFOLLOW walk otherwise) and then acts on what it resolved, so swapping a
/// directory for a symlink while a call runs cannot make it reach outside the root.
/// - Symlinks are followed only while they stay inside the root; an absolute symlink or one that climbs
///   out is refused ("Path 'x' escapes the filesystem root.").
/// - write() replaces the file through a temporary file renamed over it in the same directory; a
///   symlink at the path is written at its target (inside the root). remove() of a symlink removes the
///   link, never its target.
/// - read() refuses files larger than `max_file_bytes` before reading them.
/// Snapshots are journal positions: before a file is first changed after a snapshot its old content
/// (or its absence) is kept, and restore writes it back. A token names its filesystem and its sequence,
/// so a token of another filesystem, or one already released, is refused. Changes made by other
/// programs are not seen. docs/limits.md says what this does and does not promise.
class HostFilesystem final : public Filesystem, public Snapshotable {
 public:
  /// How paths are resolved beneath the root. `Auto` uses openat2 when the kernel has it; `Walk`
  /// always walks component by component (what `Auto` falls back to; selectable for tests).
  enum class Resolver { Auto, Walk };
  struct Options {
    std::size_t max_file_bytes = limits::kFileBytes;
    Resolver resolver = Resolver::Auto;
  };

  /// Throws FilesystemError if `root` is not an existing directory.
  explicit HostFilesystem(const std::filesystem::path& root) : HostFilesystem(root, Options{}) {}
  HostFilesystem(const std::filesystem::path& root, Options options);
  ~HostFilesystem() override;
  HostFilesystem(const HostFilesystem&) = delete;
  HostFilesystem& operator=(const HostFilesystem&) = delete;

  /// The root as it was opened (canonical); operations never go through this path again.
  const std::filesystem::path& root() const { return root_; }
  std::string read(std::string_view path) const override;
  void write(std::string_view path, std::string_view content) override;
  void remove(std::string_view path) override;
  bool exists(std::string_view path) const override;
  std::vector<std::string> list(std::string_view directory = "") const override;

  /// Throws std::invalid_argument for a token this filesystem did not make, or one already released
  /// or undone by the restore of an earlier snapshot.
  std::any snapshot() const override;
  void restore(const std::any& token) override;
  /// Once no snapshot is outstanding (every one restored or released), the journal is dropped.
  void release(const std::any& token) override;
  /// Old contents kept to undo changes for outstanding snapshots; 0 when none is outstanding.
  std::size_t journal_size() const;

 private:
  struct Impl;

  std::filesystem::path root_;  // canonical
  Options options_;
  std::unique_ptr<Impl> impl_;  // the root descriptor, the journal and the snapshots, behind mutex_
  mutable std::mutex mutex_;
};

/// Several filesystems under one, each a top-level directory named for it: "app/src/a.cpp" is
/// "src/a.cpp" in the filesystem mounted as "app". The root holds the mounts and nothing else, so a
/// file cannot be written there, and a path under a name not mounted is refused ("Path 'x/a' is
/// outside the mounted directories."). With no mount, every path is refused. A snapshot is one of each
/// mount that can take one. An MCP server confines a session to its client's roots with it
/// (ServerOptions::roots_filesystem).
class MountedFilesystem final : public Filesystem, public Snapshotable {
 public:
  struct Mount {
    std::string name;  ///< one path segment: not empty, no '/', not "." or ".."
    std::shared_ptr<Filesystem> filesystem;
  };
  /// Throws std::invalid_argument for a name that is not one path segment, a name used twice, or a
  /// null filesystem.
  explicit MountedFilesystem(std::vector<Mount> mounts);

  const std::vector<Mount>& mounts() const { return mounts_; }
  std::string read(std::string_view path) const override;
  void write(std::string_view path, std::string_view content) override;
  void remove(std::string_view path) override;
  bool exists(std::string_view path) const override;
  std::vector<std::string> list(std::string_view directory = "") const override;

  std::any snapshot() const override;
  void restore(const std::any& token) override;
  void release(const std::any& token) override;

 private:
  struct Target {
    Filesystem* filesystem = nullptr;  ///< null: the root
    std::string prefix;                ///< "name/"
    std::string path;                  ///< inside the mount
  };
  /// Throws FilesystemError for a path normalize_path refuses or one under no mount.
  Target resolve(std::string_view path) const;

  std::vector<Mount> mounts_;  // fixed at construction: no lock needed to read it
};

}  // namespace ptc
