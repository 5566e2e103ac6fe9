#include <ptc/mcp/server.hpp>

#include <fcntl.h>
#include <unistd.h>

#include <atomic>
#include <csignal>
#include <cstdio>
#include <iostream>

#include <ptc/registry.hpp>

#include "http_transport.hpp"
#include "stream_transport.hpp"

namespace ptc::mcp {
namespace {

/// Where SIGTERM and SIGINT write while a server runs: the handler may only do async-signal-safe
/// things, and a byte on the stop pipe is one.
std::atomic<int> g_signal_fd{-1};

extern "C" void on_stop_signal(int) {
  const int fd = g_signal_fd.load();
  if (fd >= 0) {
    const char byte = 's';
    [[maybe_unused]] auto n = ::write(fd, &byte, 1);
  }
}

/// Routes SIGTERM and SIGINT to the stop pipe for one serve_* call, and back afterwards. SIGPIPE is
/// ignored from then on, so a vanished client is a failed write, not a dead process.
class StopSignals {
 public:
  explicit StopSignals(int fd) {
    g_signal_fd.store(fd);
    struct sigaction action {};
    action.sa_handler = on_stop_signal;
    sigemptyset(&action.sa_mask);
    ::sigaction(SIGTERM, &action, &old_term_);
    ::sigaction(SIGINT, &action, &old_int_);
    std::signal(SIGPIPE, SIG_IGN);
  }
  ~StopSignals() {
    ::sigaction(SIGTERM, &old_term_, nullptr);
    ::sigaction(SIGINT, &old_int_, nullptr);
    g_signal_fd.store(-1);
  }
  StopSignals(const StopSignals&) = delete;
  StopSignals& operator=(const StopSignals&) = delete;

 private:
  struct sigaction old_term_ {};
  struct sigaction old_int_ {};
};

}  // namespace

struct Server::Impl {
  Impl(const ToolRegistry& registry, ServerInfo info, ServerOptions options)
      : protocol(registry, std::move(info), std::move(options)) {
    if (::pipe2(stop_pipe, O_CLOEXEC | O_NONBLOCK) != 0) stop_pipe[0] = stop_pipe[1] = -1;
  }
  ~Impl() {
    if (stop_pipe[0] >= 0) ::close(stop_pipe[0]);
    if (stop_pipe[1] >= 0) ::close(stop_pipe[1]);
  }
  /// Empties the stop pipe so the server can serve again after a stop.
  void drain() {
    char bytes[64];
    while (stop_pipe[0] >= 0 && ::read(stop_pipe[0], bytes, sizeof bytes) > 0) {
    }
  }

  Protocol protocol;
  int stop_pipe[2] = {-1, -1};
};

Server::Server(const ToolRegistry& registry, ServerInfo info, ServerOptions options)
    : impl_(std::make_unique<Impl>(registry, std::move(info), std::move(options))) {}

Server::~Server() = default;

void Server::stop() {
  const char byte = 's';
  [[maybe_unused]] auto n = ::write(impl_->stop_pipe[1], &byte, 1);
}

void Server::notify_resource_updated(std::string_view uri) { impl_->protocol.resource_updated(std::string(uri)); }

int Server::serve_fd(int in_fd, int out_fd) {
  StopSignals signals(impl_->stop_pipe[1]);
  serve_stream(impl_->protocol, in_fd, out_fd, impl_->stop_pipe[0], {});
  impl_->drain();
  return 0;
}

int Server::serve_stdio() {
  // The protocol gets its own descriptor for standard output, and descriptor 1 becomes a copy of
  // standard error: whatever a tool prints (std::cout, printf, a child process) lands in the log the
  // client keeps, never in the middle of a message.
  std::cout.flush();
  std::fflush(stdout);
  const int protocol_out = ::fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 3);
  if (protocol_out < 0 || ::dup2(STDERR_FILENO, STDOUT_FILENO) < 0) {
    std::perror("ptc mcp: cannot set up standard output");
    return 1;
  }
  {
    StopSignals signals(impl_->stop_pipe[1]);
    // A handler that ignores cancellation must not keep a client waiting for the process to end:
    // after the grace period the process exits, as the client would otherwise kill it.
    serve_stream(impl_->protocol, STDIN_FILENO, protocol_out, impl_->stop_pipe[0], [] {
      std::cout.flush();
      std::fflush(nullptr);
      std::_Exit(0);
    });
  }
  impl_->drain();
  std::cout.flush();
  std::fflush(stdout);
  ::dup2(protocol_out, STDOUT_FILENO);
  ::close(protocol_out);
  return 0;
}

int Server::serve_http(const HttpOptions& options) {
  StopSignals signals(impl_->stop_pipe[1]);
  // As for stdio: a handler that ignores cancellation does not keep the process past the grace period.
  const int status = mcp::serve_http(impl_->protocol, options, impl_->stop_pipe[0], [] {
    std::cout.flush();
    std::fflush(nullptr);
    std::_Exit(0);
  });
  impl_->drain();
  return status;
}

}  // namespace ptc::mcp
