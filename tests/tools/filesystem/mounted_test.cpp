// MountedFilesystem: filesystems under one, each a top-level directory by name. What goes through to
// the mounts, what the root refuses, errors naming the whole path, and snapshots of every mount at once.

#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <ptc/filesystem.hpp>

#include "fixtures.hpp"

namespace {

using namespace ptc_test;

struct Mounted {
  TempDir dir;
  std::shared_ptr<ptc::HostFilesystem> host = std::make_shared<ptc::HostFilesystem>(dir.path());
  std::shared_ptr<ptc::InMemoryFilesystem> memory = std::make_shared<ptc::InMemoryFilesystem>();
  ptc::MountedFilesystem files{{{"app", host}, {"notes", memory}}};
};

TEST(MountedFilesystem, EachMountIsATopLevelDirectory) {
  Mounted m;
  m.files.write("app/src/main.cpp", "int main() {}");
  m.files.write("notes/todo.md", "- ship");
  EXPECT_EQ(read_host_file(m.dir.path() / "src/main.cpp"), "int main() {}");
  EXPECT_EQ(m.memory->read("todo.md"), "- ship");
  EXPECT_EQ(m.files.read("/app/./src//main.cpp"), "int main() {}");
  EXPECT_TRUE(m.files.exists("notes/todo.md"));
  EXPECT_FALSE(m.files.exists("notes"));  // a directory
  EXPECT_FALSE(m.files.exists("other/x"));
  EXPECT_EQ(m.files.list(), (Paths{"app/src/main.cpp", "notes/todo.md"}));
  EXPECT_EQ(m.files.list("app/src"), (Paths{"app/src/main.cpp"}));
  // ".." moves between mounts as between directories, and not above the root.
  EXPECT_EQ(m.files.read("app/../notes/todo.md"), "- ship");
  m.files.remove("notes/todo.md");
  EXPECT_FALSE(m.memory->exists("todo.md"));
}

TEST(MountedFilesystem, TheRootHoldsOnlyTheMounts) {
  Mounted m;
  EXPECT_EQ(fs_error([&] { m.files.read(""); }).message, "File '' is a directory.");
  EXPECT_EQ(fs_error([&] { m.files.read("app"); }).message, "File 'app' is a directory.");
  EXPECT_EQ(fs_error([&] { m.files.write("", "x"); }).message, "Path '' is not a file.");
  EXPECT_EQ(fs_error([&] { m.files.write("app", "x"); }).message, "File 'app' is a directory.");
  EXPECT_EQ(fs_error([&] { m.files.remove("notes"); }).message, "File 'notes' is a directory.");
  const Caught outside = fs_error([&] { m.files.write("readme.md", "x"); });
  EXPECT_EQ(outside.message, "Path 'readme.md' is outside the mounted directories.");
  EXPECT_EQ(outside.path, "readme.md");
  EXPECT_EQ(fs_error([&] { m.files.read("etc/passwd"); }).message,
            "Path 'etc/passwd' is outside the mounted directories.");
  EXPECT_EQ(fs_error([&] { m.files.read("app/../../x"); }).message, "Path 'app/../../x' escapes the filesystem root.");
}

TEST(MountedFilesystem, AMountsErrorsNameTheWholePath) {
  Mounted m;
  const Caught missing = fs_error([&] { m.files.read("app/none.txt"); });
  EXPECT_EQ(missing.message, "File 'app/none.txt' does not exist.");
  EXPECT_EQ(missing.path, "app/none.txt");
  EXPECT_EQ(fs_error([&] { m.files.read("notes/none.txt"); }).message, "File 'notes/none.txt' does not exist.");
}

TEST(MountedFilesystem, ASymlinkCannotLeadFromOneMountIntoAnother) {
  TempDir outer;
  fs::create_directories(outer.path() / "a");
  fs::create_directories(outer.path() / "b");
  write_host_file(outer.path() / "b/secret.txt", "no");
  fs::create_symlink(outer.path() / "b/secret.txt", outer.path() / "a/link");
  ptc::MountedFilesystem files{{{"a", std::make_shared<ptc::HostFilesystem>(outer.path() / "a")}}};
  EXPECT_EQ(fs_error([&] { files.read("a/link"); }).message, "Path 'a/link' escapes the filesystem root.");
}

TEST(MountedFilesystem, WithNoMountEveryPathIsRefused) {
  ptc::MountedFilesystem none{{}};
  EXPECT_EQ(fs_error([&] { none.read("x"); }).message, "Path 'x' is outside the mounted directories.");
  EXPECT_EQ(fs_error([&] { none.write("a/b", "x"); }).message, "Path 'a/b' is outside the mounted directories.");
  EXPECT_FALSE(none.exists("x"));
  EXPECT_TRUE(none.list().empty());
}

TEST(MountedFilesystem, ASnapshotIsOneOfEachMount) {
  Mounted m;
  m.files.write("app/a.txt", "1");
  m.files.write("notes/b.txt", "1");
  const std::any token = m.files.snapshot();
  m.files.write("app/a.txt", "2");
  m.files.write("notes/b.txt", "2");
  m.files.write("app/new.txt", "2");
  m.files.restore(token);
  EXPECT_EQ(m.files.read("app/a.txt"), "1");
  EXPECT_EQ(m.files.read("notes/b.txt"), "1");
  EXPECT_FALSE(m.files.exists("app/new.txt"));
  EXPECT_FALSE(fs::exists(m.dir.path() / "new.txt"));
  const std::any kept = m.files.snapshot();
  m.files.release(kept);
  EXPECT_EQ(m.host->journal_size(), 0u);
  ptc::MountedFilesystem other{{}};
  EXPECT_THROW(m.files.restore(other.snapshot()), std::invalid_argument);
}

TEST(MountedFilesystem, NamesMustBeOnePathSegmentEachUsedOnce) {
  auto memory = std::make_shared<ptc::InMemoryFilesystem>();
  for (const char* bad : {"", ".", "..", "a/b"})
    EXPECT_THROW(ptc::MountedFilesystem({{bad, memory}}), std::invalid_argument) << bad;
  EXPECT_THROW(ptc::MountedFilesystem({{"a", memory}, {"a", memory}}), std::invalid_argument);
  EXPECT_THROW(ptc::MountedFilesystem({{"a", nullptr}}), std::invalid_argument);
}

}  // namespace
