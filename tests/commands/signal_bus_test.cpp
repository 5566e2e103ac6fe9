// Signals and the signal bus: the shape of a signal, type patterns, delivery order, the Logger
// middleware and its levels, failing subscribers.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <ptc/error.hpp>
#include <ptc/signal_bus.hpp>

#include "command_test_support.hpp"

namespace {

using ptc::LogLevel;
using ptc::Signal;
using ptc::SignalBus;
using ::testing::ElementsAre;

TEST(Signal, MakeFillsIdTimeSourceAndData) {
  auto s = Signal::make("command.completed", "/dispatcher", {{"name", "review"}});
  EXPECT_EQ(s.id.size(), 36u);
  EXPECT_EQ(s.id[14], '4');  // a version 4 UUID
  EXPECT_NE(Signal::make("x", "/y").id, s.id);
  EXPECT_EQ(s.type, "command.completed");
  EXPECT_EQ(s.source, "/dispatcher");
  ASSERT_EQ(s.time.size(), 27u) << s.time;  // 2025-01-31T09:15:02.123456Z
  EXPECT_EQ(s.time[10], 'T');
  EXPECT_EQ(s.time.back(), 'Z');
  EXPECT_EQ(s.data, (nlohmann::json{{"name", "review"}}));
}

TEST(Signal, JsonHasTheFiveFieldsInOrder) {
  Signal s{"id-1", "command.failed", "/dispatcher", "2025-01-31T09:15:02.000000Z", {{"error", "boom"}}};
  EXPECT_EQ(
      s.to_json().dump(),
      R"({"id":"id-1","type":"command.failed","source":"/dispatcher","time":"2025-01-31T09:15:02.000000Z","data":{"error":"boom"}})");
}

TEST(SignalPattern, StarMatchesOneSegmentAndDoubleStarAny) {
  EXPECT_TRUE(ptc::signal_pattern_matches("command.*", "command.invoke"));
  EXPECT_TRUE(ptc::signal_pattern_matches("command.*", "command.failed"));
  EXPECT_FALSE(ptc::signal_pattern_matches("command.*", "command.registry.reloaded"));
  EXPECT_FALSE(ptc::signal_pattern_matches("command.*", "command"));
  EXPECT_TRUE(ptc::signal_pattern_matches("command.**", "command.registry.reloaded"));
  EXPECT_TRUE(ptc::signal_pattern_matches("**", "jido.hooks.pre"));
  EXPECT_TRUE(ptc::signal_pattern_matches("*.hooks.*", "jido.hooks.after"));
  EXPECT_TRUE(ptc::signal_pattern_matches("command.invoke", "command.invoke"));
  EXPECT_FALSE(ptc::signal_pattern_matches("command.invoke", "command.invoked"));
}

TEST(SignalPattern, MalformedPatternsAreRefused) {
  EXPECT_EQ(ptc::signal_pattern_error(""), "signal pattern must not be empty");
  EXPECT_EQ(ptc::signal_pattern_error("command..x"), "signal pattern 'command..x' has an empty segment");
  SignalBus bus;
  EXPECT_THROW(bus.subscribe("command.", [](const Signal&) {}), ptc::Exception);
}

TEST(SignalBus, DeliversMatchingSignalsInSubscriptionOrder) {
  SignalBus bus;
  std::vector<std::string> seen;
  bus.subscribe("command.*", [&](const Signal& s) { seen.push_back("a:" + s.type); });
  bus.subscribe("jido.**", [&](const Signal& s) { seen.push_back("b:" + s.type); });
  bus.subscribe("**", [&](const Signal& s) { seen.push_back("c:" + s.type); });
  bus.publish(Signal::make("command.invoke", "/t"));
  bus.publish(Signal::make("jido.hooks.pre", "/t"));
  EXPECT_THAT(seen, ElementsAre("a:command.invoke", "c:command.invoke", "b:jido.hooks.pre", "c:jido.hooks.pre"));
}

TEST(SignalBus, ASignalPublishedWhileDeliveringReachesEveryoneAfterTheCurrentOne) {
  SignalBus bus;
  std::vector<std::string> first, last;
  bus.subscribe("**", [&](const Signal& s) { first.push_back(s.type); });
  bus.subscribe("command.invoke", [&](const Signal&) { bus.publish(Signal::make("command.failed", "/t")); });
  bus.subscribe("**", [&](const Signal& s) { last.push_back(s.type); });
  bus.publish(Signal::make("command.invoke", "/t"));
  EXPECT_THAT(first, ElementsAre("command.invoke", "command.failed"));
  EXPECT_THAT(last, ElementsAre("command.invoke", "command.failed"));
}

TEST(SignalBus, UnsubscribedHandlersStopReceiving) {
  SignalBus bus;
  int calls = 0;
  auto id = bus.subscribe("**", [&](const Signal&) { ++calls; });
  bus.publish(Signal::make("a", "/t"));
  EXPECT_TRUE(bus.unsubscribe(id));
  EXPECT_FALSE(bus.unsubscribe(id));
  bus.publish(Signal::make("a", "/t"));
  EXPECT_EQ(calls, 1);
}

TEST(SignalBus, AThrowingSubscriberIsReportedAndTheOthersStillRun) {
  std::vector<std::string> errors;
  SignalBus bus({"bus", {}, [&](const Signal& s, const std::string& e) { errors.push_back(s.type + ": " + e); }});
  int after = 0;
  bus.subscribe("**", [](const Signal&) { throw std::runtime_error("boom"); });
  bus.subscribe("**", [&](const Signal&) { ++after; });
  bus.publish(Signal::make("command.invoke", "/t"));
  EXPECT_EQ(after, 1);
  EXPECT_THAT(errors, ElementsAre("command.invoke: boom"));
}

TEST(LoggerMiddleware, LogsEverySignalAtItsLevelBeforeSubscribersRun) {
  std::vector<std::string> lines;
  auto sink = [&](LogLevel level, const std::string& line) {
    lines.push_back(std::string(ptc::log_level_name(level)) + " " + line);
  };
  SignalBus bus({"bus", {std::make_shared<ptc::LoggerMiddleware>(LogLevel::Warning, sink)}, {}});
  bus.subscribe("**", [&](const Signal& s) { lines.push_back("subscriber " + s.type); });
  Signal s{"id-7", "command.completed", "/dispatcher", "t", {}};
  bus.publish(s);
  EXPECT_THAT(lines, ElementsAre("warning signal command.completed id=id-7 source=/dispatcher",
                                 "subscriber command.completed"));
  EXPECT_EQ(ptc::LoggerMiddleware(LogLevel::Debug, sink).name(), "Jido.Signal.Bus.Middleware.Logger");
}

TEST(LoggerMiddleware, LevelNamesIncludeWarnAsWarning) {
  EXPECT_EQ(ptc::log_level_from_name("debug"), LogLevel::Debug);
  EXPECT_EQ(ptc::log_level_from_name("info"), LogLevel::Info);
  EXPECT_EQ(ptc::log_level_from_name("warn"), LogLevel::Warning);
  EXPECT_EQ(ptc::log_level_from_name("warning"), LogLevel::Warning);
  EXPECT_EQ(ptc::log_level_from_name("error"), LogLevel::Error);
  EXPECT_EQ(ptc::log_level_from_name("trace"), std::nullopt);
  EXPECT_EQ(ptc::log_level_from_name("INFO"), std::nullopt);
}

TEST(SignalBus, KeepsItsName) {
  EXPECT_EQ(SignalBus().name(), "jido_code_bus");
  EXPECT_EQ(SignalBus({"other", {}, {}}).name(), "other");
}

}  // namespace
