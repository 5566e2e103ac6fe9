// ptc::LazyJson: a value known by its text is parsed only when read as JSON, once, from any thread.
#include <atomic>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include <ptc/lazy_json.hpp>

namespace {

using json = nlohmann::json;

TEST(LazyJson, DefaultIsNullAndNeedsNoParse) {
  const ptc::LazyJson value;
  EXPECT_TRUE(value.materialized());
  EXPECT_TRUE(value->is_null());
  EXPECT_EQ(value.dump(), "null");
  EXPECT_EQ(value.text(), nullptr);
}

TEST(LazyJson, TextIsKeptAndParsedOnlyWhenRead) {
  const auto value = ptc::LazyJson::from_text(R"({"a":[1,2.5,"x"]})");
  EXPECT_FALSE(value.materialized());
  ASSERT_NE(value.text(), nullptr);
  EXPECT_EQ(*value.text(), R"({"a":[1,2.5,"x"]})");
  EXPECT_EQ(value.dump(), R"({"a":[1,2.5,"x"]})");  // the text itself, still unparsed
  EXPECT_FALSE(value.materialized());
  EXPECT_EQ((*value)["a"][2], "x");
  EXPECT_TRUE(value.materialized());
  EXPECT_EQ(&value.json(), &value.json());  // parsed once
}

TEST(LazyJson, CopiesShareTheParse) {
  const auto first = ptc::LazyJson::from_text("[1,2]");
  const ptc::LazyJson second = first;
  EXPECT_EQ(second->size(), 2u);
  EXPECT_TRUE(first.materialized());
  EXPECT_EQ(&first.json(), &second.json());
}

TEST(LazyJson, FromAValueDumpsItCompactlyWithInvalidUtf8Replaced) {
  const ptc::LazyJson value(json{{"b", 1}, {"a", std::string("x\xff")}});
  EXPECT_TRUE(value.materialized());
  EXPECT_EQ(value.text(), nullptr);
  EXPECT_EQ(value.dump(), "{\"a\":\"x\xef\xbf\xbd\",\"b\":1}");
}

TEST(LazyJson, ComparesAndPrintsAsItsValue) {
  EXPECT_EQ(ptc::LazyJson::from_text("{\"a\": 1}"), (json{{"a", 1}}));
  EXPECT_TRUE(ptc::LazyJson::from_text("[1]") == ptc::LazyJson(json::array({1})));
  EXPECT_FALSE(ptc::LazyJson::from_text("1") == json(2));
  std::ostringstream out;
  out << ptc::LazyJson::from_text("[true]");
  EXPECT_EQ(out.str(), "[true]");
  const ptc::LazyJson three(json(3));
  const json& as_json = three;  // reads as const nlohmann::json&
  EXPECT_EQ(as_json, 3);
}

TEST(LazyJson, ManyThreadsReadingTheFirstTimeGetOneValue) {
  const auto value = ptc::LazyJson::from_text(R"({"k":"v"})");
  std::vector<const json*> seen(8);
  std::vector<std::thread> threads;
  for (std::size_t i = 0; i < seen.size(); ++i) threads.emplace_back([&, i] { seen[i] = &value.json(); });
  for (auto& t : threads) t.join();
  for (const json* p : seen) EXPECT_EQ(p, seen[0]);
  EXPECT_EQ((*seen[0])["k"], "v");
}

TEST(LazyJson, ADeferredSourceIsWrittenOnceAndThenReleased) {
  auto source = std::make_shared<const std::string>("[1,2]");
  const std::weak_ptr<const std::string> watch = source;
  static int writes = 0;
  writes = 0;
  const auto value = ptc::LazyJson::deferred(std::move(source), [](const void* s) {
    ++writes;
    return *static_cast<const std::string*>(s);
  });
  EXPECT_FALSE(watch.expired());  // kept until the text is needed
  const ptc::LazyJson copy = value;
  ASSERT_NE(value.text(), nullptr);
  EXPECT_EQ(*value.text(), "[1,2]");
  EXPECT_EQ(copy.text(), value.text());
  EXPECT_EQ(writes, 1);
  EXPECT_TRUE(watch.expired());
  EXPECT_EQ(copy.json(), json::array({1, 2}));
}

TEST(LazyJson, AWriterThatThrowsIsTriedAgainByTheNextReader) {
  int calls = 0;
  const auto value = ptc::LazyJson::deferred([&calls]() -> std::string {
    if (++calls == 1) throw std::runtime_error("not yet");
    return "7";
  });
  EXPECT_THROW(value.text(), std::runtime_error);
  ASSERT_NE(value.text(), nullptr);
  EXPECT_EQ(*value.text(), "7");
  EXPECT_EQ(value.json(), 7);
  EXPECT_EQ(calls, 2);
}

TEST(LazyJson, ManyThreadsReadingADeferredValueRunItsWriterOnce) {
  std::atomic<int> writes{0};
  const auto value = ptc::LazyJson::deferred([&writes] {
    ++writes;
    return std::string(R"({"k":[1,2,3]})");
  });
  std::vector<const json*> seen(8);
  std::vector<const std::string*> texts(8);
  std::vector<std::thread> threads;
  for (std::size_t i = 0; i < seen.size(); ++i)
    threads.emplace_back([&, i] {
      // Half ask for the value first, half for the text first: both take the same lock.
      if (i % 2) {
        seen[i] = &value.json();
        texts[i] = value.text();
      } else {
        texts[i] = value.text();
        seen[i] = &value.json();
      }
    });
  for (auto& t : threads) t.join();
  EXPECT_EQ(writes.load(), 1);
  for (std::size_t i = 0; i < seen.size(); ++i) {
    EXPECT_EQ(seen[i], seen[0]);
    EXPECT_EQ(texts[i], texts[0]);
  }
  EXPECT_EQ((*seen[0])["k"], json::array({1, 2, 3}));
}

}  // namespace
