// The behaviour InMemoryFilesystem and HostFilesystem share (ptc::Filesystem, ptc::Snapshotable), run
// against each: exact bytes, normalized paths, refusals, snapshots, concurrent writers.

#include <any>
#include <atomic>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include <ptc/filesystem.hpp>

#include "fixtures.hpp"

namespace {

using namespace ptc_test;

struct MemoryBackend {
  static constexpr const char* kName = "memory";
  std::shared_ptr<ptc::InMemoryFilesystem> fs = std::make_shared<ptc::InMemoryFilesystem>();
  /// A token of the other kind, which restore must refuse.
  std::any foreign_token() const { return std::any(std::size_t{0}); }
};

struct HostBackend {
  static constexpr const char* kName = "host";
  TempDir dir;
  std::shared_ptr<ptc::HostFilesystem> fs = std::make_shared<ptc::HostFilesystem>(dir.path());
  std::any foreign_token() const { return ptc::InMemoryFilesystem().snapshot(); }
};

template <class Backend>
class FilesystemContract : public ::testing::Test {
 protected:
  ptc::Filesystem& files() { return *backend_.fs; }
  ptc::Snapshotable& snapshots() { return *backend_.fs; }
  Backend& backend() { return backend_; }

 private:
  Backend backend_;
};

class BackendNames {
 public:
  template <class T>
  static std::string GetName(int) {
    return T::kName;
  }
};

using Backends = ::testing::Types<MemoryBackend, HostBackend>;
TYPED_TEST_SUITE(FilesystemContract, Backends, BackendNames);

TYPED_TEST(FilesystemContract, WriteThenReadKeepsExactBytes) {
  auto& f = this->files();
  f.write("notes/a.bin", kBinary);
  f.write("empty.txt", "");
  EXPECT_EQ(f.read("notes/a.bin"), kBinary);
  EXPECT_EQ(f.read("empty.txt"), "");
}

TYPED_TEST(FilesystemContract, PathsAreNormalizedOnEveryCall) {
  auto& f = this->files();
  f.write("/notes//./a.txt", "x");
  EXPECT_EQ(f.read("notes/a.txt"), "x");
  EXPECT_EQ(f.read("notes/sub/../a.txt"), "x");
  EXPECT_TRUE(f.exists("/notes/a.txt"));
  EXPECT_EQ(f.list("/notes/"), Paths{"notes/a.txt"});
}

TYPED_TEST(FilesystemContract, OverwriteReplacesContent) {
  auto& f = this->files();
  f.write("a.txt", "a much longer first version");
  f.write("a.txt", "short");
  EXPECT_EQ(f.read("a.txt"), "short");
}

TYPED_TEST(FilesystemContract, ReadingAMissingFileNamesTheNormalizedPath) {
  const Caught e = fs_error([&] { this->files().read("/notes//missing.txt"); });
  EXPECT_EQ(e.message, "File 'notes/missing.txt' does not exist.");
  EXPECT_EQ(e.path, "notes/missing.txt");
}

// A directory is named as one, not reported missing: "does not exist" would send a model looking for a
// file that is there under another name, or have it create one where it cannot.
TYPED_TEST(FilesystemContract, ADirectoryIsNotAFileAndSaysSo) {
  auto& f = this->files();
  f.write("d/e/x.txt", "x");
  const Caught read = fs_error([&] { f.read("/d/"); });
  EXPECT_EQ(read.message, "File 'd' is a directory.");
  EXPECT_EQ(read.path, "d");
  EXPECT_EQ(fs_message([&] { f.read("d/e"); }), "File 'd/e' is a directory.");
  EXPECT_EQ(fs_message([&] { f.read("d/e/x.txt/.."); }), "File 'd/e' is a directory.");
  const Caught removed = fs_error([&] { f.remove("d/e"); });
  EXPECT_EQ(removed.message, "File 'd/e' is a directory.");
  EXPECT_EQ(removed.path, "d/e");
  EXPECT_FALSE(f.exists("d"));
  EXPECT_FALSE(f.exists("d/e"));
  EXPECT_EQ(f.read("d/e/x.txt"), "x");
  EXPECT_EQ(f.list(), Paths{"d/e/x.txt"});
}

TYPED_TEST(FilesystemContract, TheRootIsADirectory) {
  auto& f = this->files();
  for (const char* root : {"", "/", ".", "a/.."}) {
    SCOPED_TRACE(root);
    const Caught read = fs_error([&] { f.read(root); });
    EXPECT_EQ(read.message, "File '' is a directory.");
    EXPECT_EQ(read.path, "");
    EXPECT_EQ(fs_message([&] { f.remove(root); }), "File '' is a directory.");
    EXPECT_FALSE(f.exists(root));
  }
}

// Only what is not there at all is missing: a name that shares a directory's prefix, a path below a
// file, a path below a directory that does not exist.
TYPED_TEST(FilesystemContract, MissingIsSaidOnlyOfWhatIsNotThere) {
  auto& f = this->files();
  f.write("d/x.txt", "x");
  for (const char* missing : {"d/y.txt", "dd", "d.txt", "d/x.txt/z", "nowhere/x.txt"}) {
    SCOPED_TRACE(missing);
    EXPECT_EQ(fs_message([&] { f.read(missing); }), "File '" + std::string(missing) + "' does not exist.");
    EXPECT_EQ(fs_message([&] { f.remove(missing); }), "File '" + std::string(missing) + "' does not exist.");
  }
}

TYPED_TEST(FilesystemContract, WritingOntoADirectoryIsRefused) {
  auto& f = this->files();
  f.write("d/x.txt", "x");
  const Caught e = fs_error([&] { f.write("/d/", "y"); });
  EXPECT_EQ(e.message, "File 'd' is a directory.");
  EXPECT_EQ(e.path, "d");
  EXPECT_EQ(f.list(), Paths{"d/x.txt"});
}

TYPED_TEST(FilesystemContract, WritingTheRootIsRefused) {
  auto& f = this->files();
  EXPECT_EQ(fs_message([&] { f.write("", "x"); }), "Path '' is not a file.");
  EXPECT_EQ(fs_message([&] { f.write("/", "x"); }), "Path '' is not a file.");
  EXPECT_EQ(fs_message([&] { f.write("a/..", "x"); }), "Path '' is not a file.");
}

TYPED_TEST(FilesystemContract, WritingBelowAFileIsRefused) {
  auto& f = this->files();
  f.write("a", "file");
  EXPECT_EQ(fs_message([&] { f.write("a/b", "x"); }), "Cannot write 'a/b': 'a' is a file.");
  EXPECT_EQ(fs_message([&] { f.write("a/b/c", "x"); }), "Cannot write 'a/b/c': 'a' is a file.");
  EXPECT_EQ(f.read("a"), "file");
  EXPECT_EQ(f.list(), Paths{"a"});
}

TYPED_TEST(FilesystemContract, RemoveDeletesAndRefusesMissingFiles) {
  auto& f = this->files();
  f.write("a.txt", "x");
  f.write("b.txt", "y");
  f.remove("/a.txt");
  EXPECT_FALSE(f.exists("a.txt"));
  EXPECT_TRUE(f.exists("b.txt"));
  const Caught e = fs_error([&] { f.remove("a.txt"); });
  EXPECT_EQ(e.message, "File 'a.txt' does not exist.");
  EXPECT_EQ(e.path, "a.txt");
}

TYPED_TEST(FilesystemContract, ExistsIsTrueForFilesOnly) {
  auto& f = this->files();
  EXPECT_FALSE(f.exists("a/b.txt"));
  f.write("a/b.txt", "x");
  EXPECT_TRUE(f.exists("a/b.txt"));
  EXPECT_FALSE(f.exists("a"));
  EXPECT_FALSE(f.exists("a/b"));
}

TYPED_TEST(FilesystemContract, ListIsRecursiveSortedAndNormalized) {
  auto& f = this->files();
  for (const char* p : {"z.txt", "a/2.txt", "a/1.txt", "a/sub/deep/x.txt", "ab/x.txt", "a.txt"}) f.write(p, p);
  EXPECT_EQ(f.list(), (Paths{"a.txt", "a/1.txt", "a/2.txt", "a/sub/deep/x.txt", "ab/x.txt", "z.txt"}));
  EXPECT_EQ(f.list("/"), f.list());
  // "a" is a directory: "a.txt" and "ab/x.txt" only share its first letter.
  EXPECT_EQ(f.list("a"), (Paths{"a/1.txt", "a/2.txt", "a/sub/deep/x.txt"}));
  EXPECT_EQ(f.list("/a//sub/"), Paths{"a/sub/deep/x.txt"});
  EXPECT_EQ(f.list("a/sub/deep/.."), Paths{"a/sub/deep/x.txt"});
}

TYPED_TEST(FilesystemContract, ListOfAMissingDirectoryOrAFileIsEmpty) {
  auto& f = this->files();
  f.write("a/1.txt", "x");
  EXPECT_TRUE(f.list("missing").empty());
  EXPECT_TRUE(f.list("a/1.txt").empty());
  EXPECT_TRUE(f.list("a/1").empty());
}

TYPED_TEST(FilesystemContract, EveryMethodRefusesPathsAboveTheRoot) {
  auto& f = this->files();
  const std::string escape = "notes/../../secret.txt";
  const std::string expected = "Path 'notes/../../secret.txt' escapes the filesystem root.";
  const Caught e = fs_error([&] { f.read(escape); });
  EXPECT_EQ(e.message, expected);
  EXPECT_EQ(e.path, escape);
  EXPECT_EQ(fs_message([&] { f.write(escape, "x"); }), expected);
  EXPECT_EQ(fs_message([&] { f.remove(escape); }), expected);
  EXPECT_EQ(fs_message([&] { f.exists(escape); }), expected);
  EXPECT_EQ(fs_message([&] { f.list(".."); }), "Path '..' escapes the filesystem root.");
  EXPECT_TRUE(f.list().empty());
}

TYPED_TEST(FilesystemContract, EveryMethodRefusesNulBytes) {
  auto& f = this->files();
  const std::string nul("a\0b", 3);
  const std::string expected = "Path 'a\\0b' contains a NUL byte.";
  EXPECT_EQ(fs_message([&] { f.read(nul); }), expected);
  EXPECT_EQ(fs_message([&] { f.write(nul, "x"); }), expected);
  EXPECT_EQ(fs_message([&] { f.remove(nul); }), expected);
  EXPECT_EQ(fs_message([&] { f.exists(nul); }), expected);
  EXPECT_EQ(fs_message([&] { f.list(nul); }), expected);
  EXPECT_TRUE(f.list().empty());
}

TYPED_TEST(FilesystemContract, BackslashIsAnOrdinaryCharacter) {
  auto& f = this->files();
  f.write("a\\b.txt", "x");
  EXPECT_EQ(f.list(), Paths{"a\\b.txt"});
  EXPECT_FALSE(f.exists("a/b.txt"));
}

TYPED_TEST(FilesystemContract, RestoreUndoesWriteOverwriteAndRemove) {
  auto& f = this->files();
  f.write("kept.txt", "kept");
  f.write("changed.txt", "before");
  f.write("removed.txt", "removed");
  const std::any token = this->snapshots().snapshot();

  f.write("changed.txt", "after");
  f.write("changed.txt", "after again");
  f.remove("removed.txt");
  f.write("created.txt", "new");
  f.write("new/dir/deep.txt", "new");
  ASSERT_EQ(f.list(), (Paths{"changed.txt", "created.txt", "kept.txt", "new/dir/deep.txt"}));

  this->snapshots().restore(token);
  EXPECT_EQ(f.list(), (Paths{"changed.txt", "kept.txt", "removed.txt"}));
  EXPECT_EQ(f.read("changed.txt"), "before");
  EXPECT_EQ(f.read("removed.txt"), "removed");
  EXPECT_EQ(f.read("kept.txt"), "kept");
  EXPECT_FALSE(f.exists("created.txt"));
  // The directory the write created is gone too: "new" can be a file again.
  f.write("new", "a file now");
  EXPECT_EQ(f.read("new"), "a file now");
}

TYPED_TEST(FilesystemContract, RemoveThenRecreateIsUndone) {
  auto& f = this->files();
  f.write("a.txt", "original");
  const std::any token = this->snapshots().snapshot();
  f.remove("a.txt");
  f.write("a.txt", "recreated");
  this->snapshots().restore(token);
  EXPECT_EQ(f.read("a.txt"), "original");
}

TYPED_TEST(FilesystemContract, NestedSnapshotsRestoreInnerThenOuter) {
  auto& f = this->files();
  f.write("a.txt", "0");
  const std::any outer = this->snapshots().snapshot();
  f.write("a.txt", "1");
  f.write("b.txt", "1");
  const std::any inner = this->snapshots().snapshot();
  f.write("a.txt", "2");
  f.remove("b.txt");
  f.write("c.txt", "2");

  this->snapshots().restore(inner);
  EXPECT_EQ(f.list(), (Paths{"a.txt", "b.txt"}));
  EXPECT_EQ(f.read("a.txt"), "1");
  EXPECT_EQ(f.read("b.txt"), "1");

  f.write("a.txt", "3");  // a change after the inner restore must be undone by the outer one too
  this->snapshots().restore(outer);
  EXPECT_EQ(f.list(), Paths{"a.txt"});
  EXPECT_EQ(f.read("a.txt"), "0");
}

TYPED_TEST(FilesystemContract, OuterRestoreSkipsAnInnerSnapshot) {
  auto& f = this->files();
  const std::any outer = this->snapshots().snapshot();
  f.write("a.txt", "1");
  [[maybe_unused]] const std::any inner = this->snapshots().snapshot();
  f.write("a.txt", "2");
  this->snapshots().restore(outer);
  EXPECT_TRUE(f.list().empty());
}

TYPED_TEST(FilesystemContract, ATokenCanBeRestoredAgain) {
  auto& f = this->files();
  f.write("a.txt", "0");
  const std::any token = this->snapshots().snapshot();
  f.write("a.txt", "1");
  this->snapshots().restore(token);
  EXPECT_EQ(f.read("a.txt"), "0");
  // Same path, same snapshot: the second change must still be saved before it happens.
  f.write("a.txt", "2");
  f.write("b.txt", "2");
  this->snapshots().restore(token);
  EXPECT_EQ(f.read("a.txt"), "0");
  EXPECT_FALSE(f.exists("b.txt"));
}

TYPED_TEST(FilesystemContract, RestoreRefusesForeignAndEmptyTokens) {
  auto& f = this->files();
  f.write("a.txt", "x");
  auto& s = this->snapshots();
  EXPECT_THROW(s.restore(std::any()), std::invalid_argument);
  EXPECT_THROW(s.restore(std::any(std::string("token"))), std::invalid_argument);
  EXPECT_THROW(s.restore(this->backend().foreign_token()), std::invalid_argument);
  EXPECT_EQ(f.read("a.txt"), "x");
}

// Several writers at once: every file must arrive, whole.
TYPED_TEST(FilesystemContract, ConcurrentWritersOfDistinctFiles) {
  auto& f = this->files();
  constexpr int kThreads = 8;
  constexpr int kFilesPerThread = 40;
  auto name = [](int t, int i) { return "t" + std::to_string(t) + "/f" + std::to_string(i) + ".txt"; };
  {
    std::vector<std::jthread> threads;
    for (int t = 0; t < kThreads; ++t) {
      threads.emplace_back([&f, &name, t] {
        for (int i = 0; i < kFilesPerThread; ++i) {
          f.write(name(t, i), std::string(100 + i, static_cast<char>('a' + t)));
          (void)f.list();  // readers interleaved with the writers
        }
      });
    }
  }
  EXPECT_EQ(f.list().size(), static_cast<std::size_t>(kThreads * kFilesPerThread));
  for (int t = 0; t < kThreads; ++t) {
    for (int i = 0; i < kFilesPerThread; ++i) {
      EXPECT_EQ(f.read(name(t, i)), std::string(100 + i, static_cast<char>('a' + t))) << name(t, i);
    }
  }
}

// Snapshots taken while others write are consistent states to return to.
TYPED_TEST(FilesystemContract, SnapshotsWhileWritersRun) {
  auto& f = this->files();
  const std::any start = this->snapshots().snapshot();
  {
    std::vector<std::jthread> threads;
    for (int t = 0; t < 4; ++t) {
      threads.emplace_back([this, &f, t] {
        for (int i = 0; i < 20; ++i) {
          f.write("t" + std::to_string(t) + "/" + std::to_string(i), "x");
          (void)this->snapshots().snapshot();
        }
      });
    }
  }
  ASSERT_EQ(f.list().size(), 80u);
  this->snapshots().restore(start);
  EXPECT_TRUE(f.list().empty());
}

}  // namespace
