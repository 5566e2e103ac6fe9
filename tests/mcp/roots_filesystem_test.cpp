// The filesystem of a client's roots (ServerOptions::roots_filesystem): file: URIs read as paths, one
// root as the filesystem itself, several mounted by name, and roots outside the operator's bound, or
// not directories, left out.

#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "roots_filesystem.hpp"

namespace {

namespace fs = std::filesystem;
using ptc::mcp::file_uri_path;
using ptc::mcp::roots_filesystem;

struct Tree {
  Tree() {
    std::random_device random;
    base = fs::temp_directory_path() / ("ptc-roots-" + std::to_string(random()));
    for (const char* dir : {"bound/app", "bound/lib", "bound/my docs", "outside"}) fs::create_directories(base / dir);
    std::ofstream(base / "bound/app/a.txt") << "app";
    std::ofstream(base / "bound/lib/b.txt") << "lib";
    std::ofstream(base / "bound/my docs/c.txt") << "docs";
    std::ofstream(base / "outside/secret.txt") << "no";
  }
  ~Tree() {
    std::error_code ec;
    fs::remove_all(base, ec);
  }
  std::string uri(const std::string& below) const { return "file://" + (base / below).string(); }
  fs::path base;
};

std::string read_or_error(ptc::Filesystem& files, const std::string& path) {
  try {
    return files.read(path);
  } catch (const ptc::FilesystemError& e) {
    return std::string("error: ") + e.what();
  }
}

TEST(FileUriPath, AbsoluteLocalPathsPercentDecoded) {
  EXPECT_EQ(file_uri_path("file:///home/me/a%20b"), "/home/me/a b");
  EXPECT_EQ(file_uri_path("file://localhost/srv/x"), "/srv/x");
  EXPECT_EQ(file_uri_path("file:///"), "/");
  EXPECT_EQ(file_uri_path("file://server/share"), std::nullopt);  // another host
  EXPECT_EQ(file_uri_path("https://example.com/x"), std::nullopt);
  EXPECT_EQ(file_uri_path("file:relative"), std::nullopt);
  EXPECT_EQ(file_uri_path("file:///a%00b"), std::nullopt);
  EXPECT_EQ(file_uri_path(""), std::nullopt);
}

TEST(RootsFilesystem, OneRootIsTheFilesystemItself) {
  Tree t;
  auto files = roots_filesystem({{t.uri("bound/app"), "App"}}, t.base / "bound");
  EXPECT_EQ(read_or_error(*files, "a.txt"), "app");
  EXPECT_EQ(read_or_error(*files, "../lib/b.txt"), "error: Path '../lib/b.txt' escapes the filesystem root.");
}

TEST(RootsFilesystem, SeveralRootsAreMountedByNameOrDirectory) {
  Tree t;
  auto files = roots_filesystem({{t.uri("bound/app"), "App"},
                                 {t.uri("bound/lib"), ""},
                                 {t.uri("bound/my%20docs"), "a/b"},
                                 {t.uri("bound/lib"), "App"}},
                                t.base / "bound");
  EXPECT_EQ(files->list(), (std::vector<std::string>{"App-2/b.txt", "App/a.txt", "lib/b.txt", "my docs/c.txt"}));
  EXPECT_EQ(read_or_error(*files, "my docs/c.txt"), "docs");
}

TEST(RootsFilesystem, RootsOutsideTheBoundOrNotDirectoriesAreLeftOut) {
  Tree t;
  fs::create_directory_symlink(t.base / "outside", t.base / "bound/escape");
  auto files = roots_filesystem({{t.uri("outside"), "out"},
                                 {t.uri("bound/escape"), "link"},  // resolves outside
                                 {t.uri("bound/app/a.txt"), "file"},
                                 {t.uri("bound/none"), "gone"},
                                 {"https://example.com/repo", "web"},
                                 {"file:///", "everything"}},
                                t.base / "bound");
  EXPECT_TRUE(files->list().empty());
  EXPECT_EQ(read_or_error(*files, "out/secret.txt"),
            "error: Path 'out/secret.txt' is outside the mounted directories.");
  EXPECT_EQ(read_or_error(*files, "secret.txt"), "error: Path 'secret.txt' is outside the mounted directories.");
  // The bound itself is inside the bound, and "/" bounds nothing.
  EXPECT_EQ(read_or_error(*roots_filesystem({{t.uri("bound"), ""}}, t.base / "bound"), "app/a.txt"), "app");
  EXPECT_EQ(read_or_error(*roots_filesystem({{t.uri("outside"), ""}}, "/"), "secret.txt"), "no");
  // A bound that does not exist lets nothing in.
  EXPECT_TRUE(roots_filesystem({{t.uri("bound/app"), ""}}, t.base / "missing")->list().empty());
}

}  // namespace
