// ptc::Session: ids, state slices, snapshot and restore, logs.
#include <algorithm>
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

#include <ptc/registry.hpp>
#include <ptc/session.hpp>
#include <ptc/tool.hpp>
#include <ptc/tool_call.hpp>
#include <ptc/tool_context.hpp>

#include "session_fixtures.hpp"

namespace {

using namespace std::chrono_literals;
using namespace ptc_test;
using ::testing::ElementsAre;
using nlohmann::json;

const std::regex kUuidV4("^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$");

TEST(Session, KeepsAGivenId) {
  ptc::Session session("session-42");
  EXPECT_EQ(session.id(), "session-42");
}

TEST(Session, GeneratesAUuidWhenTheIdIsEmpty) {
  ptc::Session a;
  ptc::Session b("");
  EXPECT_TRUE(std::regex_match(a.id(), kUuidV4)) << a.id();
  EXPECT_TRUE(std::regex_match(b.id(), kUuidV4)) << b.id();
  EXPECT_NE(a.id(), b.id());
}

// ---- state slices --------------------------------------------------------------------------------

TEST(SessionState, IsDefaultConstructedOnFirstUse) {
  ptc::Session session("s");
  EXPECT_EQ(session.state<Counter>().value, 0);
  EXPECT_TRUE(session.state<Names>().items.empty());
  EXPECT_EQ(session.state<Names>().label, "default");
  EXPECT_EQ(session.state<int>(), 0);
}

TEST(SessionState, ReturnsTheSameReferenceEachTime) {
  ptc::Session session("s");
  Counter& first = session.state<Counter>();
  first.value = 5;
  // Adding other slices must not move the first one.
  for (int i = 0; i < 3; ++i) session.state<Names>().items.push_back("x");
  session.state<Other>().n = 1;
  session.state<int>() = 9;
  Counter& second = session.state<Counter>();
  EXPECT_EQ(&first, &second);
  EXPECT_EQ(second.value, 5);
  EXPECT_EQ(session.state<int>(), 9);
}

TEST(SessionState, SlicesAreSeparatedByTypeAndBySession) {
  ptc::Session a("a");
  ptc::Session b("b");
  a.state<Counter>().value = 1;
  a.state<Other>().n = 2;
  EXPECT_EQ(b.state<Counter>().value, 0);
  EXPECT_EQ(a.state<Counter>().value, 1);
  EXPECT_EQ(a.state<Other>().n, 2);
}

TEST(SessionState, FindStateIsNullBeforeFirstUse) {
  ptc::Session session("s");
  EXPECT_EQ(session.find_state<Counter>(), nullptr);
  session.state<Counter>().value = 3;
  const Counter* found = session.find_state<Counter>();
  ASSERT_NE(found, nullptr);
  EXPECT_EQ(found, &session.state<Counter>());
  EXPECT_EQ(found->value, 3);
  EXPECT_EQ(session.find_state<Other>(), nullptr);
}

// ---- snapshot / restore --------------------------------------------------------------------------

TEST(SessionSnapshot, RestorePutsValuesBack) {
  ptc::Session session("s");
  session.state<Counter>().value = 1;
  session.state<Names>().items = {"a"};
  auto snap = session.snapshot();
  session.state<Counter>().value = 2;
  session.state<Names>().items.push_back("b");
  session.state<Names>().label = "changed";
  session.restore(snap);
  EXPECT_EQ(session.state<Counter>().value, 1);
  EXPECT_THAT(session.state<Names>().items, ElementsAre("a"));
  EXPECT_EQ(session.state<Names>().label, "default");
}

TEST(SessionSnapshot, SnapshotIsACopyNotAView) {
  ptc::Session session("s");
  session.state<Counter>().value = 1;
  auto snap = session.snapshot();
  session.state<Counter>().value = 2;
  session.restore(snap);
  session.state<Counter>().value = 3;
  // Restoring again gives the snapshot's value, not what the slice held after the first restore.
  session.restore(snap);
  EXPECT_EQ(session.state<Counter>().value, 1);
}

TEST(SessionSnapshot, SlicesFirstUsedAfterTheSnapshotGoBackToDefault) {
  ptc::Session session("s");
  session.state<Counter>().value = 1;
  auto snap = session.snapshot();
  session.state<Other>().n = 7;
  session.state<Names>().label = "new";
  session.restore(snap);
  EXPECT_EQ(session.state<Other>().n, 0);
  EXPECT_EQ(session.state<Names>().label, "default");
  EXPECT_EQ(session.state<Counter>().value, 1);
}

TEST(SessionSnapshot, ReferencesStayValidAcrossRestore) {
  ptc::Session session("s");
  Counter& counter = session.state<Counter>();
  counter.value = 1;
  auto snap = session.snapshot();
  Other& other = session.state<Other>();
  counter.value = 2;
  other.n = 5;
  session.restore(snap);
  EXPECT_EQ(&counter, &session.state<Counter>());
  EXPECT_EQ(&other, &session.state<Other>());
  EXPECT_EQ(counter.value, 1);
  EXPECT_EQ(other.n, 0);
}

TEST(SessionSnapshot, NestedSnapshots) {
  ptc::Session session("s");
  session.state<Counter>().value = 1;
  auto outer = session.snapshot();
  session.state<Counter>().value = 2;
  session.state<Other>().n = 20;
  auto inner = session.snapshot();
  session.state<Counter>().value = 3;
  session.state<Other>().n = 30;
  session.state<Names>().label = "inner";

  session.restore(inner);
  EXPECT_EQ(session.state<Counter>().value, 2);
  EXPECT_EQ(session.state<Other>().n, 20);
  EXPECT_EQ(session.state<Names>().label, "default");

  session.restore(outer);
  EXPECT_EQ(session.state<Counter>().value, 1);
  EXPECT_EQ(session.state<Other>().n, 0);

  // The inner snapshot still works after the outer restore.
  session.restore(inner);
  EXPECT_EQ(session.state<Counter>().value, 2);
  EXPECT_EQ(session.state<Other>().n, 20);
}

TEST(SessionSnapshot, SnapshotOfAnEmptySessionResetsEverything) {
  ptc::Session session("s");
  auto snap = session.snapshot();
  session.state<Counter>().value = 4;
  session.restore(snap);
  EXPECT_EQ(session.state<Counter>().value, 0);
  // The slice still exists (it was used), it is only back at its default.
  EXPECT_NE(session.find_state<Counter>(), nullptr);
}

// ---- logs ----------------------------------------------------------------------------------------

TEST(SessionLog, RecordAppendsInOrderPerType) {
  ptc::Session session("s");
  EXPECT_TRUE(session.log<Note>().empty());
  session.record(Note{"one"});
  session.record(Note{"two"});
  session.record(Other{3});
  auto notes = session.log<Note>();
  ASSERT_EQ(notes.size(), 2u);
  EXPECT_EQ(notes[0].text, "one");
  EXPECT_EQ(notes[1].text, "two");
  ASSERT_EQ(session.log<Other>().size(), 1u);
  EXPECT_EQ(session.log<Other>()[0].n, 3);
}

TEST(SessionLog, LogIsACopy) {
  ptc::Session session("s");
  session.record(Note{"one"});
  auto copy = session.log<Note>();
  copy.push_back(Note{"extra"});
  EXPECT_EQ(session.log<Note>().size(), 1u);
}

TEST(SessionLog, RestoreLeavesLogsAlone) {
  ptc::Session session("s");
  session.record(Note{"before"});
  auto snap = session.snapshot();
  session.record(Note{"after"});
  session.state<Counter>().value = 1;
  session.restore(snap);
  auto notes = session.log<Note>();
  ASSERT_EQ(notes.size(), 2u);
  EXPECT_EQ(notes[0].text, "before");
  EXPECT_EQ(notes[1].text, "after");
  EXPECT_EQ(session.state<Counter>().value, 0);
}

TEST(SessionLog, RecordEventsRecordsPublishedEventsFromThenOn) {
  ptc::Session session("s");
  session.events().publish(Note{"unrecorded"});
  EXPECT_TRUE(session.log<Note>().empty());
  session.record_events<Note>();
  auto result = session.events().publish(Note{"first"});
  EXPECT_EQ(result.delivered, 1u);
  EXPECT_TRUE(result.ok());
  session.events().publish(Note{"second"});
  session.events().publish(Other{1});
  auto notes = session.log<Note>();
  ASSERT_EQ(notes.size(), 2u);
  EXPECT_EQ(notes[0].text, "first");
  EXPECT_EQ(notes[1].text, "second");
  EXPECT_TRUE(session.log<Other>().empty());
}

TEST(SessionLog, ToolInvokedIsRecordedByDefault) {
  ptc::Session session("s-7");
  ptc::ToolInvoked event;
  event.event_id = "e-1";
  event.session_id = "s-7";
  event.call_id = "call_1";
  event.name = "add";
  event.params = json{{"a", 1}};
  event.result = ptc::ToolResult<json>::ok(2);
  event.rendered_output = "2";
  event.status = ptc::CallStatus::Succeeded;
  auto result = session.events().publish(event);
  EXPECT_EQ(result.delivered, 1u);
  auto log = session.log<ptc::ToolInvoked>();
  ASSERT_EQ(log.size(), 1u);
  EXPECT_EQ(log[0].event_id, "e-1");
  EXPECT_EQ(log[0].session_id, "s-7");
  EXPECT_EQ(log[0].call_id, "call_1");
  EXPECT_EQ(log[0].name, "add");
  EXPECT_EQ(log[0].params, (json{{"a", 1}}));
  EXPECT_EQ(log[0].result.value, json(2));
  EXPECT_EQ(log[0].rendered_output, "2");
  EXPECT_EQ(log[0].status, ptc::CallStatus::Succeeded);
}

// ---- log retention -------------------------------------------------------------------------------

TEST(SessionLogRetention, KeepsTheNewestEventsUpToTheLimit) {
  ptc::Session session("s", ptc::SessionOptions{3});
  for (int i = 0; i < 5; ++i) session.record(Other{i});
  auto log = session.log<Other>();
  ASSERT_EQ(log.size(), 3u);
  EXPECT_EQ(log[0].n, 2);
  EXPECT_EQ(log[2].n, 4);
  EXPECT_EQ(session.dropped<Other>(), 2u);
  EXPECT_EQ(session.dropped<Note>(), 0u);
}

TEST(SessionLogRetention, StaysInOrderAcrossManyTurnsOfTheRing) {
  // Texts of changing lengths, so that an event assigned over an older one in its slot is checked
  // whole, whether it is longer (a new buffer) or shorter (the old buffer, reused) than that one.
  const auto text = [](int i) { return std::string(static_cast<std::size_t>(i % 7) * 9, 'x') + std::to_string(i); };
  ptc::Session session("s", ptc::SessionOptions{3});
  for (int i = 0; i < 20; ++i) {
    session.record(Note{text(i)});
    const auto log = session.log<Note>();
    ASSERT_EQ(log.size(), std::min<std::size_t>(static_cast<std::size_t>(i) + 1, 3u));
    for (std::size_t k = 0; k < log.size(); ++k)
      EXPECT_EQ(log[k].text, text(i + 1 - static_cast<int>(log.size() - k))) << "after " << i << ", entry " << k;
    EXPECT_EQ(session.dropped<Note>(), static_cast<std::size_t>(std::max(0, i - 2)));
  }
}

TEST(SessionLogRetention, ALimitOfOneKeepsTheLastEvent) {
  ptc::Session session("s", ptc::SessionOptions{1});
  for (int i = 0; i < 4; ++i) session.record(Other{i});
  const auto log = session.log<Other>();
  ASSERT_EQ(log.size(), 1u);
  EXPECT_EQ(log[0].n, 3);
  EXPECT_EQ(session.dropped<Other>(), 3u);
}

TEST(SessionLogRetention, ALimitOfZeroKeepsNothingButCounts) {
  ptc::Session session("s", ptc::SessionOptions{0});
  session.record(Note{"one"});
  session.record(Note{"two"});
  EXPECT_TRUE(session.log<Note>().empty());
  EXPECT_EQ(session.dropped<Note>(), 2u);
}

TEST(SessionLogRetention, TheDefaultIsTheDocumentedLimit) {
  ptc::Session session("s");
  EXPECT_EQ(session.options().log_limit, ptc::limits::kSessionLogEntries);
  for (std::size_t i = 0; i < ptc::limits::kSessionLogEntries + 7; ++i) session.record(Other{static_cast<int>(i)});
  EXPECT_EQ(session.log<Other>().size(), ptc::limits::kSessionLogEntries);
  EXPECT_EQ(session.dropped<Other>(), 7u);
}

TEST(SessionLogRetention, DispatchedCallsKeepTheToolInvokedLogBounded) {
  ptc::ToolRegistry registry;
  registry.add(ptc::make_tool("echo", "Echo a number.", "(n :int) -> :int", [](const json& args, ptc::ToolContext&) {
    return ptc::ToolResult<json>::ok(args["n"]);
  }));
  ptc::Session session("s", ptc::SessionOptions{16});
  for (int i = 0; i < 2000; ++i)
    ASSERT_TRUE(registry.dispatch(session, ptc::ToolCall{"c" + std::to_string(i), "echo", json{{"n", i}}}).success());
  auto log = session.log<ptc::ToolInvoked>();
  ASSERT_EQ(log.size(), 16u);
  EXPECT_EQ(log.front().call_id, "c1984");
  EXPECT_EQ(log.back().call_id, "c1999");
  EXPECT_EQ(session.dropped<ptc::ToolInvoked>(), 1984u);
}

}  // namespace
