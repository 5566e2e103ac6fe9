#pragma once
// MCP's Streamable HTTP transport: one endpoint, each client message its own POST, answered with JSON
// or (for tool calls) an SSE stream carrying progress and then the response. 2025-era clients get a
// session (Mcp-Session-Id) from initialize; 2026-07-28 requests are stateless and checked against
// their Mcp-* headers.

#include <chrono>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "http_server.hpp"
#include "protocol.hpp"

namespace ptc::mcp {

/// Serves until a byte arrives on `stop_fd`. Returns 0, or 1 when it cannot listen or HttpOptions::auth
/// is unusable (check_auth); a host other than loopback served without authorization gets a WARNING
/// banner first (auth/exposure.hpp). On a stop, calls are cancelled and responses in flight get
/// `shutdown_grace` to be written; `on_stuck` runs when a call is still running after that.
int serve_http(const Protocol& protocol, const HttpOptions& options, int stop_fd,
               const std::function<void()>& on_stuck = {});

/// The MCP endpoint as a handler, for tests that drive it without sockets. Owns the 2025 sessions
/// and the call workers.
class McpHttpEndpoint {
 public:
  McpHttpEndpoint(const Protocol& protocol, HttpOptions options);
  ~McpHttpEndpoint();
  McpHttpEndpoint(const McpHttpEndpoint&) = delete;
  McpHttpEndpoint& operator=(const McpHttpEndpoint&) = delete;

  HttpResponse handle(const HttpRequest& request);
  /// Cancels every call in flight (shutdown).
  void cancel_all();
  /// Waits up to `timeout` for the calls in flight to end; true when none is left.
  bool wait_idle_for(std::chrono::milliseconds timeout);

 private:
  struct State;
  std::unique_ptr<State> state_;
};

/// `=?base64?...?=` decoded (the 2026 header encoding), or the value itself; nullopt when the
/// sentinel is there but the Base64 inside is malformed.
std::optional<std::string> decode_header_value(std::string_view value);

}  // namespace ptc::mcp
