#include <ptc/deadline.hpp>

namespace ptc {

namespace {
class SystemClock final : public Clock {
 public:
  TimePoint now() const override { return std::chrono::system_clock::now(); }
};
}  // namespace

std::shared_ptr<const Clock> Clock::system() {
  static const std::shared_ptr<const Clock> clock = std::make_shared<SystemClock>();
  return clock;
}

}  // namespace ptc
