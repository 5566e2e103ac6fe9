#pragma once
// The agent's HTTP client, on libcurl: one POST with retries, streaming the body of a successful
// answer to a callback as it arrives. Internal to ptc::agent.

#include <chrono>
#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <ptc/agent/model.hpp>
#include <ptc/cancellation.hpp>
#include <ptc/error.hpp>

namespace ptc::agent::detail {

using Headers = std::vector<std::pair<std::string, std::string>>;

struct HttpRequest {
  std::string url;
  Headers headers;  ///< besides Content-Type: application/json, which is always sent
  std::string body;
};

struct HttpReply {
  long status = 0;
  Headers headers;   ///< names lower-cased
  std::string body;  ///< empty when the body went to on_data
};

struct TransportOptions {
  std::chrono::milliseconds connect_timeout{10'000};
  std::chrono::milliseconds total_timeout{600'000};
  int max_retries = 3;
  std::chrono::milliseconds initial_backoff{500};
  std::chrono::milliseconds max_backoff{30'000};
  std::size_t max_response_bytes = std::size_t{32} << 20;
  /// Strings removed from every error text (the API key), replaced by "[redacted]".
  std::vector<std::string> secrets;
  std::string provider;  ///< named in errors: "anthropic: HTTP 401: ..."
};

/// `text` with every non-empty secret replaced by "[redacted]".
std::string redact(std::string text, const std::vector<std::string>& secrets);

/// Whether a status is retried: 408, 409, 429, 500, 502, 503, 504, 529.
bool retryable_status(long status);
/// The delay a reply asks for: `retry-after-ms`, or `Retry-After` in seconds or as an HTTP date
/// (relative to `now`); nullopt when it asks for none or the value cannot be read.
std::optional<std::chrono::milliseconds> retry_after(const Headers& headers, std::chrono::system_clock::time_point now);

class HttpTransport {
 public:
  explicit HttpTransport(TransportOptions options);
  ~HttpTransport();
  HttpTransport(const HttpTransport&) = delete;
  HttpTransport& operator=(const HttpTransport&) = delete;

  /// POSTs `request`, retrying as TransportOptions say (exponential backoff with full jitter, at least
  /// what Retry-After asks, at most max_backoff). A 2xx reply's body goes to `on_data` piece by piece
  /// when it is set (returning false aborts: an Error "<provider>: response abandoned by its reader"),
  /// or into HttpReply::body. A non-2xx reply after the
  /// retries comes back as an HttpReply (the caller reads the provider's error message from it); a
  /// transport failure (refused, dropped, timed out, cancelled, over max_response_bytes) is an Error
  /// whose message starts with the provider's name. No retry once on_data has been given a byte.
  /// One post at a time: the handle (and its connection) is reused from one post to the next.
  Result<HttpReply> post(const HttpRequest& request, const std::function<bool(std::string_view)>& on_data,
                         const Cancellation* cancellation, const std::function<void(const RetryNotice&)>& on_retry);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

/// Splits a server-sent-events stream into events as bytes arrive, in any pieces.
class SseReader {
 public:
  struct Event {
    std::string event;  ///< the `event:` field, empty when absent
    std::string data;   ///< the `data:` lines joined with "\n"
  };
  /// Feeds bytes; calls `on_event` for every event completed by them; false when it returned false
  /// or an event grew past `max_event_bytes`.
  bool feed(std::string_view bytes, const std::function<bool(const Event&)>& on_event);
  /// The last event when the stream ended without its blank line; nullopt when there is none.
  std::optional<Event> finish();
  std::size_t max_event_bytes = std::size_t{8} << 20;

 private:
  /// Handles the complete line in line_ (a blank one dispatches the pending event).
  bool end_line(const std::function<bool(const Event&)>& on_event);

  std::string line_;
  Event pending_;
  bool has_pending_ = false;  ///< a `data:` line has been read since the last dispatch
  bool after_cr_ = false;     ///< the last piece ended in \r: a \n starting the next one ends no line
};

}  // namespace ptc::agent::detail
