#pragma once
// ptc::Cancellation — a signal that a call should stop: a client cancelled it, its stream closed, the
// server is shutting down, or its time ran out. Handlers poll it or wait on it; nothing interrupts them.

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <optional>
#include <string>

namespace ptc {

class Cancellation {
 public:
  using Clock = std::chrono::steady_clock;

  Cancellation() = default;
  /// Cancelled by itself once `deadline` passes (reason "timed out").
  explicit Cancellation(Clock::time_point deadline) : deadline_(deadline) {}
  Cancellation(const Cancellation&) = delete;
  Cancellation& operator=(const Cancellation&) = delete;

  /// Raises the signal; the first reason is kept. Wakes every waiter.
  void cancel(std::string reason = "cancelled");
  bool cancelled() const;
  /// Why it was cancelled, or empty while it is not.
  std::string reason() const;
  /// Blocks until cancelled or `timeout` has passed; true when cancelled. A handler that sleeps
  /// between steps waits here instead, so it stops as soon as it is told to.
  bool wait_for(std::chrono::milliseconds timeout) const;
  const std::optional<Clock::time_point>& deadline() const { return deadline_; }

 private:
  bool expired() const { return deadline_ && Clock::now() >= *deadline_; }

  std::optional<Clock::time_point> deadline_;
  mutable std::mutex mutex_;
  mutable std::condition_variable changed_;
  bool cancelled_ = false;
  std::string reason_;
};

}  // namespace ptc
