// HttpServer on Boost.Beast (Debian's Boost, header-only). Every connection is a chain of asynchronous
// operations on its own strand with one deadline timer, so a client that sends its headers a byte at a
// time, or never reads its response, costs a socket and a few kilobytes but no thread; the handler
// runs on a separate pool so a slow handler never stalls the sockets. docs/mcp.md ("HTTP server")
// describes the limits.
#include "http_server.hpp"

#include <sys/resource.h>

#include <atomic>
#include <boost/asio/bind_executor.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/core/string.hpp>
#include <boost/beast/http/error.hpp>
#include <boost/beast/http/read.hpp>
#include <boost/beast/http/string_body.hpp>
#include <boost/beast/http/write.hpp>
#include <deque>
#include <map>
#include <mutex>
#include <sstream>
#include <thread>

#include "worker_pool.hpp"

namespace ptc::mcp {
namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = asio::ip::tcp;
using boost::system::error_code;
using Strand = asio::strand<asio::io_context::executor_type>;

// A connection refused for being over a cap is told so, then given this long to read it.
constexpr auto kRefusalLinger = std::chrono::seconds(1);
// Bytes read and dropped from a client after a response that closes the connection, so that it reads
// the response instead of a reset.
constexpr std::size_t kLingerBytes = std::size_t{1} << 20;
// Requests with a body up to this size are handled on the I/O thread (Connection::handle).
constexpr std::size_t kInlineBodyBytes = std::size_t{64} << 10;

std::string chunk(std::string_view bytes) {
  char size[20];
  const int n = std::snprintf(size, sizeof size, "%zx\r\n", bytes.size());
  std::string out(size, static_cast<std::size_t>(n));
  out.append(bytes).append("\r\n");
  return out;
}

std::string status_line(int status) {
  std::string line = "HTTP/1.1 ";
  line += std::to_string(status);
  line += ' ';
  const auto reason = http::obsolete_reason(static_cast<http::status>(status));
  line.append(reason.data(), reason.size());
  line += "\r\n";
  return line;
}

// Header text from the handler goes out as it is; a line break in it would start another header.
bool header_safe(std::string_view text) { return text.find_first_of("\r\n") == std::string_view::npos; }

/// Leaves out of `response` every header (and a content type) with a line break in it: the one rule
/// for what the handler may send as a header, applied to each response before it is written, whole or
/// streamed.
void drop_unsafe_headers(HttpResponse& response) {
  if (!header_safe(response.content_type)) response.content_type.clear();
  for (auto it = response.headers.begin(); it != response.headers.end();)
    it = header_safe(it->first) && header_safe(it->second) ? it + 1 : response.headers.erase(it);
}

/// A whole (not streamed) response, its headers safe (drop_unsafe_headers), as the bytes sent, with its
/// Content-Length.
std::string whole_text(HttpResponse response, bool keep_alive) {
  http::response<http::string_body> out{static_cast<http::status>(response.status), 11};
  if (!response.content_type.empty()) out.set(http::field::content_type, response.content_type);
  for (auto& [name, value] : response.headers) out.insert(name, value);
  out.body() = std::move(response.body);
  out.keep_alive(keep_alive);
  out.prepare_payload();
  std::ostringstream text;
  text << out;
  return std::move(text).str();
}

class BeastServer;

class Connection : public std::enable_shared_from_this<Connection> {
 public:
  Connection(BeastServer& server, tcp::socket socket, std::string peer);
  ~Connection();

  void start() { wait_for_request(); }
  /// On the strand: the server is stopping.
  void shut(bool now);
  Strand& strand() { return strand_; }
  /// On the strand: a streamed response's bytes (`last`: the end of the body).
  void stream_push(std::string bytes, bool last);
  /// On the strand: HttpStream::close_with.
  void stream_answer(HttpResponse whole, std::string last);
  bool gone() const { return gone_.load(); }

 private:
  // Ending: the stream is written, and the read that watched the client is being cancelled.
  enum class Phase { Waiting, Reading, Handling, Writing, Streaming, Ending, Closed };

