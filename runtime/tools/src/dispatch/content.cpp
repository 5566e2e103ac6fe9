#include <ptc/content.hpp>

#include "base64.hpp"

namespace ptc {

std::string base64_encode(std::string_view bytes) { return text::base64_encode(bytes, text::Base64Alphabet::Standard); }

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
