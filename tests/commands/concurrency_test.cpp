// The dispatcher under load: at most max_concurrent commands at once, a FIFO queue, hook signals
// around failures from many threads, one delivery order for everyone. Synchronised with condition
// variables only (no sleeps); scripts/test.sh runs this under ThreadSanitizer.

#include <condition_variable>
#include <map>
#include <mutex>
#include <thread>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <ptc/command_dispatcher.hpp>

#include "command_test_support.hpp"

namespace {

using nlohmann::json;
using ptc::Signal;
using ::testing::ElementsAre;
using ::testing::ElementsAreArray;

// Executors wait here until the test opens the gate; the gate counts who is inside.
class Gate {
 public:
  ptc::Result<json> pass(const std::string& who) {
    std::unique_lock lock(mutex_);
    order_.push_back(who);
    peak_ = std::max(peak_, ++inside_);
    changed_.notify_all();
    changed_.wait(lock, [&] { return open_; });
    --inside_;
    return json{{"who", who}};
  }
  void wait_inside(int n) {
    std::unique_lock lock(mutex_);
    changed_.wait(lock, [&] { return inside_ == n; });
  }
  void open() {
    std::lock_guard lock(mutex_);
    open_ = true;
    changed_.notify_all();
  }
  std::vector<std::string> order() {
    std::lock_guard lock(mutex_);
    return order_;
  }
  int peak() {
    std::lock_guard lock(mutex_);
    return peak_;
  }

 private:
  std::mutex mutex_;
  std::condition_variable changed_;
  bool open_ = false;
  int inside_ = 0;
  int peak_ = 0;
  std::vector<std::string> order_;
};

class Concurrency : public ::testing::Test {
 protected:
  void start(std::size_t max_concurrent) {
    dir.write("project/commands/wait.md",
              ptc::test::command_text("name: wait\ndescription: Waits at the gate\njido:\n  command_module: Wait\n"
                                      "  schema: {who: {type: string, required: true}}\n"));
    dir.write(
        "project/commands/flaky.md",
        ptc::test::command_text("name: flaky\ndescription: Fails on odd numbers\njido:\n  command_module: Flaky\n"
                                "  hooks: {pre: true, after: true}\n  schema: {n: {type: integer, required: true}}\n"));
    registry = ptc::CommandRegistry::open({dir / "global", dir / "project", std::nullopt, &bus}).value();
    executors.add("Wait", [this](const ptc::CommandInvocation& i) { return gate.pass(i.params["who"]); });
    executors.add("Flaky", [](const ptc::CommandInvocation& i) -> ptc::Result<json> {
      int n = i.params["n"];
      if (n % 4 == 1) return ptc::Error{"odd " + std::to_string(n)};
      if (n % 4 == 3) throw std::runtime_error("thrown " + std::to_string(n));
      return json{{"n", n}};
    });
    dispatcher = std::make_unique<ptc::CommandDispatcher>(bus, *registry, executors,
                                                          ptc::CommandDispatcherOptions{{}, max_concurrent});
  }
  void dispatch(const std::string& name, json params, const std::string& id) {
    bus.publish(Signal::make("command.invoke", "/test",
                             {{"name", name}, {"params", std::move(params)}, {"invocation_id", id}}));
  }

