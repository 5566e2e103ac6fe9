// Clocks (ptc::SystemClock, ptc::ManualClock) and ptc::Deadline.
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

#include <ptc/deadline.hpp>

#include "session_fixtures.hpp"

namespace {

using namespace std::chrono_literals;
using namespace ptc_test;

// ---- clocks and deadlines ------------------------------------------------------------------------

TEST(ManualClock, StartsWhereToldAndMovesOnlyWhenTold) {
  ptc::ManualClock epoch;
  EXPECT_EQ(epoch.now(), ptc::TimePoint{});
  ptc::ManualClock clock(kStart);
  EXPECT_EQ(clock.now(), kStart);
  EXPECT_EQ(clock.now(), kStart);
  clock.advance(5s);
  EXPECT_EQ(clock.now(), kStart + 5s);
  clock.advance(250ms);
  EXPECT_EQ(clock.now(), kStart + 5250ms);
  clock.advance(1ns);
  EXPECT_EQ(clock.now() - kStart, std::chrono::nanoseconds(5'250'000'001));
  clock.set(kStart - 10s);
  EXPECT_EQ(clock.now(), kStart - 10s);
}

TEST(Clock, SystemIsOneSharedInstanceThatMoves) {
  auto a = ptc::Clock::system();
  auto b = ptc::Clock::system();
  EXPECT_EQ(a.get(), b.get());
  const auto before = std::chrono::system_clock::now();
  const auto now = a->now();
  const auto after = std::chrono::system_clock::now();
  EXPECT_LE(before, now);
  EXPECT_LE(now, after);
}

TEST(Deadline, ExpiresExactlyAtExpiresAt) {
  auto clock = std::make_shared<ptc::ManualClock>(kStart);
  ptc::Deadline deadline(kStart + 10s, clock);
  EXPECT_EQ(deadline.expires_at(), kStart + 10s);
  EXPECT_EQ(&deadline.clock(), clock.get());
  EXPECT_FALSE(deadline.expired());
  EXPECT_EQ(deadline.remaining(), 10s);

  clock->advance(10s - 1ns);
  EXPECT_FALSE(deadline.expired());
  EXPECT_EQ(deadline.remaining(), 1ns);

  clock->advance(1ns);
  EXPECT_TRUE(deadline.expired());
  EXPECT_EQ(deadline.remaining(), std::chrono::nanoseconds::zero());

  clock->advance(1h);
  EXPECT_TRUE(deadline.expired());
  EXPECT_EQ(deadline.remaining(), std::chrono::nanoseconds::zero());

  // Time going back un-expires it: the clock is the only judge.
  clock->set(kStart + 4s);
  EXPECT_FALSE(deadline.expired());
  EXPECT_EQ(deadline.remaining(), 6s);
}

TEST(Deadline, AfterIsNowPlusTheBudget) {
  auto clock = std::make_shared<ptc::ManualClock>(kStart);
  auto deadline = ptc::Deadline::after(30s, clock);
  EXPECT_EQ(deadline.expires_at(), kStart + 30s);
  EXPECT_EQ(deadline.remaining(), 30s);
  clock->advance(29s);
  EXPECT_FALSE(deadline.expired());
  EXPECT_EQ(deadline.remaining(), 1s);
  clock->advance(1s);
  EXPECT_TRUE(deadline.expired());
}

TEST(Deadline, AfterAZeroBudgetIsAlreadyExpired) {
  auto clock = std::make_shared<ptc::ManualClock>(kStart);
  auto deadline = ptc::Deadline::after(0s, clock);
  EXPECT_TRUE(deadline.expired());
  EXPECT_EQ(deadline.remaining(), std::chrono::nanoseconds::zero());
}

TEST(Deadline, OnTheSystemClock) {
  auto past = ptc::Deadline(std::chrono::system_clock::now() - 1s);
  EXPECT_TRUE(past.expired());
  auto future = ptc::Deadline::after(1h);
  EXPECT_FALSE(future.expired());
  EXPECT_GT(future.remaining(), 59min);
  EXPECT_LE(future.remaining(), 1h);
}

}  // namespace
