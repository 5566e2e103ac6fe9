#include "http_transport.hpp"

#include <poll.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <deque>
#include <iostream>
#include <map>
#include <mutex>
#include <thread>
#include <variant>

#include <ptc/uuid.hpp>

#include "auth/authorizer.hpp"
#include "auth/exposure.hpp"
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

/// What a tool call sends on its SSE stream, from the worker that runs the call to the response
/// stream; events pushed before the stream opens wait here.
class Channel {
 public:
  /// `modern`: the era whose HTTP statuses a whole answer takes.
  explicit Channel(bool modern = false) : modern_(modern) {}
  void push(std::string event) {
    std::lock_guard lock(mutex_);
    if (stream_)
      stream_->write(std::move(event));
    else
      pending_.push_back(std::move(event));
  }
  /// Ends the stream; with the call's answer (a JSON-RPC line), which goes as a whole JSON response
  /// when the stream's head was deferred and nothing went before it, else as the last event.
  void finish(std::optional<std::string> answer = std::nullopt) {
    std::lock_guard lock(mutex_);
    done_ = true;
    answer_ = std::move(answer);
    if (stream_) end();
  }
  void attach(std::shared_ptr<HttpStream> stream) {
    std::lock_guard lock(mutex_);
    stream_ = std::move(stream);
    for (auto& event : pending_) stream_->write(std::move(event));
    pending_.clear();
    if (done_) end();
  }

 private:
  void end() {
    if (!answer_) return stream_->close();
    std::string line = std::move(*answer_);
    answer_.reset();
    // An error answer carries its status as a whole response does; the stream form is always 200.
    const int status = jsonrpc::member_text(line, {"error"}) ? status_for(Json::parse(line), modern_) : 200;
    std::string last = sse_event_line(line);
    stream_->close_with(HttpResponse{status, "application/json", std::move(line), {}, {}}, std::move(last));
  }

  const bool modern_;
  std::mutex mutex_;
  std::deque<std::string> pending_;
  std::shared_ptr<HttpStream> stream_;
  std::optional<std::string> answer_;
  bool done_ = false;
};

using Clock = std::chrono::steady_clock;

/// One 2025 session. `holds` counts what must not be cut off (a request being handled, a call
/// running, a response stream open); `last_active` is when the last of them ended, in clock ticks.
struct SessionEntry {
  SessionEntry(std::string i, std::string p, std::shared_ptr<Client> c)
      : id(std::move(i)), peer(std::move(p)), client(std::move(c)) {}
  const std::string id;
  const std::string peer;
  const std::shared_ptr<Client> client;
  std::atomic<int> holds{0};
  std::atomic<Clock::rep> last_active{Clock::now().time_since_epoch().count()};
};

/// Keeps its session from being closed to make room while it lives; its end counts as activity.
/// Taken under the table's lock, so a session is never closed between being found and being held.
class SessionHold {
 public:
  explicit SessionHold(std::shared_ptr<SessionEntry> entry) : entry_(std::move(entry)) { ++entry_->holds; }
  ~SessionHold() {
    entry_->last_active = Clock::now().time_since_epoch().count();
    --entry_->holds;
  }
  SessionHold(const SessionHold&) = delete;
  SessionHold& operator=(const SessionHold&) = delete;
  const std::shared_ptr<Client>& client() const { return entry_->client; }

 private:
  std::shared_ptr<SessionEntry> entry_;
};

std::string duration_text(std::chrono::milliseconds d) {
  if (d.count() % 1000 == 0) return std::to_string(d.count() / 1000) + " s";
  return std::to_string(d.count()) + " ms";
}

/// The 2025 sessions, bounded in total and per peer. A full table makes room only by closing a
/// session nobody is using (idle past the timeout, nothing running, no stream open), so a flood of
/// `initialize` can never end another client's session or cancel its calls: it is refused instead.
class SessionTable {
 public:
  explicit SessionTable(const HttpOptions& options)
      : cap_(std::max<std::size_t>(options.max_sessions, 1)),
        peer_cap_(std::max<std::size_t>(options.max_sessions_per_peer, 1)),
        idle_timeout_(options.session_idle_timeout) {}

  /// Why a session could not be opened, and when trying again may succeed.
  struct Refusal {
    std::string text;
    std::chrono::seconds retry_after;
  };

  /// Closes idle sessions until `peer` may open one; why not when that is impossible. Asked before a
  /// session is prepared, so a refused `initialize` costs no Session.
  std::optional<Refusal> make_room(const std::string& peer) {
    std::lock_guard lock(mutex_);
    return make_room_locked(peer);
  }

