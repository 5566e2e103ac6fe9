// The pool that runs MCP calls: a fixed number of threads, a bounded queue that refuses what does not
// fit, waiting for idleness, and a destructor that finishes what was queued.
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <set>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "worker_pool.hpp"

namespace {

using namespace std::chrono_literals;
using ptc::mcp::WorkerPool;

// Holds jobs inside their call until opened, so a test can fill the threads and the queue at will.
class Gate {
 public:
  void wait() {
    std::unique_lock lock(mutex_);
    ++waiting_;
    changed_.notify_all();
    changed_.wait(lock, [this] { return open_; });
  }
  void open() {
    std::lock_guard lock(mutex_);
    open_ = true;
    changed_.notify_all();
  }
  // Waits until `n` jobs are inside wait().
  bool await_waiting(int n) {
    std::unique_lock lock(mutex_);
    return changed_.wait_for(lock, 10s, [&] { return waiting_ >= n; });
  }

 private:
  std::mutex mutex_;
  std::condition_variable changed_;
  int waiting_ = 0;
  bool open_ = false;
};

TEST(WorkerPool, RunsEveryJobSubmitted) {
  std::atomic<int> ran{0};
  {
    WorkerPool pool(4, 1000);
    for (int i = 0; i < 500; ++i) ASSERT_TRUE(pool.submit([&] { ++ran; }));
    pool.wait_idle();
    EXPECT_EQ(ran.load(), 500);
  }
  EXPECT_EQ(ran.load(), 500);
}

TEST(WorkerPool, JobsRunOnThePoolsThreadsNoMoreAtOnceThanThereAreThreads) {
  std::mutex mutex;
  std::set<std::thread::id> threads;
  std::atomic<int> running{0}, most{0};
  WorkerPool pool(3, 1000);
  for (int i = 0; i < 300; ++i)
    ASSERT_TRUE(pool.submit([&] {
      const int now = ++running;
      for (int seen = most.load(); now > seen && !most.compare_exchange_weak(seen, now);) {
      }
      {
        std::lock_guard lock(mutex);
        threads.insert(std::this_thread::get_id());
      }
      std::this_thread::sleep_for(50us);
      --running;
    }));
  pool.wait_idle();
  EXPECT_LE(most.load(), 3);
  EXPECT_LE(threads.size(), 3u);
  EXPECT_EQ(threads.count(std::this_thread::get_id()), 0u);
}

TEST(WorkerPool, ZeroThreadsMeansOne) {
  std::atomic<bool> ran{false};
  WorkerPool pool(0, 1);
  ASSERT_TRUE(pool.submit([&] { ran = true; }));
  EXPECT_TRUE(pool.wait_idle_for(10s));
  EXPECT_TRUE(ran);
}

TEST(WorkerPool, AFullQueueRefusesAndDoesNotRunTheJob) {
  Gate gate;
  std::atomic<int> ran{0};
  WorkerPool pool(1, 2);
  ASSERT_TRUE(pool.submit([&] {
    gate.wait();
    ++ran;
  }));
  ASSERT_TRUE(gate.await_waiting(1));  // the thread is busy; the queue is empty
  EXPECT_TRUE(pool.submit([&] { ++ran; }));
  EXPECT_TRUE(pool.submit([&] { ++ran; }));
  bool refused_ran = false;
  EXPECT_FALSE(pool.submit([&] { refused_ran = true; }));
  EXPECT_FALSE(pool.wait_idle_for(20ms));
  gate.open();
  pool.wait_idle();
  EXPECT_EQ(ran.load(), 3);
  EXPECT_FALSE(refused_ran);
  // Room again once the queue drained.
  EXPECT_TRUE(pool.submit([&] { ++ran; }));
  pool.wait_idle();
  EXPECT_EQ(ran.load(), 4);
}

TEST(WorkerPool, ARunningJobDoesNotTakeAPlaceInTheQueue) {
  Gate gate;
  WorkerPool pool(2, 1);
  ASSERT_TRUE(pool.submit([&] { gate.wait(); }));
  ASSERT_TRUE(gate.await_waiting(1));  // taken off the queue, which has room for one again
  ASSERT_TRUE(pool.submit([&] { gate.wait(); }));
  ASSERT_TRUE(gate.await_waiting(2));
  EXPECT_TRUE(pool.submit([] {}));
  EXPECT_FALSE(pool.submit([] {}));
  gate.open();
  EXPECT_TRUE(pool.wait_idle_for(10s));
}

TEST(WorkerPool, AQueueOfZeroRefusesEverything) {
  WorkerPool pool(2, 0);
  bool ran = false;
  EXPECT_FALSE(pool.submit([&] { ran = true; }));
  EXPECT_TRUE(pool.wait_idle_for(0ms));
  EXPECT_FALSE(ran);
}

TEST(WorkerPool, WaitingForIdleCoversQueuedAndRunningJobs) {
  Gate gate;
  std::atomic<int> ran{0};
  WorkerPool pool(1, 10);
  EXPECT_TRUE(pool.wait_idle_for(0ms));  // nothing submitted yet
  ASSERT_TRUE(pool.submit([&] {
    gate.wait();
    ++ran;
  }));
  ASSERT_TRUE(pool.submit([&] { ++ran; }));
  EXPECT_FALSE(pool.wait_idle_for(30ms));
  ASSERT_TRUE(gate.await_waiting(1));
  EXPECT_FALSE(pool.wait_idle_for(0ms));  // one running, one queued
  std::thread opener([&] {
    std::this_thread::sleep_for(20ms);
    gate.open();
  });
  pool.wait_idle();
  EXPECT_EQ(ran.load(), 2);
  opener.join();
}

TEST(WorkerPool, TheDestructorRunsWhatIsQueuedThenJoins) {
  Gate gate;
  std::atomic<int> ran{0};
  std::thread opener;
  {
    WorkerPool pool(1, 100);
    ASSERT_TRUE(pool.submit([&] {
      gate.wait();
      ++ran;
    }));
    for (int i = 0; i < 50; ++i) ASSERT_TRUE(pool.submit([&] { ++ran; }));
    ASSERT_TRUE(gate.await_waiting(1));
    opener = std::thread([&] {
      std::this_thread::sleep_for(20ms);
      gate.open();
    });
  }
  EXPECT_EQ(ran.load(), 51);
  opener.join();
}

TEST(WorkerPool, AJobIsReleasedBeforeThePoolCountsItDone) {
  // What a job captures (a session, a reply channel) is gone when wait_idle returns.
  auto held = std::make_shared<int>(7);
  std::weak_ptr<int> watch = held;
  WorkerPool pool(1, 10);
  ASSERT_TRUE(pool.submit([held = std::move(held)] { (void)*held; }));
  pool.wait_idle();
  EXPECT_TRUE(watch.expired());
}

TEST(WorkerPool, AJobMaySubmitAnother) {
  std::atomic<int> ran{0};
  WorkerPool pool(1, 10);
  ASSERT_TRUE(pool.submit([&] {
    ++ran;
    EXPECT_TRUE(pool.submit([&] { ++ran; }));
  }));
  // The second job is queued before the first ends, so idleness waits for both.
  pool.wait_idle();
  EXPECT_EQ(ran.load(), 2);
}

TEST(WorkerPool, ManySubmittersAtOnceLoseNothingThatWasAccepted) {
  std::atomic<int> accepted{0}, ran{0};
  {
    WorkerPool pool(2, 64);
    std::vector<std::thread> submitters;
    for (int t = 0; t < 4; ++t)
      submitters.emplace_back([&] {
        for (int i = 0; i < 2000; ++i)
          if (pool.submit([&] { ++ran; })) ++accepted;
      });
    for (auto& s : submitters) s.join();
    pool.wait_idle();
    EXPECT_EQ(ran.load(), accepted.load());
  }
  EXPECT_GT(accepted.load(), 0);
  EXPECT_EQ(ran.load(), accepted.load());
}

}  // namespace
