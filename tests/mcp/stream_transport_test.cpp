// The stdio transport on the wire, as the SDKs never drive it: malformed lines, both id types,
// notifications, batches, oversized lines, EOF and SIGTERM, against the fixture server process; and
// SIGTERM against the same process serving HTTP, since both transports end the process the same way.
#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <sstream>
#include <stdexcept>
#include <thread>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace {

using nlohmann::json;
using namespace std::chrono_literals;

/// The fixture server started as `fixture_server mcp [extra...]`, with its three standard streams piped.
class Server {
 public:
  explicit Server(std::vector<std::string> extra = {}) {
    std::vector<std::string> words{PTC_MCP_FIXTURE, "mcp"};
    words.insert(words.end(), extra.begin(), extra.end());
    std::vector<char*> argv;
    for (auto& w : words) argv.push_back(w.data());
    argv.push_back(nullptr);
    int in[2], out[2], err[2];
    if (::pipe(in) || ::pipe(out) || ::pipe(err)) throw std::runtime_error("pipe");
    pid_ = ::fork();
    if (pid_ == 0) {
      ::dup2(in[0], 0);
      ::dup2(out[1], 1);
      ::dup2(err[1], 2);
      for (int fd : {in[0], in[1], out[0], out[1], err[0], err[1]}) ::close(fd);
      ::execv(PTC_MCP_FIXTURE, argv.data());
      ::_exit(127);
    }
    ::close(in[0]);
    ::close(out[1]);
    ::close(err[1]);
    in_ = in[1];
    out_ = out[0];
    err_ = err[0];
  }
  ~Server() {
    if (in_ >= 0) ::close(in_);
    ::close(out_);
    ::close(err_);
    if (pid_ > 0 && !reaped_) {
      ::kill(pid_, SIGKILL);
      ::waitpid(pid_, nullptr, 0);
    }
  }
  void send(const std::string& text) {
    std::string_view rest = text;
    while (!rest.empty()) {
      auto n = ::write(in_, rest.data(), rest.size());
      ASSERT_GT(n, 0);
      rest.remove_prefix(static_cast<std::size_t>(n));
    }
  }
  void close_input() {
    ::close(in_);
    in_ = -1;
  }
  /// The next line the server writes, or "" after `timeout`.
  std::string line(std::chrono::milliseconds timeout = 10s) {
    const auto until = std::chrono::steady_clock::now() + timeout;
    for (;;) {
      if (auto nl = buffer_.find('\n'); nl != std::string::npos) {
        auto l = buffer_.substr(0, nl);
        buffer_.erase(0, nl + 1);
        return l;
      }
      const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(until - std::chrono::steady_clock::now());
      if (left.count() <= 0) return "";
      pollfd p{out_, POLLIN, 0};
      if (::poll(&p, 1, static_cast<int>(left.count())) <= 0) return "";
      char chunk[65536];
      auto n = ::read(out_, chunk, sizeof chunk);
      if (n <= 0) return "";
      buffer_.append(chunk, static_cast<std::size_t>(n));
    }
  }
  json message() {
    auto l = line();
    EXPECT_FALSE(l.empty()) << "no message from the server";
    return l.empty() ? json() : json::parse(l);
  }
  /// Waits for the process to end; its exit status, or -1 if it is still running after `timeout`.
  int wait(std::chrono::milliseconds timeout = 10s) {
    const auto until = std::chrono::steady_clock::now() + timeout;
    while (std::chrono::steady_clock::now() < until) {
      int status = 0;
      if (::waitpid(pid_, &status, WNOHANG) == pid_) {
        reaped_ = true;
        return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
      }
      std::this_thread::sleep_for(10ms);
    }
    return -1;
  }
  void signal(int sig) { ::kill(pid_, sig); }
  /// Standard error's text until `pattern` appears in it, or what came within `timeout`.
  std::string stderr_until(const std::string& pattern, std::chrono::milliseconds timeout = 10s) {
    const auto until = std::chrono::steady_clock::now() + timeout;
    while (err_text_.find(pattern) == std::string::npos) {
      const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(until - std::chrono::steady_clock::now());
      pollfd p{err_, POLLIN, 0};
      if (left.count() <= 0 || ::poll(&p, 1, static_cast<int>(left.count())) <= 0) break;
      char chunk[4096];
      auto n = ::read(err_, chunk, sizeof chunk);
      if (n <= 0) break;
      err_text_.append(chunk, static_cast<std::size_t>(n));
    }
    return err_text_;
  }
  std::string stderr_text() {
    std::string text;
    ::fcntl(err_, F_SETFL, O_NONBLOCK);
    char chunk[4096];
    ssize_t n;
    while ((n = ::read(err_, chunk, sizeof chunk)) > 0) text.append(chunk, static_cast<std::size_t>(n));
    return text;
  }