  /// Adds the session (making room once more: another may have taken it meanwhile).
  std::variant<std::shared_ptr<SessionHold>, Refusal> open(const std::string& id, const std::string& peer,
                                                           std::shared_ptr<Client> client) {
    std::lock_guard lock(mutex_);
    if (auto refused = make_room_locked(peer)) return std::move(*refused);
    auto entry = std::make_shared<SessionEntry>(id, peer, std::move(client));
    by_id_.emplace(id, entry);
    ++per_peer_[peer];
    return std::make_shared<SessionHold>(std::move(entry));
  }

  /// The session, held for the request; nullptr when there is none with this id.
  std::shared_ptr<SessionHold> find(const std::string& id) {
    std::lock_guard lock(mutex_);
    auto it = by_id_.find(id);
    return it == by_id_.end() ? nullptr : std::make_shared<SessionHold>(it->second);
  }

  /// The session's client without holding it (to describe it); nullptr when there is none.
  std::shared_ptr<Client> peek(const std::string& id) {
    std::lock_guard lock(mutex_);
    auto it = by_id_.find(id);
    return it == by_id_.end() ? nullptr : it->second->client;
  }

  bool remove(const std::string& id, const std::string& reason) {
    std::lock_guard lock(mutex_);
    return erase(id, reason);
  }

  void cancel_all(const std::string& reason) {
    std::lock_guard lock(mutex_);
    for (auto& [id, entry] : by_id_) entry->client->cancel_all(reason);
  }

 private:
  std::optional<Refusal> make_room_locked(const std::string& peer) {
    const auto now = Clock::now();
    const auto same_peer = [&peer](const SessionEntry& e) { return e.peer == peer; };
    const auto any = [](const SessionEntry&) { return true; };
    while (peer_count(peer) >= peer_cap_)
      if (!close_one(same_peer, now))
        return refusal("too many sessions from this address (" + std::to_string(peer_cap_), same_peer, now);
    while (by_id_.size() >= cap_)
      if (!close_one(any, now)) return refusal("too many sessions in total (" + std::to_string(cap_), any, now);
    return std::nullopt;
  }
  std::size_t peer_count(const std::string& peer) const {
    auto it = per_peer_.find(peer);
    return it == per_peer_.end() ? 0 : it->second;
  }
  static bool in_use(const SessionEntry& e) { return e.holds > 0 || e.client->has_calls_in_flight(); }
  Clock::time_point idle_since(const SessionEntry& e) const {
    return Clock::time_point(Clock::duration(e.last_active.load()));
  }

  /// Closes the least recently active session that `matches` and nobody uses; false when none.
  template <class Matches>
  bool close_one(const Matches& matches, Clock::time_point now) {
    const SessionEntry* oldest = nullptr;
    for (const auto& [id, entry] : by_id_) {
      if (!matches(*entry) || in_use(*entry) || now - idle_since(*entry) <= idle_timeout_) continue;
      if (!oldest || idle_since(*entry) < idle_since(*oldest)) oldest = entry.get();
    }
    return oldest && erase(std::string(oldest->id), "the session was idle and closed to make room for a new one");
  }

  /// Retry-After: until the first session that `matches` and nobody uses passes the idle timeout (the
  /// timeout itself when all are in use), in whole seconds, at least one.
  template <class Matches>
  Refusal refusal(std::string what, const Matches& matches, Clock::time_point now) const {
    Clock::duration wait = idle_timeout_;
    for (const auto& [id, entry] : by_id_)
      if (matches(*entry) && !in_use(*entry)) wait = std::min(wait, idle_since(*entry) + idle_timeout_ - now);
    auto seconds = std::chrono::ceil<std::chrono::seconds>(wait);
    return {"Server busy: " + std::move(what) + ", each busy or used in the last " + duration_text(idle_timeout_) +
                "); retry later",
            std::max(seconds, std::chrono::seconds(1))};
  }

  bool erase(const std::string& id, const std::string& reason) {
    auto it = by_id_.find(id);
    if (it == by_id_.end()) return false;
    it->second->client->cancel_all(reason);
    if (auto peer = per_peer_.find(it->second->peer); peer != per_peer_.end() && --peer->second == 0)
      per_peer_.erase(peer);
    by_id_.erase(it);
    return true;
  }

