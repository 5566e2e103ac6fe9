#pragma once
// Deadlines measured on an injectable clock, so tests can move time instead of sleeping.

#include <chrono>
#include <memory>
#include <mutex>

namespace ptc {

using TimePoint = std::chrono::system_clock::time_point;

class Clock {
 public:
  virtual ~Clock() = default;
  virtual TimePoint now() const = 0;
  /// The wall clock (std::chrono::system_clock); one shared instance.
  static std::shared_ptr<const Clock> system();
};

/// A clock that only moves when told to. Safe to read and move from several threads.
class ManualClock final : public Clock {
 public:
  explicit ManualClock(TimePoint start = TimePoint{}) : now_(start) {}
  TimePoint now() const override {
    std::lock_guard lock(mutex_);
    return now_;
  }
  void set(TimePoint t) {
    std::lock_guard lock(mutex_);
    now_ = t;
  }
  void advance(std::chrono::nanoseconds d) {
    std::lock_guard lock(mutex_);
    now_ += std::chrono::duration_cast<TimePoint::duration>(d);
  }

 private:
  mutable std::mutex mutex_;
  TimePoint now_;
};

/// A point in time after which tool calls are refused. Checked before a handler starts (twice: on
/// entry and again right before the handler); a handler that runs long checks `expired()` itself.
class Deadline {
 public:
  explicit Deadline(TimePoint expires_at, std::shared_ptr<const Clock> clock = Clock::system())
      : expires_at_(expires_at), clock_(std::move(clock)) {}
  /// `clock->now() + budget`.
  static Deadline after(std::chrono::nanoseconds budget, std::shared_ptr<const Clock> clock = Clock::system()) {
    const TimePoint at = clock->now() + std::chrono::duration_cast<TimePoint::duration>(budget);
    return Deadline(at, std::move(clock));
  }

  TimePoint expires_at() const { return expires_at_; }
  /// True from `expires_at` on.
  bool expired() const { return clock_->now() >= expires_at_; }
  /// Zero once expired.
  std::chrono::nanoseconds remaining() const {
    const auto left = expires_at_ - clock_->now();
    return left > TimePoint::duration::zero() ? std::chrono::duration_cast<std::chrono::nanoseconds>(left)
                                              : std::chrono::nanoseconds::zero();
  }
  const Clock& clock() const { return *clock_; }

 private:
  TimePoint expires_at_;
  std::shared_ptr<const Clock> clock_;
};

}  // namespace ptc
