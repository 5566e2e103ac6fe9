// The HTTP server (runtime/mcp/src/http_server.cpp), attacked over loopback sockets: slow and
// oversized requests, pipelining, floods of connections, streams whose clients vanish, and a stop
// while a stream never ends. What it serves for MCP is tested through the endpoint
// (http_transport_test.cpp) and the whole server (server_test.cpp).
#include "http_server.hpp"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <future>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

namespace {

using namespace std::chrono_literals;
using ptc::mcp::HttpLimits;
using ptc::mcp::HttpRequest;
using ptc::mcp::HttpResponse;
using ptc::mcp::HttpStream;
using Clock = std::chrono::steady_clock;

HttpLimits test_limits() {
  HttpLimits limits;
  limits.max_body_bytes = 1000;
  limits.header_timeout = 1s;
  limits.read_timeout = 1s;
  limits.write_timeout = 1s;
  limits.idle_timeout = 5s;
  return limits;
}

// A server on a free loopback port, serving on its own thread until the fixture ends.
class Served {
 public:
  Served(ptc::mcp::HttpHandler handler, const HttpLimits& limits = test_limits())
      : server_(ptc::mcp::make_http_server(std::move(handler), limits)) {
    std::string error;
    port_ = server_->bind("127.0.0.1", 0, error);
    EXPECT_GT(port_, 0) << error;
    thread_ = std::thread([this] { server_->run(); });
  }
  ~Served() { stop(0ms); }
  /// Stops and returns how long run() took to return.
  std::chrono::milliseconds stop(std::chrono::milliseconds grace) {
    if (!thread_.joinable()) return 0ms;
    const auto start = Clock::now();
    server_->stop(grace);
    thread_.join();
    return std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - start);
  }
  int port() const { return port_; }

 private:
  std::unique_ptr<ptc::mcp::HttpServer> server_;
  int port_ = -1;
  std::thread thread_;
};

HttpResponse echo(const HttpRequest& request) {
  return HttpResponse{200, "text/plain", request.method + " " + request.path + " " + request.body};
}

int connect_to(int port) {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(static_cast<std::uint16_t>(port));
  ::inet_pton(AF_INET, "127.0.0.1", &address.sin_addr);
  if (::connect(fd, reinterpret_cast<const sockaddr*>(&address), sizeof(address)) != 0) {
    ::close(fd);
    return -1;
  }
  const int yes = 1;
  ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &yes, sizeof(yes));
  return fd;
}

bool send_all(int fd, std::string_view bytes) {
  while (!bytes.empty()) {
    const auto n = ::send(fd, bytes.data(), bytes.size(), MSG_NOSIGNAL);
    if (n <= 0) return false;
    bytes.remove_prefix(static_cast<std::size_t>(n));
  }
  return true;
}

// Reads what arrives within `timeout`, until the peer closes or `done` says the text is complete.
// `closed` tells whether the peer closed the connection.
std::string read_until(int fd, std::chrono::milliseconds timeout, const std::function<bool(const std::string&)>& done,
                       bool* closed = nullptr) {
  std::string text;
  const auto end = Clock::now() + timeout;
  if (closed) *closed = false;
  while (!done(text)) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(end - Clock::now()).count();
    if (left <= 0) break;
    pollfd p{fd, POLLIN, 0};
    if (::poll(&p, 1, static_cast<int>(left)) <= 0) continue;
    char buffer[65536];
    const auto n = ::recv(fd, buffer, sizeof buffer, 0);
    if (n <= 0) {
      if (closed) *closed = true;
      break;
    }
    text.append(buffer, static_cast<std::size_t>(n));
  }
  return text;
}

// One response with a Content-Length body is complete in `text`.
std::size_t whole_response_length(const std::string& text, std::size_t from = 0) {
  const auto head_end = text.find("\r\n\r\n", from);
  if (head_end == std::string::npos) return 0;
  const auto at = text.find("Content-Length: ", from);
  if (at == std::string::npos || at > head_end) return 0;
  const auto length = std::stoul(text.substr(at + 16));
  return text.size() >= head_end + 4 + length ? head_end + 4 + length - from : 0;
}
bool has_responses(const std::string& text, int count) {
  std::size_t at = 0;
  for (int i = 0; i < count; ++i) {
    const auto n = whole_response_length(text, at);
    if (n == 0) return false;
    at += n;
  }
  return true;
}

