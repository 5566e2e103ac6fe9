#include <ptc/budget.hpp>

namespace ptc {

namespace {
std::optional<std::string> over(const char* what, std::int64_t used, const std::optional<std::int64_t>& limit) {
  if (!limit || used <= *limit) return std::nullopt;
  return std::string(what) + " tokens " + std::to_string(used) + " exceed the budget of " + std::to_string(*limit);
}
}  // namespace

std::optional<std::string> BudgetTracker::exceeded() const {
  const TokenUsage used = consumed();
  if (auto r = over("total", used.total(), budget_.max_total_tokens)) return r;
  if (auto r = over("input", used.input_tokens, budget_.max_input_tokens)) return r;
  return over("output", used.output_tokens, budget_.max_output_tokens);
}

}  // namespace ptc
