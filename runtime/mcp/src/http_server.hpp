#pragma once
// The little the MCP transport needs from an HTTP/1.1 server: requests in, whole or streamed responses
// out, limits that hold against slow and hostile clients, and a graceful stop. http_server.cpp
// implements it on Boost.Beast (asynchronous: a connection waiting on a slow client holds no thread).

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
  /// The request target without its query.
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

struct HttpResponse;

/// The body of a streamed (chunked) response, fed from any thread as it is produced. Writes never
/// block: the server queues them for the connection.
class HttpStream {
 public:
  virtual ~HttpStream() = default;
  /// Queues `bytes` for the client; false once the client is gone (the bytes are dropped).
  virtual bool write(std::string bytes) = 0;
  /// Ends the body. Once it is written the server drops the response, and with it what `open` kept.
  virtual void close() = 0;
  /// Ends the response with what turned out to be its only message. A response opened with
  /// `HttpResponse::deferred_head` whose stream has not started (nothing written, no heartbeat) is
  /// answered with `whole` instead: its own status, content type, headers and body, with a
  /// Content-Length. Otherwise `last` is written as the stream's final bytes, as by write and close.
  virtual bool close_with(HttpResponse whole, std::string last) = 0;
};

struct HttpResponse {
  int status = 200;
  std::string content_type{};
  std::string body{};
  std::vector<std::pair<std::string, std::string>> headers{};
  /// Set instead of `body` for a streamed response: called once, after the headers are queued, with
  /// the stream to write to.
  std::function<void(std::shared_ptr<HttpStream>)> open{};
  /// For a streamed response: called once if the client goes away (or stops reading past the write
  /// timeout) before the stream is closed. Runs on the server's I/O thread: it must not block.
  std::function<void()> on_gone{};
  /// For a streamed response: bytes the server writes when the stream has been quiet for
  /// HttpLimits::stream_heartbeat, so that proxies keep it open and a vanished client is found.
  std::string heartbeat{};
  /// For a streamed response: its head is held until the first bytes of the body (or a heartbeat), so
  /// that a body that turns out to be one message can still go as a whole response
  /// (HttpStream::close_with).
  bool deferred_head = false;
};

using HttpHandler = std::function<HttpResponse(const HttpRequest&)>;

struct HttpLimits {
  /// A body longer than this is refused with 413: from its Content-Length before it is read, or as
  /// soon as its chunks pass the limit.
  std::size_t max_body_bytes = std::size_t{4} << 20;
  /// The request line and headers together; beyond it, 431.
  std::size_t max_header_bytes = std::size_t{16} << 10;
  /// A kept-alive connection waiting for its next request is closed after this long.
  std::chrono::milliseconds idle_timeout{std::chrono::seconds(60)};
  /// From a request's first byte to the end of its headers.
  std::chrono::milliseconds header_timeout{std::chrono::seconds(10)};
  /// From the end of the headers to the end of the body.
  std::chrono::milliseconds read_timeout{std::chrono::seconds(30)};
  /// One write (a response, or a piece of a stream) that the client does not take within this long
  /// ends the connection.
  std::chrono::milliseconds write_timeout{std::chrono::seconds(30)};
  std::chrono::milliseconds stream_heartbeat{std::chrono::seconds(15)};
  /// Threads running the handler for requests with bodies over 64 KiB (smaller ones run on the I/O
  /// thread); such requests beyond threads + max_queued_requests get 503.
  std::size_t threads = 4;
  std::size_t max_queued_requests = 1024;
  /// Threads waiting on sockets (they never run the handler).
  std::size_t io_threads = 2;
  std::size_t keep_alive_requests = 10000;
  /// Open connections, in total and from one IP address; a connection beyond either gets 503 and is
  /// closed.
  std::size_t max_connections = 1024;
  std::size_t max_connections_per_peer = 512;
};

class HttpServer {
 public:
  virtual ~HttpServer() = default;
  /// Binds `host:port` (port 0: any free port). Returns the port, or -1 (with `error` set).
  virtual int bind(const std::string& host, int port, std::string& error) = 0;
  /// Serves until stop() and the connections it leaves are gone; call after bind().
  virtual void run() = 0;
  /// Safe from any thread: stops accepting, closes connections waiting for a request, lets responses
  /// in flight finish for up to `grace`, then closes every connection.
  virtual void stop(std::chrono::milliseconds grace) = 0;
};

/// An HttpServer that hands every request to `handler`.
std::unique_ptr<HttpServer> make_http_server(HttpHandler handler, const HttpLimits& limits);

}  // namespace ptc::mcp
