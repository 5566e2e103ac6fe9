#include "http_transport.hpp"

#include <poll.h>
#include <unistd.h>

#include <algorithm>
#include <condition_variable>
#include <deque>
#include <iostream>
#include <list>
#include <map>
#include <mutex>
#include <thread>

#include <ptc/uuid.hpp>

#include "worker_pool.hpp"

namespace ptc::mcp {
namespace {

using jsonrpc::Json;
using jsonrpc::Message;

constexpr std::string_view kLocalHosts[] = {"localhost", "127.0.0.1", "[::1]"};

bool is_local(std::string_view host) {
  return std::find(std::begin(kLocalHosts), std::end(kLocalHosts), host) != std::end(kLocalHosts);
}

/// "host:port" -> "host", keeping an IPv6 literal's brackets.
std::string_view host_part(std::string_view authority) {
  if (!authority.empty() && authority.front() == '[') {
    const auto close = authority.find(']');
    return close == std::string_view::npos ? authority : authority.substr(0, close + 1);
  }
  return authority.substr(0, authority.find(':'));
}

bool host_allowed(std::string_view host_header, const HttpOptions& options) {
  if (is_local(host_part(host_header))) return true;
  for (const auto& allowed : options.allowed_hosts)
    if (host_header == allowed || host_part(host_header) == allowed) return true;
  // A server told to listen on a name or address accepts requests addressed to it.
  return options.host != "0.0.0.0" && options.host != "::" && host_part(host_header) == options.host;
}

bool origin_allowed(std::string_view origin, const HttpOptions& options) {
  for (const auto& allowed : options.allowed_origins)
    if (origin == allowed) return true;
  for (std::string_view scheme : {"http://", "https://"}) {
    if (origin.substr(0, scheme.size()) != scheme) continue;
    const auto authority = origin.substr(scheme.size());
    if (authority.find('/') != std::string_view::npos) return false;
    return is_local(host_part(authority));
  }
  return false;
}

HttpResponse json_response(int status, const Json& message,
                           std::vector<std::pair<std::string, std::string>> headers = {}) {
  return HttpResponse{status, "application/json", jsonrpc::line(message), std::move(headers), {}};
}

HttpResponse http_error(int status, int code, std::string text) {
  return json_response(status, jsonrpc::error(nullptr, code, std::move(text)));
}

/// The HTTP status of a JSON-RPC error answer. 2026-07-28 fixes them (400 for a malformed request,
/// 404 for an unknown method); 2025 clients read protocol errors from a 200 response, so only errors
/// about the message itself get 400 there.
int status_for(const Json& response, bool modern) {
  auto error = response.find("error");
  if (error == response.end()) return 200;
  const int code = error->at("code").get<int>();
  if (code == jsonrpc::kParseError || code == jsonrpc::kInvalidRequest) return 400;
  if (code == jsonrpc::kServerBusy) return 503;
  if (!modern) return 200;
  if (code == jsonrpc::kMethodNotFound) return 404;
  if (code == jsonrpc::kInvalidParams || code == jsonrpc::kHeaderMismatch ||
      code == jsonrpc::kMissingClientCapability || code == jsonrpc::kUnsupportedProtocolVersion)
    return 400;
  return 200;
}

std::string sse_event_line(std::string_view line) {
  std::string out = "event: message\ndata: ";
  out += line;
  out += "\n\n";
  return out;
}
std::string sse_event(const Json& message) { return sse_event_line(jsonrpc::line(message)); }

/// What a tool call sends on its SSE stream, handed from the worker that runs the call to the HTTP
/// thread that writes the stream.
class Channel {
 public:
  void push(std::string event) {
    {
      std::lock_guard lock(mutex_);
      events_.push_back(std::move(event));
    }
    changed_.notify_one();
  }
  void finish() {
    {
      std::lock_guard lock(mutex_);
      done_ = true;
    }
    changed_.notify_one();
  }
  /// Waits up to `timeout` for events; returns them and whether the call is over.
  std::pair<std::deque<std::string>, bool> take(std::chrono::milliseconds timeout) {
    std::unique_lock lock(mutex_);
    changed_.wait_for(lock, timeout, [this] { return done_ || !events_.empty(); });
    return {std::exchange(events_, {}), done_};
  }

