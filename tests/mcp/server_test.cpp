// ptc::mcp::Server under load, in one process: many concurrent calls on one stdio stream (socket pairs)
// and many concurrent HTTP clients on loopback, each request answered exactly once with its own result;
// what a long run keeps stays bounded (session logs, 2025 HTTP sessions). Also run under
// ThreadSanitizer by scripts/test.sh.
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <future>
#include <map>
#include <mutex>
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

  // 2025 sessions are bounded too: beyond 8, opening one closes the least recently used.
  httplib::Client late("127.0.0.1", port);
  std::vector<std::string> ids;
  for (int i = 0; i < 9; ++i) {
    auto init =
        late.Post("/mcp", accept, R"({"jsonrpc":"2.0","id":0,"method":"initialize","params":{}})", "application/json");
    ASSERT_TRUE(init && init->status == 200);
    ids.push_back(init->get_header_value("Mcp-Session-Id"));
  }
  const auto ping = [&](const std::string& id) {
    httplib::Headers h = accept;
    h.emplace("Mcp-Session-Id", id);
    return late.Post("/mcp", h, R"({"jsonrpc":"2.0","id":1,"method":"ping"})", "application/json")->status;
  };
  EXPECT_EQ(ping(ids.front()), 404);
  EXPECT_EQ(ping(ids.back()), 200);
  server.stop();
  serving.join();
  EXPECT_EQ(failures.load(), 0);
  EXPECT_EQ(answers.distinct(), static_cast<std::size_t>(kClients * kPerClient));
  EXPECT_EQ(answers.bad(), std::vector<std::string>{});
  EXPECT_EQ(longest_log.load(), 100u);
  // A Session per 2025 client and one per 2026 request, which keeps nothing after it.
  EXPECT_EQ(sessions.load(), kClients / 2 + kClients / 2 * kPerClient + 9);
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