 private:
  pid_t pid_ = -1;
  int in_ = -1, out_ = -1, err_ = -1;
  bool reaped_ = false;
  std::string buffer_;
  std::string err_text_;
};

const std::string kInitialize =
    R"({"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"wire","version":"1"}}})"
    "\n";

TEST(StdioWire, AnswersEachLineAndExitsZeroOnEof) {
  Server server;
  server.send(kInitialize);
  server.send("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\n");
  server.send("not json\n");
  server.send("[1,2]\n");
  server.send("{\"jsonrpc\":\"2.0\",\"id\":\"s\",\"method\":\"ping\"}\r\n");
  server.send("\n\n");
  server.send("{\"jsonrpc\":\"2.0\",\"id\":17,\"method\":\"nope\"}\n");
  server.close_input();
  EXPECT_EQ(server.message()["result"]["protocolVersion"], "2025-11-25");
  auto parse = server.message();
  EXPECT_EQ(parse["error"]["code"], -32700);
  EXPECT_TRUE(parse["id"].is_null());
  EXPECT_EQ(server.message()["error"]["code"], -32600);
  auto ping = server.message();
  EXPECT_EQ(ping["id"], "s");
  EXPECT_EQ(ping["result"], json::object());
  auto unknown = server.message();
  EXPECT_EQ(unknown["id"], 17);
  EXPECT_EQ(unknown["error"]["code"], -32601);
  EXPECT_EQ(server.line(2s), "") << "notifications and blank lines get no reply";
  EXPECT_EQ(server.wait(), 0);
}

TEST(StdioWire, CallsStillRunningAtEofAreAnswered) {
  Server server;
  server.send(kInitialize);
  server.send(R"({"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"steps","arguments":{"n":2}}})"
              "\n");
  server.close_input();
  server.message();
  EXPECT_EQ(server.message()["result"]["structuredContent"], (json{{"result", 2}}));
  EXPECT_EQ(server.wait(), 0);
}

TEST(StdioWire, ProgressGoesOutWithTheRequestsToken) {
  Server server;
  server.send(kInitialize);
  server.message();
  server.send(
      R"({"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"steps","arguments":{"n":2},"_meta":{"progressToken":"tok"}}})"
      "\n");
  auto p1 = server.message();
  EXPECT_EQ(p1["method"], "notifications/progress");
  EXPECT_EQ(p1["params"], (json{{"progressToken", "tok"}, {"progress", 1}, {"total", 2}, {"message", "step 1"}}));
  EXPECT_EQ(server.message()["params"]["progress"], 2);
  EXPECT_EQ(server.message()["id"], 2);
}

TEST(StdioWire, SigtermEndsTheServerPromptlyEvenWithACallRunning) {
  Server server;
  server.send(kInitialize);
  server.message();
  server.send(R"({"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"wait"}})"
              "\n");
  std::this_thread::sleep_for(100ms);
  server.signal(SIGTERM);
  EXPECT_EQ(server.wait(5s), 0);
}

// `stubborn` ignores cancellation: the process still ends once the grace period (2 s) is over.
TEST(StdioWire, SigtermEndsTheServerWithinTheGraceWhenAHandlerIgnoresCancellation) {
  Server server;
  server.send(kInitialize);
  server.message();
  server.send(R"({"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"stubborn"}})"
              "\n");
  std::this_thread::sleep_for(200ms);
  const auto start = std::chrono::steady_clock::now();
  server.signal(SIGTERM);
  EXPECT_EQ(server.wait(10s), 0);
  EXPECT_LT(std::chrono::steady_clock::now() - start, 3500ms);
}

