// ptc::mcp::Server under load, in one process: many concurrent calls on one stdio stream (socket pairs)
// and many concurrent HTTP clients on loopback, each request answered exactly once with its own result;
// what a long run keeps stays bounded (session logs, 2025 HTTP sessions), and a flood of sessions from
// other loopback addresses cannot end a client's session or its call. Also run under ThreadSanitizer
// by scripts/test.sh.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <future>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>
#include <httplib.h>
#include <nlohmann/json.hpp>

#include <ptc/events.hpp>
#include <ptc/mcp/server.hpp>
#include <ptc/registry.hpp>
#include <ptc/session.hpp>
#include <ptc/tool.hpp>
#include <ptc/tool_context.hpp>

namespace {

using nlohmann::json;
using namespace std::chrono_literals;

/// `echo` answers its argument (after a short pause every 7th call, so calls finish out of order);
/// `twice` doubles it. Each notes the longest invocation log its session has held, which a long run
/// must keep bounded.
void add_tools(ptc::ToolRegistry& registry, std::atomic<std::size_t>& longest_log) {
  const auto note = [&longest_log](ptc::ToolContext& context) {
    const auto size = context.session().log<ptc::ToolInvoked>().size();
    for (auto seen = longest_log.load(); size > seen && !longest_log.compare_exchange_weak(seen, size);) {
    }
  };
  registry.add(ptc::make_tool("echo", "Echoes n.", "(n :int) -> :int",
                              [note](const json& args, ptc::ToolContext& context) {
                                note(context);
                                const auto n = args["n"].get<long long>();
                                if (n % 7 == 0) std::this_thread::sleep_for(1ms);
                                return ptc::ToolResult<json>::ok(n);
                              }));
  registry.add(ptc::make_tool("twice", "Doubles n.", "(n :int) -> {n :int}",
                              [note](const json& args, ptc::ToolContext& context) {
                                note(context);
                                return ptc::ToolResult<json>::ok(json{{"n", 2 * args["n"].get<long long>()}});
                              }));
}

std::string call_line(long long id, long long n) {
  return json{{"jsonrpc", "2.0"},
              {"id", id},
              {"method", "tools/call"},
              {"params", {{"name", n % 2 ? "echo" : "twice"}, {"arguments", {{"n", n}}}}}}
      .dump();
}

/// The structuredContent a call of call_line(_, n) must come back with: 2026-07-28 sends a non-object
/// result as itself, 2025 as {"result": v}.
json expected_value(long long n, bool legacy) {
  if (n % 2 == 0) return json{{"n", 2 * n}};
  return legacy ? json{{"result", n}} : json(n);
}

/// Counts the answers per id; an id answered twice, or with another call's value, is recorded as bad.
class Answers {
 public:
  void record(const json& response, const std::function<json(long long)>& expected) {
    std::lock_guard lock(mutex_);
    const auto id = response.at("id").get<long long>();
    if (++count_[id] > 1) bad_.push_back("id " + std::to_string(id) + " answered twice");
    const auto result = response.value("result", json::object());
    if (result.value("isError", true) != false || result.value("structuredContent", json()) != expected(id))
      bad_.push_back("id " + std::to_string(id) + ": " + response.dump());
    ++total_;
    done_.notify_all();
  }
  bool wait_for(std::size_t n, std::chrono::seconds timeout) {
    std::unique_lock lock(mutex_);
    return done_.wait_for(lock, timeout, [&] { return total_ >= n; });
  }
  std::size_t distinct() const {
    std::lock_guard lock(mutex_);
    return count_.size();
  }
  std::vector<std::string> bad() const {
    std::lock_guard lock(mutex_);
    return bad_;
  }

 private:
  mutable std::mutex mutex_;
  std::condition_variable done_;
  std::map<long long, int> count_;
  std::vector<std::string> bad_;
  std::size_t total_ = 0;
};

class ServerLoad : public ::testing::Test {
 protected:
  ptc::ToolRegistry registry;
  ptc::mcp::ServerOptions options;
  std::atomic<std::size_t> longest_log{0};
  std::atomic<int> sessions{0};