std::string request(std::string path, std::string body = {}, std::string extra = {}) {
  return "POST " + path + " HTTP/1.1\r\nHost: localhost\r\nContent-Type: text/plain\r\n" + extra +
         "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body;
}

// One request on a new connection; the whole exchange's text.
std::string exchange(int port, const std::string& bytes, std::chrono::milliseconds timeout = 3s) {
  const int fd = connect_to(port);
  if (fd < 0) return "connect failed";
  send_all(fd, bytes);
  auto text = read_until(fd, timeout, [](const std::string& t) { return has_responses(t, 1); });
  ::close(fd);
  return text;
}

TEST(HttpServer, ASecondServerOnAPortInUseFailsAndSaysWhy) {
  auto first = ptc::mcp::make_http_server(echo, test_limits());
  std::string error;
  const int port = first->bind("127.0.0.1", 0, error);
  ASSERT_GT(port, 0) << error;
  auto second = ptc::mcp::make_http_server(echo, test_limits());
  EXPECT_EQ(second->bind("127.0.0.1", port, error), -1);
  EXPECT_EQ(error, "cannot listen on 127.0.0.1:" + std::to_string(port) + ": Address already in use");
}

TEST(HttpServer, AHostThatIsNoAddressIsAnErrorNotACrash) {
  auto server = ptc::mcp::make_http_server(echo, test_limits());
  std::string error;
  EXPECT_EQ(server->bind("no such host.invalid", 0, error), -1);
  EXPECT_EQ(error.rfind("cannot listen on no such host.invalid: ", 0), 0u) << error;
}

// Connects `count` sockets at once (non-blocking) and returns how long the slowest took to be accepted
// by the kernel; sockets that did not connect within `limit` count as `limit`.
std::chrono::milliseconds slowest_connect(int port, int count, std::chrono::milliseconds limit) {
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(static_cast<std::uint16_t>(port));
  ::inet_pton(AF_INET, "127.0.0.1", &address.sin_addr);
  std::vector<pollfd> pending;
  const auto start = Clock::now();
  for (int i = 0; i < count; ++i) {
    const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
    ::connect(fd, reinterpret_cast<const sockaddr*>(&address), sizeof(address));
    pending.push_back({fd, POLLOUT, 0});
  }
  std::vector<int> all;
  for (auto& p : pending) all.push_back(p.fd);
  auto elapsed = [&] { return std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - start); };
  while (!pending.empty() && elapsed() < limit) {
    ::poll(pending.data(), pending.size(), 10);
    std::erase_if(pending, [](const pollfd& p) { return (p.revents & POLLOUT) != 0; });
  }
  const auto slowest = pending.empty() ? elapsed() : limit;
  for (int fd : all) ::close(fd);
  return slowest;
}

// A backlog of 5 (cpp-httplib's) had SYNs dropped in a burst, and those clients waited a second for
// the retry; the server listens with a backlog of 1024.
TEST(HttpServer, ABurstOfConnectionsIsQueuedNotDropped) {
  auto server = ptc::mcp::make_http_server(echo, test_limits());
  std::string error;
  const int port = server->bind("127.0.0.1", 0, error);
  ASSERT_GT(port, 0) << error;
  // Not serving yet: nothing is accepted, so every connection must wait in the listen queue.
  EXPECT_LT(slowest_connect(port, 500, 3000ms), 900ms);
}

TEST(HttpServer, AnswersARequest) {
  Served served(echo);
  auto text = exchange(served.port(), request("/mcp?x=1", "hello"));
  EXPECT_EQ(text.rfind("HTTP/1.1 200 OK\r\n", 0), 0u) << text;
  EXPECT_NE(text.find("\r\n\r\nPOST /mcp hello"), std::string::npos) << text;
}

