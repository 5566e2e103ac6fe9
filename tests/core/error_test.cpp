// ptc::Error and ptc::Result: the error's text, and Result's std::expected-like members.

#include <ptc/error.hpp>

#include <gtest/gtest.h>

#include <string>

namespace {

ptc::Result<int> parse_digit(const std::string& s) {
  if (s.size() == 1 && s[0] >= '0' && s[0] <= '9') return s[0] - '0';
  return ptc::Error{"expected a digit", 1, 1};
}

ptc::Result<int> halve(int n) {
  if (n % 2 != 0) return ptc::Error{"odd: " + std::to_string(n)};
  return n / 2;
}

TEST(ErrorTest, ToStringNamesThePlace) {
  EXPECT_EQ((ptc::Error{"expected ':'", 1, 7}).to_string(), "column 7: expected ':'");
  EXPECT_EQ((ptc::Error{"expected ':'", 2, 7}).to_string(), "line 2, column 7: expected ':'");
  EXPECT_EQ((ptc::Error{"no position"}).to_string(), "no position");
}

TEST(ResultTest, HasValueAgreesWithOkAndBool) {
  const auto good = parse_digit("7");
  const auto bad = parse_digit("x");
  EXPECT_TRUE(good.has_value());
  EXPECT_TRUE(good.ok());
  EXPECT_TRUE(static_cast<bool>(good));
  EXPECT_FALSE(bad.has_value());
  EXPECT_FALSE(bad.ok());
  EXPECT_FALSE(static_cast<bool>(bad));
  EXPECT_EQ(bad.error().message, "expected a digit");
}

TEST(ResultTest, ValueOrGivesTheFallbackOnlyWithoutAValue) {
  EXPECT_EQ(parse_digit("7").value_or(-1), 7);
  EXPECT_EQ(parse_digit("x").value_or(-1), -1);
  ptc::Result<std::string> text = std::string("kept");
  EXPECT_EQ(std::move(text).value_or("fallback"), "kept");
  ptc::Result<std::string> none = ptc::Error{"gone"};
  EXPECT_EQ(std::move(none).value_or("fallback"), "fallback");
}

TEST(ResultTest, AndThenChainsAndStopsAtTheFirstError) {
  const auto four = parse_digit("8").and_then(halve);
  ASSERT_TRUE(four.has_value());
  EXPECT_EQ(*four, 4);
  const auto odd = parse_digit("7").and_then(halve);
  ASSERT_FALSE(odd.has_value());
  EXPECT_EQ(odd.error().message, "odd: 7");
  int calls = 0;
  const auto not_digit = parse_digit("x").and_then([&](int n) {
    ++calls;
    return halve(n);
  });
  EXPECT_EQ(calls, 0);
  ASSERT_FALSE(not_digit.has_value());
  EXPECT_EQ(not_digit.error(), (ptc::Error{"expected a digit", 1, 1}));
}

TEST(ResultTest, TransformMapsTheValueAndKeepsTheError) {
  const ptc::Result<std::string> shown = parse_digit("3").transform([](int n) { return std::to_string(n * 10); });
  ASSERT_TRUE(shown.has_value());
  EXPECT_EQ(*shown, "30");
  const ptc::Result<std::string> failed = parse_digit("?").transform([](int n) { return std::to_string(n); });
  ASSERT_FALSE(failed.has_value());
  EXPECT_EQ(failed.error().column, 1u);
}

TEST(ResultTest, ValueWithoutOneThrowsTheError) {
  const auto bad = parse_digit("x");
  try {
    (void)bad.value();
    FAIL() << "value() returned without a value";
  } catch (const ptc::Exception& e) {
    EXPECT_EQ(e.error().message, "expected a digit");
    EXPECT_STREQ(e.what(), "column 1: expected a digit");
  }
}

}  // namespace