  ptc::test::TempDir dir;
  ptc::SignalBus bus;
  ptc::test::SignalLog log{bus};
  Gate gate;
  std::unique_ptr<ptc::CommandRegistry> registry;
  ptc::CommandExecutors executors;
  std::unique_ptr<ptc::CommandDispatcher> dispatcher;
};

TEST_F(Concurrency, AtMostMaxConcurrentCommandsRunAtOnce) {
  start(2);
  for (int i = 0; i < 6; ++i) dispatch("wait", {{"who", "w" + std::to_string(i)}}, "inv-" + std::to_string(i));
  gate.wait_inside(2);
  EXPECT_EQ(dispatcher->running(), 2u);
  EXPECT_EQ(dispatcher->queued(), 4u);
  gate.open();
  dispatcher->wait_idle();
  EXPECT_EQ(gate.peak(), 2);
  EXPECT_EQ(log.of("command.completed").size(), 6u);
  EXPECT_EQ(dispatcher->running(), 0u);
  EXPECT_EQ(dispatcher->queued(), 0u);
}

TEST_F(Concurrency, QueuedCommandsRunInTheOrderTheyWereDispatched) {
  start(1);
  std::vector<std::string> names;
  for (int i = 0; i < 8; ++i) names.push_back("w" + std::to_string(i));
  dispatch("wait", {{"who", names[0]}}, names[0]);
  gate.wait_inside(1);
  for (std::size_t i = 1; i < names.size(); ++i) dispatch("wait", {{"who", names[i]}}, names[i]);
  EXPECT_EQ(dispatcher->queued(), 7u);
  gate.open();
  dispatcher->wait_idle();
  EXPECT_THAT(gate.order(), ElementsAreArray(names));
  std::vector<std::string> completed;
  for (const auto& s : log.of("command.completed")) completed.push_back(s.data["invocation_id"]);
  EXPECT_THAT(completed, ElementsAreArray(names));
}

TEST_F(Concurrency, EveryInvocationGetsItsHooksAroundSuccessAndFailure) {
  start(4);
  constexpr int kThreads = 4, kEach = 10;
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([this, t] {
      for (int k = 0; k < kEach; ++k) {
        int n = t * kEach + k;
        dispatch("flaky", {{"n", n}}, "inv-" + std::to_string(n));
      }
    });
  for (auto& t : threads) t.join();
  dispatcher->wait_idle();

  std::map<std::string, std::vector<std::string>> by_id;  // invocation id -> what happened, in order
  for (const auto& s : log.all()) {
    if (s.type == "command.invoke") continue;
    std::string what = s.type;
    if (s.type == "jido.hooks.after") what += ":" + s.data["status"].get<std::string>();
    by_id[s.data["invocation_id"]].push_back(what);
  }
  ASSERT_EQ(by_id.size(), static_cast<std::size_t>(kThreads * kEach));
  for (int n = 0; n < kThreads * kEach; ++n) {
    const auto& seen = by_id["inv-" + std::to_string(n)];
    if (n % 2 == 0)
      EXPECT_THAT(seen, ElementsAre("jido.hooks.pre", "jido.hooks.after:ok", "command.completed")) << n;
    else
      EXPECT_THAT(seen, ElementsAre("jido.hooks.pre", "jido.hooks.after:error", "command.failed")) << n;
  }
  for (const auto& s : log.of("command.failed")) {
    int n = std::stoi(s.data["invocation_id"].get<std::string>().substr(4));
    EXPECT_EQ(s.data["error"],
              n % 4 == 1 ? "odd " + std::to_string(n) : "executor 'Flaky' threw: thrown " + std::to_string(n));
  }
}

TEST_F(Concurrency, EverySubscriberSeesTheSameOrder) {
  start(3);
  ptc::test::SignalLog second(bus);
  std::vector<std::thread> threads;
  for (int t = 0; t < 3; ++t)
    threads.emplace_back([this, t] {
      for (int k = 0; k < 10; ++k) dispatch("flaky", {{"n", t * 10 + k}}, "inv-" + std::to_string(t * 10 + k));
    });
  for (auto& t : threads) t.join();
  dispatcher->wait_idle();
  auto ids = [](const std::vector<Signal>& signals) {
    std::vector<std::string> out;
    for (const auto& s : signals) out.push_back(s.id);
    return out;
  };
  EXPECT_EQ(log.all().size(), 30u * 4);
  EXPECT_EQ(ids(log.all()), ids(second.all()));
}

TEST_F(Concurrency, TheRegistryChangesWhileCommandsRun) {
  start(2);
  auto extra = dir.write("elsewhere/extra.md", ptc::test::command_text("name: extra\ndescription: Extra\n"));
  std::thread changer([&] {
    for (int i = 0; i < 20; ++i) {
      ASSERT_TRUE(registry->reload());
      ASSERT_TRUE(registry->register_command(extra.string()));
      ASSERT_TRUE(registry->unregister_command("extra"));
    }
  });
  for (int n = 0; n < 20; ++n) dispatch("flaky", {{"n", 2 * n}}, "inv-" + std::to_string(n));
  changer.join();
  dispatcher->wait_idle();
  EXPECT_EQ(log.of("command.completed").size(), 20u);
  EXPECT_EQ(log.of("command.registry.reloaded").size(), 20u);
}

TEST_F(Concurrency, DestroyingTheDispatcherRunsTheQueueFirst) {
  start(1);
  for (int i = 0; i < 4; ++i) dispatch("wait", {{"who", "w" + std::to_string(i)}}, "inv-" + std::to_string(i));
  gate.wait_inside(1);
  gate.open();
  dispatcher.reset();
  EXPECT_EQ(log.of("command.completed").size(), 4u);
}

}  // namespace
