#include <ptc/cancellation.hpp>

#include <algorithm>

namespace ptc {

void Cancellation::cancel(std::string reason) {
  {
    std::lock_guard lock(mutex_);
    if (cancelled_) return;
    cancelled_ = true;
    reason_ = std::move(reason);
  }
  changed_.notify_all();
}

bool Cancellation::cancelled() const {
  std::lock_guard lock(mutex_);
  return cancelled_ || expired();
}

std::string Cancellation::reason() const {
  std::lock_guard lock(mutex_);
  if (cancelled_) return reason_;
  return expired() ? "timed out" : std::string();
}

bool Cancellation::wait_for(std::chrono::milliseconds timeout) const {
  std::unique_lock lock(mutex_);
  auto until = Clock::now() + timeout;
  if (deadline_) until = std::min(until, *deadline_);
  changed_.wait_until(lock, until, [this] { return cancelled_; });
  return cancelled_ || expired();
}

}  // namespace ptc
