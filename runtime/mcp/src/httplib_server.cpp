// HttpServer on Debian's cpp-httplib 0.11. That version misses later upstream hardening, which is one
// reason the MCP server binds to loopback unless told otherwise (docs/mcp.md).
#include <httplib.h>
#include <sys/socket.h>

#include <atomic>
#include <cerrno>
#include <cstring>

#include "http_server.hpp"

namespace ptc::mcp {
namespace {

// cpp-httplib 0.11 listens with a backlog of 5: a burst of connections beyond it has its SYNs dropped,
// and each of those clients waits a second for its retry. Listening again raises it (Linux keeps the
// socket and changes only the queue's length; the kernel caps it at net.core.somaxconn).
constexpr int kListenBacklog = 1024;

class HttplibServer final : public HttpServer {
 public:
  HttplibServer(HttpHandler handler, const HttpLimits& limits) : handler_(std::move(handler)) {
    const std::size_t threads = limits.threads;
    server_.new_task_queue = [threads] { return new httplib::ThreadPool(threads); };
    server_.set_payload_max_length(limits.max_body_bytes);
    server_.set_read_timeout(limits.read_timeout);
    server_.set_write_timeout(limits.write_timeout);
    // A response goes out in several small writes (headers, then each SSE event); with Nagle's
    // algorithm the later ones wait for the client's delayed ACK, about 40 ms each on Linux.
    server_.set_tcp_nodelay(true);
    server_.set_keep_alive_max_count(limits.keep_alive_requests);
    // httplib's default options set SO_REUSEPORT, with which a second server binds the same port and
    // silently takes part of the first one's connections. SO_REUSEADDR alone still lets a restarted
    // server bind while the old one's connections linger in TIME_WAIT.
    server_.set_socket_options([this](int socket) {
      const int yes = 1;
      ::setsockopt(socket, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof(yes));
      socket_ = socket;
    });
    // Every method and path goes to the one handler, which answers 404 and 405 itself. (Not the
    // pre-routing hook: it runs before httplib has read the body.)
    auto serve = [this](const httplib::Request& request, httplib::Response& response) {
      this->serve(request, response);
    };
    server_.Get(".*", serve);
    server_.Post(".*", serve);
    server_.Put(".*", serve);
    server_.Patch(".*", serve);
    server_.Delete(".*", serve);
    server_.Options(".*", serve);
  }

  int bind(const std::string& host, int port, std::string& error) override {
    errno = 0;
    const int bound = port == 0 ? server_.bind_to_any_port(host) : (server_.bind_to_port(host, port) ? port : -1);
    if (bound < 0) {
      // Appended piece by piece: `literal + std::string&&` trips g++ 12's -Wrestrict false positive.
      error = "cannot listen on ";
      error += host;
      if (port != 0) error.append(":").append(std::to_string(port));
      if (errno != 0) error.append(": ").append(std::strerror(errno));
      return -1;
    }
    if (socket_ >= 0) ::listen(socket_, kListenBacklog);
    return bound;
  }
  void run() override { server_.listen_after_bind(); }
  void stop() override { server_.stop(); }

 private:
  void serve(const httplib::Request& in, httplib::Response& out) {
    HttpRequest request;
    request.method = in.method;
    request.path = in.path;
    request.body = in.body;
    request.remote_address = in.remote_addr;
    request.headers = [&in](std::string_view name) {
      std::vector<std::string> values;
      auto range = in.headers.equal_range(std::string(name));  // httplib compares names case-insensitively
      for (auto it = range.first; it != range.second; ++it) values.push_back(it->second);
      return values;
    };
    HttpResponse response = handler_(request);
    out.status = response.status;
    for (auto& [name, value] : response.headers) out.set_header(name, value);
    if (!response.stream) {
      if (!response.content_type.empty() || !response.body.empty())
        out.set_content(response.body, response.content_type);
      return;
    }
    auto body = std::make_shared<std::function<void(HttpStream&)>>(std::move(response.stream));
    out.set_chunked_content_provider(response.content_type, [body](std::size_t, httplib::DataSink& sink) {
      HttpStream stream;
      stream.write = [&sink](std::string_view bytes) {
        return sink.is_writable() && sink.write(bytes.data(), bytes.size());
      };
      stream.writable = [&sink] { return sink.is_writable(); };
      (*body)(stream);
      sink.done();
      return true;
    });
  }

  HttpHandler handler_;
  httplib::Server server_;
  std::atomic<int> socket_{-1};  // the listening socket, once httplib has made it
};

}  // namespace

std::unique_ptr<HttpServer> make_httplib_server(HttpHandler handler, const HttpLimits& limits) {
  return std::make_unique<HttplibServer>(std::move(handler), limits);
}

}  // namespace ptc::mcp