TEST(HttpServer, AContentLengthOverTheLimitIsRefusedFromTheHeaders) {
  Served served(echo);
  const int fd = connect_to(served.port());
  // Only the headers: the answer must not wait for a body that never comes.
  send_all(fd, "POST /mcp HTTP/1.1\r\nHost: localhost\r\nContent-Length: 1001\r\n\r\n");
  bool closed = false;
  auto text = read_until(
      fd, 3s, [](const std::string&) { return false; }, &closed);
  ::close(fd);
  EXPECT_EQ(text.rfind("HTTP/1.1 413 Payload Too Large\r\n", 0), 0u) << text;
  EXPECT_NE(text.find("Connection: close\r\n"), std::string::npos) << text;
  EXPECT_TRUE(closed);
  // At the limit it is read.
  EXPECT_EQ(exchange(served.port(), request("/mcp", std::string(1000, 'b'))).rfind("HTTP/1.1 200 OK", 0), 0u);
}

TEST(HttpServer, AChunkedBodyOverTheLimitIsRefused) {
  std::atomic<int> handled{0};
  Served served([&](const HttpRequest& r) {
    ++handled;
    return echo(r);
  });
  const int fd = connect_to(served.port());
  send_all(fd, "POST /mcp HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: chunked\r\n\r\n");
  // 200-byte chunks, for as long as the server takes them.
  const std::string piece = "c8\r\n" + std::string(200, 'c') + "\r\n";
  int sent = 0;
  while (sent < 100 && send_all(fd, piece)) ++sent;
  bool closed = false;
  auto text = read_until(
      fd, 3s, [](const std::string&) { return false; }, &closed);
  ::close(fd);
  EXPECT_EQ(text.rfind("HTTP/1.1 413 Payload Too Large\r\n", 0), 0u) << text;
  EXPECT_TRUE(closed);
  EXPECT_EQ(handled.load(), 0);
  // A chunked body within the limit is read whole.
  auto ok = exchange(
      served.port(),
      "POST /mcp HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n2\r\nde\r\n0\r\n\r\n");
  EXPECT_NE(ok.find("\r\n\r\nPOST /mcp abcde"), std::string::npos) << ok;
}

TEST(HttpServer, HeadersBeyondTheirLimitGet431) {
  Served served(echo);
  auto text = exchange(served.port(), request("/mcp", "", "X-Big: " + std::string(20000, 'h') + "\r\n"));
  EXPECT_EQ(text.rfind("HTTP/1.1 431 Request Header Fields Too Large\r\n", 0), 0u) << text.substr(0, 200);
}

TEST(HttpServer, GarbageGets400) {
  Served served(echo);
  auto text = exchange(served.port(), "NOT HTTP AT ALL\r\n\r\n");
  EXPECT_EQ(text.rfind("HTTP/1.1 400 Bad Request\r\n", 0), 0u) << text;
}

TEST(HttpServer, ExpectContinueIsAnsweredBeforeTheBody) {
  Served served(echo);
  const int fd = connect_to(served.port());
  send_all(fd, "POST /mcp HTTP/1.1\r\nHost: localhost\r\nExpect: 100-continue\r\nContent-Length: 4\r\n\r\n");
  auto interim = read_until(fd, 3s, [](const std::string& t) { return t.find("\r\n\r\n") != std::string::npos; });
  EXPECT_EQ(interim, "HTTP/1.1 100 Continue\r\n\r\n");
  send_all(fd, "body");
  auto text = read_until(fd, 3s, [](const std::string& t) { return has_responses(t, 1); });
  ::close(fd);
  EXPECT_NE(text.find("\r\n\r\nPOST /mcp body"), std::string::npos) << text;
}

TEST(HttpServer, PipelinedRequestsAreAllAnsweredInOrder) {
  Served served(echo);
  const int fd = connect_to(served.port());
  send_all(fd, request("/one", "1") + request("/two", "22") + request("/three", "333"));
  auto text = read_until(fd, 3s, [](const std::string& t) { return has_responses(t, 3); });
  ::close(fd);
  const auto one = text.find("POST /one 1");
  const auto two = text.find("POST /two 22");
  const auto three = text.find("POST /three 333");
  ASSERT_NE(one, std::string::npos) << text;
  ASSERT_NE(two, std::string::npos) << text;
  ASSERT_NE(three, std::string::npos) << text;
  EXPECT_LT(one, two);
  EXPECT_LT(two, three);
}

