// Encoding::load and Encoding::parse: OpenAI's rank files, read as if an attacker wrote them. Every read
// is bounded (Encoding::kMaxFileBytes, kMaxLineBytes, kMaxRanks), so the table costs at most a small
// multiple of the file's size, and each malformed line is refused with its place.

#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>
#include <system_error>

#include <ptc/file_input.hpp>
#include <ptc/encoding.hpp>

#include "base64.hpp"
#include "encoding_data.hpp"

namespace ptc {
namespace {

constexpr std::string_view kPublished = "https://openaipublic.blob.core.windows.net/encodings/";

Error line_error(std::string_view source, std::size_t line, const std::string& what) {
  Error e{std::string(source) + ":" + std::to_string(line) + ": " + what};
  e.line = line;
  return e;
}

// The decimal rank at the end of a line: digits only, no sign, no leading zero, below 2^32.
std::optional<std::uint32_t> parse_rank(std::string_view text) {
  if (text.empty() || text.size() > 10 || (text.size() > 1 && text[0] == '0')) return std::nullopt;
  std::uint64_t value = 0;
  for (const char c : text) {
    if (c < '0' || c > '9') return std::nullopt;
    value = value * 10 + static_cast<std::uint64_t>(c - '0');
  }
  if (value > 0xFFFFFFFFu) return std::nullopt;
  return static_cast<std::uint32_t>(value);
}

// Adds the line "<base64> <rank>" to `data`, or says what is wrong with it.
std::optional<std::string> add_line(detail::EncodingData& data, std::string_view line) {
  const std::size_t space = line.find(' ');
  if (space == std::string_view::npos) return "expected \"<base64 token> <rank>\", found no space";
  const auto token = text::base64_decode(line.substr(0, space), text::Base64Alphabet::Standard);
  if (!token) return "the token is not valid base64";
  if (token->empty()) return "the token is empty";
  const auto rank = parse_rank(line.substr(space + 1));
  if (!rank) return "the rank is not a decimal number below 2^32";
  const std::size_t expected = data.offsets.size() - 1;
  if (*rank != expected)
    return "rank " + std::to_string(*rank) + " where " + std::to_string(expected) +
           " was expected (ranks go 0, 1, 2, ... one per line)";
  data.bytes += *token;
  data.offsets.push_back(static_cast<std::uint32_t>(data.bytes.size()));
  return std::nullopt;
}

// The map from bytes to rank, built once `bytes` no longer grows (its keys point into it).
std::optional<Error> index_ranks(detail::EncodingData& data, std::string_view source) {
  const std::size_t size = data.offsets.size() - 1;
  data.ranks.reserve(size);
  for (std::uint32_t rank = 0; rank < size; ++rank) {
    const std::string_view token(data.bytes.data() + data.offsets[rank], data.offsets[rank + 1] - data.offsets[rank]);
    const auto [it, added] = data.ranks.emplace(token, rank);
    if (!added)
      return line_error(source, rank + 1,
                        "the token of rank " + std::to_string(rank) + " already has rank " +
                            std::to_string(it->second));
  }
  // The merge starts from single bytes, so each must be a token.
  for (int byte = 0; byte < 256; ++byte) {
    const char c = static_cast<char>(byte);
    if (data.ranks.count(std::string_view(&c, 1)) == 0) {
      char hex[8];
      std::snprintf(hex, sizeof hex, "0x%02X", static_cast<unsigned>(byte));
      return Error{std::string(source) + ": no rank for the byte " + hex + " (every single byte needs one)"};
    }
  }
  return std::nullopt;
}

}  // namespace

Result<Encoding> Encoding::parse(std::string_view name, std::string_view ranks, std::string_view source) {
  const auto kind = tokens::split_kind(name);
  if (!kind) return Error{"unknown encoding \"" + std::string(name) + "\" (ptc knows o200k_base and cl100k_base)"};
  if (ranks.size() > kMaxFileBytes)
    return Error{std::string(source) + ": more than " + std::to_string(kMaxFileBytes) + " bytes (the limit)"};
  auto data = std::make_shared<detail::EncodingData>(detail::EncodingData{
      std::string(name), {}, {0}, {}, tokens::Splitter(*kind)});
  data->bytes.reserve(ranks.size());
  std::size_t number = 0;
  for (std::size_t pos = 0; pos < ranks.size();) {
    std::size_t end = ranks.find('\n', pos);
    if (end == std::string_view::npos) end = ranks.size();
    ++number;
    if (end - pos > kMaxLineBytes)
      return line_error(source, number, "longer than " + std::to_string(kMaxLineBytes) + " bytes (the limit)");
    if (number > kMaxRanks)
      return line_error(source, number, "more than " + std::to_string(kMaxRanks) + " ranks (the limit)");
    if (auto what = add_line(*data, ranks.substr(pos, end - pos))) return line_error(source, number, *what);
    pos = end + 1;
  }
  if (number == 0) return Error{std::string(source) + ": no ranks (the file is empty)"};
  if (auto error = index_ranks(*data, source)) return *error;
  return Encoding(std::move(data));
}

Result<Encoding> Encoding::load(std::string_view name, const std::filesystem::path& dir) {
  if (!tokens::split_kind(name))
    return Error{"unknown encoding \"" + std::string(name) + "\" (ptc knows o200k_base and cl100k_base)"};
  const std::string file_name = std::string(name) + ".tiktoken";
  const std::filesystem::path path = dir / file_name;
  std::error_code ec;
  if (!std::filesystem::exists(path, ec))
    return Error{path.string() + ": no such file; the rank file of " + std::string(name) + " is published at " +
                 std::string(kPublished) + file_name};
  auto text = read_regular_file(path, kMaxFileBytes);
  if (!text) return text.error();
  return parse(name, *text, path.string());
}

}  // namespace ptc
