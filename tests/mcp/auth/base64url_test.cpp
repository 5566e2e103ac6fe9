// Base64url without padding (src/auth/base64url.cpp): RFC 4648's vectors, and the encodings it refuses.
#include <gtest/gtest.h>

#include "auth/base64url.hpp"

namespace {

using ptc::mcp::auth::base64url_decode;
using ptc::mcp::auth::base64url_encode;

TEST(Base64url, EncodesRfc4648VectorsWithoutPadding) {
  EXPECT_EQ(base64url_encode(""), "");
  EXPECT_EQ(base64url_encode("f"), "Zg");
  EXPECT_EQ(base64url_encode("fo"), "Zm8");
  EXPECT_EQ(base64url_encode("foo"), "Zm9v");
  EXPECT_EQ(base64url_encode("foobar"), "Zm9vYmFy");
  EXPECT_EQ(base64url_encode("\xfb\xff"), "-_8");
}

TEST(Base64url, DecodesWhatItEncodes) {
  std::string all;
  for (int i = 0; i < 256; ++i) all.push_back(static_cast<char>(i));
  for (std::size_t n = 0; n <= all.size(); n += 7)
    EXPECT_EQ(base64url_decode(base64url_encode(all.substr(0, n)), 1000), all.substr(0, n));
  EXPECT_EQ(base64url_decode("-_8", 10), "\xfb\xff");
}

TEST(Base64url, RefusesPaddingOtherAlphabetsImpossibleLengthsAndStrayBits) {
  EXPECT_EQ(base64url_decode("Zg==", 10), std::nullopt);
  EXPECT_EQ(base64url_decode("+/8", 10), std::nullopt);  // standard Base64's alphabet
  EXPECT_EQ(base64url_decode("Zm9vY", 10), std::nullopt);
  EXPECT_EQ(base64url_decode("Zh", 10), std::nullopt);  // "Zg" with a bit set past the byte
  EXPECT_EQ(base64url_decode("Zm 9v", 10), std::nullopt);
}

TEST(Base64url, RefusesMoreThanTheLimitBeforeDecoding) {
  EXPECT_EQ(base64url_decode("Zm9vYmFy", 6), "foobar");
  EXPECT_EQ(base64url_decode("Zm9vYmFy", 5), std::nullopt);
  EXPECT_EQ(base64url_decode("Zm9vYg", 4), "foob");
  EXPECT_EQ(base64url_decode("Zm9vYg", 3), std::nullopt);
}

}  // namespace