  const std::size_t cap_;
  const std::size_t peer_cap_;
  const std::chrono::milliseconds idle_timeout_;
  std::mutex mutex_;
  std::map<std::string, std::shared_ptr<SessionEntry>, std::less<>> by_id_;
  std::map<std::string, std::size_t, std::less<>> per_peer_;
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

/// A 2026-07-28 request (by its header or its _meta) that names a 2025 session.
HttpResponse era_mismatch(const Message& message, const Client& session) {
  const std::string opened = session.legacy_version().value_or(std::string(kLegacyVersions[0]));
  return json_response(400, jsonrpc::error(message.id, jsonrpc::kInvalidRequest,
                                           "Bad Request: this session was opened with protocol " + opened + "; " +
                                               std::string(kModernVersion) +
                                               " requests carry no Mcp-Session-Id (send this one without it), and "
                                               "requests in the session carry MCP-Protocol-Version " +
                                               opened + " and no _meta version"));
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
  SessionTable sessions{options};
  /// The bearer token check and the resource metadata; null when HttpOptions::auth is not set.
  std::unique_ptr<auth::Authorizer> authorizer = auth::Authorizer::make(options);
  std::mutex mutex;
  /// Clients with a call streaming, so shutdown can cancel them.
  std::map<Client*, std::weak_ptr<Client>> streaming;

  HttpResponse post(const HttpRequest& request);
  /// A GET in a 2025 session: the stream the server sends its own messages on (list_changed,
  /// resources/updated).
  HttpResponse get(const HttpRequest& request);
  HttpResponse stream_call(const std::shared_ptr<Client>& client, const Message& message, Reply reply,
                           const std::shared_ptr<Channel>& channel, bool modern, std::shared_ptr<SessionHold> hold);
  std::optional<HttpResponse> check_modern_headers(const HttpRequest& request, const Message& message,
                                                   const std::string& version) const;
  std::optional<HttpResponse> check_session_version(const HttpRequest& request, const Message& message,
                                                    const Client& client) const;
};

McpHttpEndpoint::McpHttpEndpoint(const Protocol& protocol, HttpOptions options)
    : state_(std::make_unique<State>(protocol, std::move(options))) {}

McpHttpEndpoint::~McpHttpEndpoint() {
  cancel_all();
  state_->pool.wait_idle();
}

void McpHttpEndpoint::cancel_all() {
  state_->sessions.cancel_all("the server is shutting down");
  std::lock_guard lock(state_->mutex);
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
  if (state_->authorizer)
    if (auto answer = state_->authorizer->screen(request)) return std::move(*answer);
  if (request.path != options.path)
    return http_error(404, jsonrpc::kInvalidRequest, "Not Found: the MCP endpoint is " + options.path);
  if (request.method == "POST") return state_->post(request);
  if (request.method == "DELETE") {
    const auto id = request.header("Mcp-Session-Id");
    if (!id) return HttpResponse{405, {}, {}, {{"Allow", "POST, DELETE"}}, {}};
    if (!state_->sessions.remove(*id, "the client ended the session"))
      return http_error(404, jsonrpc::kInvalidRequest, "Session not found");
    return HttpResponse{200, {}, {}, {}, {}};
  }
  // GET opens a 2025 session's stream for the server's own messages; without a session (2026-07-28,
  // which listens with subscriptions/listen instead) there is none.
  if (request.method == "GET" && request.header("Mcp-Session-Id")) return state_->get(request);
  return HttpResponse{405, {}, {}, {{"Allow", "POST, DELETE"}}, {}};
}

namespace {

/// An SSE response that stays open for notifications while `handle` (a listener) is held: until the
/// client goes away or the server closes the stream.
HttpResponse notification_stream(std::shared_ptr<Channel> channel, std::shared_ptr<void> handle,
                                 std::vector<std::pair<std::string, std::string>> headers = {}) {
  auto held = std::make_shared<std::shared_ptr<void>>(std::move(handle));
  headers.emplace_back("Cache-Control", "no-cache");
  headers.emplace_back("X-Accel-Buffering", "no");
  HttpResponse response{200, "text/event-stream", {}, std::move(headers), {}};
  response.open = [channel, held](std::shared_ptr<HttpStream> stream) { channel->attach(std::move(stream)); };
  response.on_gone = [held] { held->reset(); };
  response.heartbeat = ":\n\n";
  return response;
}

}  // namespace

HttpResponse McpHttpEndpoint::State::get(const HttpRequest& request) {
  auto hold = sessions.find(*request.header("Mcp-Session-Id"));
  if (!hold) return http_error(404, jsonrpc::kInvalidRequest, "Session not found: initialize again");
  auto channel = std::make_shared<Channel>();
  auto handle = protocol.open_push(hold->client(), [channel](const Json& m) { channel->push(sse_event(m)); });
  // The stream holds its session too: a session whose client listens is in use.
  std::shared_ptr<void> both =
      std::make_shared<std::pair<std::shared_ptr<void>, std::shared_ptr<SessionHold>>>(std::move(handle), hold);
  return notification_stream(channel, std::move(both));
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
  // The requests that name what they act on mirror the name (a resource's URI) in Mcp-Name.
  const char* named = message.method == "tools/call" || message.method == "prompts/get" ? "name"
                      : message.method == "resources/read"                              ? "uri"
                                                                                        : nullptr;
  if (named) {
    auto name = message.params.find(named);
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
  std::shared_ptr<SessionHold> hold;  // the 2025 session, kept from being closed while it is used
  std::vector<std::pair<std::string, std::string>> headers;
  const auto version = modern_version(message);
  const bool modern = version.has_value();  // `initialize` with it too: a removed method there (404)
  const auto session_id = request.header("Mcp-Session-Id");
  if (modern) {
    // 2026-07-28 ignores Mcp-Session-Id, but one that names a live 2025 session means the client
    // mixes the eras, and would silently lose the session's state: say so.
    if (auto opened = session_id && *version == kModernVersion ? sessions.peek(*session_id) : nullptr)
      return era_mismatch(message, *opened);
    if (auto bad = check_modern_headers(request, message, *version)) return *bad;
    client = std::make_shared<Client>(protocol.new_session());  // stateless: nothing outlives the request
  } else if (message.kind == Message::Kind::Request && message.method == "initialize") {
    auto refuse = [&message](const SessionTable::Refusal& refusal) {
      return json_response(503, jsonrpc::error(message.id, jsonrpc::kServerBusy, refusal.text),
                           {{"Retry-After", std::to_string(refusal.retry_after.count())}});
    };
    if (auto refused = sessions.make_room(request.remote_address)) return refuse(*refused);
    client = std::make_shared<Client>(protocol.new_session());
    const std::string id = make_secret_uuid();  // it is all a client needs to act in the session
    auto opened = sessions.open(id, request.remote_address, client);
    if (auto* refused = std::get_if<SessionTable::Refusal>(&opened)) return refuse(*refused);
    hold = std::get<std::shared_ptr<SessionHold>>(std::move(opened));
    headers.emplace_back("Mcp-Session-Id", id);
  } else if (session_id) {
    hold = sessions.find(*session_id);
    if (!hold) return http_error(404, jsonrpc::kInvalidRequest, "Session not found: initialize again");
    client = hold->client();
    if (auto bad = check_session_version(request, message, *client)) return *bad;
  } else {
    // No session and no _meta: the protocol explains what is missing (ping is still answered).
    client = std::make_shared<Client>(protocol.new_session());
  }

  auto channel = std::make_shared<Channel>(modern);
  Reply reply = protocol.handle(client, message, [channel](const Json& m) { channel->push(sse_event(m)); });
  if (reply.response)
    return json_response(status_for(*reply.response, modern || !client->legacy_version()), *reply.response,
                         std::move(headers));
  if (reply.response_line)
    return HttpResponse{200, "application/json", std::move(*reply.response_line), std::move(headers), {}};
  if (reply.subscription) return notification_stream(channel, std::move(reply.subscription), std::move(headers));
  if (!reply.call) return HttpResponse{202, {}, {}, std::move(headers), {}};
  auto response = stream_call(client, message, std::move(reply), channel, modern, std::move(hold));
  for (auto& h : headers) response.headers.push_back(std::move(h));
  return response;
}

std::optional<HttpResponse> McpHttpEndpoint::State::check_session_version(const HttpRequest& request,
                                                                          const Message& message,
                                                                          const Client& client) const {
  auto header = request.header("MCP-Protocol-Version");
  if (!header) return std::nullopt;  // 2025-03-26 clients send none
  if (*header == kModernVersion) return era_mismatch(message, client);
  if (std::find(std::begin(kLegacyVersions), std::end(kLegacyVersions), *header) != std::end(kLegacyVersions))
    return std::nullopt;
  return json_response(400, jsonrpc::error(message.id, jsonrpc::kInvalidRequest,
                                           "Bad Request: unsupported MCP-Protocol-Version " + *header +
                                               "; this server supports " + supported_versions_text(),
                                           Json{{"supported", protocol.supported_versions()}, {"requested", *header}}));
}

HttpResponse McpHttpEndpoint::State::stream_call(const std::shared_ptr<Client>& client, const Message& message,
                                                 Reply reply, const std::shared_ptr<Channel>& channel, bool modern,
                                                 std::shared_ptr<SessionHold> hold) {
  const std::string key = jsonrpc::id_key(message.id);
  // The call and its stream each hold the session: a 2025 call goes on after its stream closes.
  auto job = [this, call = std::move(reply.call), channel, hold, client] {
    channel->finish(call());
    std::lock_guard lock(mutex);
    streaming.erase(client.get());
  };
  {
    std::lock_guard lock(mutex);
    streaming[client.get()] = client;
  }
  if (!pool.submit(std::move(job))) {
    std::lock_guard lock(mutex);
    streaming.erase(client.get());
    return json_response(503, protocol.refuse_busy(*client, message));
  }
  HttpResponse response{200, "text/event-stream", {}, {{"Cache-Control", "no-cache"}, {"X-Accel-Buffering", "no"}}, {}};
  response.open = [channel, hold = std::move(hold)](std::shared_ptr<HttpStream> stream) {
    channel->attach(std::move(stream));
  };
  // In 2026-07-28 a closed response stream cancels the call; in 2025 it does not (the call goes on,
  // and its answer is lost).
  if (modern) response.on_gone = [client, key] { client->cancel(key, "the client closed the response stream"); };
  // A comment line keeps proxies from closing a quiet stream, and finds a vanished client.
  response.heartbeat = ":\n\n";
  // With JSON responses the head waits: an answer that comes first goes as application/json, while a
  // notification, a question for the client or a heartbeat turns the response into the stream.
  response.deferred_head = options.json_responses;
  return response;
}

// ---- serving -------------------------------------------------------------------------------------

bool McpHttpEndpoint::wait_idle_for(std::chrono::milliseconds timeout) { return state_->pool.wait_idle_for(timeout); }

int serve_http(const Protocol& protocol, const HttpOptions& options, int stop_fd,
               const std::function<void()>& on_stuck) {
  if (!auth::preflight(options, std::cerr)) return 1;
  McpHttpEndpoint endpoint(protocol, options);
  HttpLimits limits;
  limits.max_body_bytes = protocol.options().max_message_bytes;
  limits.idle_timeout = options.idle_timeout;
  limits.header_timeout = options.header_timeout;
  limits.read_timeout = options.read_timeout;
  limits.write_timeout = options.write_timeout;
  limits.threads = std::max<std::size_t>(options.threads, 1);
  limits.keep_alive_requests = std::max<std::size_t>(options.keep_alive_requests, 1);
  limits.max_connections = std::max<std::size_t>(options.max_connections, 1);
  limits.max_connections_per_peer = std::max<std::size_t>(options.max_connections_per_peer, 1);
  auto server = make_http_server([&endpoint](const HttpRequest& request) { return endpoint.handle(request); }, limits);
  std::string error;
  const int port = server->bind(options.host, options.port, error);
  if (port < 0) {
    std::cerr << "ptc mcp: " << error << "\n";
    return 1;
  }
  if (options.on_listening) options.on_listening(port);
  int wake[2];
  if (::pipe(wake) != 0) return 1;
  const auto grace = protocol.options().shutdown_grace;
  auto deadline = std::chrono::steady_clock::now();
  std::thread watcher([&] {
    pollfd fds[2] = {{stop_fd, POLLIN, 0}, {wake[0], POLLIN, 0}};
    while (::poll(fds, 2, -1) < 0 && errno == EINTR) {
    }
    // Calls are cancelled at once; responses in flight get the grace period to be written.
    deadline = std::chrono::steady_clock::now() + grace;
    endpoint.cancel_all();
    server->stop(grace);
  });
  server->run();
  const char byte = 'x';
  [[maybe_unused]] auto n = ::write(wake[1], &byte, 1);
  watcher.join();
  ::close(wake[0]);
  ::close(wake[1]);
  // A handler that ignores cancellation would keep the process past the grace period.
  const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
  if (!endpoint.wait_idle_for(std::max(left, std::chrono::milliseconds(0))) && on_stuck) on_stuck();
  return 0;
}

}  // namespace ptc::mcp
