#pragma once
// The byte-pair merge of one piece, as tiktoken defines it.

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "encoding_data.hpp"

namespace ptc::tokens {

/// Buffers merge_piece reuses from one piece to the next.
struct MergeScratch {
  struct Pair {
    std::uint32_t rank;
    std::size_t start;  // where the pair's left part starts
    std::size_t end;    // where its right part ends
  };
  std::vector<std::size_t> next;  // by part start: where the next part starts
  std::vector<std::size_t> prev;  // by part start: where the previous part starts
  std::vector<Pair> heap;
};

/// Appends the ranks of `piece`'s tokens to `out`. `ranks` must hold every single byte.
void merge_piece(std::string_view piece, const RankMap& ranks, MergeScratch& scratch, std::vector<std::uint32_t>& out);

}  // namespace ptc::tokens
