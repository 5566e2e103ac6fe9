// ptc::Cancellation: raised once, seen by every thread, waited on without sleeping past it.
#include <chrono>
#include <thread>

#include <gtest/gtest.h>

#include <ptc/cancellation.hpp>

namespace {

using namespace std::chrono_literals;

TEST(Cancellation, StartsUnraised) {
  ptc::Cancellation c;
  EXPECT_FALSE(c.cancelled());
  EXPECT_EQ(c.reason(), "");
  EXPECT_FALSE(c.deadline().has_value());
}

TEST(Cancellation, KeepsTheFirstReason) {
  ptc::Cancellation c;
  c.cancel("client cancelled");
  c.cancel("shutdown");
  EXPECT_TRUE(c.cancelled());
  EXPECT_EQ(c.reason(), "client cancelled");
}

TEST(Cancellation, WaitForReturnsAsSoonAsAnotherThreadCancels) {
  ptc::Cancellation c;
  const auto start = std::chrono::steady_clock::now();
  std::thread other([&] {
    std::this_thread::sleep_for(20ms);
    c.cancel();
  });
  EXPECT_TRUE(c.wait_for(10s));
  other.join();
  // Far below the 10 s it was allowed: it woke on the signal, not on the timeout.
  EXPECT_LT(std::chrono::steady_clock::now() - start, 5s);
}

TEST(Cancellation, WaitForTimesOutUncancelled) {
  ptc::Cancellation c;
  EXPECT_FALSE(c.wait_for(1ms));
  EXPECT_FALSE(c.cancelled());
}

TEST(Cancellation, APassedDeadlineCancelsWithTimedOut) {
  ptc::Cancellation c(std::chrono::steady_clock::now() - 1ms);
  EXPECT_TRUE(c.cancelled());
  EXPECT_EQ(c.reason(), "timed out");
  EXPECT_TRUE(c.wait_for(10s));
}

TEST(Cancellation, WaitForStopsAtTheDeadline) {
  ptc::Cancellation c(std::chrono::steady_clock::now() + 30ms);
  EXPECT_FALSE(c.cancelled());
  const auto start = std::chrono::steady_clock::now();
  EXPECT_TRUE(c.wait_for(10s));
  EXPECT_LT(std::chrono::steady_clock::now() - start, 5s);
  EXPECT_EQ(c.reason(), "timed out");
}

TEST(Cancellation, AnExplicitCancelBeforeTheDeadlineKeepsItsReason) {
  ptc::Cancellation c(std::chrono::steady_clock::now() + 1h);
  c.cancel("shutdown");
  EXPECT_EQ(c.reason(), "shutdown");
}

}  // namespace
