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

  /// Throws FilesystemError "File '<path>' does not exist." for a missing file or a directory.
  virtual std::string read(std::string_view path) const = 0;
  /// Creates or replaces a file; missing parent directories are created.
  virtual void write(std::string_view path, std::string_view content) = 0;
  /// Throws FilesystemError if there is no such file.
  virtual void remove(std::string_view path) = 0;
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

/// A directory on the host. Nothing outside `root` can be reached: ".." above the root is refused, and
/// so is any path whose real location (after following symlinks) lies outside the root.
/// Snapshots are journal positions: before a file is first changed after a snapshot its old content
/// (or its absence) is kept, and restore writes it back. Changes made by other programs are not seen.
class HostFilesystem final : public Filesystem, public Snapshotable {
 public:
  /// Throws FilesystemError if `root` is not an existing directory.
  explicit HostFilesystem(const std::filesystem::path& root);
  ~HostFilesystem() override;

  const std::filesystem::path& root() const { return root_; }
  std::string read(std::string_view path) const override;
  void write(std::string_view path, std::string_view content) override;
  void remove(std::string_view path) override;
  bool exists(std::string_view path) const override;
  std::vector<std::string> list(std::string_view directory = "") const override;

  std::any snapshot() const override;
  void restore(const std::any& token) override;
  /// Once no snapshot is outstanding (every one restored or released), the journal is dropped.
  void release(const std::any& token) override;
  /// Old contents kept to undo changes for outstanding snapshots; 0 when none is outstanding.
  std::size_t journal_size() const;

 private:
  /// A path that was checked to stay under root.
  struct Location {
    std::string path;            // normalized
    std::filesystem::path host;  // real location: symlinks followed, inside root_
  };
  struct JournalEntry {
    std::filesystem::path host;           // the real file or directory that changed
    std::optional<std::string> previous;  // nullopt: the file did not exist
    bool created_directory = false;       // a directory write() created; undone by removing it
  };

  /// Normalizes `path` and finds its real location, after checking that it stays under root.
  Location resolve(std::string_view path) const;
  std::filesystem::path real_location(const std::string& normalized) const;
  /// The name of a host path inside root, for messages ("notes/a.txt").
  std::string display(const std::filesystem::path& host) const;
  /// The following require mutex_.
  void create_parents(const Location& location);
  void remember(const std::filesystem::path& host);
  void undo(const JournalEntry& entry);

  std::filesystem::path root_;  // canonical
  mutable std::mutex mutex_;
  std::vector<JournalEntry> journal_;
  // Bumped by each snapshot (and restore), so only the first change after one is kept. 0: no snapshot
  // was ever taken, so nothing needs to be journaled.
  mutable std::size_t generation_ = 0;
  std::map<std::filesystem::path, std::size_t> remembered_;
  mutable std::multiset<std::size_t> outstanding_;  // positions of snapshots not yet restored or released  // real file
                                                    // -> generation its old content was saved in
};

}  // namespace ptc
