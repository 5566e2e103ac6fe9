#pragma once
// Token budgets for an evaluation, shared by the adapter that records usage and the tools that check it.

#include <cstdint>
#include <mutex>
#include <optional>
#include <string>

namespace ptc {

struct TokenUsage {
  std::int64_t input_tokens = 0;
  std::int64_t output_tokens = 0;
  std::int64_t total() const { return input_tokens + output_tokens; }
  friend bool operator==(const TokenUsage&, const TokenUsage&) = default;
};

/// Limits; an unset limit is unlimited.
struct Budget {
  std::optional<std::int64_t> max_input_tokens;
  std::optional<std::int64_t> max_output_tokens;
  std::optional<std::int64_t> max_total_tokens;
};

/// Thread-safe.
class BudgetTracker {
 public:
  explicit BudgetTracker(Budget budget = {}) : budget_(budget) {}

  const Budget& budget() const { return budget_; }
  void record(TokenUsage usage) {
    std::lock_guard lock(mutex_);
    consumed_.input_tokens += usage.input_tokens;
    consumed_.output_tokens += usage.output_tokens;
  }
  TokenUsage consumed() const {
    std::lock_guard lock(mutex_);
    return consumed_;
  }
  /// Which limit is used up ("total tokens 1200 exceed the budget of 1000"), or nullopt while within budget.
  std::optional<std::string> exceeded() const;

 private:
  Budget budget_;
  mutable std::mutex mutex_;
  TokenUsage consumed_;
};

}  // namespace ptc
