// Doc comment text -> description and \param docs (no clang involved).

#include <gtest/gtest.h>

#include "extract/doc_comment.hpp"

namespace ptcgen::extract::detail {
namespace {

TEST(DocComment, DescriptionWithoutParamAndReturnParagraphs) {
  const auto doc = parse_doc_comment(
      "Finds issues\n  by text.\n\\param query What to look for,\n  in any words.\n\\param[in] limit At most.\n"
      "\\returns The issues,\nnewest first.\n\nMore description.\n\\tparam T dropped\n");
  EXPECT_EQ(doc.description, "Finds issues by text. More description.");
  ASSERT_EQ(doc.params.size(), 2u);
  EXPECT_EQ(doc.params[0].first, "query");
  EXPECT_EQ(doc.params[0].second, "What to look for, in any words.");
  EXPECT_EQ(doc.params[1].first, "limit");
  EXPECT_EQ(doc.params[1].second, "At most.");
}

TEST(DocComment, OtherCommandsKeepTheirText) {
  const auto doc = parse_doc_comment("@brief Short.\n\\note Careful.\n@param x An x.\n");
  EXPECT_EQ(doc.description, "Short. Careful.");
  ASSERT_EQ(doc.params.size(), 1u);
  EXPECT_EQ(doc.params[0].second, "An x.");
}

TEST(DocComment, CollapseWhitespace) {
  EXPECT_EQ(collapse_whitespace("  a \n\t b  c \n"), "a b c");
  EXPECT_EQ(collapse_whitespace(" \n "), "");
}

}  // namespace
}  // namespace ptcgen::extract::detail
