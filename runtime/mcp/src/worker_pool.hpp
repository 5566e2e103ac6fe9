#pragma once
// A fixed set of threads running queued jobs, with a bound on the queue so a flood of calls is refused
// instead of held.

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace ptc::mcp {

class WorkerPool {
 public:
  WorkerPool(std::size_t threads, std::size_t max_queued);
  /// Runs the jobs already queued, then joins.
  ~WorkerPool();
  WorkerPool(const WorkerPool&) = delete;
  WorkerPool& operator=(const WorkerPool&) = delete;

  /// False when the queue is full (the job is not run).
  bool submit(std::function<void()> job);
  /// Blocks until no job is queued or running.
  void wait_idle();
  /// The same for at most `timeout`; true when idle.
  bool wait_idle_for(std::chrono::milliseconds timeout);

 private:
  void work();

  std::mutex mutex_;
  std::condition_variable wake_;
  std::condition_variable idle_;
  std::deque<std::function<void()>> queue_;
  std::size_t max_queued_;
  std::size_t running_ = 0;
  bool stopping_ = false;
  std::vector<std::thread> threads_;
};

}  // namespace ptc::mcp
