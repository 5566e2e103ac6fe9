#include "stream_transport.hpp"

#include <poll.h>
#include <unistd.h>

#include <cerrno>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>

#include "line_reader.hpp"
#include "worker_pool.hpp"

namespace ptc::mcp {
namespace {

/// Writes whole lines from any thread; after the first failed write (the client is gone) it drops the
/// rest, and the read loop ends. Replies that finish while another is being written go out together
/// with the next write, so a busy server makes one system call for many of them. A thread's own lines
/// keep their order (a call's progress before its answer).
class LineWriter {
 public:
  explicit LineWriter(int fd) : fd_(fd) {}

  void send(const jsonrpc::Json& message) { send_line(jsonrpc::line(message)); }
  void send_line(std::string text) {
    text += '\n';
    std::unique_lock lock(mutex_);
    // Lines wait for the writing thread up to a bound: a client that stops reading holds up the
    // senders, as a blocking write would, instead of growing the queue.
    drained_.wait(lock, [&] { return broken_ || !writing_ || pending_.size() < kMaxPendingBytes; });
    if (broken_) return;
    if (writing_) {
      pending_ += text;
      return;
    }
    writing_ = true;
    std::string batch = std::move(text);
    for (;;) {
      lock.unlock();
      const bool written = write_all(batch);
      lock.lock();
      if (!written) broken_ = true;
      if (broken_ || pending_.empty()) break;
      batch.swap(pending_);
      pending_.clear();
      drained_.notify_all();
    }
    writing_ = false;
    pending_.clear();
    drained_.notify_all();
  }
  bool broken() {
    std::lock_guard lock(mutex_);
    return broken_;
  }

 private:
  static constexpr std::size_t kMaxPendingBytes = 1 << 20;

  bool write_all(std::string_view rest) const {
    while (!rest.empty()) {
      const ssize_t n = ::write(fd_, rest.data(), rest.size());
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) return false;
      rest.remove_prefix(static_cast<std::size_t>(n));
    }
    return true;
  }

  int fd_;
  std::mutex mutex_;
  std::condition_variable drained_;
  std::string pending_;  // lines sent while another thread writes, in the order they came
  bool writing_ = false;
  bool broken_ = false;
};

}  // namespace

void serve_stream(const Protocol& protocol, int in_fd, int out_fd, int stop_fd, const std::function<void()>& on_stuck) {
  const auto& options = protocol.options();
  auto writer = std::make_shared<LineWriter>(out_fd);
  auto client = std::make_shared<Client>(protocol.new_session());
  WorkerPool pool(options.workers, options.max_queued_calls);
  const Notify notify = [writer](const jsonrpc::Json& message) { writer->send(message); };
  // The process's client hears list changes and resource updates on the same output, once it opened
  // the 2025 era (listeners.hpp).
  const auto push = protocol.open_push(client, notify);

  auto on_line = [&](std::string_view line) {
    auto read = jsonrpc::read(line);
    if (read.refusal) return writer->send(read.refusal->response);
    const auto& message = *read.message;
    Reply reply = protocol.handle(client, message, notify);
    if (reply.response) return writer->send(*reply.response);
    if (reply.response_line) return writer->send_line(std::move(*reply.response_line));
    if (reply.subscription)
      return client->keep_subscription(jsonrpc::id_key(message.id), std::move(reply.subscription));
    if (!reply.call) return;
    auto job = [call = std::move(reply.call), writer] {
      if (auto response = call()) writer->send_line(std::move(*response));
    };
    if (!pool.submit(std::move(job))) writer->send(protocol.refuse_busy(*client, message));
  };
  auto on_oversized = [&] {
    writer->send(jsonrpc::error(nullptr, jsonrpc::kInvalidRequest,
                                "Invalid Request: a message is longer than the limit of " +
                                    std::to_string(options.max_message_bytes) + " bytes"));
  };
  LineReader reader(options.max_message_bytes, on_line, on_oversized);

  bool end_of_input = false;
  char buffer[1 << 16];
  pollfd fds[2] = {{in_fd, POLLIN, 0}, {stop_fd, POLLIN, 0}};
  const nfds_t count = stop_fd >= 0 ? 2 : 1;
  while (!writer->broken()) {
    if (::poll(fds, count, -1) < 0) {
      if (errno == EINTR) continue;
      break;
    }
    if (count == 2 && fds[1].revents != 0) break;  // stop() or a signal
    if (fds[0].revents == 0) continue;
    const ssize_t n = ::read(in_fd, buffer, sizeof buffer);
    if (n < 0 && (errno == EINTR || errno == EAGAIN)) continue;
    if (n <= 0) {
      reader.finish();
      end_of_input = true;
      break;
    }
    reader.feed(std::string_view(buffer, static_cast<std::size_t>(n)));
  }
  // End of input is how a client asks the server to exit; what it sent before still gets answered
  // if it finishes within the grace period. A stop or a lost client cancels at once.
  if (!end_of_input || !pool.wait_idle_for(options.shutdown_grace)) {
    client->cancel_all("the server is shutting down");
    if (!pool.wait_idle_for(options.shutdown_grace) && on_stuck) on_stuck();
  }
}

}  // namespace ptc::mcp
