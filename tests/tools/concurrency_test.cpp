// Many threads calling tools at once. scripts/test.sh runs this file under ThreadSanitizer too, which
// is what catches a data race here; the assertions catch lost updates and broken serialization.
#include <atomic>
#include <thread>

#include <gtest/gtest.h>

#include <ptc/error.hpp>
#include <ptc/events.hpp>
#include <ptc/filesystem.hpp>
#include <ptc/policy.hpp>
#include <ptc/registry.hpp>
#include <ptc/session.hpp>
#include <ptc/tool.hpp>
#include <ptc/tool_call.hpp>
#include <ptc/tool_context.hpp>
#include <ptc/tool_result.hpp>

namespace {

using nlohmann::json;
using ptc::ToolResult;

constexpr int kThreads = 8;
constexpr int kSessions = 3;
constexpr int kCallsPerThread = 200;

/// Plain ints on purpose: dispatch serializes calls per session, so no atomics are needed.
struct Tally {
  int calls = 0;
  int inside = 0;      // handlers of this session running right now
  int overlapped = 0;  // times a handler found another one of its session running
};

ptc::Tool bump_tool() {
  return ptc::make_tool("bump", "Count a call.", "(by :int) -> :int", [](const json& args, ptc::ToolContext& c) {
    auto& tally = c.session().state<Tally>();
    if (++tally.inside != 1) ++tally.overlapped;
    for (int i = 0; i < 50; ++i) std::this_thread::yield();  // widen the window for an overlap
    tally.calls += args["by"].get<int>();
    --tally.inside;
    return ToolResult<json>::ok(tally.calls);
  });
}

template <class F>
void run_threads(int n, F body) {
  std::vector<std::thread> threads;
  for (int t = 0; t < n; ++t) threads.emplace_back(body, t);
  for (auto& th : threads) th.join();
}

TEST(Concurrency, CallsInOneSessionAreSerializedAndNoneIsLost) {
  ptc::ToolRegistry registry;
  registry.add(bump_tool());
  std::vector<std::unique_ptr<ptc::Session>> sessions;
  for (int s = 0; s < kSessions; ++s) sessions.push_back(std::make_unique<ptc::Session>());
  std::atomic<int> failures{0};

  run_threads(kThreads, [&](int t) {
    for (int i = 0; i < kCallsPerThread; ++i) {
      auto& session = *sessions[static_cast<std::size_t>((t + i) % kSessions)];
      auto out = registry.dispatch(session, ptc::ToolCall{"", "bump", json{{"by", "1"}}});
      if (!out.success()) ++failures;
    }
  });

  EXPECT_EQ(failures.load(), 0);
  int total = 0;
  for (auto& s : sessions) {
    const auto& tally = s->state<Tally>();
    EXPECT_EQ(tally.overlapped, 0);
    EXPECT_EQ(tally.inside, 0);
    total += tally.calls;
    EXPECT_EQ(static_cast<int>(s->log<ptc::ToolInvoked>().size()), tally.calls);
  }
  EXPECT_EQ(total, kThreads * kCallsPerThread);
}

TEST(Concurrency, ToolsCanBeAddedWhileCallsAreDispatched) {
  ptc::ToolRegistry registry;
  registry.add(bump_tool());
  std::atomic<bool> adding{true};
  std::atomic<int> failures{0};
  std::thread adder([&] {
    for (int i = 0; i < 200; ++i)
      registry.add(ptc::make_tool("tool_" + std::to_string(i), "Added later.", "() -> :int",
                                  [i](const json&, ptc::ToolContext&) { return ToolResult<json>::ok(i); }));
    adding = false;
  });
  run_threads(4, [&](int) {
    ptc::Session session;
    int i = 0;
    while (adding || i < 50) {
      const std::string name = "tool_" + std::to_string(i % 200);
      auto out = registry.dispatch(session, ptc::ToolCall{"", name, json::object()});
      // A tool not added yet is an unknown tool, never a crash or a wrong answer.
      if (out.status == ptc::CallStatus::Succeeded ? out.result.value != json(i % 200)
                                                   : out.status != ptc::CallStatus::UnknownTool)
        ++failures;
      (void)registry.tools();
      ++i;
    }
  });
  adder.join();
  EXPECT_EQ(failures.load(), 0);
  EXPECT_EQ(registry.size(), 201u);
}

TEST(Concurrency, PoliciesAndFilesystemsAreSharedSafely) {
  ptc::ToolRegistry registry;
  registry.add_policy(std::make_shared<ptc::ReadBeforeWritePolicy>());
  registry.add(ptc::make_tool("read_file", "Read.", "(path :string) -> :string",
                              [](const json& a, ptc::ToolContext& c) {
                                return ToolResult<json>::ok(c.filesystem().read(a["path"].get<std::string>()));
                              }));
  registry.add(ptc::make_tool("write_file", "Write.", "(path :string, content :string) -> :nil",
                              [](const json& a, ptc::ToolContext& c) {
                                c.filesystem().write(a["path"].get<std::string>(), a["content"].get<std::string>());
                                return ToolResult<json>::ok(nullptr);
                              }));
  // One filesystem per session: a restore rolls back the whole filesystem, so sessions that run at the
  // same time must not share one (docs/tools.md, "Sessions and resources").
  std::vector<std::shared_ptr<ptc::InMemoryFilesystem>> filesystems;
  for (int t = 0; t < kThreads; ++t) filesystems.push_back(std::make_shared<ptc::InMemoryFilesystem>());
  std::atomic<int> wrong{0};
  run_threads(kThreads, [&](int t) {
    ptc::Session session;
    session.resources().add<ptc::Filesystem>(filesystems[static_cast<std::size_t>(t)]);
    const std::string path = "t" + std::to_string(t) + ".txt";
    auto call = [&](const char* tool, json args) {
      return registry.dispatch(session, ptc::ToolCall{"", tool, std::move(args)}).status;
    };
    for (int i = 0; i < 50; ++i) {
      // First write creates the file; the second must be denied until the thread reads it.
      if (call("write_file", json{{"path", path}, {"content", std::to_string(i)}}) != ptc::CallStatus::Succeeded)
        ++wrong;
      if (i == 0 && call("write_file", json{{"path", path}, {"content", "x"}}) != ptc::CallStatus::Denied) ++wrong;
      if (i == 0 && call("read_file", json{{"path", path}}) != ptc::CallStatus::Succeeded) ++wrong;
    }
  });
  EXPECT_EQ(wrong.load(), 0);
  for (int t = 0; t < kThreads; ++t) {
    const auto& fs = *filesystems[static_cast<std::size_t>(t)];
    EXPECT_EQ(fs.list(), std::vector<std::string>{"t" + std::to_string(t) + ".txt"});
    EXPECT_EQ(fs.read("t" + std::to_string(t) + ".txt"), "49");
  }
}

TEST(Concurrency, EventsCanBePublishedAndSubscribedFromManyThreads) {
  ptc::EventBus bus;
  std::atomic<int> received{0};
  run_threads(kThreads, [&](int t) {
    auto id = bus.subscribe<int>([&](const int&) { ++received; });
    for (int i = 0; i < 100; ++i) bus.publish(t * 1000 + i);
    bus.unsubscribe(id);
  });
  // Each thread's own subscriber saw at least its own 100 events.
  EXPECT_GE(received.load(), kThreads * 100);
}

TEST(Concurrency, SessionStateAndLogsAreSafeToReadWhileCallsRun) {
  ptc::ToolRegistry registry;
  registry.add(bump_tool());
  ptc::Session session;
  std::atomic<bool> done{false};
  std::thread reader([&] {
    std::size_t last = 0;
    while (!done) {
      const auto log = session.log<ptc::ToolInvoked>();
      EXPECT_GE(log.size(), last);
      last = log.size();
      (void)session.find_state<Tally>();
      // Throttle: std::mutex is not fair, and a reader spinning on it would starve the callers.
      std::this_thread::sleep_for(std::chrono::microseconds(200));
    }
  });
  run_threads(4, [&](int) {
    for (int i = 0; i < 100; ++i) registry.dispatch(session, ptc::ToolCall{"", "bump", json{{"by", 1}}});
  });
  done = true;
  reader.join();
  EXPECT_EQ(session.log<ptc::ToolInvoked>().size(), 400u);
}

}  // namespace
