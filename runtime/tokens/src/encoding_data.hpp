#pragma once
// What an Encoding shares between its copies: the rank table both ways and the splitter.

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "split.hpp"

namespace ptc::tokens {

/// A token's bytes to its rank. The keys point into EncodingData::bytes.
using RankMap = std::unordered_map<std::string_view, std::uint32_t>;

}  // namespace ptc::tokens

namespace ptc::detail {

struct EncodingData {
  std::string name;
  /// Every token's bytes, in rank order, back to back: token r is bytes[offsets[r], offsets[r + 1]).
  std::string bytes;
  std::vector<std::uint32_t> offsets;
  tokens::RankMap ranks;
  tokens::Splitter splitter;
};

}  // namespace ptc::detail