  void SetUp() override {
    add_tools(registry, longest_log);
    options.workers = 4;
    options.session.log_limit = 100;
    options.prepare_session = [this](ptc::Session&) { ++sessions; };
  }
};

TEST_F(ServerLoad, ConcurrentCallsOnOneStreamAreEachAnsweredOnce) {
  int to_server[2], from_server[2];
  ASSERT_EQ(::socketpair(AF_UNIX, SOCK_STREAM, 0, to_server), 0);
  ASSERT_EQ(::socketpair(AF_UNIX, SOCK_STREAM, 0, from_server), 0);
  constexpr long long kWriters = 8, kPerWriter = 500, kCalls = kWriters * kPerWriter;
  options.max_queued_calls = kCalls;  // all may wait: beyond the limit a call is refused (-32000)
  ptc::mcp::Server server(registry, {"load", "1"}, options);
  std::thread serving([&] { server.serve_fd(to_server[1], from_server[1]); });

  Answers answers;
  std::thread reader([&] {
    std::string buffer;
    char chunk[65536];
    for (;;) {
      const auto n = ::read(from_server[0], chunk, sizeof chunk);
      if (n <= 0) return;
      buffer.append(chunk, static_cast<std::size_t>(n));
      for (auto nl = buffer.find('\n'); nl != std::string::npos; nl = buffer.find('\n')) {
        const auto message = json::parse(buffer.substr(0, nl));
        buffer.erase(0, nl + 1);
        if (message.contains("id") && message.at("id").is_number_integer() && message["id"] != 0)
          answers.record(message, [](long long id) { return expected_value(id, true); });
      }
    }
  });
  const auto send = [&](const std::string& line) {
    static std::mutex write_mutex;  // one line per write, as a client's framing would keep them whole
    std::lock_guard lock(write_mutex);
    const std::string framed = line + "\n";
    ASSERT_EQ(::write(to_server[0], framed.data(), framed.size()), static_cast<ssize_t>(framed.size()));
  };
  send(json{{"jsonrpc", "2.0"},
            {"id", 0},
            {"method", "initialize"},
            {"params", {{"protocolVersion", "2025-11-25"}, {"capabilities", json::object()}}}}
           .dump());
  send(R"({"jsonrpc":"2.0","method":"notifications/initialized"})");

  std::vector<std::thread> writers;
  for (long long w = 0; w < kWriters; ++w)
    writers.emplace_back([&, w] {
      for (long long i = 0; i < kPerWriter; ++i) send(call_line(1 + w * kPerWriter + i, 1 + w * kPerWriter + i));
    });
  for (auto& t : writers) t.join();

  const bool all = answers.wait_for(kCalls, 120s);
  ::shutdown(to_server[0], SHUT_WR);  // EOF: the server drains and returns
  serving.join();
  ::shutdown(from_server[1], SHUT_RDWR);
  reader.join();
  for (int fd : {to_server[0], to_server[1], from_server[0], from_server[1]}) ::close(fd);

  EXPECT_TRUE(all) << "answers: " << answers.distinct() << " of " << kCalls;
  EXPECT_EQ(answers.distinct(), static_cast<std::size_t>(kCalls));
  EXPECT_EQ(answers.bad(), std::vector<std::string>{});
  // One client, one Session, whose invocation log filled up to its limit and no further.
  EXPECT_EQ(sessions.load(), 1);
  EXPECT_EQ(longest_log.load(), 100u);
}

TEST_F(ServerLoad, ManyHttpClientsInBothErasAreEachAnsweredOnce) {
  ptc::mcp::Server server(registry, {"load", "1"}, options);
  ptc::mcp::HttpOptions http;
  http.port = 0;
  http.threads = 8;
  http.max_sessions = 8;
  std::promise<int> listening;
  http.on_listening = [&](int port) { listening.set_value(port); };
  std::thread serving([&] { server.serve_http(http); });
  const int port = listening.get_future().get();

  constexpr int kClients = 12, kPerClient = 150;
  Answers answers;
  std::atomic<int> failures{0};
  std::vector<std::thread> clients;
  const httplib::Headers accept{{"Accept", "application/json, text/event-stream"}};
  for (int c = 0; c < kClients; ++c)
    clients.emplace_back([&, c] {
      httplib::Client client("127.0.0.1", port);
      client.set_read_timeout(60, 0);
      const bool legacy = c % 2 == 0;
      httplib::Headers headers = accept;
      if (legacy) {
        auto init = client.Post("/mcp", accept,
                                json{{"jsonrpc", "2.0"},
                                     {"id", 0},
                                     {"method", "initialize"},
                                     {"params", {{"protocolVersion", "2025-11-25"}, {"capabilities", json::object()}}}}
                                    .dump(),
                                "application/json");
        if (!init || init->status != 200) {
          ++failures;
          return;
        }
        headers.emplace("Mcp-Session-Id", init->get_header_value("Mcp-Session-Id"));
        headers.emplace("MCP-Protocol-Version", "2025-11-25");
      }
      for (long long i = 0; i < kPerClient; ++i) {
        const long long n = 1 + c * kPerClient + i;
        auto call = json::parse(call_line(n, n));
        httplib::Headers h = headers;
        if (!legacy) {
          call["params"]["_meta"] = {{"io.modelcontextprotocol/protocolVersion", "2026-07-28"},
                                     {"io.modelcontextprotocol/clientCapabilities", json::object()}};
          h.emplace("MCP-Protocol-Version", "2026-07-28");
          h.emplace("Mcp-Method", "tools/call");
          h.emplace("Mcp-Name", call["params"]["name"].get<std::string>());
        }
        auto response = client.Post("/mcp", h, call.dump(), "application/json");
        if (!response || response->status != 200) {
          ++failures;
          continue;
        }
        // A call's answer is a one-event SSE stream: "data: <message>".
        const auto& body = response->body;
        const auto data = body.find("data: ");
        if (data == std::string::npos) {
          ++failures;
          continue;
        }
        const auto message = json::parse(body.substr(data + 6, body.find('\n', data) - data - 6));
        answers.record(message, [legacy](long long id) { return expected_value(id, legacy); });
      }
    });
  for (auto& t : clients) t.join();

  // 2025 sessions are bounded too: 6 are open, 2 more fit, and then initialize is refused while every
  // session has been used within the idle timeout; none of the open ones is closed for it.
  httplib::Client late("127.0.0.1", port);
  std::vector<std::string> ids;
  for (int i = 0; i < 2; ++i) {
    auto init =
        late.Post("/mcp", accept, R"({"jsonrpc":"2.0","id":0,"method":"initialize","params":{}})", "application/json");
    ASSERT_TRUE(init && init->status == 200);
    ids.push_back(init->get_header_value("Mcp-Session-Id"));
  }
  auto refused =
      late.Post("/mcp", accept, R"({"jsonrpc":"2.0","id":0,"method":"initialize","params":{}})", "application/json");
  ASSERT_TRUE(refused);
  EXPECT_EQ(refused->status, 503);
  const int retry_after = std::atoi(refused->get_header_value("Retry-After").c_str());
  EXPECT_TRUE(retry_after >= 1 && retry_after <= 60) << refused->get_header_value("Retry-After");
  const auto ping = [&](const std::string& id) {
    httplib::Headers h = accept;
    h.emplace("Mcp-Session-Id", id);
    return late.Post("/mcp", h, R"({"jsonrpc":"2.0","id":1,"method":"ping"})", "application/json")->status;
  };
  EXPECT_EQ(ping(ids.front()), 200);
  EXPECT_EQ(ping(ids.back()), 200);
  server.stop();
  serving.join();
  EXPECT_EQ(failures.load(), 0);
  EXPECT_EQ(answers.distinct(), static_cast<std::size_t>(kClients * kPerClient));
  EXPECT_EQ(answers.bad(), std::vector<std::string>{});
  EXPECT_EQ(longest_log.load(), 100u);
  // A Session per 2025 client and one per 2026 request, which keeps nothing after it.
  // A refused initialize prepares no Session.
  EXPECT_EQ(sessions.load(), kClients / 2 + kClients / 2 * kPerClient + 2);
}

/// One HTTP exchange from the source address `from`: every 127.x.y.z is loopback on Linux, so the
/// server sees another peer. The connection is closed after it; nullopt when it fails.
struct RawResponse {
  int status = 0;
  std::map<std::string, std::string> headers;  // names in lower case
  std::string body;
};
std::optional<RawResponse> post_from(const char* from, int port, const std::string& body) {
  const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return std::nullopt;
  const timeval timeout{10, 0};  // a test that goes wrong fails instead of hanging
  ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof timeout);
  ::setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, sizeof timeout);
  sockaddr_in local{}, remote{};
  local.sin_family = remote.sin_family = AF_INET;
  remote.sin_port = htons(static_cast<std::uint16_t>(port));
  ::inet_pton(AF_INET, from, &local.sin_addr);
  ::inet_pton(AF_INET, "127.0.0.1", &remote.sin_addr);
  const std::string request =
      "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
      "Accept: application/json, text/event-stream\r\nConnection: close\r\n"
      "Content-Length: " +
      std::to_string(body.size()) + "\r\n\r\n" + body;
  std::string text;
  if (::bind(fd, reinterpret_cast<sockaddr*>(&local), sizeof local) == 0 &&
      ::connect(fd, reinterpret_cast<sockaddr*>(&remote), sizeof remote) == 0 &&
      ::write(fd, request.data(), request.size()) == static_cast<ssize_t>(request.size())) {
    char chunk[4096];
    for (ssize_t n; (n = ::read(fd, chunk, sizeof chunk)) > 0;) text.append(chunk, static_cast<std::size_t>(n));
  }
  ::close(fd);
  const auto end = text.find("\r\n\r\n");
  if (text.rfind("HTTP/1.1 ", 0) != 0 || end == std::string::npos) return std::nullopt;
  RawResponse response;
  response.status = std::atoi(text.c_str() + 9);
  for (auto at = text.find("\r\n") + 2; at < end;) {
    const auto eol = text.find("\r\n", at);
    const auto colon = text.find(':', at);
    std::string name = text.substr(at, colon - at);
    for (auto& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    response.headers[name] = text.substr(colon + 2, eol - colon - 2);
    at = eol + 2;
  }
  response.body = text.substr(end + 4);
  return response;
}

