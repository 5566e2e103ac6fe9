// ProviderDouble on Boost.Beast: synchronous I/O, one thread per connection. Replies are written as
// raw bytes rather than through Beast's serializer, so a reply can stop where a broken server would:
// between chunks, without the terminating chunk, or before the status line.
#include "provider_double.hpp"

#include <sys/socket.h>

#include <algorithm>
#include <boost/asio/connect.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/http/parser.hpp>
#include <boost/beast/http/read.hpp>
#include <boost/beast/http/status.hpp>
#include <boost/beast/http/string_body.hpp>
#include <cctype>
#include <condition_variable>
#include <cstdio>
#include <deque>
#include <exception>
#include <mutex>
#include <thread>

namespace ptc_test {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = asio::ip::tcp;
using boost::system::error_code;

namespace {

constexpr std::size_t kRequestHeaderLimit = std::size_t{64} << 10;
constexpr std::size_t kRequestBodyLimit = std::size_t{64} << 20;
constexpr std::size_t kRepeatPiece = std::size_t{64} << 10;

std::string lower(std::string_view text) {
  std::string out(text);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

std::string chunk(std::string_view bytes) {
  char size[24];
  const int n = std::snprintf(size, sizeof size, "%zx\r\n", bytes.size());
  std::string out(size, static_cast<std::size_t>(n));
  out.append(bytes).append("\r\n");
  return out;
}

std::string head(const Reply& reply, bool chunked, std::size_t length, bool close) {
  std::string reason(http::obsolete_reason(static_cast<http::status>(reply.status)));
  if (reason.empty() || reason.front() == '<') reason = "Status";
  std::string out = "HTTP/1.1 " + std::to_string(reply.status) + " " + reason + "\r\n";
  for (const auto& [name, value] : reply.headers) out += name + ": " + value + "\r\n";
  out += chunked ? std::string("Transfer-Encoding: chunked\r\n") : "Content-Length: " + std::to_string(length) + "\r\n";
  if (close) out += "Connection: close\r\n";
  return out + "\r\n";
}

RecordedRequest record(const http::request<http::string_body>& request, std::size_t connection) {
  RecordedRequest out;
  out.method = std::string(request.method_string());
  out.target = std::string(request.target());
  for (const auto& field : request) {
    std::string& value = out.headers[lower(std::string(field.name_string()))];
    if (!value.empty()) value += ", ";
    value += std::string(field.value());
  }
  out.body = request.body();
  out.connection = connection;
  return out;
}

}  // namespace

std::string RecordedRequest::header(const std::string& lower_case_name) const {
  const auto found = headers.find(lower_case_name);
  return found == headers.end() ? std::string() : found->second;
}

Reply Reply::json(int status, std::string body) {
  Reply reply;
  reply.status = status;
  reply.headers.emplace_back("content-type", "application/json");
  reply.body = std::move(body);
  return reply;
}

Reply Reply::sse(std::vector<std::string> events) {
  Reply reply;
  reply.headers.emplace_back("content-type", "text/event-stream");
  reply.headers.emplace_back("cache-control", "no-cache");
  reply.chunks = std::move(events);
  return reply;
}

Reply& Reply::header(std::string name, std::string value) & {
  headers.emplace_back(std::move(name), std::move(value));
  return *this;
}

Reply&& Reply::header(std::string name, std::string value) && {
  headers.emplace_back(std::move(name), std::move(value));
  return std::move(*this);
}

struct ProviderDouble::State {
  asio::io_context io;
  tcp::acceptor acceptor{io};
  unsigned short port = 0;
  std::thread accept_thread;

  mutable std::mutex mutex;
  mutable std::condition_variable changed;
  bool stopping = false;
  std::deque<Reply> script;
  std::function<Reply(const RecordedRequest&)> handler;
  std::vector<RecordedRequest> requests;  // empty when `keep` is off
  std::size_t arrived = 0;
  bool keep = true;
  std::size_t accepted = 0;
  // The sockets of the live connections, by connection number: the destructor shuts them down so that
  // the threads blocked on them return. A connection removes itself before it closes its socket, so a
  // descriptor here is never one the system has handed out again.
  std::map<std::size_t, int> open;
  std::vector<std::thread> threads;

