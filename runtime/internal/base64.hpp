#pragma once
// Base64 (RFC 4648) in the two alphabets ptc meets: the standard one, padded (MCP's binary content,
// OpenAI's rank files), and base64url without padding (JWS and JWK, MCP's request state). One codec,
// strict when it reads: each byte string has exactly one encoding it accepts.

#include <cstddef>
#include <limits>
#include <optional>
#include <string>
#include <string_view>

namespace ptc::text {

enum class Base64Alphabet {
  Standard,  ///< `+` and `/`, padded with `=` to a multiple of four characters
  Url,       ///< `-` and `_`, no padding
};

/// `bytes` encoded.
std::string base64_encode(std::string_view bytes, Base64Alphabet alphabet);

/// The bytes `text` encodes, or nullopt unless it is their one encoding: Standard needs a length that is
/// a multiple of four, with `=` only as the last one or two characters; Url takes no `=` and no length
/// of 4n+1. Either refuses a character outside its alphabet, bits set past the last byte, and text
/// that would decode to more than `max_bytes`.
std::optional<std::string> base64_decode(std::string_view text, Base64Alphabet alphabet,
                                         std::size_t max_bytes = std::numeric_limits<std::size_t>::max());

}  // namespace ptc::text