TEST_F(ServerLoad, AFloodOfSessionsLeavesAnotherClientsCallAndSessionAlone) {
  // `hold` runs until the test releases it (30 s at most).
  std::mutex mutex;
  std::condition_variable changed;
  bool started = false, released = false;
  registry.add(ptc::make_tool("hold", "Waits for the test.", "() -> :string", [&](const json&, ptc::ToolContext&) {
    std::unique_lock lock(mutex);
    started = true;
    changed.notify_all();
    const bool ok = changed.wait_for(lock, 30s, [&] { return released; });
    return ptc::ToolResult<json>::ok(ok ? "released" : "never released");
  }));
  ptc::mcp::Server server(registry, {"load", "1"}, options);
  ptc::mcp::HttpOptions http;
  http.port = 0;
  http.max_sessions = 8;
  http.max_sessions_per_peer = 4;
  std::promise<int> listening;
  http.on_listening = [&](int port) { listening.set_value(port); };
  std::thread serving([&] { server.serve_http(http); });
  const int port = listening.get_future().get();
  const auto release = [&] {
    std::lock_guard lock(mutex);
    released = true;
    changed.notify_all();
  };

  // The client: a session from 127.0.0.1 with a call in flight.
  httplib::Client victim("127.0.0.1", port);
  victim.set_read_timeout(60, 0);
  httplib::Headers headers{{"Accept", "application/json, text/event-stream"}};
  auto init =
      victim.Post("/mcp", headers, R"({"jsonrpc":"2.0","id":0,"method":"initialize","params":{}})", "application/json");
  ASSERT_TRUE(init && init->status == 200);
  headers.emplace("Mcp-Session-Id", init->get_header_value("Mcp-Session-Id"));
  headers.emplace("MCP-Protocol-Version", "2025-11-25");
  const std::string call = R"({"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"hold"}})";
  std::optional<httplib::Result> answer;
  std::thread caller([&] { answer.emplace(victim.Post("/mcp", headers, call, "application/json")); });
  {
    std::unique_lock lock(mutex);
    if (!changed.wait_for(lock, 30s, [&] { return started; })) {
      lock.unlock();
      release();
      caller.join();
      server.stop();
      serving.join();
      FAIL() << "the call never started";
    }
  }

  // The flood: one peer up to its cap, then other peers up to the total; the rest is refused.
  const std::string open = R"({"jsonrpc":"2.0","id":0,"method":"initialize","params":{}})";
  const auto flood = [&](const char* from, int n, int expect_opened, const std::string& refusal) {
    int opened = 0;
    for (int i = 0; i < n; ++i) {
      auto r = post_from(from, port, open);
      ASSERT_TRUE(r) << from << " " << i;
      if (r->status == 200) {
        ++opened;
        continue;
      }
      EXPECT_EQ(r->status, 503);
      const int retry_after = std::atoi(r->headers["retry-after"].c_str());
      EXPECT_TRUE(retry_after >= 1 && retry_after <= 60) << r->headers["retry-after"];
      EXPECT_EQ(json::parse(r->body)["error"]["message"], refusal);
    }
    EXPECT_EQ(opened, expect_opened) << from;
  };
  flood("127.0.0.2", 30, 4,
        "Server busy: too many sessions from this address (4, each busy or used in the last 60 s); retry later");
  flood("127.0.0.3", 30, 3,
        "Server busy: too many sessions in total (8, each busy or used in the last 60 s); retry later");

  release();
  caller.join();
  // A call's answer is a one-event SSE stream: "data: <message>".
  const auto message_of = [](const httplib::Result& r) {
    const auto data = r ? r->body.find("data: ") : std::string::npos;
    return data == std::string::npos ? json::object()
                                     : json::parse(r->body.substr(data + 6, r->body.find('\n', data) - data - 6));
  };
  const auto value_of = [](const json& m) {
    return m.value("result", json::object()).value("structuredContent", json());
  };
  const auto answered = message_of(*answer);
  EXPECT_EQ(answered.value("id", json()), 5) << answered;
  EXPECT_EQ(value_of(answered), (json{{"result", "released"}})) << answered;
  // The session still works, calls included.
  const auto again = message_of(victim.Post("/mcp", headers, call, "application/json"));
  EXPECT_EQ(value_of(again), (json{{"result", "released"}})) << again;
  server.stop();
  serving.join();
}

