#pragma once
// Heartbeats tell whoever holds a lease on this evaluation (a job queue, a supervisor) that a long tool
// call is still alive.

#include <atomic>
#include <cstddef>
#include <functional>
#include <utility>

namespace ptc {

class Heartbeat {
 public:
  /// `on_beat` runs on every beat, on the beating thread (e.g. to extend a lease).
  explicit Heartbeat(std::function<void()> on_beat = {}) : on_beat_(std::move(on_beat)) {}

  void beat() {
    beats_.fetch_add(1, std::memory_order_relaxed);
    if (on_beat_) on_beat_();
  }
  std::size_t beats() const { return beats_.load(std::memory_order_relaxed); }

 private:
  std::function<void()> on_beat_;
  std::atomic<std::size_t> beats_{0};
};

}  // namespace ptc
