#pragma once
// Base64url without padding (RFC 4648 §5), as JWS and JWK write their binary parts.

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace ptc::mcp::auth {

/// The bytes `text` encodes, or nullopt when it holds a character outside the alphabet, `=` padding, a
/// length no encoding has, bits set past the last byte (so each value has one encoding only) or would
/// decode to more than `max_bytes`.
std::optional<std::string> base64url_decode(std::string_view text, std::size_t max_bytes);

/// `bytes` encoded, without padding.
std::string base64url_encode(std::string_view bytes);

}  // namespace ptc::mcp::auth
