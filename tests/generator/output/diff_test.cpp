// generator/output/diff.cpp: the unified diffs --check prints.
#include <string>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <llvm/Support/raw_ostream.h>

#include "output/diff.hpp"

namespace {

using ::testing::HasSubstr;

std::string diff(const std::string& before, const std::string& after) {
  std::string text;
  llvm::raw_string_ostream out(text);
  ptcgen::output::unified_diff(before, "old.txt", after, "new.txt", out);
  return out.str();
}

TEST(UnifiedDiff, NamesBothSidesAndMarksChangedLines) {
  const std::string d = diff("a\nb\nc\n", "a\nB\nc\n");
  EXPECT_THAT(d, HasSubstr("old.txt"));
  EXPECT_THAT(d, HasSubstr("new.txt"));
  EXPECT_THAT(d, HasSubstr("\n-b\n"));
  EXPECT_THAT(d, HasSubstr("\n+B\n"));
  EXPECT_THAT(d, HasSubstr("@@"));
}

TEST(UnifiedDiff, AMissingFileIsAllAdditions) {
  const std::string d = diff("", "x\ny\n");
  EXPECT_THAT(d, HasSubstr("+x\n"));
  EXPECT_THAT(d, HasSubstr("+y\n"));
  EXPECT_THAT(d, ::testing::Not(HasSubstr("\n-")));
}

}  // namespace
