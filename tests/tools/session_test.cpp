// Session (state slices, logs, snapshots, resources), EventDispatcher, Deadline and clocks, Heartbeat,
// BudgetTracker and ToolContext. Dispatch itself is covered by dispatch_test.cpp.
#include <any>
#include <atomic>
#include <chrono>
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

#include <ptc/ptc.hpp>

namespace ptc_test {
/// A resource type with a predictable demangled name.
struct Widget {
  int size = 0;
};
}  // namespace ptc_test

namespace {

using namespace std::chrono_literals;
using ::testing::ElementsAre;
using nlohmann::json;

struct Counter {
  int value = 0;
};
struct Names {
  std::vector<std::string> items;
  std::string label = "default";
};
struct Note {
  std::string text;
};
struct Other {
  int n = 0;
};

/// A snapshot-capable resource whose tokens are its value; counts the calls it gets.
class Dial final : public ptc::Snapshotable {
 public:
  int value = 0;
  mutable int snapshots = 0;
  int restores = 0;
  std::any snapshot() const override {
    ++snapshots;
    return value;
  }
  void restore(const std::any& token) override {
    ++restores;
    value = std::any_cast<int>(token);
  }
};

/// An interface that knows nothing of snapshots, and an implementation that is snapshot-capable.
class Store {
 public:
  virtual ~Store() = default;
  virtual std::string get() const = 0;
  virtual void set(std::string v) = 0;
};
class SnapshotStore final : public Store, public ptc::Snapshotable {
 public:
  std::string get() const override { return value_; }
  void set(std::string v) override { value_ = std::move(v); }
  std::any snapshot() const override { return value_; }
  void restore(const std::any& token) override { value_ = std::any_cast<std::string>(token); }

 private:
  std::string value_;
};
class PlainStore final : public Store {
 public:
  std::string get() const override { return value_; }
  void set(std::string v) override { value_ = std::move(v); }

