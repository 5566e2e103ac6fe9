#include "merge.hpp"

#include <algorithm>
#include <limits>
#include <optional>

#include "utf8.hpp"

namespace ptc::tokens {
namespace {

constexpr std::size_t kNone = std::numeric_limits<std::size_t>::max();
constexpr std::string_view kByteOrderMark = "\xEF\xBB\xBF";

bool is_utf8(std::string_view bytes) {
  for (std::size_t i = 0; i < bytes.size();) {
    const std::size_t len = utf8_length(bytes, i);
    if (len == 0) return false;
    i += len;
  }
  return true;
}

// The rank of `bytes` as gpt-tokenizer 4.0.0 finds it, which is tiktoken's but for U+FEFF (the byte order
// mark). gpt-tokenizer looks bytes that are UTF-8 up by their text, decoded by a TextDecoder, which drops
// a leading U+FEFF: so a merge that starts with one is ranked as the rest of its bytes (none when
// nothing is left), and the tokens that start with one (o200k_base's 5574 "\uFEFF", 76234
// "\uFEFF//", ...) are never produced. The tests hold ptc to gpt-tokenizer's ids, so ptc does the same;
// the price is that a U+FEFF can vanish from the ids ("\uFEFF名" is o200k_base's [6224], "名"), so
// decode(encode(x)) == x only for text without U+FEFF. A plain ranks.find here and in piece_rank gives
// tiktoken's answer instead.
std::optional<std::uint32_t> merged_rank(std::string_view bytes, const RankMap& ranks) {
  if (bytes.starts_with(kByteOrderMark) && is_utf8(bytes)) {
    bytes.remove_prefix(kByteOrderMark.size());
    // A token that starts with U+FEFF is never looked up by its text, and the rest may start with another.
    if (bytes.empty() || bytes.starts_with(kByteOrderMark)) return std::nullopt;
  }
  const auto it = ranks.find(bytes);
  if (it == ranks.end()) return std::nullopt;
  return it->second;
}

// Whether a whole piece is a token, as gpt-tokenizer asks it: by its text, which has no key starting
// with U+FEFF (see merged_rank).
std::optional<std::uint32_t> piece_rank(std::string_view piece, const RankMap& ranks) {
  if (piece.starts_with(kByteOrderMark) && is_utf8(piece)) return std::nullopt;
  const auto it = ranks.find(piece);
  if (it == ranks.end()) return std::nullopt;
  return it->second;
}

// tiktoken merges, over and over, the adjacent pair of parts whose bytes have the lowest rank, the
// leftmost of equals, until no pair is a token. It scans every pair at each step, quadratic in the
// piece; a piece is as long as an attacker makes it (a megabyte of letters is one piece), so the pairs
// wait in a heap ordered by (rank, start) instead, which picks the same pair at each step. A pair
// whose parts have changed since it was pushed is dropped when it comes out: its left part is gone,
// or the part after its right one starts elsewhere.
struct Merger {
  std::string_view piece;
  const RankMap& ranks;
  MergeScratch& s;

  static bool later(const MergeScratch::Pair& a, const MergeScratch::Pair& b) {
    return a.rank != b.rank ? a.rank > b.rank : a.start > b.start;
  }

  void push(std::size_t start, std::size_t end) {
    const auto rank = merged_rank(piece.substr(start, end - start), ranks);
    if (!rank) return;
    s.heap.push_back({*rank, start, end});
    std::push_heap(s.heap.begin(), s.heap.end(), later);
  }

  // Where the pair that starts at `start` ends now, or kNone when `start` has no part after it.
  std::size_t pair_end(std::size_t start) const {
    const std::size_t middle = s.next[start];
    return middle == piece.size() ? kNone : s.next[middle];
  }

  void merge(std::size_t start) {
    const std::size_t middle = s.next[start];
    const std::size_t after = s.next[middle];
    s.next[start] = after;
    s.next[middle] = kNone;  // no longer a part
    if (after < piece.size()) s.prev[after] = start;
    if (s.prev[start] != kNone) push(s.prev[start], after);
    if (after < piece.size()) push(start, s.next[after]);
  }

  void run() {
    const std::size_t n = piece.size();
    s.next.resize(n);
    s.prev.resize(n);
    s.heap.clear();
    for (std::size_t i = 0; i < n; ++i) {
      s.next[i] = i + 1;
      s.prev[i] = i == 0 ? kNone : i - 1;
    }
    for (std::size_t i = 0; i + 1 < n; ++i) push(i, i + 2);
    while (!s.heap.empty()) {
      std::pop_heap(s.heap.begin(), s.heap.end(), later);
      const MergeScratch::Pair pair = s.heap.back();
      s.heap.pop_back();
      if (s.next[pair.start] == kNone || pair_end(pair.start) != pair.end) continue;
      merge(pair.start);
    }
  }
};

}  // namespace

void merge_piece(std::string_view piece, const RankMap& ranks, MergeScratch& scratch, std::vector<std::uint32_t>& out) {
  if (piece.empty()) return;
  if (const auto rank = piece_rank(piece, ranks)) {
    out.push_back(*rank);
    return;
  }
  Merger merger{piece, ranks, scratch};
  merger.run();
  for (std::size_t i = 0; i < piece.size(); i = scratch.next[i]) {
    // Every part is a single byte or a merge that had a rank, so it has one when every byte does.
    if (const auto rank = merged_rank(piece.substr(i, scratch.next[i] - i), ranks)) out.push_back(*rank);
  }
}

}  // namespace ptc::tokens
