// Static bearer tokens (src/auth/tokens.cpp): their digests, the text and files they are read from, and
// the constant-time match. No error may quote a token.
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>

#include <gtest/gtest.h>

#include "auth/tokens.hpp"

namespace {

using ptc::mcp::load_tokens_file;
using ptc::mcp::parse_tokens;
using ptc::mcp::token_digest;
using ptc::mcp::auth::is_b64token;
using ptc::mcp::auth::token_matches;

const std::string kToken = "s3cr3t-token-0123456789";
const std::string kOther = "another.token_abcdefgh~+/==";

std::string hex(const ptc::mcp::TokenDigest& d) {
  std::string out;
  char buf[3];
  for (auto b : d) {
    std::snprintf(buf, sizeof buf, "%02x", b);
    out += buf;
  }
  return out;
}

/// A file in a fresh directory, written with `mode`; removed with the object.
class TempFile {
 public:
  TempFile(const std::string& text, mode_t mode) {
    char dir[] = "/tmp/ptc-tokens-XXXXXX";
    dir_ = ::mkdtemp(dir);
    path_ = dir_ + "/tokens.txt";
    std::ofstream(path_) << text;
    ::chmod(path_.c_str(), mode);
  }
  ~TempFile() {
    std::remove(path_.c_str());
    ::rmdir(dir_.c_str());
  }
  const std::string& path() const { return path_; }

 private:
  std::string dir_, path_;
};

TEST(TokenDigest, IsSha256) {
  EXPECT_EQ(hex(token_digest("abc")), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}

TEST(B64token, AcceptsRfc6750CharactersAndTrailingEquals) {
  EXPECT_TRUE(is_b64token(kToken));
  EXPECT_TRUE(is_b64token(kOther));
  EXPECT_FALSE(is_b64token(""));
  EXPECT_FALSE(is_b64token("=="));
  EXPECT_FALSE(is_b64token("ab=c"));
  EXPECT_FALSE(is_b64token("ab c"));
  EXPECT_FALSE(is_b64token("ab\"c"));
  EXPECT_FALSE(is_b64token("ab,c"));
}

TEST(TokenMatches, FindsTheTokenAmongTheDigestsAndNothingElse) {
  const std::vector<ptc::mcp::TokenDigest> digests{token_digest(kOther), token_digest(kToken)};
  EXPECT_TRUE(token_matches(kToken, digests));
  EXPECT_TRUE(token_matches(kOther, digests));
  EXPECT_FALSE(token_matches(kToken + "x", digests));
  EXPECT_FALSE(token_matches("", digests));
  EXPECT_FALSE(token_matches(kToken, {}));
}

TEST(ParseTokens, ReadsLinesAndCommasSkippingBlanksAndComments) {
  auto set = parse_tokens("# deploy tokens\n\n  " + kToken + "  \r\n" + kOther + " , " + kToken + "\n#x\n", "t");
  ASSERT_TRUE(set) << set.error().message;
  // Repeats are kept once.
  EXPECT_EQ(set->digests.size(), 2u);
  EXPECT_TRUE(token_matches(kToken, set->digests));
  EXPECT_TRUE(token_matches(kOther, set->digests));
  EXPECT_TRUE(set->warnings.empty());
}

TEST(ParseTokens, RefusesNoTokenAtAll) {
  auto set = parse_tokens("# nothing\n\n , \n", "tokens.txt");
  ASSERT_FALSE(set);
  EXPECT_EQ(set.error().message,
            "tokens.txt: no token (one per line or comma-separated; blank lines and # comments are skipped)");
  EXPECT_FALSE(parse_tokens("", "x"));
}

TEST(ParseTokens, NamesTheLineOfABadTokenWithoutQuotingIt) {
  auto short_one = parse_tokens(kToken + "\n\nshort-secret\n", "tokens.txt");
  ASSERT_FALSE(short_one);
  EXPECT_EQ(short_one.error().message, "tokens.txt:3: a token shorter than 16 characters is too easy to guess");
  auto spaced = parse_tokens("has a space in it but long\n", "$VAR");
  ASSERT_FALSE(spaced);
  EXPECT_EQ(spaced.error().message, "$VAR:1: not a bearer token (letters, digits and -._~+/, with = only at the end)");
  auto long_one = parse_tokens(std::string(4097, 'a'), "t");
  ASSERT_FALSE(long_one);
  EXPECT_EQ(long_one.error().message, "t:1: a token longer than 4096 characters");
}

TEST(ParseTokens, BoundsTheNumberOfTokens) {
  std::string text;
  for (int i = 0; i <= 10000; ++i) text += "token-number-" + std::to_string(100000 + i) + "\n";
  auto set = parse_tokens(text, "t");
  ASSERT_FALSE(set);
  EXPECT_EQ(set.error().message, "t:10001: more than 10000 tokens");
}

TEST(LoadTokensFile, ReadsAPrivateFileWithoutWarnings) {
  TempFile file(kToken + "\n", 0600);
  auto set = load_tokens_file(file.path());
  ASSERT_TRUE(set) << set.error().message;
  EXPECT_EQ(set->digests.size(), 1u);
  EXPECT_TRUE(set->warnings.empty());
}

TEST(LoadTokensFile, WarnsAboutAFileOtherUsersMayRead) {
  TempFile file(kToken + "\n", 0644);
  auto set = load_tokens_file(file.path());
  ASSERT_TRUE(set) << set.error().message;
  ASSERT_EQ(set->warnings.size(), 1u);
  EXPECT_EQ(set->warnings[0],
            file.path() + ": users other than its owner may read it (mode 0644); chmod 600 " + file.path());
}

TEST(LoadTokensFile, ErrorsNameTheFileAndLine) {
  TempFile file(kToken + "\nbad token with spaces in it\n", 0600);
  auto set = load_tokens_file(file.path());
  ASSERT_FALSE(set);
  EXPECT_EQ(set.error().message,
            file.path() + ":2: not a bearer token (letters, digits and -._~+/, with = only at the end)");
  auto missing = load_tokens_file("/nonexistent/tokens.txt");
  ASSERT_FALSE(missing);
  EXPECT_EQ(missing.error().message, "/nonexistent/tokens.txt: No such file or directory");
  auto directory = load_tokens_file("/tmp");
  ASSERT_FALSE(directory);
  EXPECT_EQ(directory.error().message, "/tmp: not a regular file (a directory)");
}

TEST(LoadTokensFile, RefusesAFileOverOneMebibyte) {
  TempFile file(std::string((1 << 20) + 1, '#'), 0600);
  auto set = load_tokens_file(file.path());
  ASSERT_FALSE(set);
  EXPECT_EQ(set.error().message.rfind(file.path() + ": ", 0), 0u) << set.error().message;
  EXPECT_NE(set.error().message.find("1048576"), std::string::npos) << set.error().message;
}

}  // namespace