 private:
  std::string value_;
};

// ---- ids -----------------------------------------------------------------------------------------

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

TEST(MakeUuid, IsAVersion4UuidAndUniqueOverAThousandCalls) {
  std::set<std::string> seen;
  for (int i = 0; i < 1000; ++i) {
    std::string id = ptc::make_uuid();
    ASSERT_EQ(id.size(), 36u);
    ASSERT_TRUE(std::regex_match(id, kUuidV4)) << id;
    seen.insert(std::move(id));
  }
  EXPECT_EQ(seen.size(), 1000u);
}

TEST(MakeUuid, DiffersAcrossThreads) {
  std::string other;
  std::thread t([&] { other = ptc::make_uuid(); });
  t.join();
  EXPECT_TRUE(std::regex_match(other, kUuidV4)) << other;
  EXPECT_NE(other, ptc::make_uuid());
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
  session.dispatcher().publish(Note{"unrecorded"});
  EXPECT_TRUE(session.log<Note>().empty());
  session.record_events<Note>();
  auto result = session.dispatcher().publish(Note{"first"});
  EXPECT_EQ(result.delivered, 1u);
  EXPECT_TRUE(result.ok());
  session.dispatcher().publish(Note{"second"});
  session.dispatcher().publish(Other{1});
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
  auto result = session.dispatcher().publish(event);
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

// ---- resources -----------------------------------------------------------------------------------

TEST(Resources, AddFindGetContains) {
  ptc::ResourceRegistry registry;
  EXPECT_EQ(registry.find<ptc_test::Widget>(), nullptr);
  EXPECT_FALSE(registry.contains<ptc_test::Widget>());
  auto widget = std::make_shared<ptc_test::Widget>();
  widget->size = 3;
  registry.add(widget);
  EXPECT_EQ(registry.find<ptc_test::Widget>(), widget.get());
  EXPECT_TRUE(registry.contains<ptc_test::Widget>());
  EXPECT_EQ(&registry.get<ptc_test::Widget>(), widget.get());
  EXPECT_EQ(registry.get<ptc_test::Widget>().size, 3);
  EXPECT_FALSE(registry.contains<Counter>());
}

TEST(Resources, AddReplacesTheResourceOfTheSameType) {
  ptc::ResourceRegistry registry;
  auto first = std::make_shared<ptc_test::Widget>();
  auto second = std::make_shared<ptc_test::Widget>();
  registry.add(first);
  registry.add(second);
  EXPECT_EQ(registry.find<ptc_test::Widget>(), second.get());
}

TEST(Resources, TheRegistryKeepsTheResourceAlive) {
  ptc::ResourceRegistry registry;
  std::weak_ptr<ptc_test::Widget> weak;
  {
    auto widget = std::make_shared<ptc_test::Widget>();
    widget->size = 11;
    weak = widget;
    registry.add(widget);
  }
  EXPECT_FALSE(weak.expired());
  EXPECT_EQ(registry.get<ptc_test::Widget>().size, 11);
}

TEST(Resources, RegisteredUnderAnInterfaceType) {
  ptc::ResourceRegistry registry;
  auto store = std::make_shared<PlainStore>();
  registry.add<Store>(store);
  ASSERT_TRUE(registry.contains<Store>());
  EXPECT_EQ(registry.find<Store>(), store.get());
  EXPECT_FALSE(registry.contains<PlainStore>());
  registry.get<Store>().set("v");
  EXPECT_EQ(store->get(), "v");
}

TEST(Resources, GetOfAMissingTypeThrowsWithTheDemangledName) {
  ptc::ResourceRegistry registry;
  try {
    registry.get<ptc_test::Widget>();
    FAIL() << "no exception";
  } catch (const ptc::MissingResourceError& e) {
    EXPECT_STREQ(e.what(), "No resource of type ptc_test::Widget is registered.");
  }
  EXPECT_THROW(registry.get<ptc::BudgetTracker>(), ptc::MissingResourceError);
  try {
    registry.get<ptc::BudgetTracker>();
  } catch (const ptc::MissingResourceError& e) {
    EXPECT_STREQ(e.what(), "No resource of type ptc::BudgetTracker is registered.");
  }
}

TEST(Resources, SnapshotCapableResourcesAreRestoredBySessionRestore) {
  ptc::Session session("s");
  auto dial = std::make_shared<Dial>();
  auto widget = std::make_shared<ptc_test::Widget>();
  session.resources().add(dial);
  session.resources().add(widget);
  dial->value = 1;
  widget->size = 1;
  auto snap = session.snapshot();
  EXPECT_EQ(dial->snapshots, 1);
  dial->value = 2;
  widget->size = 2;
  session.restore(snap);
  EXPECT_EQ(dial->restores, 1);
  EXPECT_EQ(dial->value, 1);
  // Not snapshot-capable: left as it is.
  EXPECT_EQ(widget->size, 2);
}

TEST(Resources, SnapshotCapabilityIsFoundBehindAnInterface) {
  ptc::Session session("s");
  auto snapshot_store = std::make_shared<SnapshotStore>();
  session.resources().add<Store>(snapshot_store);
  snapshot_store->set("before");
  auto snap = session.snapshot();
  session.resources().get<Store>().set("after");
  session.restore(snap);
  EXPECT_EQ(snapshot_store->get(), "before");

  ptc::Session plain_session("p");
  auto plain = std::make_shared<PlainStore>();
  plain_session.resources().add<Store>(plain);
  plain->set("before");
  auto plain_snap = plain_session.snapshot();
  plain->set("after");
  plain_session.restore(plain_snap);
  EXPECT_EQ(plain->get(), "after");
}

TEST(Resources, RegistrySnapshotHoldsOneTokenPerSnapshotCapableResource) {
  ptc::ResourceRegistry registry;
  registry.add(std::make_shared<Dial>());
  registry.add(std::make_shared<ptc_test::Widget>());
  registry.add<Store>(std::make_shared<SnapshotStore>());
  auto snap = registry.snapshot();
  EXPECT_EQ(snap.tokens.size(), 2u);
}

TEST(Resources, InMemoryFilesystemIsRestoredWithTheSession) {
  ptc::Session session("s");
  auto fs = std::make_shared<ptc::InMemoryFilesystem>();
  session.resources().add<ptc::Filesystem>(fs);
  fs->write("a.txt", "one");
  auto snap = session.snapshot();
  fs->write("a.txt", "two");
  fs->write("b.txt", "new");
  session.restore(snap);
  EXPECT_EQ(fs->read("a.txt"), "one");
  EXPECT_FALSE(fs->exists("b.txt"));
}

// ---- EventDispatcher -----------------------------------------------------------------------------

TEST(EventDispatcher, DeliversInSubscriptionOrder) {
  ptc::EventDispatcher dispatcher;
  std::vector<std::string> seen;
  for (const char* who : {"first", "second", "third"})
    dispatcher.subscribe<Note>([&seen, who](const Note& n) { seen.push_back(std::string(who) + ":" + n.text); });
  auto result = dispatcher.publish(Note{"x"});
  EXPECT_EQ(result.delivered, 3u);
  EXPECT_TRUE(result.ok());
  EXPECT_TRUE(result.errors.empty());
  EXPECT_THAT(seen, ElementsAre("first:x", "second:x", "third:x"));
}

TEST(EventDispatcher, PublishingWithoutSubscribersDeliversNothing) {
  ptc::EventDispatcher dispatcher;
  auto result = dispatcher.publish(Note{"x"});
  EXPECT_EQ(result.delivered, 0u);
  EXPECT_TRUE(result.ok());
}

TEST(EventDispatcher, SeparatesEventTypes) {
  ptc::EventDispatcher dispatcher;
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

TEST(EventDispatcher, Unsubscribe) {
  ptc::EventDispatcher dispatcher;
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

TEST(EventDispatcher, AThrowingSubscriberDoesNotStopTheOthers) {
  ptc::EventDispatcher dispatcher;
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

TEST(EventDispatcher, SubscribersMayPublishAndSubscribeDuringDelivery) {
  auto dispatcher = std::make_shared<ptc::EventDispatcher>();
  auto seen = std::make_shared<std::vector<std::string>>();
  auto late_result = std::make_shared<ptc::PublishResult>();
  // Subscribers hold a plain pointer: a shared_ptr would make the dispatcher own itself.
  ptc::EventDispatcher* raw = dispatcher.get();
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

TEST(EventDispatcher, ASubscriberMayUnsubscribeItselfDuringDelivery) {
  auto dispatcher = std::make_shared<ptc::EventDispatcher>();
  auto calls = std::make_shared<int>(0);
  auto id = std::make_shared<ptc::EventDispatcher::SubscriptionId>(0);
  auto removed = std::make_shared<bool>(false);
  ptc::EventDispatcher* raw = dispatcher.get();
  *id = dispatcher->subscribe<Note>([raw, calls, id, removed](const Note&) {
    ++*calls;
    *removed = raw->unsubscribe(*id);
  });
  finishes_in_time([dispatcher] { dispatcher->publish(Note{"1"}); });
  EXPECT_TRUE(*removed);
  EXPECT_EQ(dispatcher->publish(Note{"2"}).delivered, 0u);
  EXPECT_EQ(*calls, 1);
}

TEST(EventDispatcher, SessionHandlersMayRecordDuringDelivery) {
  ptc::Session session("s");
  session.record_events<Note>();
  session.dispatcher().subscribe<Note>([&session](const Note& n) {
    if (n.text == "outer") session.dispatcher().publish(Note{"inner"});
  });
  session.dispatcher().publish(Note{"outer"});
  auto notes = session.log<Note>();
  ASSERT_EQ(notes.size(), 2u);
  EXPECT_EQ(notes[0].text, "outer");
  EXPECT_EQ(notes[1].text, "inner");
}

// ---- clocks and deadlines ------------------------------------------------------------------------

const ptc::TimePoint kStart = ptc::TimePoint{} + 1000s;

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

// ---- ToolContext ---------------------------------------------------------------------------------

class ToolContextTest : public ::testing::Test {
 protected:
  ptc::Tool tool = ptc::make_tool("probe", "Probe the context.", "() -> :any");
  ptc::Session session{"ctx-session"};
  ptc::CallEnvironment environment;
};

TEST_F(ToolContextTest, FilesystemWithoutOneThrows) {
  ptc::ToolContext context(tool, session, environment);
  try {
    context.filesystem();
    FAIL() << "no exception";
  } catch (const ptc::MissingResourceError& e) {
    EXPECT_STREQ(e.what(), "No filesystem is registered.");
  }
}

TEST_F(ToolContextTest, BudgetTrackerWithoutOneThrows) {
  ptc::ToolContext context(tool, session, environment);
  try {
    context.budget_tracker();
    FAIL() << "no exception";
  } catch (const ptc::MissingResourceError& e) {
    EXPECT_STREQ(e.what(), "No budget tracker is registered.");
  }
}

TEST_F(ToolContextTest, RegisteredResourcesAreReturned) {
  auto fs = std::make_shared<ptc::InMemoryFilesystem>();
  auto tracker = std::make_shared<ptc::BudgetTracker>(ptc::Budget{std::nullopt, std::nullopt, 5});
  session.resources().add<ptc::Filesystem>(fs);
  session.resources().add(tracker);
  ptc::ToolContext context(tool, session, environment);
  EXPECT_EQ(&context.filesystem(), fs.get());
  EXPECT_EQ(&context.budget_tracker(), tracker.get());
  EXPECT_EQ(&context.resources(), &session.resources());
  context.filesystem().write("n.txt", "hi");
  EXPECT_EQ(fs->read("n.txt"), "hi");
  EXPECT_EQ(context.budget_tracker().budget().max_total_tokens, 5);
}

TEST_F(ToolContextTest, FilesystemRegisteredOnlyUnderItsConcreteTypeIsNotFound) {
  session.resources().add(std::make_shared<ptc::InMemoryFilesystem>());
  ptc::ToolContext context(tool, session, environment);
  EXPECT_THROW(context.filesystem(), ptc::MissingResourceError);
}

TEST_F(ToolContextTest, BeatWithoutAHeartbeatIsANoOp) {
  ptc::ToolContext context(tool, session, environment);
  EXPECT_EQ(context.heartbeat(), nullptr);
  EXPECT_NO_THROW(context.beat());
  EXPECT_EQ(context.heartbeat(), nullptr);
}

TEST_F(ToolContextTest, BeatIncrementsTheHeartbeat) {
  int calls = 0;
  environment.heartbeat = std::make_shared<ptc::Heartbeat>([&calls] { ++calls; });
  ptc::ToolContext context(tool, session, environment);
  EXPECT_EQ(context.heartbeat(), environment.heartbeat.get());
  context.beat();
  context.beat();
  EXPECT_EQ(environment.heartbeat->beats(), 2u);
  EXPECT_EQ(calls, 2);
}

TEST_F(ToolContextTest, AccessorsReturnWhatTheEnvironmentHolds) {
  ptc::Prompt prompt("p", {});
  ptc::RenderedPrompt rendered = prompt.render();
  auto clock = std::make_shared<ptc::ManualClock>(kStart);
  environment.prompt = &prompt;
  environment.rendered_prompt = &rendered;
  environment.adapter = "openai";
  environment.deadline = ptc::Deadline(kStart + 5s, clock);
  environment.run_context = ptc::RunContext{"run-1", "req-1", "ctx-session", 2, "trace-1", "span-1"};

  ptc::ToolContext context(tool, session, environment, "call_abc123");
  EXPECT_EQ(&context.tool(), &tool);
  EXPECT_EQ(context.tool().name(), "probe");
  EXPECT_EQ(context.call_id(), "call_abc123");
  EXPECT_EQ(context.prompt(), &prompt);
  EXPECT_EQ(context.rendered_prompt(), &rendered);
  EXPECT_EQ(context.adapter(), "openai");
  EXPECT_EQ(&context.session(), &session);
  EXPECT_EQ(context.session().id(), "ctx-session");
  ASSERT_TRUE(context.deadline().has_value());
  EXPECT_EQ(context.deadline()->expires_at(), kStart + 5s);
  EXPECT_EQ(context.deadline()->remaining(), 5s);
  clock->advance(5s);
  EXPECT_TRUE(context.deadline()->expired());
  ASSERT_TRUE(context.run_context().has_value());
  EXPECT_EQ(*context.run_context(), (ptc::RunContext{"run-1", "req-1", "ctx-session", 2, "trace-1", "span-1"}));
  EXPECT_EQ(context.run_context()->attempt, 2);
}

TEST_F(ToolContextTest, DefaultsOfAnEmptyEnvironment) {
  ptc::ToolContext context(tool, session, environment);
  EXPECT_EQ(context.call_id(), "");
  EXPECT_EQ(context.prompt(), nullptr);
  EXPECT_EQ(context.rendered_prompt(), nullptr);
  EXPECT_EQ(context.adapter(), "");
  EXPECT_FALSE(context.deadline().has_value());
  EXPECT_FALSE(context.run_context().has_value());
}

TEST_F(ToolContextTest, TheContextSeesLaterChangesToTheEnvironment) {
  // ToolContext holds the environment by reference.
  ptc::ToolContext context(tool, session, environment);
  environment.adapter = "anthropic";
  EXPECT_EQ(context.adapter(), "anthropic");
}

TEST_F(ToolContextTest, HandlersPublishOnTheSessionDispatcher) {
  session.record_events<Note>();
  ptc::ToolContext context(tool, session, environment);
  context.session().dispatcher().publish(Note{"from handler"});
  auto notes = session.log<Note>();
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_EQ(notes[0].text, "from handler");
}

}  // namespace