TEST(HttpProcess, SigtermEndsTheServerWithinTheGraceWhenAHandlerIgnoresCancellation) {
  Server server({"--http", "127.0.0.1:0"});
  const auto text = server.stderr_until("/mcp\n");
  const auto at = text.find("serving http://127.0.0.1:");
  ASSERT_NE(at, std::string::npos) << text;
  const int port = std::stoi(text.substr(at + 25));
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(static_cast<std::uint16_t>(port));
  ::inet_pton(AF_INET, "127.0.0.1", &address.sin_addr);
  ASSERT_EQ(::connect(fd, reinterpret_cast<const sockaddr*>(&address), sizeof(address)), 0);
  const std::string body =
      R"({"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"stubborn","_meta":{)"
      R"("io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"progressToken":1}}})";
  const std::string request =
      "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
      "Accept: application/json, text/event-stream\r\nMCP-Protocol-Version: 2026-07-28\r\n"
      "Mcp-Method: tools/call\r\nMcp-Name: stubborn\r\nContent-Length: " +
      std::to_string(body.size()) + "\r\n\r\n" + body;
  ASSERT_EQ(::send(fd, request.data(), request.size(), MSG_NOSIGNAL), static_cast<ssize_t>(request.size()));
  // The call has started once its progress arrives on the stream.
  std::string answer;
  const auto until = std::chrono::steady_clock::now() + 10s;
  while (answer.find("notifications/progress") == std::string::npos && std::chrono::steady_clock::now() < until) {
    pollfd p{fd, POLLIN, 0};
    if (::poll(&p, 1, 100) <= 0) continue;
    char chunk[4096];
    auto n = ::recv(fd, chunk, sizeof chunk, 0);
    if (n <= 0) break;
    answer.append(chunk, static_cast<std::size_t>(n));
  }
  ASSERT_NE(answer.find("notifications/progress"), std::string::npos) << answer;
  const auto start = std::chrono::steady_clock::now();
  server.signal(SIGTERM);
  EXPECT_EQ(server.wait(10s), 0);
  EXPECT_LT(std::chrono::steady_clock::now() - start, 3500ms);
  ::close(fd);
}

TEST(StdioWire, WhatAToolPrintsGoesToStderr) {
  Server server;
  server.send(kInitialize);
  server.message();
  server.send(R"({"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"chatty"}})"
              "\n");
  auto reply = server.message();
  EXPECT_EQ(reply["result"]["structuredContent"], (json{{"result", "printed"}}));
  server.close_input();
  EXPECT_EQ(server.wait(), 0);
  EXPECT_NE(server.stderr_text().find("this line must not reach the protocol stream"), std::string::npos);
}

TEST(StdioWire, AnOversizedLineIsRefusedAndTheServerGoesOn) {
  Server server;
  server.send(kInitialize);
  server.message();
  std::string huge = R"({"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"fail","arguments":{"why":")";
  huge.append(std::size_t{5} << 20, 'x');
  huge += "\"}}}\n";
  server.send(huge);
  server.send("{\"jsonrpc\":\"2.0\",\"id\":6,\"method\":\"ping\"}\n");
  auto refused = server.message();
  EXPECT_EQ(refused["error"]["code"], -32600);
  EXPECT_EQ(refused["error"]["message"], "Invalid Request: a message is longer than the limit of 4259840 bytes");
  EXPECT_EQ(server.message()["id"], 6);
}

TEST(StdioWire, ManyConcurrentCallsEachGetOneAnswer) {
  Server server;
  server.send(kInitialize);
  server.message();
  std::ostringstream batch;
  constexpr int kCalls = 500;
  for (int i = 0; i < kCalls; ++i)
    batch << R"({"jsonrpc":"2.0","id":)" << i << R"(,"method":"tools/call","params":{"name":"add","arguments":{"a":)"
          << i << R"(,"b":1}}})"
          << "\n";
  server.send(batch.str());
  std::vector<int> seen(kCalls, 0);
  for (int i = 0; i < kCalls; ++i) {
    auto m = server.message();
    const int id = m["id"].get<int>();
    ASSERT_GE(id, 0);
    ASSERT_LT(id, kCalls);
    ++seen[id];
    EXPECT_EQ(m["result"]["structuredContent"]["result"], id + 1);
  }
  for (int i = 0; i < kCalls; ++i) EXPECT_EQ(seen[i], 1) << i;
  server.close_input();
  EXPECT_EQ(server.wait(), 0);
}

}  // namespace
