#pragma once
// Static bearer tokens: their syntax, and finding a presented one among the digests.

#include <cstddef>
#include <string_view>
#include <vector>

#include <ptc/mcp/auth.hpp>

namespace ptc::mcp::auth {

/// A presented token longer than this is refused before anything is computed from it.
inline constexpr std::size_t kMaxTokenBytes = 8192;
/// Static tokens are at least this long: a shorter one is within reach of guessing over the network.
inline constexpr std::size_t kMinStaticTokenBytes = 16;
inline constexpr std::size_t kMaxStaticTokenBytes = 4096;

/// RFC 6750's b64token: letters, digits and -._~+/, then any number of `=`; not empty.
bool is_b64token(std::string_view token);

/// Whether the digest of `token` is one of `digests`. Every digest is compared, each in constant time,
/// so the time taken says nothing about how close a guess came.
bool token_matches(std::string_view token, const std::vector<TokenDigest>& digests);

}  // namespace ptc::mcp::auth
