#include <ptc/encoding.hpp>

#include <utility>

#include "encoding_data.hpp"
#include "merge.hpp"

namespace ptc {

Encoding::Encoding(std::shared_ptr<const detail::EncodingData> data) : data_(std::move(data)) {}

const std::string& Encoding::name() const { return data_->name; }

std::size_t Encoding::size() const { return data_->offsets.size() - 1; }

std::vector<std::uint32_t> Encoding::encode(std::string_view text) const {
  std::vector<std::uint32_t> out;
  tokens::MergeScratch scratch;
  data_->splitter.for_each_piece(text, [&](std::string_view piece) {
    tokens::merge_piece(piece, data_->ranks, scratch, out);
  });
  return out;
}

std::size_t Encoding::count(std::string_view text) const {
  std::size_t total = 0;
  std::vector<std::uint32_t> piece_tokens;
  tokens::MergeScratch scratch;
  data_->splitter.for_each_piece(text, [&](std::string_view piece) {
    piece_tokens.clear();
    tokens::merge_piece(piece, data_->ranks, scratch, piece_tokens);
    total += piece_tokens.size();
  });
  return total;
}

std::string Encoding::decode(std::span<const std::uint32_t> tokens) const {
  std::string out;
  const auto& offsets = data_->offsets;
  for (const std::uint32_t token : tokens) {
    if (token >= size()) continue;
    out.append(data_->bytes, offsets[token], offsets[token + 1] - offsets[token]);
  }
  return out;
}

}  // namespace ptc