  void wait_for_request();
  void read_header();
  void on_header(error_code ec);
  void read_body();
  void on_body(error_code ec);
  /// Answers or ends a read that failed: a limit passed gets its status, a client that left or a
  /// deadline ends the connection, anything else is a malformed request (400). False when `ec` is none.
  bool read_failed(error_code ec);
  void handle();
  void respond(HttpResponse response);
  void send_simple(int status, std::string text);
  void write_whole(std::string bytes, bool keep_alive);
  void after_response(bool keep_alive);
  void open_stream(HttpResponse response, bool keep_alive);
  void write_next();
  void watch_client();
  void beat();
  void end_stream();
  void linger();
  void close_now();
  void arm(std::chrono::milliseconds timeout);
  void disarm();

  BeastServer& server_;
  Strand strand_;
  tcp::socket socket_;
  asio::steady_timer deadline_;
  asio::steady_timer heartbeat_;
  std::uint64_t deadline_generation_ = 0;
  beast::flat_buffer buffer_;
  std::optional<http::request_parser<http::string_body>> parser_;
  std::string peer_;
  std::size_t served_ = 0;
  Phase phase_ = Phase::Waiting;
  bool closing_ = false;  // the server is stopping: no request after this one
  std::atomic<bool> gone_{false};

  // The streamed response in flight.
  HttpResponse streaming_{};
  std::string held_head_;  // a deferred head, until the stream's first bytes or its answer
  std::deque<std::string> queue_;
  bool writing_ = false;
  bool last_queued_ = false;
  bool watching_ = false;
  bool stream_keep_alive_ = false;
};

class StreamSink final : public HttpStream {
 public:
  explicit StreamSink(const std::shared_ptr<Connection>& connection) : connection_(connection) {}
  bool write(std::string bytes) override { return send(std::move(bytes), false); }
  void close() override { send({}, true); }
  bool close_with(HttpResponse whole, std::string last) override {
    auto connection = connection_.lock();
    if (!connection || connection->gone()) return false;
    asio::post(connection->strand(), [connection, whole = std::move(whole), last = std::move(last)]() mutable {
      connection->stream_answer(std::move(whole), std::move(last));
    });
    return true;
  }

 private:
  bool send(std::string bytes, bool last) {
    auto connection = connection_.lock();
    if (!connection || connection->gone()) return false;
    asio::post(connection->strand(), [connection, bytes = std::move(bytes), last]() mutable {
      connection->stream_push(std::move(bytes), last);
    });
    return true;
  }
  std::weak_ptr<Connection> connection_;
};

class BeastServer final : public HttpServer {
 public:
  BeastServer(HttpHandler handler, const HttpLimits& limits)
      : handler_(std::move(handler)),
        limits_(limits),
        acceptor_strand_(asio::make_strand(io_)),
        acceptor_(acceptor_strand_),
        retry_(acceptor_strand_),
        grace_(acceptor_strand_),
        pool_(std::max<std::size_t>(limits.threads, 1), limits.max_queued_requests) {}

  // The members go in an order that matters: the pool first (its jobs post to io_), then the timers
  // and the acceptor, then io_, whose handlers still queued hold connections, which forget themselves
  // in the registry (so it outlives io_).
  ~BeastServer() override { destroying_ = true; }

