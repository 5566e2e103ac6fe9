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

#include "named_policy.hpp"
#include "rendezvous.hpp"

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

// Read-only tools share the session: calls of them run at once, and never beside a call that may change
// it. `peek` reads the Tally that `bump` writes without a lock, so an overlap with bump is a data race
// that ThreadSanitizer reports, and the plain `inside` count shows it too.
using ptc::test::Rendezvous;

ptc::ToolOptions read_only() {
  ptc::ToolOptions options;
  options.hints = ptc::ToolHints{.read_only = true};
  return options;
}

ptc::Tool peek_tool(Rendezvous& meeting, int want) {
  return ptc::make_tool(
      "peek", "Read the count.", "() -> :int",
      [&meeting, want](const json&, ptc::ToolContext& c) {
        const auto* tally = c.session().find_state<Tally>();
        const bool clash = tally && tally->inside != 0;
        const int together = meeting.meet(want);
        return clash ? ToolResult<json>::error("a change was running") : ToolResult<json>::ok(together);
      },
      read_only());
}

TEST(Concurrency, CallsOfReadOnlyToolsInOneSessionRunAtOnce) {
  ptc::ToolRegistry registry;
  Rendezvous meeting;
  registry.add(peek_tool(meeting, 4));
  EXPECT_TRUE(registry.runs_shared("peek"));
  ptc::Session session;
  std::atomic<int> together{0};
  run_threads(4, [&](int) {
    auto out = registry.dispatch(session, ptc::ToolCall{"", "peek", json::object()});
    if (out.success()) together = std::max(together.load(), std::stoi(out.rendered));
  });
  EXPECT_EQ(together.load(), 4);  // one at a time, each would have waited its second alone
}

TEST(Concurrency, ReadOnlyCallsNeverRunBesideAChange) {
  ptc::ToolRegistry registry;
  Rendezvous meeting;
  registry.add(bump_tool());
  registry.add(peek_tool(meeting, 1));
  ptc::Session session;
  std::atomic<int> failures{0};
  run_threads(kThreads, [&](int t) {
    for (int i = 0; i < 100; ++i) {
      const bool change = (t + i) % 3 == 0;
      auto out = registry.dispatch(session, change ? ptc::ToolCall{"", "bump", json{{"by", 1}}}
                                                   : ptc::ToolCall{"", "peek", json::object()});
      if (!out.success()) ++failures;
    }
  });
  EXPECT_EQ(failures.load(), 0);
  EXPECT_EQ(session.state<Tally>().overlapped, 0);
}

TEST(Concurrency, APolicyOrAMissingHintMakesACallRunAlone) {
  ptc::ToolRegistry registry;
  Rendezvous meeting;
  registry.add(peek_tool(meeting, 1));
  registry.add(ptc::make_tool("quiet", "Read.", "() -> :int", {}, read_only()),
               {std::make_shared<ptc::test::NamedPolicy>("counts")});
  registry.add(bump_tool());
  EXPECT_TRUE(registry.runs_shared("peek"));
  EXPECT_FALSE(registry.runs_shared("quiet"));    // a policy counts its calls
  EXPECT_FALSE(registry.runs_shared("bump"));     // states no hints
  EXPECT_FALSE(registry.runs_shared("missing"));  // unknown
  registry.add_policy(std::make_shared<ptc::test::NamedPolicy>("counts"));
  EXPECT_FALSE(registry.runs_shared("peek"));  // a policy over every tool governs it too
}

// A handler may dispatch in its own session: the lock knows this thread holds it. A read-only call may
// not start a change, which would have to wait for the other readers.
TEST(Concurrency, AHandlerDispatchesInItsOwnSessionUnlessAReadOnlyOneWouldChangeIt) {
  ptc::ToolRegistry registry;
  registry.add(bump_tool());
  auto nested = [&registry](std::string inner) {
    return [&registry, inner](const json&, ptc::ToolContext& c) {
      auto out = registry.dispatch(c.session(), ptc::ToolCall{"", inner, json{{"by", 2}}});
      return out.success() ? ToolResult<json>::ok(out.rendered) : ToolResult<json>::error(out.rendered);
    };
  };
  registry.add(ptc::make_tool("change_then_bump", "Nest.", "() -> :string", nested("bump")));
  registry.add(ptc::make_tool("read_then_read", "Nest.", "() -> :string", nested("look"), read_only()));
  registry.add(ptc::make_tool("read_then_bump", "Nest.", "() -> :string", nested("bump"), read_only()));
  registry.add(ptc::make_tool(
      "look", "Read.", "() -> :int", [](const json&, ptc::ToolContext&) { return ToolResult<json>::ok(7); },
      read_only()));
  ptc::Session session;
  EXPECT_TRUE(registry.dispatch(session, ptc::ToolCall{"", "change_then_bump", json::object()}).success());
  EXPECT_EQ(session.state<Tally>().calls, 2);
  EXPECT_TRUE(registry.dispatch(session, ptc::ToolCall{"", "read_then_read", json::object()}).success());
  auto refused = registry.dispatch(session, ptc::ToolCall{"", "read_then_bump", json::object()});
  EXPECT_FALSE(refused.success());
  EXPECT_EQ(refused.rendered, "Tool 'bump' may change the session, so a read-only tool cannot call it.");
  EXPECT_EQ(session.state<Tally>().calls, 2);
  // The lock was given back each time: another thread gets it.
  std::thread([&] {
    EXPECT_TRUE(registry.dispatch(session, ptc::ToolCall{"", "bump", json{{"by", 1}}}).success());
  }).join();
  EXPECT_EQ(session.state<Tally>().calls, 3);
}

}  // namespace
