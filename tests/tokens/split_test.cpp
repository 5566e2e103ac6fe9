// How text is cut into pieces before merging, made visible: each table below has a token for every piece
// the split should make, so encode gives one token per piece and decoding them one by one shows the cuts.
// A wrong cut leaves bytes that are no token, which come out one by one.
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <ptc/encoding.hpp>

#include "small_table.hpp"

namespace {

std::vector<std::string> pieces(const std::string& encoding, const std::vector<std::string>& tokens,
                                const std::string& text) {
  auto enc = ptc::Encoding::parse(encoding, ptc_test::rank_file(tokens), "t");
  if (!enc) throw std::runtime_error(enc.error().message);
  std::vector<std::string> out;
  for (const std::uint32_t id : enc->encode(text)) out.push_back(enc->decode(std::vector<std::uint32_t>{id}));
  return out;
}

using Pieces = std::vector<std::string>;

TEST(Split, SpacesBeforeAWordLeaveItTheirLastOne) {
  const Pieces tokens = {"  ",
                         " b",
                         "\t\t",
                         "\tb",
                         "\xC2\xA0\xC2\xA0",
                         "\xC2\xA0"
                         "b"};
  for (const char* kind : {"o200k_base", "cl100k_base"}) {
    EXPECT_EQ(pieces(kind, tokens, "a   b"), (Pieces{"a", "  ", " b"})) << kind;
    EXPECT_EQ(pieces(kind, tokens, "a\t\t\tb"), (Pieces{"a", "\t\t", "\tb"})) << kind;
    EXPECT_EQ(pieces(kind, tokens,
                     "a\xC2\xA0\xC2\xA0\xC2\xA0"
                     "b"),
              (Pieces{"a", "\xC2\xA0\xC2\xA0",
                      "\xC2\xA0"
                      "b"}))
        << kind << ": U+00A0 is a space to JavaScript's \\s";
    EXPECT_EQ(pieces(kind, tokens, "a  1"), (Pieces{"a", " ", " ", "1"})) << kind;
    EXPECT_EQ(pieces(kind, {"   "}, "a   "), (Pieces{"a", "   "})) << kind << ": spaces at the end are one piece";
  }
}

TEST(Split, TrailingSpacesAfterALineBreak) {
  const Pieces tokens = {"\n  ", "  ", " \n", "\n \n", " y"};
  // cl100k's `\s+$` takes the whole run at the end; o200k's `\s*[\r\n]+` stops at the last line break.
  EXPECT_EQ(pieces("cl100k_base", tokens, "x\n  "), (Pieces{"x", "\n  "}));
  EXPECT_EQ(pieces("o200k_base", tokens, "x\n  "), (Pieces{"x", "\n", "  "}));
  // Before a word, both stop at the last line break, and the spaces after it split as above.
  EXPECT_EQ(pieces("cl100k_base", tokens, "x\n \n  y"), (Pieces{"x", "\n \n", " ", " y"}));
  EXPECT_EQ(pieces("o200k_base", tokens, "x\n \n  y"), (Pieces{"x", "\n \n", " ", " y"}));
}

TEST(Split, CaseRunsAndContractions) {
  const Pieces tokens = {"get", "URLFor", "ID", "getURLForID", "they", "'LL", "they'LL", "'ſt", "'ſ", "x'ſ"};
  EXPECT_EQ(pieces("o200k_base", tokens, "getURLForID"), (Pieces{"get", "URLFor", "ID"}));
  EXPECT_EQ(pieces("cl100k_base", tokens, "getURLForID"), (Pieces{"getURLForID"}));
  EXPECT_EQ(pieces("o200k_base", tokens, "they'LL"), (Pieces{"they'LL"}));
  EXPECT_EQ(pieces("cl100k_base", tokens, "they'LL"), (Pieces{"they", "'LL"}));
  // gpt-tokenizer spells the contractions' cases out; tiktoken's (?i:) would also take "'ſ" (long s).
  EXPECT_EQ(pieces("cl100k_base", tokens, "'ſt"), (Pieces{"'ſt"}));
  EXPECT_EQ(pieces("o200k_base", tokens, "x'ſ"), (Pieces{"x", "'ſ"}));
}

TEST(Split, NumbersAndSlashes) {
  const Pieces tokens = {"123", "45", "/b", "//\n", "//"};  // single bytes are in every table
  for (const char* kind : {"o200k_base", "cl100k_base"}) {
    EXPECT_EQ(pieces(kind, tokens, "12345"), (Pieces{"123", "45"})) << kind;
    EXPECT_EQ(pieces(kind, tokens, "a/b//\n"), (Pieces{"a", "/b", "//\n"})) << kind;
  }
  // o200k keeps '/' after punctuation in the same piece; cl100k only line breaks.
  EXPECT_EQ(pieces("o200k_base", {"!//"}, "!//"), (Pieces{"!//"}));
  EXPECT_EQ(pieces("cl100k_base", {"!//"}, "!//"), (Pieces{"!//"}));
  EXPECT_EQ(pieces("o200k_base", {"!\n/", "!\n"}, "!\n/"), (Pieces{"!\n/"}));
  EXPECT_EQ(pieces("cl100k_base", {"!\n/", "!\n"}, "!\n/"), (Pieces{"!\n", "/"}));
}

TEST(Split, BytesThatAreNotUtf8AreAPieceBetweenTheirNeighbours) {
  const Pieces tokens = {"\xFF\xFE", "a \xFF", " b", "  "};
  for (const char* kind : {"o200k_base", "cl100k_base"}) {
    EXPECT_EQ(pieces(kind, tokens, "a \xFF\xFE b"), (Pieces{"a", " ", "\xFF\xFE", " b"})) << kind;
    // The text before them ends there, so its trailing spaces are trailing spaces.
    EXPECT_EQ(pieces(kind, tokens, "a  \xFF\xFE"), (Pieces{"a", "  ", "\xFF\xFE"})) << kind;
  }
}

}  // namespace