TEST(HttpServer, ConnectionCloseIsHonoured) {
  Served served(echo);
  const int fd = connect_to(served.port());
  send_all(fd, request("/one", "1", "Connection: close\r\n") + request("/two", "2"));
  bool closed = false;
  auto text = read_until(
      fd, 3s, [](const std::string&) { return false; }, &closed);
  ::close(fd);
  EXPECT_TRUE(closed);
  EXPECT_NE(text.find("POST /one 1"), std::string::npos) << text;
  EXPECT_NE(text.find("Connection: close\r\n"), std::string::npos) << text;
  EXPECT_EQ(text.find("POST /two"), std::string::npos) << text;
}

// 100 connections that send their headers a byte every 200 ms, and 20 that send headers and then a
// body that never ends: every other client is still answered at once, and the slow ones are closed at
// their deadlines.
TEST(HttpServer, SlowClientsCannotStarveTheOthers) {
  Served served(echo);
  std::vector<int> slow;
  for (int i = 0; i < 100; ++i) slow.push_back(connect_to(served.port()));
  std::vector<int> slow_body;
  for (int i = 0; i < 20; ++i) {
    slow_body.push_back(connect_to(served.port()));
    send_all(slow_body.back(), "POST /mcp HTTP/1.1\r\nHost: localhost\r\nContent-Length: 500\r\n\r\nx");
  }
  const std::string header = request("/slow", "s");
  std::atomic<bool> trickling{true};
  std::thread trickle([&] {
    for (std::size_t at = 0; trickling && at < header.size(); ++at) {
      for (int fd : slow) send_all(fd, header.substr(at, 1));
      std::this_thread::sleep_for(200ms);
    }
  });
  std::chrono::milliseconds worst{0};
  for (int i = 0; i < 20; ++i) {
    const auto start = Clock::now();
    auto text = exchange(served.port(), request("/fast", std::to_string(i)));
    worst = std::max(worst, std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - start));
    EXPECT_NE(text.find("POST /fast " + std::to_string(i)), std::string::npos) << text;
    std::this_thread::sleep_for(50ms);
  }
  EXPECT_LT(worst, 500ms);
  // The header deadline (1 s from the first byte) has passed for every slow connection: each is closed
  // without an answer, as is each slow body (1 s after its headers).
  std::this_thread::sleep_for(500ms);
  int closed_count = 0;
  for (int fd : slow) {
    bool closed = false;
    auto text = read_until(
        fd, 2s, [](const std::string&) { return false; }, &closed);
    closed_count += closed && text.empty();
  }
  EXPECT_EQ(closed_count, 100);
  closed_count = 0;
  for (int fd : slow_body) {
    bool closed = false;
    auto text = read_until(
        fd, 2s, [](const std::string&) { return false; }, &closed);
    closed_count += closed && text.empty();
  }
  EXPECT_EQ(closed_count, 20);
  trickling = false;
  trickle.join();
  for (int fd : slow) ::close(fd);
  for (int fd : slow_body) ::close(fd);
}

