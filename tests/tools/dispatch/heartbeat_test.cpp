// ptc::Heartbeat.
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
#include <ptc/heartbeat.hpp>

#include "session_fixtures.hpp"

namespace {

using namespace std::chrono_literals;
using namespace ptc_test;

// ---- heartbeat -----------------------------------------------------------------------------------

TEST(Heartbeat, CountsBeatsAndCallsItsCallback) {
  int calls = 0;
  ptc::Heartbeat heartbeat([&calls] { ++calls; });
  EXPECT_EQ(heartbeat.beats(), 0u);
  heartbeat.beat();
  heartbeat.beat();
  heartbeat.beat();
  EXPECT_EQ(heartbeat.beats(), 3u);
  EXPECT_EQ(calls, 3);
}

TEST(Heartbeat, WorksWithoutACallback) {
  ptc::Heartbeat heartbeat;
  heartbeat.beat();
  EXPECT_EQ(heartbeat.beats(), 1u);
}

TEST(Heartbeat, CountsBeatsFromSeveralThreads) {
  std::atomic<int> calls{0};
  ptc::Heartbeat heartbeat([&calls] { calls.fetch_add(1); });
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([&heartbeat] {
      for (int i = 0; i < 250; ++i) heartbeat.beat();
    });
  for (auto& t : threads) t.join();
  EXPECT_EQ(heartbeat.beats(), 1000u);
  EXPECT_EQ(calls.load(), 1000);
}

}  // namespace
