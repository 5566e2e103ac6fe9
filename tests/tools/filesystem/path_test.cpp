// normalize_path (filesystem/path.cpp): the one check every filesystem runs before it touches a path.

#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include <ptc/filesystem.hpp>

namespace {

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

// Segments that look like "." or ".." to a human or to another layer are ordinary names here: only the
// exact segments "." and ".." mean anything, and nothing is decoded.
INSTANTIATE_TEST_SUITE_P(
    LookAlikes, NormalizePath,
    ::testing::Values(NormalizeCase{" ../x", " ../x"}, NormalizeCase{".. /x", ".. /x"},
                      NormalizeCase{"..../x", "..../x"}, NormalizeCase{"%2e%2e/x", "%2e%2e/x"},
                      NormalizeCase{"~/x", "~/x"}, NormalizeCase{"C:/x", "C:/x"},
                      NormalizeCase{"..\\x", "..\\x"},  // not a separator, so not a climb either
                      NormalizeCase{"a/link -> b/c", "a/link -> b/c"}, NormalizeCase{"a/link -> b/../c", "a/c"},
                      NormalizeCase{"\xe2\x80\xa4\xe2\x80\xa4/x", "\xe2\x80\xa4\xe2\x80\xa4/x"},  // U+2024 twice
                      NormalizeCase{"a/./.././b", "b"}, NormalizeCase{"///a///", "a"},
                      NormalizeCase{"a/b/./../c/.", "a/c"}));

TEST(NormalizePathEdges, TheErrorQuotesThePathAsGivenNotAsNormalized) {
  auto result = ptc::normalize_path("/./a//../../secret");
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.error().message, "Path '/./a//../../secret' escapes the filesystem root.");
}

TEST(NormalizePathEdges, ANulIsRefusedBeforeAnythingElseIsRead) {
  // Checked first: a NUL hidden after a climb would otherwise be reported as the climb, or after a name
  // be cut off by the host's C string API.
  for (const std::string& path : {std::string("\0", 1), std::string("../\0", 4), std::string("a.txt\0.png", 10)}) {
    auto result = ptc::normalize_path(path);
    ASSERT_FALSE(result.ok());
    EXPECT_NE(result.error().message.find("contains a NUL byte"), std::string::npos) << result.error().message;
    EXPECT_EQ(result.error().message.find('\0'), std::string::npos) << "a NUL would cut what() short";
  }
}

TEST(NormalizePathEdges, VeryLongPathsKeepEveryByte) {
  const std::string name(100000, 'n');
  auto one = ptc::normalize_path("/" + name + "/");
  ASSERT_TRUE(one.ok());
  EXPECT_EQ(*one, name);

  std::string deep, expected;
  for (int i = 0; i < 20000; ++i) {
    deep += "d" + std::to_string(i % 10) + "//./";
    expected += (i ? "/d" : "d") + std::to_string(i % 10);
  }
  auto normalized = ptc::normalize_path(deep);
  ASSERT_TRUE(normalized.ok());
  EXPECT_EQ(*normalized, expected);
}

TEST(NormalizePathEdges, ClimbingBackExactlyToTheRootIsAllowedAndOneMoreIsNot) {
  std::string down, up;
  for (int i = 0; i < 10000; ++i) {
    down += "a/";
    up += "../";
  }
  auto root = ptc::normalize_path(down + up);
  ASSERT_TRUE(root.ok()) << root.error().message.substr(0, 80);
  EXPECT_EQ(*root, "");
  EXPECT_FALSE(ptc::normalize_path(down + up + "..").ok());
  EXPECT_FALSE(ptc::normalize_path(down + up + "../a").ok());
}

// Every path over a small alphabet of segments, against what a counter of depths says: a normalized
// path is a fixed point with no empty, "." or ".." segment, and a path escapes exactly when some prefix
// climbs above the root.
TEST(NormalizePathEdges, AgreesWithADepthCounterOnEveryShortPath) {
  const std::vector<std::string> pieces = {"a", "b.", ".", "..", "/", "\\"};
  std::vector<std::string> paths = {""};
  std::vector<std::string> frontier = {""};
  for (int length = 1; length <= 5; ++length) {
    std::vector<std::string> longer;
    for (const auto& p : frontier)
      for (const auto& piece : pieces) longer.push_back(p + piece);
    paths.insert(paths.end(), longer.begin(), longer.end());
    frontier = std::move(longer);
  }
  for (const auto& path : paths) {
    SCOPED_TRACE(path);
    std::vector<std::string> stack;
    bool escapes = false;
    std::string segment;
    for (std::size_t i = 0; i <= path.size(); ++i) {
      if (i < path.size() && path[i] != '/') {
        segment += path[i];
        continue;
      }
      if (segment == "..") {
        if (stack.empty()) escapes = true;
        if (!stack.empty()) stack.pop_back();
      } else if (!segment.empty() && segment != ".") {
        stack.push_back(segment);
      }
      segment.clear();
      if (escapes) break;
    }
    auto result = ptc::normalize_path(path);
    ASSERT_EQ(result.ok(), !escapes);
    if (escapes) continue;
    std::string expected;
    for (const auto& s : stack) expected += (expected.empty() ? "" : "/") + s;
    EXPECT_EQ(*result, expected);
    EXPECT_EQ(*ptc::normalize_path(*result), *result) << "normalizing twice changes nothing";
  }
}

}  // namespace
