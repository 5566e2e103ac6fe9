// InMemoryFilesystem (filesystem/memory.cpp): files as a copy-on-write map, directories as prefixes of
// its keys, snapshots as shared maps. The behaviour it shares with HostFilesystem is in contract_test.

#include <any>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include <ptc/filesystem.hpp>

#include "fixtures.hpp"

namespace {

using namespace ptc_test;

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

// The root, and paths that normalize to it, name a directory: nothing can be written there.
TEST(InMemoryFilesystem, TheRootIsNotAFile) {
  ptc::InMemoryFilesystem f;
  for (const char* root : {"", "/", ".", "a/..", "//./"}) {
    SCOPED_TRACE(root);
    const Caught e = fs_error([&] { f.write(root, "x"); });
    EXPECT_EQ(e.message, "Path '' is not a file.");
    EXPECT_EQ(e.path, "");
  }
  EXPECT_TRUE(f.list().empty());
}

TEST(InMemoryFilesystem, RefusedPathsAreNamedAsGiven) {
  ptc::InMemoryFilesystem f;
  const Caught climb = fs_error([&] { f.write("a/../../x", "pwned"); });
  EXPECT_EQ(climb.message, "Path 'a/../../x' escapes the filesystem root.");
  EXPECT_EQ(climb.path, "a/../../x");
  const std::string with_nul("a\0b", 3);
  const Caught nul = fs_error([&] { f.read(with_nul); });
  EXPECT_EQ(nul.message, "Path 'a\\0b' contains a NUL byte.");
  EXPECT_EQ(nul.path, with_nul);
  EXPECT_EQ(fs_message([&] { f.list("../"); }), "Path '../' escapes the filesystem root.");
  EXPECT_EQ(fs_message([&] { (void)f.exists(".."); }), "Path '..' escapes the filesystem root.");
  EXPECT_TRUE(f.list().empty());
}

TEST(InMemoryFilesystem, AFileBlocksEveryPathBelowItAtAnyDepth) {
  ptc::InMemoryFilesystem f;
  f.write("a", "file");
  EXPECT_EQ(fs_message([&] { f.write("a/b", "x"); }), "Cannot write 'a/b': 'a' is a file.");
  EXPECT_EQ(fs_message([&] { f.write("a/b/c/d", "x"); }), "Cannot write 'a/b/c/d': 'a' is a file.");
  f.write("x/y", "file");
  EXPECT_EQ(fs_message([&] { f.write("x/y/z", "x"); }), "Cannot write 'x/y/z': 'x/y' is a file.");
  EXPECT_EQ(f.list(), (Paths{"a", "x/y"}));
}

// Directories are prefixes of keys, and the map orders '.' (0x2e) before '/' (0x2f) before '0' (0x30):
// names that share a prefix with a directory, on either side of '/', are neither inside it nor it.
TEST(InMemoryFilesystem, NamesSharingAPrefixAreNotTheDirectory) {
  ptc::InMemoryFilesystem f;
  f.write("a.b/x", "1");
  f.write("a0/x", "2");
  f.write("ab/x", "3");
  f.write("a", "4");  // a file: no key starts with "a/"
  EXPECT_EQ(f.read("a"), "4");
  EXPECT_TRUE(f.list("a").empty());
  EXPECT_EQ(f.list(), (Paths{"a", "a.b/x", "a0/x", "ab/x"}));
  f.write("d/x", "5");
  EXPECT_EQ(fs_message([&] { f.write("d", "6"); }), "File 'd' is a directory.");
  EXPECT_EQ(fs_message([&] { f.read("d."); }), "File 'd.' does not exist.");
  EXPECT_EQ(fs_message([&] { f.read("d0"); }), "File 'd0' does not exist.");
  EXPECT_EQ(f.list("d"), Paths{"d/x"});
}

TEST(InMemoryFilesystem, ADirectoryIsNeitherReadNorRemovedNorAFile) {
  ptc::InMemoryFilesystem f;
  f.write("d/e/x", "1");
  EXPECT_FALSE(f.exists("d"));
  EXPECT_FALSE(f.exists("d/e"));
  EXPECT_EQ(fs_message([&] { f.read("d"); }), "File 'd' is a directory.");
  EXPECT_EQ(fs_message([&] { f.remove("d/e"); }), "File 'd/e' is a directory.");
  EXPECT_EQ(f.list("d"), Paths{"d/e/x"});
  f.remove("d/e/x");
  EXPECT_TRUE(f.list("d").empty()) << "a directory lives only as long as a file under it";
  EXPECT_EQ(fs_message([&] { f.read("d"); }), "File 'd' does not exist.");
  f.write("d", "now a file");
  EXPECT_EQ(f.read("d"), "now a file");
}

TEST(InMemoryFilesystem, OddButLegalNamesAreFilesOfTheirOwn) {
  ptc::InMemoryFilesystem f;
  for (const char* name : {"...", ".hidden", "a..b", "a\\b", " ", "-", "link -> target", "\xc3\xa9"}) {
    f.write(name, name);
  }
  for (const char* name : {"...", ".hidden", "a..b", "a\\b", " ", "-", "link -> target", "\xc3\xa9"}) {
    EXPECT_EQ(f.read(name), name);
  }
  EXPECT_EQ(f.list().size(), 8u);
  EXPECT_TRUE(f.list("a").empty()) << "a backslash does not make a directory";
}

TEST(InMemoryFilesystem, LongPathsAndLargeContentKeepEveryByte) {
  ptc::InMemoryFilesystem f;
  std::string deep;
  for (int i = 0; i < 5000; ++i) deep += "d" + std::to_string(i) + "/";
  deep += "leaf.bin";
  std::string content = kBinary;
  for (int i = 0; i < 16; ++i) content += content;  // 22 bytes * 65536
  f.write("/" + deep, content);
  EXPECT_EQ(f.read(deep), content);
  EXPECT_EQ(f.list("d0/d1"), Paths{deep});
  const std::string name(1 << 16, 'n');
  f.write(name, "x");
  EXPECT_TRUE(f.exists("./" + name));
}

TEST(InMemoryFilesystem, ARestoredTokenStaysTheStateItWasWhateverHappensAfter) {
  ptc::InMemoryFilesystem f;
  f.write("a.txt", "1");
  const std::any token = f.snapshot();
  for (int round = 0; round < 3; ++round) {
    f.restore(token);  // the map is the token's now: the next change must copy it, not write into it
    f.write("a.txt", "changed " + std::to_string(round));
    f.write("b.txt", "new");
    f.remove("a.txt");
  }
  f.restore(token);
  EXPECT_EQ(f.read("a.txt"), "1");
  EXPECT_FALSE(f.exists("b.txt"));
}

TEST(InMemoryFilesystem, RestoreRefusesWhatIsNotItsToken) {
  ptc::InMemoryFilesystem f;
  f.write("a.txt", "1");
  EXPECT_THROW(f.restore(std::any()), std::invalid_argument);
  EXPECT_THROW(f.restore(std::any(std::string("a.txt"))), std::invalid_argument);
  EXPECT_THROW(f.restore(std::any(std::make_shared<std::map<std::string, std::string>>())), std::invalid_argument)
      << "a map of another type is not a snapshot";
  EXPECT_EQ(f.read("a.txt"), "1");
}

// One thread counts up in a file while another keeps taking snapshots and reading them through other
// filesystems: every snapshot must be a whole state (a number the writer wrote, never less than one seen
// before), however the copy-on-write and the snapshots interleave. The readers keep their snapshots
// until the writer is done: a snapshot dropped while it runs hands the map back to the writer through the
// reference count and an acquire fence, which is correct but invisible to ThreadSanitizer (it does not
// model fences), and scripts/test.sh runs this test under it.
TEST(InMemoryFilesystem, SnapshotsTakenWhileAWriterRunsAreWholeStates) {
  ptc::InMemoryFilesystem f;
  f.write("n", "0");
  constexpr int kWrites = 2000;
  std::thread writer([&] {
    for (int i = 1; i <= kWrites; ++i) f.write("n", std::to_string(i));
  });
  std::vector<std::unique_ptr<ptc::InMemoryFilesystem>> readers;
  int last = 0;
  bool ordered = true;
  for (int i = 0; i < 500; ++i) {
    auto& reader = *readers.emplace_back(std::make_unique<ptc::InMemoryFilesystem>());
    reader.restore(f.snapshot());
    const int seen = std::stoi(reader.read("n"));
    ordered = ordered && seen >= last && seen <= kWrites;
    last = seen;
  }
  writer.join();
  EXPECT_TRUE(ordered);
  EXPECT_EQ(f.read("n"), std::to_string(kWrites));
}

}  // namespace
