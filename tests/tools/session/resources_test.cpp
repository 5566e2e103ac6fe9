// ptc::SessionResources and the resources of a session: lookup by type, snapshots, rollback.
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
#include <ptc/filesystem.hpp>
#include <ptc/resources.hpp>
#include <ptc/session.hpp>
#include <ptc/tool.hpp>
#include <ptc/tool_context.hpp>

#include "session_fixtures.hpp"

namespace ptc_test {
/// A resource type with a predictable demangled name.
struct Widget {
  int size = 0;
};
}  // namespace ptc_test

namespace {

using namespace std::chrono_literals;
using namespace ptc_test;

// ---- resources -----------------------------------------------------------------------------------

TEST(Resources, AddFindGetContains) {
  ptc::SessionResources registry;
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
  ptc::SessionResources registry;
  auto first = std::make_shared<ptc_test::Widget>();
  auto second = std::make_shared<ptc_test::Widget>();
  registry.add(first);
  registry.add(second);
  EXPECT_EQ(registry.find<ptc_test::Widget>(), second.get());
}

TEST(Resources, TheRegistryKeepsTheResourceAlive) {
  ptc::SessionResources registry;
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
  ptc::SessionResources registry;
  auto store = std::make_shared<PlainStore>();
  registry.add<Store>(store);
  ASSERT_TRUE(registry.contains<Store>());
  EXPECT_EQ(registry.find<Store>(), store.get());
  EXPECT_FALSE(registry.contains<PlainStore>());
  registry.get<Store>().set("v");
  EXPECT_EQ(store->get(), "v");
}

TEST(Resources, GetOfAMissingTypeThrowsWithTheDemangledName) {
  ptc::SessionResources registry;
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
  ptc::SessionResources registry;
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

}  // namespace
