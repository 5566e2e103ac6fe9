#include "base64url.hpp"

#include "base64.hpp"

namespace ptc::mcp::auth {

// The runtime's one base64 codec (runtime/internal/base64.hpp), in its url alphabet.

std::optional<std::string> base64url_decode(std::string_view text, std::size_t max_bytes) {
  return ptc::text::base64_decode(text, ptc::text::Base64Alphabet::Url, max_bytes);
}

std::string base64url_encode(std::string_view bytes) {
  return ptc::text::base64_encode(bytes, ptc::text::Base64Alphabet::Url);
}

}  // namespace ptc::mcp::auth
