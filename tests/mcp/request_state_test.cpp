// Sealed request state: what seal() makes, open() gives back, and refuses, with its exact texts; and
// the key files instances share.
#include <sys/stat.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "request_state.hpp"

namespace {

using namespace std::chrono_literals;
using ptc::mcp::kMaxRequestStateBytes;
using ptc::mcp::kMaxRequestStatePayloadBytes;
using ptc::mcp::open;
using ptc::mcp::seal;
using ptc::mcp::StateKey;
using std::chrono::system_clock;
using testing::AnyOf;
using testing::Eq;

const std::string kTooLarge = "request state too large";
const std::string kMalformed = "request state malformed";
const std::string kTampered = "request state tampered with";
const std::string kExpired = "request state expired";

// A fixed instant, so expiry is exact: 2026-07-28T00:00:00Z.
const system_clock::time_point kNow = system_clock::time_point(std::chrono::seconds(1785196800));

const std::string kHex = "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff";

std::string error_of(const ptc::Result<std::string>& r) { return r ? "accepted: " + *r : r.error().message; }

class KeyFiles : public testing::Test {
 protected:
  void SetUp() override {
    char pattern[] = "/tmp/ptc-request-state-XXXXXX";
    ASSERT_NE(::mkdtemp(pattern), nullptr);
    dir_ = pattern;
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  /// A file in the test's directory with these contents and this mode.
  std::string write(const std::string& name, const std::string& contents, mode_t mode = 0600) {
    const auto path = (dir_ / name).string();
    std::ofstream(path, std::ios::binary) << contents;
    ::chmod(path.c_str(), mode);
    return path;
  }
  StateKey key_from(const std::string& contents) {
    auto key = StateKey::from_file(write("key", contents));
    if (!key) throw std::runtime_error(key.error().message);
    return *key;
  }
  std::string refusal(const std::string& path) {
    auto key = StateKey::from_file(path);
    return key ? "accepted" : key.error().message;
  }

  std::filesystem::path dir_;
};

// ---- base64url, so the tests can edit the bytes under a token ------------------------------------

constexpr std::string_view kDigits = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

std::string decode(std::string_view text) {
  std::string out;
  unsigned acc = 0;
  int bits = 0;
  for (char c : text) {
    acc = (acc << 6) | static_cast<unsigned>(kDigits.find(c));
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out.push_back(static_cast<char>((acc >> bits) & 0xff));
    }
  }
  return out;
}

std::string encode(std::string_view bytes) {
  std::string out;
  unsigned acc = 0;
  int bits = 0;
  for (char c : bytes) {
    acc = (acc << 8) | static_cast<unsigned char>(c);
    bits += 8;
    while (bits >= 6) {
      bits -= 6;
      out.push_back(kDigits[(acc >> bits) & 63]);
    }
  }
  if (bits > 0) out.push_back(kDigits[(acc << (6 - bits)) & 63]);
  return out;
}

// ---- seal and open -------------------------------------------------------------------------------

TEST(RequestState, OpensWhatItSealed) {
  const auto key = StateKey::random();
  for (const std::string& payload : {std::string(R"({"tool":"deploy","step":2})"), std::string(),
                                     std::string("\0\xff\n", 3), std::string(1000, 'x')}) {
    const auto token = seal(key, payload, kNow + 1min);
    EXPECT_EQ(token.find_first_not_of(kDigits), std::string::npos) << "base64url, no padding: " << token;
    auto opened = open(key, token, kNow);
    ASSERT_TRUE(opened) << opened.error().message;
    EXPECT_EQ(*opened, payload);
  }
}

TEST(RequestState, TheTokenIsVersionExpiryPayloadAndMac) {
  const auto key = StateKey::random();
  const auto bytes = decode(seal(key, "{}", kNow));
  ASSERT_EQ(bytes.size(), 1u + 8 + 2 + 32);
  EXPECT_EQ(bytes[0], '\x01');
  EXPECT_EQ(bytes.substr(1, 8), std::string("\x00\x00\x01\x9F\xA6\x05\x68\x00", 8));  // 1785196800000 ms
  EXPECT_EQ(bytes.substr(9, 2), "{}");
}

TEST(RequestState, AChangedBitAnywhereIsRefused) {
  const auto key = StateKey::random();
  const auto token = seal(key, R"({"call":"x"})", kNow + 1h);
  const auto bytes = decode(token);
  for (std::size_t i = 0; i < bytes.size(); ++i) {
    for (int bit = 0; bit < 8; ++bit) {
      auto edited = bytes;
      edited[i] = static_cast<char>(edited[i] ^ (1 << bit));
      // The version byte is read before the MAC: another version is not a format this server knows.
      EXPECT_EQ(error_of(open(key, encode(edited), kNow)), i == 0 ? kMalformed : kTampered) << i << ":" << bit;
    }
  }
}

TEST(RequestState, AChangedCharacterAnywhereIsRefused) {
  const auto key = StateKey::random();
  const auto token = seal(key, R"({"call":"x"})", kNow + 1h);
  for (std::size_t i = 0; i < token.size(); ++i) {
    for (char c : kDigits) {
      if (c == token[i]) continue;
      auto edited = token;
      edited[i] = c;
      EXPECT_THAT(error_of(open(key, edited, kNow)), AnyOf(Eq(kTampered), Eq(kMalformed))) << i << ":" << c;
    }
  }
}

TEST(RequestState, AnotherKeysTokenIsTamperedWith) {
  const auto a = StateKey::random(), b = StateKey::random();
  EXPECT_EQ(error_of(open(b, seal(a, "{}", kNow + 1min), kNow)), kTampered);
  EXPECT_EQ(error_of(open(a, seal(a, "{}", kNow + 1min), kNow)), "accepted: {}");
}

TEST(RequestState, ExpiresAtItsExpiry) {
  const auto key = StateKey::random();
  const auto token = seal(key, "{}", kNow);
  EXPECT_EQ(error_of(open(key, token, kNow - 1ms)), "accepted: {}");
  EXPECT_EQ(error_of(open(key, token, kNow)), kExpired);
  EXPECT_EQ(error_of(open(key, token, kNow + 1h)), kExpired);
  // A later expiry written into the token does not extend it.
  auto bytes = decode(token);
  bytes[3] = static_cast<char>(bytes[3] + 1);
  EXPECT_EQ(error_of(open(key, encode(bytes), kNow + 1h)), kTampered);
}

TEST(RequestState, TruncatedTokensAreRefused) {
  const auto key = StateKey::random();
  // 54 bytes: 72 digits, so cutting 4 digits cuts 3 whole bytes.
  const auto token = seal(key, R"({"call":"xy"})", kNow + 1h);
  ASSERT_EQ(token.size(), 72u);
  for (std::size_t n = 0; n < token.size(); ++n)
    EXPECT_THAT(error_of(open(key, token.substr(0, n), kNow)), AnyOf(Eq(kMalformed), Eq(kTampered))) << n;
  // Shorter than a version, an expiry and a MAC: nothing to check a MAC over.
  EXPECT_EQ(error_of(open(key, token.substr(0, 40), kNow)), kMalformed);
  // Whole bytes, but the MAC is now the wrong 32.
  EXPECT_EQ(error_of(open(key, token.substr(0, token.size() - 4), kNow)), kTampered);
}

TEST(RequestState, GarbageIsMalformed) {
  const auto key = StateKey::random();
  const auto token = seal(key, "{}", kNow + 1h);
  for (const std::string& garbage : {std::string(), std::string("!"), std::string("AAAA"), std::string(200, 'A'),
                                     token + "=", token + "==", "=" + token, token + "\n", " " + token,
                                     token + "AAA",  // 61 digits: a length base64 cannot have
                                     std::string("eyJ0b29sIjoieCJ9"), std::string(100, '\0')})
    EXPECT_EQ(error_of(open(key, garbage, kNow)), kMalformed) << garbage;
  // Standard base64's digits are not base64url's.
  auto plus = token;
  plus[5] = '+';
  EXPECT_EQ(error_of(open(key, plus, kNow)), kMalformed);
}

TEST(RequestState, OnlyTheCanonicalSpellingOpens) {
  const auto key = StateKey::random();
  // 43 bytes: the last digit carries 2 bits of the last byte, and 4 bits that must be zero.
  const auto token = seal(key, "{}", kNow + 1h);
  ASSERT_EQ(token.size(), 58u);
  auto stray = token;
  stray.back() = kDigits[kDigits.find(stray.back()) ^ 1];
  EXPECT_EQ(error_of(open(key, stray, kNow)), kMalformed);
}

TEST(RequestState, SizesAreBounded) {
  const auto key = StateKey::random();
  EXPECT_EQ(error_of(open(key, std::string(kMaxRequestStateBytes + 1, 'A'), kNow)), kTooLarge);
  EXPECT_EQ(error_of(open(key, std::string(kMaxRequestStateBytes, 'A'), kNow)), kMalformed);  // version 0
  const std::string largest(kMaxRequestStatePayloadBytes, 'p');
  const auto token = seal(key, largest, kNow + 1min);
  EXPECT_LE(token.size(), kMaxRequestStateBytes);
  EXPECT_EQ(open(key, token, kNow).value(), largest);
  EXPECT_THROW(seal(key, largest + "p", kNow + 1min), std::length_error);
}

TEST(RequestState, TheEmptyKeyFileNameMeansARandomKey) {
  auto a = ptc::mcp::load_state_key(""), b = ptc::mcp::load_state_key("");
  ASSERT_TRUE(a && b);
  EXPECT_EQ(error_of(open(*b, seal(*a, "{}", kNow + 1min), kNow)), kTampered);
}

// ---- key files -----------------------------------------------------------------------------------

TEST_F(KeyFiles, TwoKeysFromOneFileOpenEachOthersTokens) {
  const auto path = write("shared.key", kHex + "\n");
  auto a = StateKey::from_file(path), b = StateKey::from_file(path);
  ASSERT_TRUE(a && b);
  EXPECT_EQ(error_of(open(*b, seal(*a, "{\"n\":1}", kNow + 1min), kNow)), "accepted: {\"n\":1}");
  EXPECT_EQ(error_of(open(*a, seal(*b, "{\"n\":2}", kNow + 1min), kNow)), "accepted: {\"n\":2}");
}

TEST_F(KeyFiles, TheKeyIsTheHexBytesWhateverTheirSpellingAndLineEnd) {
  const auto key = key_from(kHex);
  const auto token = seal(key, "{}", kNow + 1min);
  for (const std::string& spelling : {kHex + "\n", kHex + "\r\n",
                                      std::string("00112233445566778899AABBCCDDEEFF"
                                                  "00112233445566778899AABBCCDDEEFF")})
    EXPECT_EQ(error_of(open(key_from(spelling), token, kNow)), "accepted: {}") << spelling;
  // Another secret, however close, is another key; so is a longer one that starts the same.
  auto other = kHex;
  other.back() = '0';
  EXPECT_EQ(error_of(open(key_from(other), token, kNow)), kTampered);
  EXPECT_EQ(error_of(open(key_from(kHex + kHex), token, kNow)), kTampered);
}

TEST_F(KeyFiles, AReadOnlyFileOfItsOwnerIsAccepted) { EXPECT_EQ(refusal(write("ro.key", kHex, 0400)), "accepted"); }

TEST_F(KeyFiles, AFileOthersCanReadOrWriteIsRefusedNamingIt) {
  for (const mode_t mode : {0644, 0640, 0604, 0620, 0602, 0660}) {
    const auto path = write("open.key", kHex, mode);
    char text[8];
    std::snprintf(text, sizeof text, "%04o", static_cast<unsigned>(mode));
    EXPECT_EQ(refusal(path), "state key file " + path + " is open to group or others (mode " + text +
                                 "); make it private: chmod 600 " + path);
  }
}

TEST_F(KeyFiles, ShortOrNonHexSecretsAreRefusedWithoutShowingThem) {
  const std::string expected_tail =
      " must hold at least 64 hex digits (32 bytes of secret), e.g. from openssl rand -hex 32";
  for (const std::string& contents :
       {std::string(), std::string("\n"), kHex.substr(0, 62), kHex.substr(0, 62) + "\n", kHex.substr(0, 63), kHex + "0",
        "g" + kHex.substr(1), kHex + "\n\n", kHex + " ", " " + kHex,
        std::string("c2VjcmV0c2VjcmV0c2VjcmV0c2VjcmV0c2VjcmV0c2VjcmV0c2VjcmV0c2VjcmV0")}) {
    const auto path = write("bad.key", contents);
    const auto message = refusal(path);
    EXPECT_EQ(message, "state key file " + path + expected_tail) << contents;
    if (contents.size() > 8) {
      EXPECT_EQ(message.find(contents.substr(0, 8)), std::string::npos);
    }
  }
}

TEST_F(KeyFiles, MissingDirectoryOrHugeFilesAreRefused) {
  const auto missing = (dir_ / "missing.key").string();
  EXPECT_EQ(refusal(missing), "cannot read state key file " + missing + ": No such file or directory");
  EXPECT_EQ(refusal(dir_.string()), "state key file " + dir_.string() + " is not a regular file");
  const auto huge = write("huge.key", std::string(1 << 20, 'a'));
  EXPECT_EQ(refusal(huge),
            "state key file " + huge + " is too long: a key file holds 64 hex digits (openssl rand -hex 32)");
  EXPECT_EQ(refusal(write("largest.key", std::string(4096, 'a'))), "accepted");
}

TEST_F(KeyFiles, AFifoIsNotReadFrom) {
  const auto path = (dir_ / "fifo.key").string();
  ASSERT_EQ(::mkfifo(path.c_str(), 0600), 0);
  EXPECT_EQ(refusal(path), "state key file " + path + " is not a regular file");
}

}  // namespace
