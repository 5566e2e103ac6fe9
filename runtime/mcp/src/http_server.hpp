#pragma once
// The little the MCP transport needs from an HTTP server library: requests in, whole or streamed
// responses out, limits, and a way to stop. httplib_server.cpp implements it on cpp-httplib; another
// library (Boost.Beast, for many concurrent streams) would implement the same interface.

#include <chrono>
#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace ptc::mcp {

struct HttpRequest {
  std::string method;
  std::string path;
  std::string body;
  /// The client's IP address as the connection reports it (the peer of per-peer limits); empty when
  /// unknown.
  std::string remote_address{};
  /// Header values by name (case-insensitive), in order; empty when absent.
  std::function<std::vector<std::string>(std::string_view name)> headers;

  /// The header's value when it appears exactly once; nullopt when absent, "" with `*repeated` set
  /// when it appears more than once.
  std::optional<std::string> header(std::string_view name, bool* repeated = nullptr) const {
    auto values = headers(name);
    if (repeated) *repeated = values.size() > 1;
    if (values.empty()) return std::nullopt;
    return values.size() == 1 ? values.front() : std::string();
  }
};

/// The body of a streamed response: `write` sends bytes at once and returns false once the client is
/// gone; `writable` asks without writing.
struct HttpStream {
  std::function<bool(std::string_view bytes)> write;
  std::function<bool()> writable;
};

struct HttpResponse {
  int status = 200;
  std::string content_type{};
  std::string body{};
  std::vector<std::pair<std::string, std::string>> headers{};
  /// Set instead of `body` for a streamed (chunked) response; runs on the serving thread.
  std::function<void(HttpStream&)> stream{};
};

using HttpHandler = std::function<HttpResponse(const HttpRequest&)>;

struct HttpLimits {
  std::size_t max_body_bytes;
  std::chrono::seconds read_timeout;
  std::chrono::seconds write_timeout;
  std::size_t threads;
  std::size_t keep_alive_requests;
};

class HttpServer {
 public:
  virtual ~HttpServer() = default;
  /// Binds `host:port` (port 0: any free port). Returns the port, or -1 (with `error` set).
  virtual int bind(const std::string& host, int port, std::string& error) = 0;
  /// Serves until stop(); call after bind().
  virtual void run() = 0;
  /// Safe from any thread.
  virtual void stop() = 0;
};

/// An HttpServer on cpp-httplib that hands every request to `handler`.
std::unique_ptr<HttpServer> make_httplib_server(HttpHandler handler, const HttpLimits& limits);

}  // namespace ptc::mcp