TEST(HttpServer, ConnectionsOverTheCapsGet503) {
  auto limits = test_limits();
  limits.max_connections_per_peer = 3;
  Served served(echo, limits);
  std::vector<int> held;
  for (int i = 0; i < 3; ++i) held.push_back(connect_to(served.port()));
  std::this_thread::sleep_for(100ms);  // accepted
  auto text = exchange(served.port(), request("/mcp", "x"));
  EXPECT_EQ(text.rfind("HTTP/1.1 503 Service Unavailable\r\n", 0), 0u) << text;
  EXPECT_NE(text.find("Retry-After: 1\r\n"), std::string::npos) << text;
  EXPECT_NE(text.find("Server busy: too many connections from this address (3); retry later"), std::string::npos)
      << text;
  ::close(held.back());
  held.pop_back();
  std::this_thread::sleep_for(100ms);
  EXPECT_NE(exchange(served.port(), request("/mcp", "x")).find("POST /mcp x"), std::string::npos);
  for (int fd : held) ::close(fd);
  // Forgotten once closed: their numbers are reused (by the next server's own descriptors, too), and
  // closing them again at the end closed those under it.
  held.clear();

  limits.max_connections = 2;
  limits.max_connections_per_peer = 10;
  Served small(echo, limits);
  for (int i = 0; i < 2; ++i) held.push_back(connect_to(small.port()));
  std::this_thread::sleep_for(100ms);
  text = exchange(small.port(), request("/mcp", "x"));
  EXPECT_NE(text.find("Server busy: too many connections (2); retry later"), std::string::npos) << text;
  for (int fd : held) ::close(fd);
}

// Parses a chunked body's chunks from `text` (after the headers); true once the last chunk is there.
bool chunked_done(const std::string& text) { return text.find("\r\n0\r\n\r\n") != std::string::npos; }

// A streamed response the test feeds by hand.
struct Streaming {
  std::mutex mutex;
  std::condition_variable changed;
  std::shared_ptr<HttpStream> stream;
  std::atomic<int> gone{0};
  std::atomic<int> released{0};

  HttpResponse respond(std::string heartbeat = {}, bool deferred_head = false) {
    HttpResponse response{200, "text/event-stream"};
    response.deferred_head = deferred_head;
    // Released with the response: shows when the server lets go of what the opener keeps.
    auto token = std::shared_ptr<void>(nullptr, [this](void*) { ++released; });
    response.open = [this, token](std::shared_ptr<HttpStream> s) {
      std::lock_guard lock(mutex);
      stream = std::move(s);
      changed.notify_all();
    };
    response.on_gone = [this] { ++gone; };
    response.heartbeat = std::move(heartbeat);
    return response;
  }
  std::shared_ptr<HttpStream> opened() {
    std::unique_lock lock(mutex);
    changed.wait_for(lock, 5s, [this] { return stream != nullptr; });
    return stream;
  }
};

// After a response that ended well, the connection is kept alive and serves the next request, and the
// stream's opener was let go; closes `fd`.
void expect_served_again(int fd, Streaming& streaming, std::shared_ptr<HttpStream> stream) {
  send_all(fd, request("/after", "a"));
  auto after = read_until(fd, 3s, [](const std::string& t) { return has_responses(t, 1); });
  EXPECT_NE(after.find("POST /after a"), std::string::npos) << after;
  ::close(fd);
  stream.reset();
  EXPECT_EQ(streaming.gone.load(), 0);
  EXPECT_EQ(streaming.released.load(), 1);
}

TEST(HttpServer, AStreamIsWrittenAsItIsFedThenTheConnectionServesAgain) {
  Streaming streaming;
  Served served([&](const HttpRequest& r) { return r.path == "/stream" ? streaming.respond() : echo(r); });
  const int fd = connect_to(served.port());
  send_all(fd, request("/stream"));
  auto stream = streaming.opened();
  ASSERT_TRUE(stream);
  auto head = read_until(fd, 3s, [](const std::string& t) { return t.find("\r\n\r\n") != std::string::npos; });
  EXPECT_EQ(head.rfind("HTTP/1.1 200 OK\r\n", 0), 0u) << head;
  EXPECT_NE(head.find("Transfer-Encoding: chunked\r\n"), std::string::npos) << head;
  EXPECT_TRUE(stream->write("first"));
  auto first = read_until(fd, 3s, [](const std::string& t) { return t.find("first") != std::string::npos; });
  EXPECT_EQ(first, "5\r\nfirst\r\n");
  std::thread writer([stream] {
    for (int i = 0; i < 100; ++i) stream->write("event " + std::to_string(i) + "\n");
    stream->close();
  });
  auto rest = read_until(fd, 3s, chunked_done);
  writer.join();
  EXPECT_NE(rest.find("event 99\n"), std::string::npos);
  EXPECT_LT(rest.find("event 0\n"), rest.find("event 99\n"));
  EXPECT_TRUE(chunked_done(rest));
  expect_served_again(fd, streaming, std::move(stream));
}