  int bind(const std::string& host, int port, std::string& error) override {
    auto fail = [&](const error_code& ec) {
      // Appended piece by piece: `literal + std::string&&` trips g++ 12's -Wrestrict false positive.
      error = "cannot listen on ";
      error += host;
      if (port != 0) error.append(":").append(std::to_string(port));
      error.append(": ").append(ec.message());
      return -1;
    };
    error_code ec;
    tcp::resolver resolver(io_);
    auto found =
        resolver.resolve(host, std::to_string(port), tcp::resolver::passive | tcp::resolver::numeric_service, ec);
    if (ec) return fail(ec);
    const tcp::endpoint endpoint = found.begin()->endpoint();
    acceptor_.open(endpoint.protocol(), ec);
    if (ec) return fail(ec);
    // SO_REUSEADDR lets a restarted server bind while the old one's connections linger in TIME_WAIT;
    // no SO_REUSEPORT, with which a second server would bind the port and take part of the traffic.
    acceptor_.set_option(asio::socket_base::reuse_address(true), ec);
    acceptor_.bind(endpoint, ec);
    if (ec) {
      acceptor_.close();
      return fail(ec);
    }
    acceptor_.listen(1024, ec);  // the kernel caps it at net.core.somaxconn
    if (ec) return fail(ec);
    raise_file_limit();
    return acceptor_.local_endpoint().port();
  }

  void run() override {
    asio::post(acceptor_strand_, [this] { accept(); });
    std::vector<std::thread> threads;
    for (std::size_t i = 1; i < std::max<std::size_t>(limits_.io_threads, 1); ++i)
      threads.emplace_back([this] { io_.run(); });
    io_.run();
    for (auto& thread : threads) thread.join();
    pool_.wait_idle();
  }

  void stop(std::chrono::milliseconds grace) override {
    asio::post(acceptor_strand_, [this, grace] {
      if (stopping_) return;
      stopping_ = true;
      error_code ignored;
      acceptor_.close(ignored);
      retry_.cancel();
      for_each_connection([](Connection& c) { c.shut(false); });
      if (count() == 0) return;
      grace_.expires_after(grace);
      grace_.async_wait([this](error_code ec) {
        if (!ec) for_each_connection([](Connection& c) { c.shut(true); });
      });
    });
  }

  const HttpLimits& limits() const { return limits_; }
  asio::io_context& io() { return io_; }
  /// Runs the handler on the pool and `done` with its response on the connection's strand; false
  /// when the pool's queue is full.
  bool submit(std::shared_ptr<HttpRequest> request, std::function<void(HttpResponse)> done) {
    return pool_.submit([this, request = std::move(request), done = std::move(done)] { done(run_handler(*request)); });
  }
  HttpResponse run_handler(const HttpRequest& request) {
    try {
      return handler_(request);
    } catch (const std::exception& e) {
      return HttpResponse{500, "text/plain", std::string("Internal Server Error: ") + e.what()};
    }
  }

  void forget(Connection* connection, const std::string& peer) {
    std::lock_guard lock(mutex_);
    connections_.erase(connection);
    if (auto it = per_peer_.find(peer); it != per_peer_.end() && --it->second == 0) per_peer_.erase(it);
    if (connections_.empty() && !destroying_) asio::post(acceptor_strand_, [this] { grace_.cancel(); });
  }

 private:
  void accept() {
    if (stopping_) return;
    acceptor_.async_accept(asio::make_strand(io_), [this](error_code ec, tcp::socket socket) {
      if (ec == asio::error::operation_aborted || !acceptor_.is_open()) return;
      if (ec) {
        // Out of descriptors (EMFILE) or the like: wait instead of spinning on the error.
        retry_.expires_after(std::chrono::milliseconds(50));
        retry_.async_wait([this](error_code e) {
          if (!e) accept();
        });
        return;
      }
      admit(std::move(socket));
      accept();
    });
  }

  void admit(tcp::socket socket) {
    error_code ec;
    const auto remote = socket.remote_endpoint(ec);
    if (ec) return;                              // already gone
    socket.set_option(tcp::no_delay(true), ec);  // an SSE event must not wait for the last one's ACK
    std::string peer = remote.address().to_string();
    std::string refusal;
    {
      std::lock_guard lock(mutex_);
      const std::size_t from_peer = per_peer_.count(peer) ? per_peer_[peer] : 0;
      if (connections_.size() >= limits_.max_connections)
        refusal = "Server busy: too many connections (" + std::to_string(limits_.max_connections) + "); retry later";
      else if (from_peer >= limits_.max_connections_per_peer)
        refusal = "Server busy: too many connections from this address (" +
                  std::to_string(limits_.max_connections_per_peer) + "); retry later";
    }
    if (!refusal.empty()) return refuse(std::move(socket), std::move(refusal));
    auto connection = std::make_shared<Connection>(*this, std::move(socket), peer);
    {
      std::lock_guard lock(mutex_);
      connections_[connection.get()] = connection;
      ++per_peer_[peer];
    }
    asio::post(connection->strand(), [connection] { connection->start(); });
  }