  /// Waits `timeout` or until the double stops; true when it stops.
  bool wait_stop(std::chrono::milliseconds timeout) {
    std::unique_lock lock(mutex);
    return changed.wait_for(lock, timeout, [this] { return stopping; });
  }
  void wait_stop_forever() {
    std::unique_lock lock(mutex);
    changed.wait(lock, [this] { return stopping; });
  }

  void accept_loop();
  void serve(std::size_t id, tcp::socket socket);
  Reply next_reply(const RecordedRequest& request);
  bool answer(tcp::socket& socket, const Reply& reply, bool close);
  bool send_chunks(tcp::socket& socket, const Reply& reply);
  bool send_repeated(tcp::socket& socket, const Reply& reply, bool chunked);
};

void ProviderDouble::State::accept_loop() {
  for (;;) {
    tcp::socket socket(io);
    error_code ec;
    acceptor.accept(socket, ec);
    {
      std::lock_guard lock(mutex);
      if (stopping) return;
      if (!ec) {
        // Each chunk goes out when it is written, not held back by Nagle until the last is acknowledged.
        socket.set_option(tcp::no_delay(true), ec);
        const std::size_t id = ++accepted;
        open[id] = socket.native_handle();
        threads.emplace_back([this, id, s = std::move(socket)]() mutable { serve(id, std::move(s)); });
        continue;
      }
    }
    // Out of descriptors, say: try again rather than spin.
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
}

void ProviderDouble::State::serve(std::size_t id, tcp::socket socket) {
  beast::flat_buffer buffer;
  for (;;) {
    http::request_parser<http::string_body> parser;
    parser.header_limit(kRequestHeaderLimit);
    parser.body_limit(kRequestBodyLimit);
    error_code ec;
    http::read(socket, buffer, parser, ec);
    if (ec) break;
    const bool keep_alive = parser.get().keep_alive();
    const Reply reply = next_reply(record(parser.get(), id));
    if (!answer(socket, reply, !keep_alive) || !keep_alive) break;
  }
  {
    std::lock_guard lock(mutex);
    open.erase(id);
  }
  error_code ignored;
  socket.shutdown(tcp::socket::shutdown_both, ignored);
  socket.close(ignored);
}

Reply ProviderDouble::State::next_reply(const RecordedRequest& request) {
  std::function<Reply(const RecordedRequest&)> answerer;
  std::size_t number = 0;
  {
    std::lock_guard lock(mutex);
    if (keep) requests.push_back(request);
    number = ++arrived;
    changed.notify_all();
    if (!script.empty()) {
      Reply reply = std::move(script.front());
      script.pop_front();
      return reply;
    }
    answerer = handler;
  }
  std::string problem = "no scripted reply left for request " + std::to_string(number);
  if (answerer) {
    try {
      return answerer(request);
    } catch (const std::exception& e) {
      problem = std::string("the handler threw: ") + e.what();
    }
  }
  return Reply::json(500, R"({"error":{"message":"provider double: )" + problem + R"("}})");
}

// False when the connection is done with (dropped, or the double is stopping).
bool ProviderDouble::State::answer(tcp::socket& socket, const Reply& reply, bool close) {
  if (reply.close_without_answer) return false;
  if (reply.never_answer) {
    wait_stop_forever();
    return false;
  }
  if (reply.delay.count() > 0 && wait_stop(reply.delay)) return false;
  if (!reply.chunks.empty() || reply.drop_after_chunks) return send_chunks(socket, reply);
  const bool chunked = reply.chunked;
  if (reply.repeat_body_bytes > 0) return send_repeated(socket, reply, chunked);
  std::string bytes = head(reply, chunked, reply.body.size(), close);
  if (chunked) {
    if (!reply.body.empty()) bytes += chunk(reply.body);
    bytes += "0\r\n\r\n";
  } else {
    bytes += reply.body;
  }
  error_code ec;
  asio::write(socket, asio::buffer(bytes), ec);
  return !ec;
}

bool ProviderDouble::State::send_chunks(tcp::socket& socket, const Reply& reply) {
  error_code ec;
  asio::write(socket, asio::buffer(head(reply, true, 0, false)), ec);
  bool first = true;
  for (const std::string& piece : reply.chunks) {
    // An empty chunk would end the body.
    if (piece.empty()) continue;
    if (!first && reply.delay_between_chunks.count() > 0 && wait_stop(reply.delay_between_chunks)) return false;
    first = false;
    if (!ec) asio::write(socket, asio::buffer(chunk(piece)), ec);
    if (ec) return false;
  }
  if (reply.drop_after_chunks) return false;
  asio::write(socket, asio::buffer(std::string_view("0\r\n\r\n")), ec);
  return !ec;
}

bool ProviderDouble::State::send_repeated(tcp::socket& socket, const Reply& reply, bool chunked) {
  error_code ec;
  asio::write(socket, asio::buffer(head(reply, chunked, reply.repeat_body_bytes, false)), ec);
  const std::string piece(kRepeatPiece, 'x');
  const std::string framed = chunk(piece);
  std::size_t left = reply.repeat_body_bytes;
  // A client that stops reading fails the write; one that does not is stopped by the destructor's
  // shutdown of the socket.
  while (!ec && left > 0) {
    const std::size_t n = std::min(left, piece.size());
    if (!chunked) {
      asio::write(socket, asio::buffer(piece.data(), n), ec);
    } else if (n == piece.size()) {
      asio::write(socket, asio::buffer(framed), ec);
    } else {
      asio::write(socket, asio::buffer(chunk(std::string_view(piece).substr(0, n))), ec);
    }
    left -= n;
  }
  if (!ec && chunked) asio::write(socket, asio::buffer(std::string_view("0\r\n\r\n")), ec);
  return !ec;
}

ProviderDouble::ProviderDouble() : state_(std::make_unique<State>()) {
  State& s = *state_;
  const tcp::endpoint endpoint(asio::ip::make_address("127.0.0.1"), 0);
  s.acceptor.open(endpoint.protocol());
  s.acceptor.set_option(tcp::acceptor::reuse_address(true));
  s.acceptor.bind(endpoint);
  s.acceptor.listen();
  s.port = s.acceptor.local_endpoint().port();
  s.accept_thread = std::thread([&s] { s.accept_loop(); });
}

ProviderDouble::~ProviderDouble() {
  State& s = *state_;
  {
    std::lock_guard lock(s.mutex);
    s.stopping = true;
  }
  s.changed.notify_all();
  // The accepting thread blocks in accept(): a connection of our own wakes it to see `stopping`.
  {
    tcp::socket wake(s.io);
    error_code ec;
    wake.connect(tcp::endpoint(asio::ip::make_address("127.0.0.1"), s.port), ec);
    s.accept_thread.join();
  }
  error_code ignored;
  s.acceptor.close(ignored);
  std::vector<std::thread> threads;
  {
    std::lock_guard lock(s.mutex);
    for (const auto& [id, fd] : s.open) ::shutdown(fd, SHUT_RDWR);
    threads = std::move(s.threads);
  }
  for (std::thread& thread : threads) thread.join();
}

std::string ProviderDouble::base_url() const { return "http://127.0.0.1:" + std::to_string(state_->port); }

unsigned short ProviderDouble::port() const { return state_->port; }

void ProviderDouble::push(Reply reply) {
  std::lock_guard lock(state_->mutex);
  state_->script.push_back(std::move(reply));
}

void ProviderDouble::keep_requests(bool keep) {
  std::lock_guard lock(state_->mutex);
  state_->keep = keep;
}

void ProviderDouble::set_handler(std::function<Reply(const RecordedRequest&)> handler) {
  std::lock_guard lock(state_->mutex);
  state_->handler = std::move(handler);
}

std::vector<RecordedRequest> ProviderDouble::requests() const {
  std::lock_guard lock(state_->mutex);
  return state_->requests;
}

bool ProviderDouble::wait_for_requests(std::size_t count, std::chrono::milliseconds timeout) const {
  std::unique_lock lock(state_->mutex);
  return state_->changed.wait_for(lock, timeout, [&] { return state_->arrived >= count; });
}

std::size_t ProviderDouble::connections_accepted() const {
  std::lock_guard lock(state_->mutex);
  return state_->accepted;
}

std::size_t ProviderDouble::unused_replies() const {
  std::lock_guard lock(state_->mutex);
  return state_->script.size();
}

}  // namespace ptc_test
