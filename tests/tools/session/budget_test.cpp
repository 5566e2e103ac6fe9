// ptc::BudgetTracker.
#include <any>
#include <atomic>
#include <chrono>
#include <functional>
#include <future>
#include <memory>
#include <regex>
#include <set>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <ptc/budget.hpp>

#include "session_fixtures.hpp"

namespace {

using namespace std::chrono_literals;
using namespace ptc_test;

// ---- budget --------------------------------------------------------------------------------------

TEST(BudgetTracker, RecordsAndSumsUsage) {
  ptc::BudgetTracker tracker;
  EXPECT_EQ(tracker.consumed(), (ptc::TokenUsage{0, 0}));
  tracker.record({100, 20});
  tracker.record({5, 7});
  const auto used = tracker.consumed();
  EXPECT_EQ(used.input_tokens, 105);
  EXPECT_EQ(used.output_tokens, 27);
  EXPECT_EQ(used.total(), 132);
  EXPECT_EQ(used, (ptc::TokenUsage{105, 27}));
}

TEST(BudgetTracker, UnlimitedIsNeverExceeded) {
  ptc::BudgetTracker tracker;
  tracker.record({1'000'000, 1'000'000});
  EXPECT_EQ(tracker.exceeded(), std::nullopt);
  EXPECT_FALSE(tracker.budget().max_total_tokens.has_value());
}

TEST(BudgetTracker, ExactlyAtTheLimitIsWithinBudget) {
  ptc::BudgetTracker tracker(ptc::Budget{100, 50, 150});
  tracker.record({100, 50});
  EXPECT_EQ(tracker.exceeded(), std::nullopt);
  EXPECT_EQ(tracker.budget().max_input_tokens, 100);
  EXPECT_EQ(tracker.budget().max_output_tokens, 50);
  EXPECT_EQ(tracker.budget().max_total_tokens, 150);
}

TEST(BudgetTracker, ExceededMessages) {
  {
    ptc::BudgetTracker tracker(ptc::Budget{std::nullopt, std::nullopt, 1000});
    tracker.record({700, 500});
    EXPECT_EQ(tracker.exceeded(), "total tokens 1200 exceed the budget of 1000");
  }
  {
    ptc::BudgetTracker tracker(ptc::Budget{10, std::nullopt, std::nullopt});
    tracker.record({11, 0});
    EXPECT_EQ(tracker.exceeded(), "input tokens 11 exceed the budget of 10");
  }
  {
    ptc::BudgetTracker tracker(ptc::Budget{std::nullopt, 10, std::nullopt});
    tracker.record({0, 12});
    EXPECT_EQ(tracker.exceeded(), "output tokens 12 exceed the budget of 10");
  }
}

TEST(BudgetTracker, TotalIsCheckedFirstThenInputThenOutput) {
  ptc::BudgetTracker all(ptc::Budget{10, 10, 10});
  all.record({20, 30});
  EXPECT_EQ(all.exceeded(), "total tokens 50 exceed the budget of 10");

  ptc::BudgetTracker input_and_output(ptc::Budget{10, 10, 100});
  input_and_output.record({20, 30});
  EXPECT_EQ(input_and_output.exceeded(), "input tokens 20 exceed the budget of 10");
}

TEST(BudgetTracker, RecordsFromSeveralThreads) {
  ptc::BudgetTracker tracker;
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([&tracker] {
      for (int i = 0; i < 100; ++i) tracker.record({1, 2});
    });
  for (auto& t : threads) t.join();
  EXPECT_EQ(tracker.consumed(), (ptc::TokenUsage{400, 800}));
}

}  // namespace
