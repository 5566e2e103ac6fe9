#pragma once
// ptc::Encoding: OpenAI's byte-pair encodings o200k_base and cl100k_base, offline. Counts and token ids
// equal those of the npm package gpt-tokenizer (docs/tokens.md has how that is tested). ptc ships no
// rank data: Encoding::load reads the `.tiktoken` file OpenAI publishes, from a directory the caller
// names.

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <ptc/error.hpp>

namespace ptc {

namespace detail {
struct EncodingData;
}

/// A byte-pair encoding with its rank table, as OpenAI's tiktoken files hold it. An immutable value:
/// copies share the table, and one Encoding may be used by many threads at once.
class Encoding {
 public:
  /// The largest rank file load() reads (OpenAI's o200k_base.tiktoken is 3.6 MB).
  static constexpr std::size_t kMaxFileBytes = std::size_t{64} << 20;
  /// The longest line of a rank file, in bytes ("<base64> <rank>").
  static constexpr std::size_t kMaxLineBytes = 1024;
  /// The most ranks a rank file may hold (o200k_base holds 199,998).
  static constexpr std::size_t kMaxRanks = std::size_t{1} << 20;

  /// Reads `<dir>/<name>.tiktoken`, whose lines are "<base64 of a token's bytes> <rank>" with ranks
  /// 0, 1, 2, ... in order, and which gives every single byte a rank. `name` is "o200k_base" or
  /// "cl100k_base": it chooses how text is split into pieces before merging. A malformed line gives
  /// "<file>:<line>: <what is wrong>"; a missing file names the path looked for.
  static Result<Encoding> load(std::string_view name, const std::filesystem::path& dir);
  /// The same from the text of a rank file already in memory; `source` names it in errors.
  static Result<Encoding> parse(std::string_view name, std::string_view ranks, std::string_view source);

  /// "o200k_base" or "cl100k_base".
  const std::string& name() const;
  /// How many ranks the table holds: every token id is below it.
  std::size_t size() const;

  /// The token ids of `text`, read as ordinary text: "<|endoftext|>" and the other special tokens are
  /// encoded as the characters they are made of. Any bytes are accepted: a run of bytes that is not
  /// UTF-8 becomes a piece of its own, merged like any other, so decode(encode(x)) == x always.
  std::vector<std::uint32_t> encode(std::string_view text) const;
  /// encode(text).size(), without keeping the ids.
  std::size_t count(std::string_view text) const;
  /// The bytes the tokens stand for, concatenated; an id of size() or more adds nothing.
  std::string decode(std::span<const std::uint32_t> tokens) const;

 private:
  explicit Encoding(std::shared_ptr<const detail::EncodingData> data);
  std::shared_ptr<const detail::EncodingData> data_;
};

}  // namespace ptc
