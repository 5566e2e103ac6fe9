#include <ptc/memory_budget.hpp>

#if defined(__GLIBC__)
#include <malloc.h>
#endif

#include <utility>

namespace ptc {

MemoryBudget::MemoryBudget(std::size_t capacity) : capacity_(capacity) {}

namespace {

// glibc raises its mmap and trim thresholds as large blocks are freed (up to 32 and 64 MiB), after
// which every thread's arena keeps that much freed memory for good, beyond malloc_trim's reach (it
// trims only the main arena's top). Fixed thresholds stop that: blocks of 1 MiB or more are mapped and
// unmapped, and an arena keeps at most 8 MiB free at its top. Set once, when the first large call
// comes, so that programs that never see one keep glibc's defaults.
void fix_allocator_thresholds() {
#if defined(__GLIBC__)
  static const bool done = [] {
    mallopt(M_MMAP_THRESHOLD, 1 << 20);
    mallopt(M_TRIM_THRESHOLD, 8 << 20);
    return true;
  }();
  (void)done;
#endif
}

}  // namespace

void MemoryBudget::trim() {
#if defined(__GLIBC__)
  malloc_trim(0);
#endif
  trims_.fetch_add(1, std::memory_order_relaxed);
}

std::optional<MemoryBudget::Reservation> MemoryBudget::try_reserve(std::size_t bytes) {
  // What the callers of a burst's calls freed after the calls ended (outcomes, session logs) is
  // handed back by the first call after it.
  if (trim_pending_.load(std::memory_order_relaxed) && trim_pending_.exchange(false, std::memory_order_acq_rel)) trim();
  std::size_t used = in_use_.load(std::memory_order_relaxed);
  do {
    if (bytes > capacity_ || used > capacity_ - bytes) return std::nullopt;
  } while (!in_use_.compare_exchange_weak(used, used + bytes, std::memory_order_relaxed));
  if (bytes >= kLargeCallBytes) fix_allocator_thresholds();
  const std::size_t now = used + bytes;
  if (now >= kTrimAfterBytes) {
    std::size_t high = high_water_.load(std::memory_order_relaxed);
    while (high < now && !high_water_.compare_exchange_weak(high, now, std::memory_order_relaxed)) {
    }
  }
  return Reservation(this, bytes);
}

void MemoryBudget::give_back(std::size_t bytes) {
  if (bytes == 0) return;
  const std::size_t before = in_use_.fetch_sub(bytes, std::memory_order_acq_rel);
  // The last call of a large burst ended: what the burst freed goes back to the system. Small calls
  // never get here (high_water_ stays 0), so they pay one atomic subtraction.
  if (before == bytes && high_water_.load(std::memory_order_relaxed) != 0 &&
      high_water_.exchange(0, std::memory_order_acq_rel) != 0) {
    trim();
    trim_pending_.store(true, std::memory_order_release);
  }
}

std::string MemoryBudget::refusal(std::size_t needed) const {
  std::string out = "Not enough memory for this call now: its arguments need ";
  out.append(std::to_string(needed));
  out.append(" bytes, ");
  out.append(std::to_string(in_use()));
  out.append(" of the budget of ");
  out.append(std::to_string(capacity_));
  out.append(" bytes are in use by other calls. Retry later.");
  return out;
}

const std::shared_ptr<MemoryBudget>& MemoryBudget::process() {
  static const std::shared_ptr<MemoryBudget> budget = std::make_shared<MemoryBudget>(limits::kCallMemoryBytes);
  return budget;
}

MemoryBudget::Reservation::Reservation(Reservation&& other) noexcept
    : budget_(std::exchange(other.budget_, nullptr)), bytes_(std::exchange(other.bytes_, 0)) {}

MemoryBudget::Reservation& MemoryBudget::Reservation::operator=(Reservation&& other) noexcept {
  if (this != &other) {
    release();
    budget_ = std::exchange(other.budget_, nullptr);
    bytes_ = std::exchange(other.bytes_, 0);
  }
  return *this;
}

MemoryBudget::Reservation::~Reservation() { release(); }

void MemoryBudget::Reservation::release() {
  if (budget_) budget_->give_back(std::exchange(bytes_, 0));
  budget_ = nullptr;
}

bool MemoryBudget::Reservation::grow_to(std::size_t total) {
  if (!budget_ || total <= bytes_) return true;
  auto more = budget_->try_reserve(total - bytes_);
  if (!more) return false;
  bytes_ += std::exchange(more->bytes_, 0);
  more->budget_ = nullptr;
  return true;
}

}  // namespace ptc