  // Says 503 without reading the request, then reads and drops what the client sends for a moment, so
  // that it gets the answer rather than a reset.
  void refuse(tcp::socket socket, std::string text) {
    struct Refused {
      tcp::socket socket;
      asio::steady_timer timer;
      std::string response;
      char sink[4096];
    };
    // The timer shares the socket's strand: its handler closes the socket the reads use.
    auto strand = socket.get_executor();
    auto refused = std::make_shared<Refused>(Refused{std::move(socket), asio::steady_timer(strand), {}, {}});
    refused->response = status_line(503) + "Content-Type: text/plain\r\nRetry-After: 1\r\nConnection: close\r\n" +
                        "Content-Length: " + std::to_string(text.size() + 1) + "\r\n\r\n" + text + "\n";
    asio::async_write(refused->socket, asio::buffer(refused->response), [refused](error_code ec, std::size_t) {
      if (ec) return;
      refused->socket.shutdown(tcp::socket::shutdown_send, ec);
      refused->timer.expires_after(kRefusalLinger);
      refused->timer.async_wait([refused](error_code) { refused->socket.close(); });
      auto drain = std::make_shared<std::function<void()>>();
      *drain = [refused, drain] {
        refused->socket.async_read_some(asio::buffer(refused->sink), [refused, drain](error_code e, std::size_t) {
          if (e) {
            refused->timer.cancel();
            *drain = nullptr;  // breaks the cycle
            return;
          }
          (*drain)();
        });
      };
      (*drain)();
    });
  }

  template <typename F>
  void for_each_connection(F f) {
    std::vector<std::shared_ptr<Connection>> all;
    {
      std::lock_guard lock(mutex_);
      for (auto& [raw, weak] : connections_)
        if (auto c = weak.lock()) all.push_back(std::move(c));
    }
    for (auto& c : all) asio::post(c->strand(), [c, f] { f(*c); });
  }

  std::size_t count() {
    std::lock_guard lock(mutex_);
    return connections_.size();
  }

  // Every connection is a descriptor; a soft limit below what the caps allow would turn load into
  // accept errors. Raised up to the hard limit, as Go's runtime does at start.
  void raise_file_limit() const {
    rlimit limit{};
    if (::getrlimit(RLIMIT_NOFILE, &limit) != 0) return;
    const rlim_t wanted = static_cast<rlim_t>(limits_.max_connections) + 256;
    if (limit.rlim_cur >= wanted) return;
    limit.rlim_cur = limit.rlim_max == RLIM_INFINITY ? wanted : std::min(wanted, limit.rlim_max);
    ::setrlimit(RLIMIT_NOFILE, &limit);
  }

