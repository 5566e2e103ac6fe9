// The stdio transport on the wire, as the SDKs never drive it: malformed lines, both id types,
// notifications, batches, oversized lines, EOF and SIGTERM, against the fixture server process.
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
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

/// The fixture server started as `fixture_server mcp`, with its three standard streams piped.
class Server {
 public:
  Server() {
    int in[2], out[2], err[2];
    if (::pipe(in) || ::pipe(out) || ::pipe(err)) throw std::runtime_error("pipe");
    pid_ = ::fork();
    if (pid_ == 0) {
      ::dup2(in[0], 0);
      ::dup2(out[1], 1);
      ::dup2(err[1], 2);
      for (int fd : {in[0], in[1], out[0], out[1], err[0], err[1]}) ::close(fd);
      ::execl(PTC_MCP_FIXTURE, PTC_MCP_FIXTURE, "mcp", static_cast<char*>(nullptr));
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
