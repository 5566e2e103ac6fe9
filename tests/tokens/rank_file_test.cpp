// Encoding::load and Encoding::parse on rank files an attacker could write: each fault refused with its
// place ("<file>:<line>: ..."), every read bounded.
#include <filesystem>
#include <fstream>
#include <string>

#include <gtest/gtest.h>
#include <unistd.h>

#include <ptc/encoding.hpp>

#include "small_table.hpp"

namespace fs = std::filesystem;

namespace {

std::string parse_error(const std::string& text) {
  auto r = ptc::Encoding::parse("o200k_base", text, "ranks.tiktoken");
  return r ? std::string("(loaded)") : r.error().message;
}

const std::string kBytes = ptc_test::rank_file({});

TEST(RankFile, ASmallTableLoads) {
  auto r = ptc::Encoding::parse("cl100k_base", ptc_test::rank_file({"ab", "abc"}), "t");
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->name(), "cl100k_base");
  EXPECT_EQ(r->size(), 258u);
  EXPECT_EQ(r->encode("abc"), std::vector<std::uint32_t>{257});
}

TEST(RankFile, TheLastLineNeedsNoNewline) {
  std::string text = ptc_test::rank_file({"ab"});
  text.pop_back();
  EXPECT_EQ(parse_error(text), "(loaded)");
}

TEST(RankFile, MalformedLinesAreNamedByFileAndLine) {
  EXPECT_EQ(parse_error(kBytes + "YWI= 256\nnot*base64 257\n"), "ranks.tiktoken:258: the token is not valid base64");
  EXPECT_EQ(parse_error(kBytes + "YWI=\n"), "ranks.tiktoken:257: expected \"<base64 token> <rank>\", found no space");
  EXPECT_EQ(parse_error(kBytes + "YWI= \n"), "ranks.tiktoken:257: the rank is not a decimal number below 2^32");
  EXPECT_EQ(parse_error(kBytes + "YWI= 25x\n"), "ranks.tiktoken:257: the rank is not a decimal number below 2^32");
  EXPECT_EQ(parse_error(kBytes + "YWI= 0256\n"), "ranks.tiktoken:257: the rank is not a decimal number below 2^32");
  EXPECT_EQ(parse_error(kBytes + "YWI= 4294967296\n"),
            "ranks.tiktoken:257: the rank is not a decimal number below 2^32");
  EXPECT_EQ(parse_error(kBytes + "YWI= 256\r\n"), "ranks.tiktoken:257: the rank is not a decimal number below 2^32");
  EXPECT_EQ(parse_error(kBytes + "\n"), "ranks.tiktoken:257: expected \"<base64 token> <rank>\", found no space");
  EXPECT_EQ(parse_error(kBytes + " 256\n"), "ranks.tiktoken:257: the token is empty");
}

TEST(RankFile, Base64MustBeCanonical) {
  for (const char* token : {"YWI", "YW=I", "YWJ=", "Y===", "YWI==", "YWI=\t", "YW I="})
    EXPECT_EQ(parse_error(kBytes + token + " 256\n"), "ranks.tiktoken:257: the token is not valid base64") << token;
}

TEST(RankFile, RanksGoUpByOneWithoutRepeats) {
  EXPECT_EQ(parse_error(kBytes + "YWI= 257\n"),
            "ranks.tiktoken:257: rank 257 where 256 was expected (ranks go 0, 1, 2, ... one per line)");
  EXPECT_EQ(parse_error(kBytes + "YWI= 256\nYWM= 256\n"),
            "ranks.tiktoken:258: rank 256 where 257 was expected (ranks go 0, 1, 2, ... one per line)");
  EXPECT_EQ(parse_error(kBytes + "YWI= 256\nYWI= 257\n"),
            "ranks.tiktoken:258: the token of rank 257 already has rank 256");
  EXPECT_EQ(parse_error(kBytes + "YQ== 256\n"), "ranks.tiktoken:257: the token of rank 256 already has rank 97");
}

TEST(RankFile, EverySingleByteNeedsARank) {
  std::string text;
  unsigned rank = 0;
  for (int byte = 0; byte < 256; ++byte)
    if (byte != 0x3F)
      text += ptc_test::base64(std::string(1, static_cast<char>(byte))) + " " + std::to_string(rank++) + "\n";
  EXPECT_EQ(parse_error(text), "ranks.tiktoken: no rank for the byte 0x3F (every single byte needs one)");
  EXPECT_EQ(parse_error(""), "ranks.tiktoken: no ranks (the file is empty)");
}

TEST(RankFile, LinesFilesAndRankCountsAreBounded) {
  const std::string long_token(ptc::Encoding::kMaxLineBytes, 'A');
  EXPECT_EQ(parse_error(kBytes + long_token + " 256\n"), "ranks.tiktoken:257: longer than 1024 bytes (the limit)");
  EXPECT_EQ(parse_error(std::string(ptc::Encoding::kMaxFileBytes + 1, 'A')),
            "ranks.tiktoken: more than 67108864 bytes (the limit)");
  std::string many;
  many.reserve((ptc::Encoding::kMaxRanks + 1) * 14);
  for (std::size_t rank = 0; rank <= ptc::Encoding::kMaxRanks; ++rank)
    many.append("QQ== ").append(std::to_string(rank)) += '\n';
  EXPECT_EQ(parse_error(many), "ranks.tiktoken:1048577: more than 1048576 ranks (the limit)");
}

TEST(RankFile, UnknownEncodingsAreRefused) {
  auto r = ptc::Encoding::parse("p50k_base", kBytes, "t");
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().message, "unknown encoding \"p50k_base\" (ptc knows o200k_base and cl100k_base)");
  auto l = ptc::Encoding::load("gpt2", fs::temp_directory_path());
  ASSERT_FALSE(l);
  EXPECT_EQ(l.error().message, "unknown encoding \"gpt2\" (ptc knows o200k_base and cl100k_base)");
}

class LoadRankFile : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("ptc_tokens_" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path dir_;
};

TEST_F(LoadRankFile, AMissingFileNamesThePathAndWhereOpenAIPublishesIt) {
  auto r = ptc::Encoding::load("o200k_base", dir_);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().message, (dir_ / "o200k_base.tiktoken").string() +
                                   ": no such file; the rank file of o200k_base is published at "
                                   "https://openaipublic.blob.core.windows.net/encodings/o200k_base.tiktoken");
}

TEST_F(LoadRankFile, ErrorsNameTheFile) {
  std::ofstream(dir_ / "cl100k_base.tiktoken", std::ios::binary) << kBytes << "YWI= 7\n";
  auto r = ptc::Encoding::load("cl100k_base", dir_);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().message, (dir_ / "cl100k_base.tiktoken").string() +
                                   ":257: rank 7 where 256 was expected (ranks go 0, 1, 2, ... one per line)");
  EXPECT_EQ(r.error().line, 257u);
}

TEST_F(LoadRankFile, ADirectoryIsNotARankFile) {
  fs::create_directories(dir_ / "o200k_base.tiktoken");
  auto r = ptc::Encoding::load("o200k_base", dir_);
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message.find("not a regular file"), std::string::npos) << r.error().message;
}

TEST_F(LoadRankFile, LoadsWhatItFinds) {
  std::ofstream(dir_ / "o200k_base.tiktoken", std::ios::binary) << ptc_test::rank_file({"ab"});
  auto r = ptc::Encoding::load("o200k_base", dir_);
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->count("ab ab"), 3u);  // the pieces "ab" and " ab", which merges to " " and "ab"
}

}  // namespace
