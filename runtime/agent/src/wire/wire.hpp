#pragma once
// Each provider's wire format: the request body ptc sends, the answer read back (whole or streamed),
// and the provider's error message. Pure functions on JSON, no I/O. Internal to ptc::agent.

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include <ptc/agent/model.hpp>
#include <ptc/agent/providers.hpp>
#include <ptc/error.hpp>
#include <ptc/json_schema.hpp>

#include "transport/http_transport.hpp"

namespace ptc::agent::detail {

/// Assembles a streamed turn from its server-sent events: text deltas, tool-call argument deltas
/// (each call by its own index: a whole call in one delta, several calls in one delta, a name sent
/// again, an id that comes late), usage, and what must be sent back.
class StreamAssembler {
 public:
  virtual ~StreamAssembler() = default;
  /// One SSE event; `emit` receives the deltas it carries. An error ends the stream (a provider's
  /// `error` event, malformed JSON: "event 3: ...").
  virtual std::optional<Error> on_event(const SseReader::Event& event,
                                        const std::function<void(const StreamEvent&)>& emit) = 0;
  /// After the last event: the whole turn, or an error when the stream ended before its end (Chat: neither
  /// `[DONE]` nor a `finish_reason`; no `message_stop`; no `response.completed`; Gemini's stream just
  /// ends, and a `finishReason` must have come).
  virtual Result<ModelResponse> finish() = 0;
};

class Wire {
 public:
  virtual ~Wire() = default;
  /// The URL to POST to, from the base URL (no trailing slash) and the model name.
  virtual std::string url(std::string_view base_url, const ModelSettings& settings, bool stream) const = 0;
  /// The auth and version headers; no auth header when `api_key` is empty.
  virtual Headers headers(const std::string& api_key) const = 0;
  /// The request body, as the text sent: the conversation, the tools (ptc's renderings for this
  /// provider), the output schema, the settings. An error names the tool or schema the provider cannot
  /// take.
  virtual Result<std::string> request_body(const ModelRequest& request, bool stream) const = 0;
  /// A whole (not streamed) answer. An error names the JSON path that is not as documented.
  virtual Result<ModelResponse> parse_response(const nlohmann::json& body) const = 0;
  virtual std::unique_ptr<StreamAssembler> stream() const = 0;
  /// The provider's own error message in an error body (`{"error":{"message":...}}` and the like),
  /// or the start of the body when it has none.
  virtual std::string error_message(std::string_view body) const = 0;
};

std::unique_ptr<Wire> make_wire(Provider provider);

}  // namespace ptc::agent::detail
