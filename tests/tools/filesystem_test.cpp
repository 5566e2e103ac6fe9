#include <gtest/gtest.h>

#include <any>
#include <atomic>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <random>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include <sys/stat.h>

#include <ptc/filesystem.hpp>

namespace {

namespace fs = std::filesystem;
using Paths = std::vector<std::string>;

// ---------------------------------------------------------------------------------------------------
// Helpers

/// What a FilesystemError said, or a test failure if the call did not throw one.
struct Caught {
  std::string message;
  std::string path;
};

template <class F>
Caught fs_error(F&& call) {
  try {
    call();
  } catch (const ptc::FilesystemError& e) {
    return {e.what(), e.path()};
  } catch (const std::exception& e) {
    ADD_FAILURE() << "expected a FilesystemError, got: " << e.what();
    return {};
  }
  ADD_FAILURE() << "expected a FilesystemError, nothing was thrown";
  return {};
}

template <class F>
std::string fs_message(F&& call) {
  return fs_error(std::forward<F>(call)).message;
}

/// A fresh directory under the system temp directory, removed with everything in it at the end.
class TempDir {
 public:
  TempDir() {
    static std::atomic<unsigned> counter{0};
    std::random_device random;
    const fs::path base = fs::temp_directory_path();
    for (;;) {
      path_ = base / ("ptc-fs-test-" + std::to_string(random()) + "-" + std::to_string(counter++));
      if (fs::create_directory(path_)) break;  // false: the name was taken, try another
    }
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

std::string read_host_file(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  EXPECT_TRUE(in) << "cannot open " << file;
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void write_host_file(const fs::path& file, const std::string& content) {
  fs::create_directories(file.parent_path());
  std::ofstream out(file, std::ios::binary);
  out << content;
  ASSERT_TRUE(out) << "cannot write " << file;
}

// Bytes a text-mode or C-string based implementation would get wrong.
const std::string kBinary("line\r\nzero\0byte\xff\x80 end\n", 22);

// ---------------------------------------------------------------------------------------------------
// normalize_path

struct NormalizeCase {
  std::string input;
  std::string expected;
};

class NormalizePath : public ::testing::TestWithParam<NormalizeCase> {};

TEST_P(NormalizePath, Normalizes) {
  auto result = ptc::normalize_path(GetParam().input);
  ASSERT_TRUE(result.ok()) << result.error().message;
  EXPECT_EQ(*result, GetParam().expected);
}

INSTANTIATE_TEST_SUITE_P(
    Table, NormalizePath,
    ::testing::Values(NormalizeCase{"", ""}, NormalizeCase{"/", ""}, NormalizeCase{".", ""}, NormalizeCase{"//./", ""},
                      NormalizeCase{"a", "a"}, NormalizeCase{"/a/b", "a/b"}, NormalizeCase{"a//b", "a/b"},
                      NormalizeCase{"./a/./b/", "a/b"}, NormalizeCase{"a/../b", "b"}, NormalizeCase{"a/b/..", "a"},
                      NormalizeCase{"a/..", ""}, NormalizeCase{"a/b/../../c", "c"}, NormalizeCase{"...", "..."},
                      NormalizeCase{"..a/b..", "..a/b.."}, NormalizeCase{".hidden", ".hidden"},
                      NormalizeCase{"a\\..\\b", "a\\..\\b"},  // backslash: a plain character
                      NormalizeCase{"notes/a b.txt", "notes/a b.txt"}));

class NormalizePathEscape : public ::testing::TestWithParam<std::string> {};

TEST_P(NormalizePathEscape, IsAnError) {
  auto result = ptc::normalize_path(GetParam());
  ASSERT_FALSE(result.ok()) << "normalized to " << *result;
  EXPECT_EQ(result.error().message, "Path '" + GetParam() + "' escapes the filesystem root.");
}

INSTANTIATE_TEST_SUITE_P(Table, NormalizePathEscape,
                         ::testing::Values("..", "../x", "/../x", "a/../../x", "a/b/../../..", "./..", "a/..//../b"));

TEST(NormalizePathNul, IsAnErrorShowingTheNulAsEscape) {
  auto result = ptc::normalize_path(std::string("a\0/../../x", 10));
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.error().message, "Path 'a\\0/../../x' contains a NUL byte.");
}

// ---------------------------------------------------------------------------------------------------
// The behaviour both implementations share, run against each.

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

TYPED_TEST(FilesystemContract, ADirectoryIsNotAFile) {
  auto& f = this->files();
  f.write("d/x.txt", "x");
  EXPECT_EQ(fs_message([&] { f.read("d"); }), "File 'd' does not exist.");
  EXPECT_EQ(fs_message([&] { f.remove("d"); }), "File 'd' does not exist.");
  EXPECT_EQ(fs_message([&] { f.read(""); }), "File '' does not exist.");
  EXPECT_FALSE(f.exists("d"));
  EXPECT_FALSE(f.exists(""));
  EXPECT_EQ(f.read("d/x.txt"), "x");
}

TYPED_TEST(FilesystemContract, WritingOntoADirectoryIsRefused) {
  auto& f = this->files();
  f.write("d/x.txt", "x");
  const Caught e = fs_error([&] { f.write("/d/", "y"); });
  EXPECT_EQ(e.message, "'d' is a directory.");
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

// ---------------------------------------------------------------------------------------------------
// InMemoryFilesystem only

TEST(InMemoryFilesystem, ATokenIsTheSharedImmutableMap) {
  ptc::InMemoryFilesystem f;
  f.write("a.txt", "1");
  const std::any token = f.snapshot();
  f.write("a.txt", "2");  // copies: the token's map must not change
  ptc::InMemoryFilesystem other;
  other.restore(token);  // a token is a state, whichever filesystem reads it
  EXPECT_EQ(other.read("a.txt"), "1");
  other.write("a.txt", "3");
  EXPECT_EQ(f.read("a.txt"), "2");
  f.restore(token);
  EXPECT_EQ(f.read("a.txt"), "1");
}

TEST(InMemoryFilesystem, ATokenHoldingNoMapIsRefused) {
  ptc::InMemoryFilesystem f;
  using Token =
      decltype(std::any_cast<std::shared_ptr<const std::map<std::string, std::string, std::less<>>>>(f.snapshot()));
  EXPECT_THROW(f.restore(std::any(Token{})), std::invalid_argument);
}

// ---------------------------------------------------------------------------------------------------
// HostFilesystem only

class HostFilesystemTest : public ::testing::Test {
 protected:
  // root/ is the filesystem; outside/ and root-sibling/ are next to it, out of its reach.
  fs::path root() const { return base_.path() / "root"; }
  fs::path outside() const { return base_.path() / "outside"; }
  fs::path base_path() const { return base_.path(); }

  void SetUp() override {
    fs::create_directory(root());
    fs::create_directory(outside());
    write_host_file(outside() / "secret.txt", "secret");
    files_ = std::make_unique<ptc::HostFilesystem>(root());
  }

  ptc::HostFilesystem& files() { return *files_; }

 private:
  TempDir base_;
  std::unique_ptr<ptc::HostFilesystem> files_;
};

TEST_F(HostFilesystemTest, RootMustBeAnExistingDirectory) {
  const fs::path missing = root() / "missing";
  const Caught e = fs_error([&] { ptc::HostFilesystem f(missing); });
  EXPECT_EQ(e.message, "Filesystem root '" + missing.string() + "' does not exist.");
  EXPECT_EQ(e.path, missing.string());

  write_host_file(root() / "file", "x");
  EXPECT_EQ(fs_message([&] { ptc::HostFilesystem f(root() / "file"); }),
            "Filesystem root '" + (root() / "file").string() + "' is not a directory.");
}

TEST_F(HostFilesystemTest, RootIsCanonical) {
  fs::create_directory(root() / "sub");
  ptc::HostFilesystem f(root() / "sub" / ".." / "." / "sub");
  EXPECT_EQ(f.root(), fs::canonical(root() / "sub"));
  EXPECT_TRUE(f.root().is_absolute());
}

TEST_F(HostFilesystemTest, WritesLandOnDiskAndFilesOnDiskAreRead) {
  files().write("notes/a.bin", kBinary);
  EXPECT_EQ(read_host_file(root() / "notes" / "a.bin"), kBinary);
  write_host_file(root() / "from" / "disk.txt", "disk");
  EXPECT_EQ(files().read("from/disk.txt"), "disk");
  EXPECT_EQ(files().list(), (Paths{"from/disk.txt", "notes/a.bin"}));
}

TEST_F(HostFilesystemTest, ListSkipsEmptyDirectories) {
  fs::create_directories(root() / "empty" / "deeper");
  files().write("a.txt", "x");
  EXPECT_EQ(files().list(), Paths{"a.txt"});
  EXPECT_TRUE(files().list("empty").empty());
}

TEST_F(HostFilesystemTest, SymlinkedDirectoryOutsideIsRefused) {
  fs::create_directory_symlink(outside(), root() / "out");
  const std::string expected = "Path 'out/secret.txt' escapes the filesystem root.";
  const Caught e = fs_error([&] { files().read("out/secret.txt"); });
  EXPECT_EQ(e.message, expected);
  EXPECT_EQ(e.path, "out/secret.txt");
  EXPECT_EQ(fs_message([&] { files().exists("out/secret.txt"); }), expected);
  EXPECT_EQ(fs_message([&] { files().remove("out/secret.txt"); }), expected);
  EXPECT_EQ(fs_message([&] { files().write("out/secret.txt", "pwned"); }), expected);
  EXPECT_EQ(fs_message([&] { files().write("out/new/file.txt", "x"); }),
            "Path 'out/new/file.txt' escapes the filesystem root.");
  EXPECT_EQ(fs_message([&] { files().list("out"); }), "Path 'out' escapes the filesystem root.");
  EXPECT_TRUE(files().list().empty());
  EXPECT_EQ(read_host_file(outside() / "secret.txt"), "secret");
  EXPECT_FALSE(fs::exists(outside() / "new"));
}

TEST_F(HostFilesystemTest, SymlinkedFileOutsideIsRefused) {
  fs::create_symlink(outside() / "secret.txt", root() / "link.txt");
  fs::create_symlink("../outside/secret.txt", root() / "relative-link.txt");
  for (const std::string link : {"link.txt", "relative-link.txt"}) {
    const std::string expected = "Path '" + link + "' escapes the filesystem root.";
    EXPECT_EQ(fs_message([&] { files().read(link); }), expected);
    EXPECT_EQ(fs_message([&] { files().write(link, "pwned"); }), expected);
    EXPECT_EQ(fs_message([&] { files().exists(link); }), expected);
  }
  EXPECT_TRUE(files().list().empty());
  // Removing a symlink removes the link, never its target.
  files().remove("link.txt");
  EXPECT_FALSE(fs::is_symlink(root() / "link.txt"));
  EXPECT_EQ(read_host_file(outside() / "secret.txt"), "secret");
}

// weakly_canonical stops at a dangling link; writing through it would create the target outside.
TEST_F(HostFilesystemTest, DanglingSymlinkOutsideIsRefused) {
  fs::create_symlink(outside() / "created-by-write.txt", root() / "dangling");
  EXPECT_EQ(fs_message([&] { files().write("dangling", "pwned"); }), "Path 'dangling' escapes the filesystem root.");
  EXPECT_FALSE(fs::exists(outside() / "created-by-write.txt"));
}

// Segment-wise containment: "<base>/root-sibling" starts with the text "<base>/root".
TEST_F(HostFilesystemTest, SiblingWithTheRootAsPrefixIsOutside) {
  write_host_file(base_path() / "root-sibling" / "x.txt", "sibling");
  fs::create_directory_symlink("../root-sibling", root() / "sib");
  EXPECT_EQ(fs_message([&] { files().read("sib/x.txt"); }), "Path 'sib/x.txt' escapes the filesystem root.");
}

TEST_F(HostFilesystemTest, SymlinksInsideTheRootAreFollowed) {
  write_host_file(root() / "real" / "a.txt", "a");
  fs::create_directory_symlink("real", root() / "alias");
  fs::create_symlink("real/a.txt", root() / "a-link.txt");

  EXPECT_EQ(files().read("alias/a.txt"), "a");
  EXPECT_EQ(files().read("a-link.txt"), "a");
  files().write("alias/b.txt", "b");
  EXPECT_EQ(read_host_file(root() / "real" / "b.txt"), "b");
  // Named as asked; the symlinked directory itself is not walked twice by a listing of the root.
  EXPECT_EQ(files().list("alias"), (Paths{"alias/a.txt", "alias/b.txt"}));
  EXPECT_EQ(files().list(), (Paths{"a-link.txt", "real/a.txt", "real/b.txt"}));
}

TEST_F(HostFilesystemTest, SymlinkLoopIsAnError) {
  fs::create_symlink("loop", root() / "loop");
  EXPECT_EQ(fs_message([&] { files().read("loop"); }), "Path 'loop' has too many levels of symbolic links.");
  EXPECT_TRUE(files().list().empty());
}

TEST_F(HostFilesystemTest, ASymlinkToTheRootIsADirectory) {
  fs::create_directory_symlink(".", root() / "self");
  EXPECT_EQ(fs_message([&] { files().write("self", "x"); }), "'self' is a directory.");
  files().write("self/a.txt", "a");
  EXPECT_EQ(files().list(), Paths{"a.txt"});
}

TEST_F(HostFilesystemTest, RestoreRemovesOnlyTheDirectoriesItsWritesCreated) {
  fs::create_directory(root() / "existing");
  const std::any token = files().snapshot();
  files().write("existing/new/deeper/file.txt", "x");
  ASSERT_TRUE(fs::is_directory(root() / "existing" / "new" / "deeper"));
  files().restore(token);
  EXPECT_FALSE(fs::exists(root() / "existing" / "new"));
  EXPECT_TRUE(fs::is_directory(root() / "existing"));
}

TEST_F(HostFilesystemTest, RestoreKeepsADirectorySomeoneElseFilled) {
  const std::any token = files().snapshot();
  files().write("new/file.txt", "x");
  write_host_file(root() / "new" / "theirs.txt", "not ours");
  files().restore(token);
  EXPECT_FALSE(fs::exists(root() / "new" / "file.txt"));
  EXPECT_EQ(read_host_file(root() / "new" / "theirs.txt"), "not ours");
}

TEST_F(HostFilesystemTest, RestoreThroughASymlinkRestoresTheRealFile) {
  write_host_file(root() / "real.txt", "0");
  fs::create_symlink("real.txt", root() / "link.txt");
  const std::any token = files().snapshot();
  files().write("link.txt", "1");
  files().write("real.txt", "2");
  files().remove("link.txt");
  files().restore(token);
  EXPECT_EQ(read_host_file(root() / "real.txt"), "0");
  EXPECT_TRUE(fs::is_symlink(root() / "link.txt"));
}

// The journal keeps nothing before the first snapshot, then only the first change of each file after
// each snapshot.
TEST_F(HostFilesystemTest, OnlyTheFirstChangeAfterASnapshotIsJournaled) {
  files().write("a.txt", "0");
  const std::any first = files().snapshot();
  EXPECT_EQ(files().journal_size(), 0u);
  files().write("a.txt", "1");
  files().write("a.txt", "2");
  files().remove("a.txt");
  EXPECT_EQ(files().journal_size(), 1u);
  const std::any second = files().snapshot();
  files().write("a.txt", "3");
  files().write("d/b.txt", "3");  // the directory "d" and the file
  files().write("d/b.txt", "4");
  EXPECT_EQ(files().journal_size(), 4u);
}

TEST_F(HostFilesystemTest, ATokenUndoneByAnEarlierRestoreIsRefused) {
  const std::any outer = files().snapshot();
  files().write("a.txt", "1");
  const std::any inner = files().snapshot();
  files().write("a.txt", "2");
  files().restore(outer);
  EXPECT_THROW(files().restore(inner), std::invalid_argument);
  EXPECT_FALSE(files().exists("a.txt"));
}

TEST_F(HostFilesystemTest, ReleasingTheLastSnapshotDropsTheJournal) {
  files().write("a.txt", "old");
  const std::any token = files().snapshot();
  files().write("a.txt", "new");
  files().write("b.txt", "new");
  EXPECT_EQ(files().journal_size(), 2u);
  files().release(token);
  EXPECT_EQ(files().journal_size(), 0u);
  files().write("a.txt", "newer");
  EXPECT_EQ(files().journal_size(), 0u) << "no snapshot outstanding: nothing to journal";
  EXPECT_EQ(files().read("a.txt"), "newer");
}

TEST_F(HostFilesystemTest, ReleasingAnInnerSnapshotKeepsWhatTheOuterNeeds) {
  files().write("a.txt", "0");
  const std::any outer = files().snapshot();
  files().write("a.txt", "1");
  const std::any inner = files().snapshot();
  files().write("b.txt", "1");
  files().release(inner);
  EXPECT_EQ(files().journal_size(), 2u);
  files().restore(outer);
  EXPECT_EQ(files().read("a.txt"), "0");
  EXPECT_FALSE(files().exists("b.txt"));
}

TEST_F(HostFilesystemTest, ReleaseRefusesAForeignToken) {
  EXPECT_THROW(files().release(std::any(std::string("x"))), std::invalid_argument);
}

TEST_F(HostFilesystemTest, ADanglingSymlinkInsideIsWrittenAtItsTarget) {
  fs::create_symlink("missing.txt", root() / "dangling-inside");
  files().write("dangling-inside", "x");
  EXPECT_EQ(read_host_file(root() / "missing.txt"), "x");
  EXPECT_EQ(files().read("dangling-inside"), "x");
}

// A FIFO would block a reader forever: it is not a file to read, and not one to overwrite.
TEST_F(HostFilesystemTest, NonRegularFilesAreNotFiles) {
  ASSERT_EQ(::mkfifo((root() / "fifo").c_str(), 0600), 0);
  EXPECT_EQ(fs_message([&] { files().read("fifo"); }), "File 'fifo' does not exist.");
  EXPECT_EQ(fs_message([&] { files().write("fifo", "x"); }), "'fifo' is not a regular file.");
  EXPECT_FALSE(files().exists("fifo"));
  EXPECT_TRUE(files().list().empty());
}

}  // namespace
