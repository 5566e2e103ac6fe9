// HostFilesystem's confinement by descriptor, attacked: a symlink swapped in while calls run, with both
// resolvers (openat2 and the component walk); snapshot tokens of other filesystems or already released;
// the file size limit.
#include <atomic>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <thread>

#include <fcntl.h>
#include <gtest/gtest.h>
#include <stdio.h>

#include <ptc/filesystem.hpp>

namespace fs = std::filesystem;

namespace {

using Resolver = ptc::HostFilesystem::Resolver;

class Dir {
 public:
  Dir() {
    std::random_device random;
    path_ = fs::temp_directory_path() / ("ptc-host-test-" + std::to_string(random()));
    fs::create_directories(path_);
  }
  ~Dir() {
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

std::string slurp(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void put(const fs::path& file, const std::string& content) { std::ofstream(file, std::ios::binary) << content; }

class HostConfinement : public ::testing::TestWithParam<Resolver> {
 protected:
  void SetUp() override {
    fs::create_directories(root() / "d");
    fs::create_directories(outside());
    put(root() / "d" / "f.txt", "inside");
    put(outside() / "f.txt", "SECRET");
  }
  fs::path root() const { return dir_.path() / "root"; }
  fs::path outside() const { return dir_.path() / "outside"; }
  ptc::HostFilesystem open(std::size_t max_bytes = ptc::limits::kFileBytes) const {
    return ptc::HostFilesystem(root(), {max_bytes, GetParam()});
  }

 private:
  Dir dir_;
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
    EXPECT_EQ(slurp(outside() / "f.txt"), "SECRET");
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
  EXPECT_EQ(slurp(root() / "d" / "g.txt"), "g");
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
  EXPECT_EQ(slurp(root() / "d" / "f.txt"), "inside");
}

TEST_P(HostConfinement, AFileOverTheLimitIsRefusedBeforeItIsRead) {
  put(root() / "big.txt", std::string(101, 'x'));
  auto files = open(100);
  try {
    files.read("big.txt");
    ADD_FAILURE() << "read past the limit";
  } catch (const ptc::FilesystemError& e) {
    EXPECT_STREQ(e.what(), "File 'big.txt' is larger than the limit of 100 bytes.");
  }
  put(root() / "ok.txt", std::string(100, 'x'));
  EXPECT_EQ(files.read("ok.txt").size(), 100u);
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
  Dir a, b;
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
  Dir a;
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

}  // namespace
