// HostFilesystem (filesystem/host.cpp): its root, confinement by descriptor attacked (a symlink swapped
// in while calls run, with both resolvers: openat2 and the component walk; symlinks inside and outside;
// FIFOs), the journal behind its snapshots and their tokens (of other filesystems, already released), the
// file size limit, and what it says of a FIFO, socket, device or dangling symlink. The behaviour it shares
// with InMemoryFilesystem is in contract_test.
#include <algorithm>
#include <any>
#include <atomic>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include <fcntl.h>
#include <gtest/gtest.h>
#include <stdio.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/un.h>
#include <unistd.h>

#include <ptc/filesystem.hpp>

#include "fixtures.hpp"

namespace {

using namespace ptc_test;
using Resolver = ptc::HostFilesystem::Resolver;

class HostConfinement : public ::testing::TestWithParam<Resolver> {
 protected:
  void SetUp() override {
    fs::create_directories(root() / "d");
    fs::create_directories(outside());
    write_host_file(root() / "d" / "f.txt", "inside");
    write_host_file(outside() / "f.txt", "SECRET");
  }
  fs::path root() const { return dir_.path() / "root"; }
  fs::path outside() const { return dir_.path() / "outside"; }
  ptc::HostFilesystem open(std::size_t max_bytes = ptc::limits::kFileBytes) const {
    return ptc::HostFilesystem(root(), {max_bytes, GetParam()});
  }