TEST_F(ServerLoad, OneKeptAliveConnectionCarriesManyRequests) {
  // cpp-httplib closes a connection after 5 requests unless told otherwise; a client then pays a new
  // TCP handshake every few calls. The server keeps HttpOptions::keep_alive_requests instead.
  ptc::mcp::Server server(registry, {"load", "1"}, options);
  ptc::mcp::HttpOptions http;
  http.port = 0;
  std::promise<int> listening;
  http.on_listening = [&](int port) { listening.set_value(port); };
  std::thread serving([&] { server.serve_http(http); });
  httplib::Client client("127.0.0.1", listening.get_future().get());
  client.set_keep_alive(true);
  const httplib::Headers accept{{"Accept", "application/json, text/event-stream"}};
  std::vector<std::string> connection;
  for (int i = 0; i < 20; ++i) {
    auto response = client.Post("/mcp", accept, R"({"jsonrpc":"2.0","id":0,"method":"initialize","params":{}})",
                                "application/json");
    ASSERT_TRUE(response) << i;
    EXPECT_EQ(response->status, 200) << response->body;
    connection.push_back(response->get_header_value("Connection"));
  }
  server.stop();
  serving.join();
  EXPECT_EQ(std::count(connection.begin(), connection.end(), "close"), 0) << ::testing::PrintToString(connection);
}

}  // namespace
