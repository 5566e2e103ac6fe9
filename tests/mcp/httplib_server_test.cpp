// The HttpServer on cpp-httplib (runtime/mcp/src/httplib_server.cpp): how it binds and listens. The
// requests it serves are tested through the MCP endpoint (http_transport_test.cpp).
#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "http_server.hpp"

namespace {

using ptc::mcp::HttpLimits;
using ptc::mcp::HttpRequest;
using ptc::mcp::HttpResponse;

const HttpLimits kLimits{1 << 20, std::chrono::seconds(5), std::chrono::seconds(5), 4, 100};

std::unique_ptr<ptc::mcp::HttpServer> make_server() {
  return ptc::mcp::make_httplib_server(
      [](const HttpRequest&) {
        return HttpResponse{200, "text/plain", "ok"};
      },
      kLimits);
}

TEST(HttplibServer, ASecondServerOnAPortInUseFailsAndSaysWhy) {
  auto first = make_server();
  std::string error;
  const int port = first->bind("127.0.0.1", 0, error);
  ASSERT_GT(port, 0) << error;
  auto second = make_server();
  EXPECT_EQ(second->bind("127.0.0.1", port, error), -1);
  EXPECT_EQ(error, "cannot listen on 127.0.0.1:" + std::to_string(port) + ": Address already in use");
}

// Connects `count` sockets at once (non-blocking) and returns how long the slowest took to be accepted
// by the kernel; sockets that did not connect within `limit` count as `limit`.
std::chrono::milliseconds slowest_connect(int port, int count, std::chrono::milliseconds limit) {
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(static_cast<std::uint16_t>(port));
  ::inet_pton(AF_INET, "127.0.0.1", &address.sin_addr);
  std::vector<pollfd> pending;
  const auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < count; ++i) {
    const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
    ::connect(fd, reinterpret_cast<const sockaddr*>(&address), sizeof(address));
    pending.push_back({fd, POLLOUT, 0});
  }
  std::vector<int> all;
  for (auto& p : pending) all.push_back(p.fd);
  auto elapsed = [&] {
    return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - start);
  };
  while (!pending.empty() && elapsed() < limit) {
    ::poll(pending.data(), pending.size(), 10);
    std::erase_if(pending, [](const pollfd& p) { return (p.revents & POLLOUT) != 0; });
  }
  const auto slowest = pending.empty() ? elapsed() : limit;
  for (int fd : all) ::close(fd);
  return slowest;
}

// With cpp-httplib's own backlog of 5 a burst of connections has SYNs dropped, and those clients wait
// a second for the retry; the server listens with a backlog of 1024.
TEST(HttplibServer, ABurstOfConnectionsIsQueuedNotDropped) {
  auto server = make_server();
  std::string error;
  const int port = server->bind("127.0.0.1", 0, error);
  ASSERT_GT(port, 0) << error;
  // Not serving yet: nothing is accepted, so every connection must wait in the listen queue.
  EXPECT_LT(slowest_connect(port, 500, std::chrono::milliseconds(3000)), std::chrono::milliseconds(900));
}

}  // namespace