 private:
  TempDir dir_;
};

// Another process keeps exchanging root/d with a symlink to a directory outside (renameat2's
// RENAME_EXCHANGE swaps the two names atomically) while reads and writes go through root/d. Whatever the
// interleaving, no read may return the outside file and nothing outside may change: the property holds
// on every schedule, so the test cannot be flaky, only catch an escape or not.
TEST_P(HostConfinement, ASymlinkSwappedInDuringCallsNeverLetsThemOut) {
  for (const std::string& target : {outside().string(), std::string("../outside")}) {
    fs::remove(root() / "swap");
    fs::create_directory_symlink(target, root() / "swap");
    auto files = open();
    std::atomic<bool> stop{false};
    std::atomic<long> swaps{0};
    std::thread swapper([&] {
      const std::string d = (root() / "d").string(), swap = (root() / "swap").string();
      while (!stop.load()) {
        if (::renameat2(AT_FDCWD, d.c_str(), AT_FDCWD, swap.c_str(), RENAME_EXCHANGE) == 0) ++swaps;
      }
    });
    int inside_reads = 0;
    for (int i = 0; i < 3000; ++i) {
      try {
        switch (i % 3) {
          case 0: {
            const std::string content = files.read("d/f.txt");
            ASSERT_EQ(content, "inside") << "read escaped the root";
            ++inside_reads;
            break;
          }
          case 1: files.write("d/f.txt", "inside"); break;
          default: files.write("d/new-" + std::to_string(i) + ".txt", "x"); break;
        }
      } catch (const ptc::FilesystemError&) {
        // Refused while d was the symlink: the right answer.
      }
    }
    stop = true;
    swapper.join();
    EXPECT_GT(swaps.load(), 0);
    EXPECT_GT(inside_reads, 0);
    EXPECT_EQ(read_host_file(outside() / "f.txt"), "SECRET");
    int outside_entries = 0;
    for ([[maybe_unused]] const auto& entry : fs::directory_iterator(outside())) ++outside_entries;
    EXPECT_EQ(outside_entries, 1) << "a write created a file outside the root";
    // Leave d a directory for the next round.
    if (fs::is_symlink(root() / "d"))
      ::renameat2(AT_FDCWD, (root() / "d").c_str(), AT_FDCWD, (root() / "swap").c_str(), RENAME_EXCHANGE);
  }
}

TEST_P(HostConfinement, SymlinksInsideTheRootAreFollowedAndOutsideRefused) {
  fs::create_directory_symlink("d", root() / "alias");
  fs::create_symlink("../../outside/f.txt", root() / "d" / "up.txt");
  auto files = open();
  EXPECT_EQ(files.read("alias/f.txt"), "inside");
  files.write("alias/g.txt", "g");
  EXPECT_EQ(read_host_file(root() / "d" / "g.txt"), "g");
  try {
    files.read("d/up.txt");
    ADD_FAILURE() << "read through ../outside";
  } catch (const ptc::FilesystemError& e) {
    EXPECT_STREQ(e.what(), "Path 'd/up.txt' escapes the filesystem root.");
  }
  EXPECT_EQ(files.list(), (std::vector<std::string>{"d/f.txt", "d/g.txt"}));
}

TEST_P(HostConfinement, RemovingASymlinkRemovesTheLinkNotItsTarget) {
  fs::create_symlink("d/f.txt", root() / "link.txt");
  auto files = open();
  files.remove("link.txt");
  EXPECT_FALSE(fs::is_symlink(root() / "link.txt"));
  EXPECT_EQ(read_host_file(root() / "d" / "f.txt"), "inside");
}

TEST_P(HostConfinement, AFileOverTheLimitIsRefusedBeforeItIsRead) {
  write_host_file(root() / "big.txt", std::string(101, 'x'));
  auto files = open(100);
  try {
    files.read("big.txt");
    ADD_FAILURE() << "read past the limit";
  } catch (const ptc::FilesystemError& e) {
    EXPECT_STREQ(e.what(), "File 'big.txt' is larger than the limit of 100 bytes.");
  }
  write_host_file(root() / "ok.txt", std::string(100, 'x'));
  EXPECT_EQ(files.read("ok.txt").size(), 100u);
}

// What is not a regular file is named, through a symlink too, under both resolvers; only the leaf of a
// dangling symlink is a "symbolic link whose target does not exist", and one that points out of the
// root is an escape whether its target exists or not.
TEST_P(HostConfinement, WhatIsNotARegularFileIsNamedForWhatItIs) {
  ASSERT_EQ(::mkfifo((root() / "d" / "fifo").c_str(), 0600), 0);
  fs::create_symlink("d/fifo", root() / "fifo-link");
  fs::create_directory_symlink("d", root() / "dir-link");
  fs::create_symlink("d/missing.txt", root() / "dangling");
  fs::create_symlink("dangling", root() / "to-dangling");
  fs::create_symlink("d/f.txt/below", root() / "below-a-file");
  fs::create_symlink("../../outside/missing.txt", root() / "d" / "out-missing");
  fs::create_directory_symlink("missing-dir", root() / "d" / "gone");
  auto files = open();
  auto read = [&](const std::string& path) { return fs_message([&] { files.read(path); }); };
  EXPECT_EQ(read("d"), "File 'd' is a directory.");
  EXPECT_EQ(read("dir-link"), "File 'dir-link' is a directory.");
  EXPECT_EQ(read("d/fifo"), "File 'd/fifo' is not a regular file (a FIFO).");
  EXPECT_EQ(read("fifo-link"), "File 'fifo-link' is not a regular file (a FIFO).");
  EXPECT_EQ(read("dangling"), "File 'dangling' is a symbolic link whose target does not exist.");
  EXPECT_EQ(read("to-dangling"), "File 'to-dangling' is a symbolic link whose target does not exist.");
  EXPECT_EQ(read("below-a-file"), "File 'below-a-file' is a symbolic link whose target does not exist.");
  EXPECT_EQ(read("d/out-missing"), "Path 'd/out-missing' escapes the filesystem root.");
  EXPECT_EQ(read("d/gone/x.txt"), "File 'd/gone/x.txt' does not exist.");
  EXPECT_EQ(read("d/missing.txt"), "File 'd/missing.txt' does not exist.");
  EXPECT_EQ(fs_message([&] { files.remove("dir-link/fifo"); }), "File 'dir-link/fifo' is not a regular file (a FIFO).");
  files.remove("dir-link");  // the link, not the directory it names
  EXPECT_FALSE(fs::is_symlink(root() / "dir-link"));
  EXPECT_TRUE(fs::is_fifo(root() / "d" / "fifo"));
  // A dangling symlink is still a link to remove, and removing it leaves nothing behind.
  files.remove("dangling");
  EXPECT_FALSE(fs::is_symlink(root() / "dangling"));
  EXPECT_EQ(read("dangling"), "File 'dangling' does not exist.");
  EXPECT_EQ(read_host_file(outside() / "f.txt"), "SECRET");
}

INSTANTIATE_TEST_SUITE_P(Resolvers, HostConfinement, ::testing::Values(Resolver::Auto, Resolver::Walk),
                         [](const auto& p) { return p.param == Resolver::Auto ? "openat2" : "walk"; });

std::string invalid_argument_of(const std::function<void()>& call) {
  try {
    call();
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "(no exception)";
}

TEST(HostSnapshotTokens, ATokenOfAnotherFilesystemIsRefused) {
  TempDir a, b;
  ptc::HostFilesystem first(a.path()), second(b.path());
  first.write("x.txt", "1");
  const std::any token = second.snapshot();
  EXPECT_EQ(invalid_argument_of([&] { first.restore(token); }),
            "HostFilesystem::restore: the token is a snapshot of another filesystem.");
  EXPECT_EQ(invalid_argument_of([&] { first.release(token); }),
            "HostFilesystem::release: the token is a snapshot of another filesystem.");
  EXPECT_EQ(first.read("x.txt"), "1");
}

TEST(HostSnapshotTokens, AReleasedTokenIsRefusedInsteadOfUndoingLaterChanges) {
  TempDir a;
  ptc::HostFilesystem files(a.path());
  files.write("x.txt", "0");
  const std::any released = files.snapshot();
  files.write("x.txt", "1");
  files.release(released);
  const std::any later = files.snapshot();
  files.write("x.txt", "2");
  EXPECT_EQ(invalid_argument_of([&] { files.restore(released); }),
            "HostFilesystem::restore: the snapshot was already released or undone by an earlier restore.");
  EXPECT_EQ(files.read("x.txt"), "2");
  files.restore(later);
  EXPECT_EQ(files.read("x.txt"), "1");
}

// ---- the HostFilesystem itself: root, symlinks, journal ------------------------------------------

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
  EXPECT_EQ(fs_message([&] { files().write("self", "x"); }), "File 'self' is a directory.");
  EXPECT_EQ(fs_message([&] { files().read("self"); }), "File 'self' is a directory.");
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

// A FIFO would block a reader forever: it is not a file to read, and not one to overwrite or remove.
TEST_F(HostFilesystemTest, AFifoIsNamedAndNeverBlocks) {
  ASSERT_EQ(::mkfifo((root() / "fifo").c_str(), 0600), 0);
  const std::string expected = "File 'fifo' is not a regular file (a FIFO).";
  const Caught read = fs_error([&] { files().read("fifo"); });
  EXPECT_EQ(read.message, expected);
  EXPECT_EQ(read.path, "fifo");
  EXPECT_EQ(fs_message([&] { files().write("fifo", "x"); }), expected);
  EXPECT_EQ(fs_message([&] { files().remove("fifo"); }), expected);
  EXPECT_TRUE(fs::is_fifo(root() / "fifo"));
  EXPECT_FALSE(files().exists("fifo"));
  EXPECT_TRUE(files().list().empty());
}

// open() refuses a socket (ENXIO), so its kind comes from the descriptor that only names it.
TEST_F(HostFilesystemTest, ASocketIsNamed) {
  const int sock = ::socket(AF_UNIX, SOCK_STREAM, 0);
  ASSERT_GE(sock, 0);
  sockaddr_un address{};
  address.sun_family = AF_UNIX;
  const std::string where = (root() / "sock").string();
  ASSERT_LT(where.size(), sizeof address.sun_path);
  std::copy(where.begin(), where.end(), address.sun_path);
  ASSERT_EQ(::bind(sock, reinterpret_cast<const sockaddr*>(&address), sizeof address), 0);
  EXPECT_EQ(fs_message([&] { files().read("sock"); }), "File 'sock' is not a regular file (a socket).");
  EXPECT_EQ(fs_message([&] { files().write("sock", "x"); }), "File 'sock' is not a regular file (a socket).");
  EXPECT_FALSE(files().exists("sock"));
  ::close(sock);
}

// A device node is named without its driver being asked to open it. Making one needs CAP_MKNOD; the
// same code path is checked on /dev/null through a root that holds it.
TEST_F(HostFilesystemTest, ADeviceIsNamed) {
  if (::mknod((root() / "null").c_str(), S_IFCHR | 0600, ::makedev(1, 3)) != 0) {
    ptc::HostFilesystem dev("/dev");
    EXPECT_EQ(fs_message([&] { dev.read("null"); }), "File 'null' is not a regular file (a character device).");
    EXPECT_EQ(fs_message([&] { dev.read("zero"); }), "File 'zero' is not a regular file (a character device).");
    EXPECT_FALSE(dev.exists("null"));
    return;
  }
  EXPECT_EQ(fs_message([&] { files().read("null"); }), "File 'null' is not a regular file (a character device).");
  EXPECT_EQ(fs_message([&] { files().remove("null"); }), "File 'null' is not a regular file (a character device).");
  EXPECT_FALSE(files().exists("null"));
  EXPECT_TRUE(files().list().empty());
}

}  // namespace