// A handler's header with a line break in it (a value taken from a request, say) would start a header
// of the attacker's choosing: it is left out, whether the response goes whole, streamed, or whole
// after a deferred head.
TEST(HttpServer, AHeaderWithALineBreakIsLeftOutOfEveryKindOfResponse) {
  const std::vector<std::pair<std::string, std::string>> headers{
      {"X-Kept", "yes"}, {"X-Evil", "a\r\nSet-Cookie: stolen=1"}, {"X-Bad\r\nSet-Cookie: x", "1"}};
  const std::string type = "text/plain\r\nSet-Cookie: typed=1";
  Streaming streamed, deferred;
  Served served([&](const HttpRequest& r) {
    if (r.path == "/stream") {
      HttpResponse response = streamed.respond();
      response.content_type = type;
      response.headers = headers;
      return response;
    }
    if (r.path == "/deferred") return deferred.respond({}, true);
    return HttpResponse{200, type, "whole", headers};
  });
  const auto clean = [](const std::string& text) {
    EXPECT_EQ(text.find("Set-Cookie"), std::string::npos) << text;
    EXPECT_NE(text.find("X-Kept: yes\r\n"), std::string::npos) << text;
  };
  clean(exchange(served.port(), request("/mcp")));

  const int streaming_fd = connect_to(served.port());
  send_all(streaming_fd, request("/stream"));
  ASSERT_TRUE(streamed.opened());
  clean(read_until(streaming_fd, 3s, [](const std::string& t) { return t.find("\r\n\r\n") != std::string::npos; }));

  const int fd = connect_to(served.port());
  send_all(fd, request("/deferred"));
  auto stream = deferred.opened();
  ASSERT_TRUE(stream);
  EXPECT_TRUE(stream->close_with(HttpResponse{200, type, "answer", headers}, ""));
  clean(read_until(fd, 3s, [](const std::string& t) { return has_responses(t, 1); }));
  ::close(fd);
  ::close(streaming_fd);
}

TEST(HttpServer, ADeferredStreamAnsweredFirstGoesWholeThenTheConnectionServesAgain) {
  Streaming streaming;
  Served served([&](const HttpRequest& r) { return r.path == "/stream" ? streaming.respond({}, true) : echo(r); });
  const int fd = connect_to(served.port());
  send_all(fd, request("/stream"));
  auto stream = streaming.opened();
  ASSERT_TRUE(stream);
  // Nothing is sent until the response knows what it is.
  EXPECT_EQ(read_until(fd, 200ms, [](const std::string& t) { return !t.empty(); }), "");
  EXPECT_TRUE(stream->close_with(HttpResponse{201, "application/json", "{\"a\":1}", {{"X-Kept", "yes"}}}, "unused"));
  auto text = read_until(fd, 3s, [](const std::string& t) { return has_responses(t, 1); });
  EXPECT_EQ(text.rfind("HTTP/1.1 201 Created\r\n", 0), 0u) << text;
  EXPECT_NE(text.find("Content-Type: application/json\r\n"), std::string::npos) << text;
  EXPECT_NE(text.find("X-Kept: yes\r\n"), std::string::npos) << text;
  EXPECT_EQ(text.find("Transfer-Encoding"), std::string::npos) << text;
  EXPECT_EQ(text.find("unused"), std::string::npos) << text;
  EXPECT_EQ(text.substr(text.size() - 7), "{\"a\":1}");
  expect_served_again(fd, streaming, std::move(stream));
}