  HttpHandler handler_;
  HttpLimits limits_;
  std::atomic<bool> destroying_{false};
  std::mutex mutex_;
  std::map<Connection*, std::weak_ptr<Connection>> connections_;
  std::map<std::string, std::size_t> per_peer_;
  asio::io_context io_;
  Strand acceptor_strand_;
  tcp::acceptor acceptor_;
  asio::steady_timer retry_;
  asio::steady_timer grace_;
  bool stopping_ = false;  // on the acceptor's strand
  WorkerPool pool_;
};

// ---- a connection --------------------------------------------------------------------------------

Connection::Connection(BeastServer& server, tcp::socket socket, std::string peer)
    : server_(server),
      strand_(socket.get_executor().target<Strand>() ? *socket.get_executor().target<Strand>()
                                                     : asio::make_strand(server.io())),
      socket_(std::move(socket)),
      deadline_(strand_),
      heartbeat_(strand_),
      // The buffer never needs more than one request's headers and body, plus what a read brings in
      // beyond them.
      buffer_(server.limits().max_header_bytes + server.limits().max_body_bytes + (std::size_t{64} << 10)),
      peer_(std::move(peer)) {}

Connection::~Connection() { server_.forget(this, peer_); }

void Connection::arm(std::chrono::milliseconds timeout) {
  deadline_.expires_after(timeout);
  deadline_.async_wait([self = shared_from_this(), generation = ++deadline_generation_](error_code ec) {
    if (!ec && generation == self->deadline_generation_) self->close_now();
  });
}

void Connection::disarm() {
  ++deadline_generation_;
  deadline_.cancel();
}

void Connection::close_now() {
  if (phase_ == Phase::Closed) return;
  const bool stream_open = phase_ == Phase::Streaming && !last_queued_;
  phase_ = Phase::Closed;
  gone_ = true;
  error_code ignored;
  socket_.shutdown(tcp::socket::shutdown_both, ignored);
  socket_.close(ignored);
  disarm();
  heartbeat_.cancel();
  queue_.clear();
  if (stream_open && streaming_.on_gone) streaming_.on_gone();
  streaming_ = {};
}

void Connection::shut(bool now) {
  closing_ = true;
  if (now || phase_ == Phase::Waiting || phase_ == Phase::Reading) close_now();
}

void Connection::wait_for_request() {
  if (closing_) return close_now();
  phase_ = Phase::Waiting;
  if (buffer_.size() > 0) return read_header();  // a pipelined request is already here
  arm(server_.limits().idle_timeout);
  socket_.async_read_some(buffer_.prepare(4096), [self = shared_from_this()](error_code ec, std::size_t n) {
    if (ec) return self->close_now();
    self->buffer_.commit(n);
    self->read_header();
  });
}

void Connection::read_header() {
  phase_ = Phase::Reading;
  parser_.emplace();
  parser_->header_limit(static_cast<std::uint32_t>(server_.limits().max_header_bytes));
  parser_->body_limit(server_.limits().max_body_bytes);
  arm(server_.limits().header_timeout);
  http::async_read_header(socket_, buffer_, *parser_,
                          [self = shared_from_this()](error_code ec, std::size_t) { self->on_header(ec); });
}

void Connection::on_header(error_code ec) {
  if (phase_ == Phase::Closed) return;
  disarm();
  if (read_failed(ec)) return;
  const auto& request = parser_->get();
  if (auto length = parser_->content_length(); length && *length > server_.limits().max_body_bytes)
    return send_simple(413, "Payload Too Large");
  if (beast::iequals(request[http::field::expect], "100-continue")) {
    // The client waits for this before it sends the body.
    static const std::string kContinue = "HTTP/1.1 100 Continue\r\n\r\n";
    arm(server_.limits().write_timeout);
    asio::async_write(socket_, asio::buffer(kContinue), [self = shared_from_this()](error_code e, std::size_t) {
      if (e) return self->close_now();
      self->read_body();
    });
    return;
  }
  read_body();
}

bool Connection::read_failed(error_code ec) {
  if (!ec) return false;
  if (ec == http::error::header_limit)
    send_simple(431, "Request Header Fields Too Large");
  else if (ec == http::error::body_limit)
    send_simple(413, "Payload Too Large");
  else if (ec == http::error::end_of_stream || ec == asio::error::eof || ec == asio::error::operation_aborted ||
           ec == asio::error::connection_reset || ec == asio::error::bad_descriptor)
    close_now();  // the client left, or a deadline closed the socket
  else
    send_simple(400, "Bad Request: " + ec.message());
  return true;
}

void Connection::read_body() {
  if (parser_->is_done()) return handle();
  arm(server_.limits().read_timeout);
  http::async_read(socket_, buffer_, *parser_,
                   [self = shared_from_this()](error_code ec, std::size_t) { self->on_body(ec); });
}

void Connection::on_body(error_code ec) {
  if (phase_ == Phase::Closed) return;
  disarm();
  if (read_failed(ec)) return;
  handle();
}

void Connection::handle() {
  phase_ = Phase::Handling;
  auto message = parser_->release();
  parser_.reset();
  auto request = std::make_shared<HttpRequest>();
  request->method = std::string(message.method_string());
  const std::string_view target(message.target().data(), message.target().size());
  request->path = std::string(target.substr(0, target.find('?')));
  request->body = std::move(message.body());
  request->remote_address = peer_;
  const bool keep_alive = message.keep_alive();
  auto fields = std::make_shared<http::fields>(std::move(message.base()));
  request->headers = [fields](std::string_view name) {
    std::vector<std::string> values;
    auto range = fields->equal_range(beast::string_view(name.data(), name.size()));
    for (auto it = range.first; it != range.second; ++it) values.emplace_back(it->value());
    return values;
  };
  closing_ = closing_ || !keep_alive;
  // A small request is handled here, on the I/O thread: handing it to the pool and its response back
  // cost two thread switches, which doubled the latency of a call. A large body, whose parse takes
  // milliseconds, goes to the pool so that the connections sharing this thread are not held up.
  if (request->body.size() <= kInlineBodyBytes) return respond(server_.run_handler(*request));
  auto self = shared_from_this();
  const bool queued = server_.submit(std::move(request), [self](HttpResponse response) {
    asio::post(self->strand_, [self, response = std::move(response)]() mutable { self->respond(std::move(response)); });
  });
  if (!queued) send_simple(503, "Server busy: too many requests waiting; retry later");
}

void Connection::respond(HttpResponse response) {
  if (phase_ == Phase::Closed) {
    if (response.open && response.on_gone) response.on_gone();
    return;
  }
  const bool keep_alive = !closing_ && ++served_ < server_.limits().keep_alive_requests;
  drop_unsafe_headers(response);
  if (response.open) return open_stream(std::move(response), keep_alive);
  write_whole(whole_text(std::move(response), keep_alive), keep_alive);
}

void Connection::send_simple(int status, std::string text) {
  closing_ = true;
  HttpResponse response{status, "text/plain", std::move(text) + "\n"};
  if (status == 503) response.headers.emplace_back("Retry-After", "1");
  respond(std::move(response));
}

void Connection::write_whole(std::string bytes, bool keep_alive) {
  phase_ = Phase::Writing;
  auto held = std::make_shared<std::string>(std::move(bytes));
  arm(server_.limits().write_timeout);
  asio::async_write(socket_, asio::buffer(*held),
                    [self = shared_from_this(), held, keep_alive](error_code ec, std::size_t) {
                      if (self->phase_ == Phase::Closed) return;
                      self->disarm();
                      if (ec) return self->close_now();
                      self->after_response(keep_alive);
                    });
}

void Connection::after_response(bool keep_alive) {
  if (keep_alive && !closing_) return wait_for_request();
  linger();
}

// After the last response: stop sending, read and drop what the client still sends (a body it sent
// before reading our refusal), then close, so it reads the response instead of a reset.
void Connection::linger() {
  phase_ = Phase::Writing;
  error_code ignored;
  socket_.shutdown(tcp::socket::shutdown_send, ignored);
  arm(std::chrono::milliseconds(std::chrono::seconds(1)));
  auto dropped = std::make_shared<std::size_t>(0);
  auto drain = std::make_shared<std::function<void()>>();
  *drain = [self = shared_from_this(), dropped, drain]() {
    self->buffer_.clear();
    self->socket_.async_read_some(self->buffer_.prepare(4096), [self, dropped, drain](error_code ec, std::size_t n) {
      *dropped += n;
      if (ec || *dropped > kLingerBytes || self->phase_ == Phase::Closed) {
        *drain = nullptr;
        return self->close_now();
      }
      (*drain)();
    });
  };
  (*drain)();
}

// ---- a streamed response -------------------------------------------------------------------------

void Connection::open_stream(HttpResponse response, bool keep_alive) {
  phase_ = Phase::Streaming;
  stream_keep_alive_ = keep_alive;
  last_queued_ = false;
  std::string head = status_line(response.status);
  if (!response.content_type.empty()) head.append("Content-Type: ").append(response.content_type).append("\r\n");
  for (auto& [name, value] : response.headers) head.append(name).append(": ").append(value).append("\r\n");
  head.append("Transfer-Encoding: chunked\r\n");
  if (!keep_alive) head.append("Connection: close\r\n");
  head.append("\r\n");
  if (response.deferred_head)
    held_head_ = std::move(head);
  else
    queue_.push_back(std::move(head));
  streaming_ = std::move(response);  // kept, with what `open` holds, until the stream ends
  write_next();
  watch_client();
  beat();
  streaming_.open(std::make_shared<StreamSink>(shared_from_this()));
}

void Connection::stream_push(std::string bytes, bool last) {
  if (phase_ != Phase::Streaming || last_queued_) return;
  if (!held_head_.empty()) queue_.push_back(std::exchange(held_head_, {}));
  if (!bytes.empty()) queue_.push_back(chunk(bytes));
  if (last) {
    queue_.emplace_back("0\r\n\r\n");
    last_queued_ = true;
  }
  write_next();
}

void Connection::stream_answer(HttpResponse whole, std::string last) {
  if (phase_ != Phase::Streaming || last_queued_) return;
  if (held_head_.empty()) return stream_push(std::move(last), true);
  held_head_.clear();
  drop_unsafe_headers(whole);
  queue_.push_back(whole_text(std::move(whole), stream_keep_alive_));
  last_queued_ = true;
  write_next();
}

void Connection::write_next() {
  if (writing_ || phase_ != Phase::Streaming) return;
  if (queue_.empty()) {
    if (last_queued_) end_stream();
    return;
  }
  writing_ = true;
  arm(server_.limits().write_timeout);
  asio::async_write(socket_, asio::buffer(queue_.front()), [self = shared_from_this()](error_code ec, std::size_t) {
    self->writing_ = false;
    if (self->phase_ != Phase::Streaming) return;
    self->disarm();
    if (ec) return self->close_now();
    self->queue_.pop_front();
    self->beat();
    self->write_next();
  });
}

// A read kept pending while the response streams: it ends when the client closes the connection, which
// is how a client cancels a streamed call. Bytes of a pipelined request wait in the buffer.
void Connection::watch_client() {
  if (watching_ || buffer_.size() > server_.limits().max_header_bytes) return;
  watching_ = true;
  socket_.async_read_some(buffer_.prepare(4096), [self = shared_from_this()](error_code ec, std::size_t n) {
    self->watching_ = false;
    self->buffer_.commit(n);
    if (self->phase_ == Phase::Streaming) {
      if (ec) return self->close_now();
      return self->watch_client();
    }
    if (self->phase_ != Phase::Ending) return;
    if (ec && ec != asio::error::operation_aborted) return self->close_now();
    self->after_response(self->stream_keep_alive_);
  });
}

void Connection::beat() {
  if (streaming_.heartbeat.empty()) return;
  heartbeat_.expires_after(server_.limits().stream_heartbeat);
  heartbeat_.async_wait([self = shared_from_this()](error_code ec) {
    if (ec || self->phase_ != Phase::Streaming || self->writing_) return;
    self->stream_push(self->streaming_.heartbeat, false);
  });
}

void Connection::end_stream() {
  heartbeat_.cancel();
  streaming_ = {};  // what the stream's opener kept goes now
  if (!watching_) return after_response(stream_keep_alive_);
  // Wait for the watching read to end before the next request is read.
  phase_ = Phase::Ending;
  error_code ignored;
  socket_.cancel(ignored);
}

}  // namespace

std::unique_ptr<HttpServer> make_http_server(HttpHandler handler, const HttpLimits& limits) {
  return std::make_unique<BeastServer>(std::move(handler), limits);
}

}  // namespace ptc::mcp