 private:
  std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<std::string> events_;
  bool done_ = false;
};

constexpr int8_t kBase64Invalid = -1;
int8_t base64_digit(char c) {
  if (c >= 'A' && c <= 'Z') return static_cast<int8_t>(c - 'A');
  if (c >= 'a' && c <= 'z') return static_cast<int8_t>(c - 'a' + 26);
  if (c >= '0' && c <= '9') return static_cast<int8_t>(c - '0' + 52);
  if (c == '+') return 62;
  if (c == '/') return 63;
  return kBase64Invalid;
}

}  // namespace

std::optional<std::string> decode_header_value(std::string_view value) {
  constexpr std::string_view prefix = "=?base64?", suffix = "?=";
  if (value.size() < prefix.size() + suffix.size() || value.substr(0, prefix.size()) != prefix ||
      value.substr(value.size() - suffix.size()) != suffix)
    return std::string(value);
  auto text = value.substr(prefix.size(), value.size() - prefix.size() - suffix.size());
  while (!text.empty() && text.back() == '=') text.remove_suffix(1);
  if (text.size() % 4 == 1) return std::nullopt;
  std::string out;
  std::uint32_t bits = 0;
  int count = 0;
  for (char c : text) {
    const auto digit = base64_digit(c);
    if (digit == kBase64Invalid) return std::nullopt;
    bits = (bits << 6) | static_cast<std::uint32_t>(digit);
    count += 6;
    if (count >= 8) {
      count -= 8;
      out.push_back(static_cast<char>((bits >> count) & 0xFF));
    }
  }
  return out;
}

// ---- the endpoint --------------------------------------------------------------------------------

struct McpHttpEndpoint::State {
  State(const Protocol& p, HttpOptions o)
      : protocol(p), options(std::move(o)), pool(p.options().workers, p.options().max_queued_calls) {}

  const Protocol& protocol;
  HttpOptions options;
  WorkerPool pool;
  std::mutex mutex;
  /// 2025 sessions, most recently used first.
  std::list<std::pair<std::string, std::shared_ptr<Client>>> sessions;
  std::map<std::string, decltype(sessions)::iterator, std::less<>> by_id;
  /// Clients with a call streaming, so shutdown can cancel them.
  std::map<Client*, std::weak_ptr<Client>> streaming;

  std::shared_ptr<Client> find_session(const std::string& id) {
    std::lock_guard lock(mutex);
    auto it = by_id.find(id);
    if (it == by_id.end()) return nullptr;
    sessions.splice(sessions.begin(), sessions, it->second);
    return it->second->second;
  }
  void add_session(const std::string& id, std::shared_ptr<Client> client) {
    std::lock_guard lock(mutex);
    sessions.emplace_front(id, std::move(client));
    by_id[id] = sessions.begin();
    while (sessions.size() > std::max<std::size_t>(options.max_sessions, 1)) {
      sessions.back().second->cancel_all("the session was closed to make room for a newer one");
      by_id.erase(sessions.back().first);
      sessions.pop_back();
    }
  }
  bool remove_session(const std::string& id) {
    std::lock_guard lock(mutex);
    auto it = by_id.find(id);
    if (it == by_id.end()) return false;
    it->second->second->cancel_all("the client ended the session");
    sessions.erase(it->second);
    by_id.erase(it);
    return true;
  }