TEST(HttpServer, ADeferredStreamWrittenToFirstStaysAStream) {
  auto limits = test_limits();
  limits.stream_heartbeat = 200ms;
  for (bool by_heartbeat : {false, true}) {
    SCOPED_TRACE(by_heartbeat ? "a heartbeat starts it" : "a write starts it");
    Streaming streaming;
    Served served([&](const HttpRequest&) { return streaming.respond(":\n\n", true); }, limits);
    const int fd = connect_to(served.port());
    send_all(fd, request("/stream"));
    auto stream = streaming.opened();
    ASSERT_TRUE(stream);
    if (!by_heartbeat) {
      EXPECT_TRUE(stream->write("first"));
    }
    auto head = read_until(fd, 3s, [](const std::string& t) { return t.find("\r\n\r\n") != std::string::npos; });
    EXPECT_EQ(head.rfind("HTTP/1.1 200 OK\r\n", 0), 0u) << head;
    EXPECT_NE(head.find("Content-Type: text/event-stream\r\n"), std::string::npos) << head;
    EXPECT_NE(head.find("Transfer-Encoding: chunked\r\n"), std::string::npos) << head;
    EXPECT_TRUE(stream->close_with(HttpResponse{200, "application/json", "{}"}, "last"));
    auto rest = head + read_until(fd, 3s, chunked_done);
    EXPECT_NE(rest.find(by_heartbeat ? "3\r\n:\n\n\r\n" : "5\r\nfirst\r\n"), std::string::npos) << rest;
    EXPECT_NE(rest.find("4\r\nlast\r\n0\r\n\r\n"), std::string::npos) << rest;
    EXPECT_EQ(rest.find("application/json"), std::string::npos) << rest;
    ::close(fd);
  }
}

TEST(HttpServer, AClientThatClosesItsStreamIsReportedGoneAtOnce) {
  Streaming streaming;
  Served served([&](const HttpRequest&) { return streaming.respond(); });
  const int fd = connect_to(served.port());
  send_all(fd, request("/stream"));
  auto stream = streaming.opened();
  ASSERT_TRUE(stream);
  read_until(fd, 3s, [](const std::string& t) { return t.find("\r\n\r\n") != std::string::npos; });
  ::close(fd);
  const auto start = Clock::now();
  while (streaming.gone == 0 && Clock::now() - start < 3s) std::this_thread::sleep_for(10ms);
  EXPECT_EQ(streaming.gone.load(), 1);
  EXPECT_LT(Clock::now() - start, 1s) << "found without waiting for a write to fail";
  EXPECT_FALSE(stream->write("late"));
  EXPECT_EQ(streaming.released.load(), 1);
}

TEST(HttpServer, AQuietStreamGetsHeartbeats) {
  auto limits = test_limits();
  limits.stream_heartbeat = 200ms;
  Streaming streaming;
  Served served([&](const HttpRequest&) { return streaming.respond(":\n\n"); }, limits);
  const int fd = connect_to(served.port());
  send_all(fd, request("/stream"));
  auto stream = streaming.opened();
  ASSERT_TRUE(stream);
  auto text = read_until(fd, 3s, [](const std::string& t) {
    std::size_t beats = 0;
    for (std::size_t at = 0; (at = t.find("3\r\n:\n\n\r\n", at)) != std::string::npos; ++at) ++beats;
    return beats >= 3;
  });
  EXPECT_NE(text.find("3\r\n:\n\n\r\n"), std::string::npos) << text;
  stream->close();
  ::close(fd);
}

// A client that asks for a stream and never reads it: once the socket's buffers are full, a write
// waits, and past the write timeout the connection ends and the stream is reported gone.
TEST(HttpServer, AStreamNobodyReadsEndsAtTheWriteTimeout) {
  Streaming streaming;
  Served served([&](const HttpRequest&) { return streaming.respond(); });
  const int fd = connect_to(served.port());
  const int small = 4096;
  ::setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &small, sizeof(small));
  send_all(fd, request("/stream"));
  auto stream = streaming.opened();
  ASSERT_TRUE(stream);
  const std::string megabyte(1 << 20, 'm');
  const auto start = Clock::now();
  for (int i = 0; i < 64 && stream->write(megabyte); ++i) {
  }
  while (streaming.gone == 0 && Clock::now() - start < 5s) std::this_thread::sleep_for(20ms);
  EXPECT_EQ(streaming.gone.load(), 1);
  EXPECT_FALSE(stream->write("more"));
  ::close(fd);
}

