#include <ptc/content.hpp>

namespace ptc {

std::string base64_encode(std::string_view bytes) {
  static constexpr char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  out.reserve((bytes.size() + 2) / 3 * 4);
  std::size_t i = 0;
  const auto at = [&](std::size_t k) { return static_cast<unsigned char>(bytes[k]); };
  for (; i + 3 <= bytes.size(); i += 3) {
    const unsigned v = at(i) << 16 | at(i + 1) << 8 | at(i + 2);
    out += {kAlphabet[v >> 18], kAlphabet[(v >> 12) & 63], kAlphabet[(v >> 6) & 63], kAlphabet[v & 63]};
  }
  if (const std::size_t rest = bytes.size() - i; rest > 0) {
    const unsigned v = at(i) << 16 | (rest == 2 ? at(i + 1) << 8 : 0u);
    out += {kAlphabet[v >> 18], kAlphabet[(v >> 12) & 63], rest == 2 ? kAlphabet[(v >> 6) & 63] : '=', '='};
  }
  return out;
}

Content Content::image(std::string_view bytes, std::string mime_type) {
  return Content({{"type", "image"}, {"data", base64_encode(bytes)}, {"mimeType", std::move(mime_type)}});
}

Content Content::audio(std::string_view bytes, std::string mime_type) {
  return Content({{"type", "audio"}, {"data", base64_encode(bytes)}, {"mimeType", std::move(mime_type)}});
}

Content Content::resource_text(std::string uri, std::string mime_type, std::string text) {
  return Content({{"type", "resource"},
                  {"resource",
                   {{"uri", std::move(uri)}, {"mimeType", std::move(mime_type)}, {"text", std::move(text)}}}});
}

Content Content::resource_blob(std::string uri, std::string mime_type, std::string_view bytes) {
  return Content({{"type", "resource"},
                  {"resource",
                   {{"uri", std::move(uri)}, {"mimeType", std::move(mime_type)}, {"blob", base64_encode(bytes)}}}});
}

}  // namespace ptc
