// libFuzzer target: the HTTP server (runtime/mcp/src/http_server.cpp), fed what a client may send on a
// connection: the input's bytes go to one loopback connection of a live server, in pieces (the first
// byte says how many), then the client stops sending and reads until the server closes.
//
// Oracles: the server closes the connection promptly once the client has stopped sending (no hang);
// everything it sends is a sequence of well-formed HTTP/1.1 responses (interim 100 Continue included),
// no more of them than the requests the input could hold; and after each input a fresh connection is
// still served.

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/http/parser.hpp>
#include <boost/beast/http/read.hpp>
#include <boost/beast/http/string_body.hpp>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <thread>

#include "fuzz_common.hpp"
#include "http_server.hpp"

namespace {

using namespace std::chrono_literals;
namespace http = boost::beast::http;
using ptc::mcp::HttpRequest;
using ptc::mcp::HttpResponse;

HttpResponse handle(const HttpRequest& request) {
  if (request.path == "/stream") {
    HttpResponse response{200, "text/event-stream"};
    response.open = [body = request.body](std::shared_ptr<ptc::mcp::HttpStream> stream) {
      stream->write("event: one\n\n");
      stream->write(body);
      stream->close();
    };
    return response;
  }
  if (request.path == "/error") return HttpResponse{500, "text/plain", "no"};
  return HttpResponse{200,
                      "text/plain",
                      request.method + " " + request.path + " " + request.body,
                      {{"X-Header-Count", std::to_string(request.headers("X-A").size())}}};
}

// One server for the whole run, on a free loopback port.
int port() {
  static const int bound = [] {
    ptc::mcp::HttpLimits limits;
    limits.max_body_bytes = 1024;
    limits.max_header_bytes = 2048;
    limits.header_timeout = 2s;
    limits.read_timeout = 2s;
    limits.write_timeout = 2s;
    limits.idle_timeout = 2s;
    // Never destroyed: the detached thread below is still inside run() when the process exits, and a
    // static destructor tearing the io_context down under it hung the exit after a finished run.
    static ptc::mcp::HttpServer* const server = ptc::mcp::make_http_server(handle, limits).release();
    std::string error;
    const int p = server->bind("127.0.0.1", 0, error);
    if (p < 0) ptc_fuzz::oracle_failure("the server cannot bind", "error", error);
    std::thread([] { server->run(); }).detach();
    return p;
  }();
  return bound;
}

int connect_to_server() {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(static_cast<std::uint16_t>(port()));
  ::inet_pton(AF_INET, "127.0.0.1", &address.sin_addr);
  if (::connect(fd, reinterpret_cast<const sockaddr*>(&address), sizeof(address)) != 0)
    ptc_fuzz::oracle_failure("the server no longer accepts connections", "port", std::to_string(port()));
  return fd;
}

// Everything the server sends until it closes; fails the oracle when it is still open after `limit`.
std::string read_to_close(int fd, std::string_view input, std::chrono::milliseconds limit) {
  std::string text;
  const auto end = std::chrono::steady_clock::now() + limit;
  for (;;) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(end - std::chrono::steady_clock::now());
    pollfd p{fd, POLLIN, 0};
    if (left.count() <= 0 || ::poll(&p, 1, static_cast<int>(left.count())) <= 0)
      ptc_fuzz::oracle_failure("the server kept the connection open after the client stopped sending", "input", input,
                               "received", text);
    char chunk[16384];
    const auto n = ::recv(fd, chunk, sizeof chunk, 0);
    if (n <= 0) return text;
    text.append(chunk, static_cast<std::size_t>(n));
  }
}

// How many well-formed responses `text` holds; the oracle fails on anything else.
std::size_t responses_in(const std::string& text, std::string_view input) {
  std::size_t count = 0;
  std::string_view rest = text;
  while (!rest.empty()) {
    if (rest.rfind("HTTP/1.1 100 Continue\r\n\r\n", 0) == 0) {
      rest.remove_prefix(25);
      continue;
    }
    http::response_parser<http::string_body> parser;
    parser.eager(true);
    parser.body_limit(1 << 20);
    boost::system::error_code ec;
    const auto used = parser.put(boost::asio::buffer(rest.data(), rest.size()), ec);
    // A stream counts its client gone when the client stops sending (the read the server keeps pending
    // ends): the last response may then be a chunked one cut short, never anything else.
    const bool incomplete = ec == http::error::need_more || (!ec && !parser.is_done());
    const bool cut_stream = incomplete && parser.is_header_done() && parser.chunked();
    if (cut_stream) return count + 1;
    if (ec || !parser.is_done())
      ptc_fuzz::oracle_failure("the server sent something that is not a whole HTTP response", "input", input,
                               "received", text);
    rest.remove_prefix(used);
    ++count;
  }
  return count;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::size_t pieces = 1 + data[0] % 4;
  const std::string_view input = ptc_fuzz::as_text(data + 1, size - 1);
  const int fd = connect_to_server();
  // In pieces, so that requests split across reads are exercised too.
  const std::size_t step = input.size() / pieces + 1;
  for (std::size_t at = 0; at < input.size(); at += step) {
    const auto piece = input.substr(at, step);
    if (::send(fd, piece.data(), piece.size(), MSG_NOSIGNAL) < 0) break;  // the server closed early
  }
  ::shutdown(fd, SHUT_WR);
  const std::string received = read_to_close(fd, input, 5s);
  ::close(fd);
  // A request needs at least "GET / HTTP/1.1\r\n\r\n"-like framing: each response answers one whose
  // header block ended, or refuses the input (one response, then the connection is closed).
  std::size_t header_ends = 0;
  for (std::size_t at = 0; (at = input.find("\n\r\n", at)) != std::string_view::npos; at += 3) ++header_ends;
  for (std::size_t at = 0; (at = input.find("\n\n", at)) != std::string_view::npos; at += 2) ++header_ends;
  if (responses_in(received, input) > header_ends + 1)
    ptc_fuzz::oracle_failure("more responses than requests", "input", input, "received", received);

  // Every so often: the server still answers a fresh, well-formed request.
  static unsigned runs = 0;
  if (++runs % 32 == 0) {
    const int check = connect_to_server();
    const std::string request = "GET /alive HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n";
    ::send(check, request.data(), request.size(), MSG_NOSIGNAL);
    const std::string answer = read_to_close(check, request, 5s);
    ::close(check);
    if (answer.rfind("HTTP/1.1 200 OK\r\n", 0) != 0)
      ptc_fuzz::oracle_failure("the server stopped serving after an input", "input", input, "answer", answer);
  }
  return 0;
}