TEST(HttpServer, StopEndsAStreamThatNeverClosesAfterTheGrace) {
  Streaming streaming;
  auto served = std::make_unique<Served>([&](const HttpRequest& r) {
    return r.path == "/stream" ? streaming.respond() : echo(r);
  });
  const int fd = connect_to(served->port());
  send_all(fd, request("/stream"));
  ASSERT_TRUE(streaming.opened());
  const int idle = connect_to(served->port());  // waiting for a request: closed at once
  std::this_thread::sleep_for(50ms);
  const auto took = served->stop(300ms);
  EXPECT_GE(took, 250ms);
  EXPECT_LT(took, 2s);
  EXPECT_EQ(streaming.gone.load(), 1);
  bool closed = false;
  read_until(
      idle, 1s, [](const std::string&) { return false; }, &closed);
  EXPECT_TRUE(closed);
  ::close(fd);
  ::close(idle);
}

TEST(HttpServer, StopLetsAStreamFinishWithinTheGrace) {
  Streaming streaming;
  Served served([&](const HttpRequest&) { return streaming.respond(); });
  const int fd = connect_to(served.port());
  send_all(fd, request("/stream"));
  auto stream = streaming.opened();
  ASSERT_TRUE(stream);
  std::thread finisher([stream] {
    std::this_thread::sleep_for(100ms);
    stream->write("last words");
    stream->close();
  });
  const auto took = served.stop(5s);
  finisher.join();
  EXPECT_LT(took, 2s);
  auto text = read_until(fd, 1s, chunked_done);
  EXPECT_NE(text.find("last words"), std::string::npos) << text;
  EXPECT_TRUE(chunked_done(text));
  EXPECT_EQ(streaming.gone.load(), 0);
  ::close(fd);
}

// 500 clients connect at once and each sends one request: all are answered, quickly.
TEST(HttpServer, FiveHundredConcurrentConnectionsAreAnswered) {
  auto limits = test_limits();
  limits.max_connections_per_peer = 1000;
  Served served(echo, limits);
  constexpr int kClients = 500;
  std::vector<int> fds;
  for (int i = 0; i < kClients; ++i) fds.push_back(connect_to(served.port()));
  std::vector<Clock::time_point> sent(kClients);
  for (int i = 0; i < kClients; ++i) {
    sent[static_cast<std::size_t>(i)] = Clock::now();
    send_all(fds[static_cast<std::size_t>(i)], request("/mcp", std::to_string(i)));
  }
  std::vector<std::chrono::microseconds> latency;
  std::vector<std::string> texts(kClients);
  std::vector<pollfd> waiting;
  for (int fd : fds) waiting.push_back({fd, POLLIN, 0});
  const auto deadline = Clock::now() + 10s;
  while (latency.size() < kClients && Clock::now() < deadline) {
    ::poll(waiting.data(), waiting.size(), 100);
    for (std::size_t i = 0; i < waiting.size(); ++i) {
      if (!(waiting[i].revents & POLLIN) || waiting[i].fd < 0) continue;
      char buffer[4096];
      const auto n = ::recv(waiting[i].fd, buffer, sizeof buffer, 0);
      if (n > 0) texts[i].append(buffer, static_cast<std::size_t>(n));
      if (n <= 0 || has_responses(texts[i], 1)) {
        latency.push_back(std::chrono::duration_cast<std::chrono::microseconds>(Clock::now() - sent[i]));
        waiting[i].fd = -1;
      }
    }
  }
  for (int fd : fds) ::close(fd);
  ASSERT_EQ(latency.size(), static_cast<std::size_t>(kClients));
  for (int i = 0; i < kClients; ++i)
    EXPECT_NE(texts[static_cast<std::size_t>(i)].find("POST /mcp " + std::to_string(i)), std::string::npos);
  std::sort(latency.begin(), latency.end());
  // The p99 under 100 ms is measured by bench/mcp (docs/performance.md); here, under the sanitizers on
  // a busy machine, a bound that a thread-per-connection server with a short backlog misses by far.
  EXPECT_LT(latency[kClients * 99 / 100], 1000ms);
}

}  // namespace
