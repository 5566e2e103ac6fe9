// ptc::EventBus: subscriptions, delivery order, re-entrancy, threads.
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

#include <ptc/events.hpp>
#include <ptc/session.hpp>
#include <ptc/tool_call.hpp>

#include "session_fixtures.hpp"

namespace {

using namespace std::chrono_literals;
using namespace ptc_test;
using ::testing::ElementsAre;

// ---- EventBus -----------------------------------------------------------------------------

TEST(EventBus, DeliversInSubscriptionOrder) {
  ptc::EventBus dispatcher;
  std::vector<std::string> seen;
  for (const char* who : {"first", "second", "third"})
    dispatcher.subscribe<Note>([&seen, who](const Note& n) { seen.push_back(std::string(who) + ":" + n.text); });
  auto result = dispatcher.publish(Note{"x"});
  EXPECT_EQ(result.delivered, 3u);
  EXPECT_TRUE(result.ok());
  EXPECT_TRUE(result.errors.empty());
  EXPECT_THAT(seen, ElementsAre("first:x", "second:x", "third:x"));
}

TEST(EventBus, PublishingWithoutSubscribersDeliversNothing) {
  ptc::EventBus dispatcher;
  auto result = dispatcher.publish(Note{"x"});
  EXPECT_EQ(result.delivered, 0u);
  EXPECT_TRUE(result.ok());
}

TEST(EventBus, TellsWhetherAnEventTypeHasSubscribers) {
  ptc::EventBus bus;
  EXPECT_FALSE(bus.has_subscribers<Note>());
  const auto other = bus.subscribe<Other>([](const Other&) {});
  EXPECT_FALSE(bus.has_subscribers<Note>());
  const auto note = bus.subscribe<Note>([](const Note&) {});
  EXPECT_TRUE(bus.has_subscribers<Note>());
  EXPECT_TRUE(bus.unsubscribe(note));
  EXPECT_FALSE(bus.has_subscribers<Note>());
  EXPECT_TRUE(bus.has_subscribers<Other>());
  EXPECT_TRUE(bus.unsubscribe(other));
  EXPECT_FALSE(bus.has_subscribers<Other>());
}

TEST(EventBus, ASessionWithoutALogDoesNotSubscribeToItsCalls) {
  EXPECT_TRUE(ptc::Session("s").events().has_subscribers<ptc::ToolInvoked>());
  EXPECT_FALSE(ptc::Session("s", ptc::SessionOptions{0}).events().has_subscribers<ptc::ToolInvoked>());
}

TEST(EventBus, SeparatesEventTypes) {
  ptc::EventBus dispatcher;
  std::vector<std::string> notes;
  std::vector<int> others;
  dispatcher.subscribe<Note>([&](const Note& n) { notes.push_back(n.text); });
  dispatcher.subscribe<Other>([&](const Other& o) { others.push_back(o.n); });
  EXPECT_EQ(dispatcher.publish(Other{5}).delivered, 1u);
  EXPECT_EQ(dispatcher.publish(Note{"n"}).delivered, 1u);
  EXPECT_EQ(dispatcher.publish(Counter{1}).delivered, 0u);
  EXPECT_THAT(notes, ElementsAre("n"));
  EXPECT_THAT(others, ElementsAre(5));
}

TEST(EventBus, Unsubscribe) {
  ptc::EventBus dispatcher;
  std::vector<std::string> seen;
  auto a = dispatcher.subscribe<Note>([&](const Note&) { seen.push_back("a"); });
  auto b = dispatcher.subscribe<Note>([&](const Note&) { seen.push_back("b"); });
  EXPECT_NE(a, b);
  EXPECT_TRUE(dispatcher.unsubscribe(a));
  EXPECT_FALSE(dispatcher.unsubscribe(a));
  EXPECT_FALSE(dispatcher.unsubscribe(b + 1000));
  auto result = dispatcher.publish(Note{"x"});
  EXPECT_EQ(result.delivered, 1u);
  EXPECT_THAT(seen, ElementsAre("b"));
  EXPECT_TRUE(dispatcher.unsubscribe(b));
  EXPECT_EQ(dispatcher.publish(Note{"x"}).delivered, 0u);
  EXPECT_THAT(seen, ElementsAre("b"));
}

TEST(EventBus, AThrowingSubscriberDoesNotStopTheOthers) {
  ptc::EventBus dispatcher;
  std::vector<std::string> seen;
  dispatcher.subscribe<Note>([&](const Note&) { seen.push_back("before"); });
  dispatcher.subscribe<Note>([](const Note&) { throw std::runtime_error("subscriber broke"); });
  dispatcher.subscribe<Note>([](const Note&) { throw 42; });
  dispatcher.subscribe<Note>([&](const Note&) { seen.push_back("after"); });
  auto result = dispatcher.publish(Note{"x"});
  EXPECT_EQ(result.delivered, 2u);
  EXPECT_FALSE(result.ok());
  EXPECT_THAT(result.errors, ElementsAre("subscriber broke", "unknown exception"));
  EXPECT_THAT(seen, ElementsAre("before", "after"));
}

/// Runs `body` on another thread and fails (instead of hanging) if it does not finish in time.
void finishes_in_time(std::function<void()> body) {
  auto done = std::make_shared<std::promise<void>>();
  auto future = done->get_future();
  std::thread([body = std::move(body), done] {
    body();
    done->set_value();
  }).detach();
  if (future.wait_for(10s) != std::future_status::ready) {
    ADD_FAILURE() << "deadlock: the body did not finish in 10s";
    std::abort();  // the stuck thread still uses the test's objects
  }
}

TEST(EventBus, SubscribersMayPublishAndSubscribeDuringDelivery) {
  auto dispatcher = std::make_shared<ptc::EventBus>();
  auto seen = std::make_shared<std::vector<std::string>>();
  auto late_result = std::make_shared<ptc::PublishResult>();
  // Subscribers hold a plain pointer: a shared_ptr would make the dispatcher own itself.
  ptc::EventBus* raw = dispatcher.get();
  dispatcher->subscribe<Note>([raw, seen, late_result](const Note& n) {
    seen->push_back("note:" + n.text);
    *late_result = raw->publish(Other{1});
    raw->subscribe<Note>([seen](const Note& m) { seen->push_back("late:" + m.text); });
  });
  dispatcher->subscribe<Other>([seen](const Other& o) { seen->push_back("other:" + std::to_string(o.n)); });
  finishes_in_time([dispatcher] { dispatcher->publish(Note{"1"}); });
  // The subscriber added during delivery is not called for the event being delivered.
  EXPECT_THAT(*seen, ElementsAre("note:1", "other:1"));
  EXPECT_EQ(late_result->delivered, 1u);
  finishes_in_time([dispatcher] { dispatcher->publish(Note{"2"}); });
  EXPECT_THAT(*seen, ElementsAre("note:1", "other:1", "note:2", "other:1", "late:2"));
}

TEST(EventBus, ASubscriberMayUnsubscribeItselfDuringDelivery) {
  auto dispatcher = std::make_shared<ptc::EventBus>();
  auto calls = std::make_shared<int>(0);
  auto id = std::make_shared<ptc::EventBus::SubscriptionId>(0);
  auto removed = std::make_shared<bool>(false);
  ptc::EventBus* raw = dispatcher.get();
  *id = dispatcher->subscribe<Note>([raw, calls, id, removed](const Note&) {
    ++*calls;
    *removed = raw->unsubscribe(*id);
  });
  finishes_in_time([dispatcher] { dispatcher->publish(Note{"1"}); });
  EXPECT_TRUE(*removed);
  EXPECT_EQ(dispatcher->publish(Note{"2"}).delivered, 0u);
  EXPECT_EQ(*calls, 1);
}

TEST(EventBus, SessionHandlersMayRecordDuringDelivery) {
  ptc::Session session("s");
  session.record_events<Note>();
  session.events().subscribe<Note>([&session](const Note& n) {
    if (n.text == "outer") session.events().publish(Note{"inner"});
  });
  session.events().publish(Note{"outer"});
  auto notes = session.log<Note>();
  ASSERT_EQ(notes.size(), 2u);
  EXPECT_EQ(notes[0].text, "outer");
  EXPECT_EQ(notes[1].text, "inner");
}

}  // namespace
