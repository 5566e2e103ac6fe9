#pragma once
// Calls that meet: each waits, up to a timeout, for `want` of them to be inside at once, and says how
// many were; once all have left, the next calls meet afresh. A test that expects calls to run at the
// same time asserts the count: run one at a time, each would wait out its timeout alone and see 1.

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <mutex>

namespace ptc::test {

class Rendezvous {
 public:
  explicit Rendezvous(std::chrono::milliseconds timeout = std::chrono::seconds(1)) : timeout_(timeout) {}

  int meet(int want) {
    std::unique_lock lock(mutex_);
    most_ = std::max(most_, ++inside_);
    if (inside_ >= want) met_ = true;
    arrived_.notify_all();
    arrived_.wait_for(lock, timeout_, [&] { return met_; });
    const int seen = most_;
    if (--inside_ == 0) most_ = 0, met_ = false;  // the last to leave makes it ready for the next group
    return seen;
  }

 private:
  std::chrono::milliseconds timeout_;
  std::mutex mutex_;
  std::condition_variable arrived_;
  int inside_ = 0;
  int most_ = 0;
  bool met_ = false;
};

}  // namespace ptc::test
