// libFuzzer target: ptc::Encoding's split and byte-pair merge on any bytes, over a rank table built here
// (the 256 bytes, then every prefix of some words, spaces and line breaks, so that merges chain), with
// each encoding's split.
//
// Oracle: encode never crashes, count(x) == encode(x).size(), and decode(encode(x)) == x unless x holds
// U+FEFF (which gpt-tokenizer, and so ptc, can drop: runtime/tokens/src/merge.cpp).

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include <ptc/encoding.hpp>

#include "fuzz_common.hpp"

namespace {

std::string base64(const std::string& bytes) {
  static constexpr char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  for (std::size_t i = 0; i < bytes.size(); i += 3) {
    const std::size_t n = std::min<std::size_t>(3, bytes.size() - i);
    unsigned v = 0;
    for (std::size_t k = 0; k < 3; ++k) v = (v << 8) | (k < n ? static_cast<unsigned char>(bytes[i + k]) : 0u);
    for (std::size_t k = 0; k < 4; ++k) out += k <= n ? kAlphabet[(v >> (18 - 6 * k)) & 63] : '=';
  }
  return out;
}

std::string table() {
  std::vector<std::string> tokens;
  for (int byte = 0; byte < 256; ++byte) tokens.emplace_back(1, static_cast<char>(byte));
  for (const std::string word : {" the", "the", "The", "ing", " function", "    ", "\n\n", "\t\t", "'s", "123",
                                 "\xE4\xB8\xAD\xE6\x96\x87", "\xF0\x9F\x98\x80", "\xEF\xBB\xBF//", "\xC2\xA0\xC2\xA0",
                                 "{\"type\":\"", "\xFF\xFE\xFD", "HTTPServer", " \n"}) {
    for (std::size_t n = 2; n <= word.size(); ++n) {
      const std::string prefix = word.substr(0, n);
      if (std::find(tokens.begin(), tokens.end(), prefix) == tokens.end()) tokens.push_back(prefix);
    }
  }
  std::string text;
  for (std::size_t rank = 0; rank < tokens.size(); ++rank)
    text += base64(tokens[rank]) + " " + std::to_string(rank) + "\n";
  return text;
}

const std::vector<ptc::Encoding>& encodings() {
  static const std::vector<ptc::Encoding> all = [] {
    const std::string ranks = table();
    return std::vector<ptc::Encoding>{ptc::Encoding::parse("o200k_base", ranks, "fuzz").value(),
                                      ptc::Encoding::parse("cl100k_base", ranks, "fuzz").value()};
  }();
  return all;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto text = ptc_fuzz::as_text(data, size);
  for (const ptc::Encoding& encoding : encodings()) {
    const auto ids = encoding.encode(text);
    if (encoding.count(text) != ids.size())
      ptc_fuzz::oracle_failure("count differs from encode's size", "input", text, "encoding", encoding.name());
    const std::string back = encoding.decode(ids);
    if (back != text && text.find("\xEF\xBB\xBF") == std::string_view::npos)
      ptc_fuzz::oracle_failure("decode(encode(x)) != x", "input", text, "decoded", back);
  }
  return 0;
}
