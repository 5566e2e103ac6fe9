#pragma once
// ptc::Content — a block a tool sends besides its value: an image, a sound, or a resource's contents.
// A handler attaches blocks with ToolContext::attach; the MCP result lists them after the text block.
//
//   context.attach(ptc::Content::image(png_bytes, "image/png"));

#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace ptc {

class Content {
 public:
  /// An image from its bytes (encoded as base64 here), e.g. "image/png".
  static Content image(std::string_view bytes, std::string mime_type);
  /// A sound from its bytes, e.g. "audio/wav".
  static Content audio(std::string_view bytes, std::string mime_type);
  /// A resource's text, named by its URI.
  static Content resource_text(std::string uri, std::string mime_type, std::string text);
  /// A resource's bytes, named by its URI.
  static Content resource_blob(std::string uri, std::string mime_type, std::string_view bytes);

  /// The MCP content block: `{"type":"image","data","mimeType"}`, `{"type":"audio",...}` or
  /// `{"type":"resource","resource":{"uri","mimeType","text"|"blob"}}`.
  const nlohmann::json& block() const { return block_; }

 private:
  explicit Content(nlohmann::json block) : block_(std::move(block)) {}
  nlohmann::json block_;
};

/// Standard base64 (RFC 4648, with padding), as MCP carries binary data.
std::string base64_encode(std::string_view bytes);

}  // namespace ptc
