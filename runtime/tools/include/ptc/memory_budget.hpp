#pragma once
// ptc::MemoryBudget — the memory that tool calls in flight may spend on their arguments, shared by all
// of them, with admission control: a call reserves what its arguments will cost before they are parsed,
// and a call whose reservation does not fit beside the others' is refused instead of making the
// process grow (docs/limits.md, "Memory").

#include <atomic>
#include <cstddef>
#include <memory>
#include <optional>
#include <string>

#include <ptc/limits.hpp>

namespace ptc {

class MemoryBudget {
 public:
  /// What a call reserves per byte of its argument text: reading, validating and keeping its arguments
  /// costs at most about this many times their size, whatever their shape (bench/memory).
  static constexpr std::size_t kBytesPerArgumentByte = 8;
  /// What a call whose arguments are read into nlohmann::json (a tool made from a signature: its
  /// handler takes JSON) may reserve per byte, as its parser builds the value: such a value costs up to
  /// about 32 times its text (lists nested deep), so its reservation grows with what is built.
  static constexpr std::size_t kMaxBytesPerArgumentByte = 40;

  /// A budget of `capacity` bytes.
  explicit MemoryBudget(std::size_t capacity);
  MemoryBudget(const MemoryBudget&) = delete;
  MemoryBudget& operator=(const MemoryBudget&) = delete;

  /// Bytes held by one call until it is destroyed (moved from: nothing). Not thread-safe itself; the
  /// budget it draws on is.
  class Reservation {
   public:
    Reservation() = default;
    Reservation(Reservation&& other) noexcept;
    Reservation& operator=(Reservation&& other) noexcept;
    ~Reservation();
    /// Reserves `total` bytes in all, if that fits; false (and nothing changes) when it does not.
    bool grow_to(std::size_t total);
    std::size_t bytes() const { return bytes_; }
    /// Gives the bytes back now.
    void release();

   private:
    friend class MemoryBudget;
    Reservation(MemoryBudget* budget, std::size_t bytes) : budget_(budget), bytes_(bytes) {}
    MemoryBudget* budget_ = nullptr;
    std::size_t bytes_ = 0;
  };

  /// `bytes` reserved, or nullopt when they do not fit beside what is in use. Thread-safe.
  std::optional<Reservation> try_reserve(std::size_t bytes);

  std::size_t capacity() const { return capacity_; }
  /// Bytes reserved now.
  std::size_t in_use() const { return in_use_.load(std::memory_order_relaxed); }
  /// How many times the resident memory was handed back to the system (see release).
  std::size_t trims() const { return trims_.load(std::memory_order_relaxed); }

  /// The refusal a call gets when `needed` bytes do not fit: "Not enough memory for this call now: its
  /// arguments need N bytes, M of the budget of C bytes are in use by other calls. Retry later."
  std::string refusal(std::size_t needed) const;

  /// The budget every dispatch shares unless DispatchOptions says otherwise: limits::kCallMemoryBytes.
  static const std::shared_ptr<MemoryBudget>& process();

  /// Once this many bytes were reserved at one time, the allocator is asked to return freed memory
  /// to the system (malloc_trim) when the last reservation ends, and once more when the next call
  /// starts (for what the callers freed after their calls ended: outcomes, sessions): glibc keeps what
  /// large calls freed in its arenas otherwise, and the resident set would stay near the burst's peak.
  static constexpr std::size_t kTrimAfterBytes = std::size_t{64} << 20;
  /// The first reservation this large fixes glibc's mmap threshold at 1 MiB and its trim threshold at
  /// 8 MiB for the process (mallopt), which glibc would otherwise raise as large blocks are freed,
  /// keeping up to 64 MiB of freed memory in each thread's arena where no trim reaches it.
  static constexpr std::size_t kLargeCallBytes = std::size_t{8} << 20;

 private:
  void give_back(std::size_t bytes);
  void trim();

  const std::size_t capacity_;
  std::atomic<std::size_t> in_use_{0};
  std::atomic<std::size_t> high_water_{0};  // the most reserved at once since the last trim
  std::atomic<std::size_t> trims_{0};
  std::atomic<bool> trim_pending_{false};  // once more at the next call, for what callers freed since
};

}  // namespace ptc