  HttpResponse post(const HttpRequest& request);
  HttpResponse stream_call(const std::shared_ptr<Client>& client, const Message& message, Reply reply,
                           const std::shared_ptr<Channel>& channel, bool modern);
  std::optional<HttpResponse> check_modern_headers(const HttpRequest& request, const Message& message,
                                                   const std::string& version) const;
};

McpHttpEndpoint::McpHttpEndpoint(const Protocol& protocol, HttpOptions options)
    : state_(std::make_unique<State>(protocol, std::move(options))) {}

McpHttpEndpoint::~McpHttpEndpoint() {
  cancel_all();
  state_->pool.wait_idle();
}

void McpHttpEndpoint::cancel_all() {
  std::lock_guard lock(state_->mutex);
  for (auto& [id, client] : state_->sessions) client->cancel_all("the server is shutting down");
  for (auto& [raw, weak] : state_->streaming)
    if (auto client = weak.lock()) client->cancel_all("the server is shutting down");
}

HttpResponse McpHttpEndpoint::handle(const HttpRequest& request) {
  const auto& options = state_->options;
  bool repeated = false;
  const auto host = request.header("Host", &repeated);
  if (repeated || (host && !host_allowed(*host, options)))
    return http_error(403, jsonrpc::kInvalidRequest, "Forbidden: the Host header names no host this server serves");
  const auto origin = request.header("Origin", &repeated);
  if (repeated || (origin && !origin_allowed(*origin, options)))
    return http_error(403, jsonrpc::kInvalidRequest,
                      "Forbidden: requests from origin " + origin.value_or("") + " are not accepted");
  if (request.path != options.path)
    return http_error(404, jsonrpc::kInvalidRequest, "Not Found: the MCP endpoint is " + options.path);
  if (request.method == "POST") return state_->post(request);
  if (request.method == "DELETE") {
    const auto id = request.header("Mcp-Session-Id");
    if (!id) return HttpResponse{405, {}, {}, {{"Allow", "POST, DELETE"}}, {}};
    if (!state_->remove_session(*id)) return http_error(404, jsonrpc::kInvalidRequest, "Session not found");
    return HttpResponse{200, {}, {}, {}, {}};
  }
  // GET would open a stream for messages the server starts; a tools server has none to send.
  return HttpResponse{405, {}, {}, {{"Allow", "POST, DELETE"}}, {}};
}

std::optional<HttpResponse> McpHttpEndpoint::State::check_modern_headers(const HttpRequest& request,
                                                                         const Message& message,
                                                                         const std::string& version) const {
  auto mismatch = [&](std::string text) {
    return json_response(400,
                         jsonrpc::error(message.id, jsonrpc::kHeaderMismatch, "Header mismatch: " + std::move(text)));
  };
  auto check = [&](const char* name, const std::string& body_value, bool encoded) -> std::optional<HttpResponse> {
    bool repeated = false;
    auto value = request.header(name, &repeated);
    if (!value || repeated) return mismatch(std::string(name) + " header is required (once)");
    auto decoded = encoded ? decode_header_value(*value) : std::optional<std::string>(*value);
    if (!decoded) return mismatch(std::string(name) + " header holds malformed Base64");
    if (*decoded != body_value)
      return mismatch(std::string(name) + " header value '" + *value + "' does not match body value '" + body_value +
                      "'");
    return std::nullopt;
  };
  if (auto bad = check("MCP-Protocol-Version", version, false)) return bad;
  if (message.kind == Message::Kind::Response) return std::nullopt;
  if (auto bad = check("Mcp-Method", message.method, false)) return bad;
  if (message.method == "tools/call") {
    auto name = message.params.find("name");
    if (name != message.params.end() && name->is_string())
      if (auto bad = check("Mcp-Name", name->get<std::string>(), true)) return bad;
  }
  return std::nullopt;
}

HttpResponse McpHttpEndpoint::State::post(const HttpRequest& request) {
  const auto content_type = request.header("Content-Type").value_or("");
  if (content_type.rfind("application/json", 0) != 0)
    return http_error(415, jsonrpc::kInvalidRequest, "Unsupported Media Type: send application/json");
  auto read = jsonrpc::read(request.body);
  if (read.refusal) return json_response(400, read.refusal->response);
  const Message& message = *read.message;

  std::shared_ptr<Client> client;
  std::vector<std::pair<std::string, std::string>> headers;
  const auto version = modern_version(message);
  const bool modern = version.has_value();  // `initialize` with it too: a removed method there (404)
  if (modern) {
    if (auto bad = check_modern_headers(request, message, *version)) return *bad;
    client = std::make_shared<Client>(protocol.new_session());  // stateless: nothing outlives the request
  } else if (message.kind == Message::Kind::Request && message.method == "initialize") {
    client = std::make_shared<Client>(protocol.new_session());
    const std::string id = make_secret_uuid();  // it is all a client needs to act in the session
    add_session(id, client);
    headers.emplace_back("Mcp-Session-Id", id);
  } else if (auto id = request.header("Mcp-Session-Id")) {
    client = find_session(*id);
    if (!client) return http_error(404, jsonrpc::kInvalidRequest, "Session not found: initialize again");
    if (auto v = request.header("MCP-Protocol-Version");
        v && std::find(std::begin(kLegacyVersions), std::end(kLegacyVersions), *v) == std::end(kLegacyVersions))
      return http_error(400, jsonrpc::kInvalidRequest, "Bad Request: unsupported MCP-Protocol-Version " + *v);
  } else {
    // No session and no _meta: the protocol explains what is missing (ping is still answered).
    client = std::make_shared<Client>(protocol.new_session());
  }

  auto channel = std::make_shared<Channel>();
  Reply reply = protocol.handle(client, message, [channel](const Json& m) { channel->push(sse_event(m)); });
  if (reply.response)
    return json_response(status_for(*reply.response, modern || !client->legacy_version()), *reply.response,
                         std::move(headers));
  if (!reply.call) return HttpResponse{202, {}, {}, std::move(headers), {}};
  auto response = stream_call(client, message, std::move(reply), channel, modern);
  for (auto& h : headers) response.headers.push_back(std::move(h));
  return response;
}

HttpResponse McpHttpEndpoint::State::stream_call(const std::shared_ptr<Client>& client, const Message& message,
                                                 Reply reply, const std::shared_ptr<Channel>& channel, bool modern) {
  const std::string key = jsonrpc::id_key(message.id);
  auto job = [call = std::move(reply.call), channel] {
    if (auto response = call()) channel->push(sse_event_line(*response));
    channel->finish();
  };
  if (!pool.submit(std::move(job))) return json_response(503, protocol.refuse_busy(*client, message));
  {
    std::lock_guard lock(mutex);
    streaming[client.get()] = client;
  }
  HttpResponse response{200, "text/event-stream", {}, {{"Cache-Control", "no-cache"}, {"X-Accel-Buffering", "no"}}, {}};
  response.stream = [this, client, channel, key, modern](HttpStream& stream) {
    using namespace std::chrono_literals;
    auto idle = std::chrono::steady_clock::now();
    for (;;) {
      auto [events, done] = channel->take(100ms);
      bool ok = true;
      for (const auto& event : events) ok = ok && stream.write(event);
      if (!events.empty()) idle = std::chrono::steady_clock::now();
      if (done) break;
      // A comment line now and then keeps proxies from closing a quiet stream, and finds a vanished
      // client.
      if (ok && std::chrono::steady_clock::now() - idle > 15s) {
        ok = stream.write(":\n\n");
        idle = std::chrono::steady_clock::now();
      }
      if (!ok || !stream.writable()) {
        // In 2026-07-28 a closed response stream cancels the call; in 2025 it does not, but nobody
        // can read the answer any more, so the stream stops either way.
        if (modern) client->cancel(key, "the client closed the response stream");
        break;
      }
    }
    std::lock_guard lock(mutex);
    streaming.erase(client.get());
  };
  return response;
}

// ---- serving -------------------------------------------------------------------------------------

int serve_http(const Protocol& protocol, const HttpOptions& options, int stop_fd) {
  McpHttpEndpoint endpoint(protocol, options);
  HttpLimits limits{protocol.options().max_message_bytes, options.read_timeout, options.write_timeout,
                    std::max<std::size_t>(options.threads, 2), std::max<std::size_t>(options.keep_alive_requests, 1)};
  auto server =
      make_httplib_server([&endpoint](const HttpRequest& request) { return endpoint.handle(request); }, limits);
  std::string error;
  const int port = server->bind(options.host, options.port, error);
  if (port < 0) {
    std::cerr << "ptc mcp: " << error << "\n";
    return 1;
  }
  if (options.on_listening) options.on_listening(port);
  int wake[2];
  if (::pipe(wake) != 0) return 1;
  std::thread watcher([&] {
    pollfd fds[2] = {{stop_fd, POLLIN, 0}, {wake[0], POLLIN, 0}};
    while (::poll(fds, 2, -1) < 0 && errno == EINTR) {
    }
    endpoint.cancel_all();
    server->stop();
  });
  server->run();
  const char byte = 'x';
  [[maybe_unused]] auto n = ::write(wake[1], &byte, 1);
  watcher.join();
  ::close(wake[0]);
  ::close(wake[1]);
  return 0;
}

}  // namespace ptc::mcp
