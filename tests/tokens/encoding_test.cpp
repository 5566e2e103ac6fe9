// ptc::Encoding on OpenAI's rank files against gpt-tokenizer: the fixture tokens.oracle (oracle.cmake)
// exports the tables and the oracle's ids and counts for the corpus (corpus.json plus 3,000 random texts)
// into PTC_TOKENS_DATA. Every id and every count must be the oracle's.
#include <cstdint>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <ptc/encoding.hpp>

namespace {

const std::string kData = PTC_TOKENS_DATA;

const ptc::Encoding& encoding(const std::string& name) {
  static const ptc::Encoding o200k = ptc::Encoding::load("o200k_base", kData).value();
  static const ptc::Encoding cl100k = ptc::Encoding::load("cl100k_base", kData).value();
  return name == "o200k_base" ? o200k : cl100k;
}

const nlohmann::json& oracle() {
  static const nlohmann::json answers = [] {
    std::ifstream in(kData + "/oracle.json");
    if (!in)
      throw std::runtime_error(kData + "/oracle.json is missing: run the tokens.oracle fixture (ctest -R tokens)");
    return nlohmann::json::parse(in);
  }();
  return answers;
}

std::string shown(const std::string& text) {
  return nlohmann::json(text).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace).substr(0, 200);
}

class Oracle : public ::testing::TestWithParam<std::string> {};

TEST_P(Oracle, IdsAndCountsAreGptTokenizers) {
  const ptc::Encoding& enc = encoding(GetParam());
  ASSERT_GE(oracle().size(), 3100u) << "the oracle answered for too few texts";
  int failures = 0;
  for (const auto& entry : oracle()) {
    const auto text = entry.at("text").get<std::string>();
    const auto& expected = entry.at(GetParam());
    const auto ids = enc.encode(text);
    const auto expected_ids = expected.at("ids").get<std::vector<std::uint32_t>>();
    const bool same = ids == expected_ids && enc.count(text) == expected.at("count").get<std::size_t>();
    if (!same && ++failures <= 10) {
      ADD_FAILURE() << GetParam() << " on " << shown(text) << "\n ours:   " << nlohmann::json(ids).dump() << " (count "
                    << enc.count(text) << ")\n oracle: " << nlohmann::json(expected_ids).dump() << " (count "
                    << expected.at("count") << ")";
    }
  }
  EXPECT_EQ(failures, 0) << "texts whose ids or count differ from gpt-tokenizer's";
}

bool has_byte_order_mark(const std::string& text) { return text.find("\xEF\xBB\xBF") != std::string::npos; }

// Except for text with U+FEFF, which gpt-tokenizer can drop from the ids (runtime/tokens/src/merge.cpp).
TEST_P(Oracle, DecodingGivesTheTextBack) {
  const ptc::Encoding& enc = encoding(GetParam());
  for (const auto& entry : oracle()) {
    const auto text = entry.at("text").get<std::string>();
    if (has_byte_order_mark(text)) continue;
    const auto ids = enc.encode(text);
    ASSERT_EQ(enc.decode(ids), text) << shown(text);
  }
}

TEST_P(Oracle, RandomBytesRoundTripAndCountAsTheyEncode) {
  const ptc::Encoding& enc = encoding(GetParam());
  std::mt19937 random(20240611);
  for (int i = 0; i < 2000; ++i) {
    std::string bytes(1 + random() % 64, '\0');
    for (char& c : bytes) c = static_cast<char>(random() % 256);
    if (has_byte_order_mark(bytes)) continue;
    const auto ids = enc.encode(bytes);
    ASSERT_EQ(enc.decode(ids), bytes) << shown(bytes);
    ASSERT_EQ(enc.count(bytes), ids.size()) << shown(bytes);
  }
}

// Bytes that are not UTF-8 (the oracle, working on JavaScript strings, never sees them) are a piece of
// their own between the UTF-8 around them, which is split as if each side were the whole text.
TEST_P(Oracle, InvalidUtf8IsAPieceOfItsOwn) {
  const ptc::Encoding& enc = encoding(GetParam());
  const std::vector<std::string> invalid = {
      "\xFF", "\xFF\xFE", "\x80", "\xE4\xB8", "\xC0\x80", "\xED\xA0\x80", "\xF4\x90\x80\x80", "\xF8\x88\x80\x80\x80"};
  for (const std::string& bad : invalid) {
    for (const auto& [before, after] : {std::pair<std::string, std::string>{"abc", " def"},
                                        {"x  ", "  y"},
                                        {"hello\n", "\n"},
                                        {"", "'s"},
                                        {"中", "文"}}) {
      const std::string text = before + bad + after;
      std::vector<std::uint32_t> expected = enc.encode(before);
      const auto middle = enc.encode(bad);
      const auto tail = enc.encode(after);
      expected.insert(expected.end(), middle.begin(), middle.end());
      expected.insert(expected.end(), tail.begin(), tail.end());
      EXPECT_EQ(enc.encode(text), expected) << shown(text);
      EXPECT_EQ(enc.count(text), expected.size()) << shown(text);
      EXPECT_EQ(enc.decode(enc.encode(text)), text) << shown(text);
    }
    EXPECT_LE(enc.count(bad), bad.size()) << shown(bad);
  }
  // A lone byte that is no character is its single-byte token.
  EXPECT_EQ(enc.encode("\xFF").size(), 1u);
}

// gpt-tokenizer never produces a token that starts with U+FEFF, and ranks a merge that starts with one
// as the rest of it; the differential test checks the ids, this names the consequence.
TEST(ByteOrderMark, IsDroppedWhereGptTokenizerDropsIt) {
  const ptc::Encoding& o200k = encoding("o200k_base");
  EXPECT_EQ(o200k.encode("\xEF\xBB\xBF"), (std::vector<std::uint32_t>{5416, 123}));       // not 5574, "\uFEFF"
  EXPECT_EQ(o200k.encode("\xEF\xBB\xBF\xE5\x90\x8D"), std::vector<std::uint32_t>{6224});  // "名" alone
}

TEST_P(Oracle, KnowsItsNameAndSize) {
  const ptc::Encoding& enc = encoding(GetParam());
  EXPECT_EQ(enc.name(), GetParam());
  EXPECT_EQ(enc.size(), GetParam() == "o200k_base" ? 199998u : 100256u);
  EXPECT_EQ(enc.decode(std::vector<std::uint32_t>{static_cast<std::uint32_t>(enc.size())}), "");
  EXPECT_EQ(enc.encode(""), std::vector<std::uint32_t>{});
}

INSTANTIATE_TEST_SUITE_P(Encodings, Oracle, ::testing::Values("o200k_base", "cl100k_base"));

}  // namespace
