#pragma once
// Strict base64 (RFC 4648, standard alphabet, padded), as OpenAI's rank files write each token.

#include <optional>
#include <string>
#include <string_view>

namespace ptc::tokens {

/// The bytes `text` encodes, or nullopt unless it is canonical padded base64: a length that is a
/// multiple of four, '=' only as the last one or two characters, and no stray bits in the last one.
std::optional<std::string> base64_decode(std::string_view text);

}  // namespace ptc::tokens
