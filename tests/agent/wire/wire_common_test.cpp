// The helpers every wire format shares (src/wire/wire_common.cpp). read_json must read exactly what
// ptc::parse_json reads, and fail where it fails with its error, though it reads with simdjson first.

#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <ptc/json_input.hpp>

#include "wire/wire_common.hpp"

namespace {

using ptc::agent::detail::wire::read_json;

void expect_read_as_parse_json(const std::string& text) {
  const auto ours = read_json(text);
  const auto reference = ptc::parse_json(text);
  ASSERT_EQ(ours.has_value(), reference.has_value()) << text;
  if (reference) {
    // dump, not ==: nlohmann's == takes 1 and 1.0 for equal, and their kinds must match too.
    EXPECT_EQ(ours->dump(), reference->dump()) << text;
  } else {
    EXPECT_EQ(ours.error().message, reference.error().message) << text;
    EXPECT_EQ(ours.error().column, reference.error().column) << text;
  }
}

TEST(ReadJson, ReadsWhatParseJsonReads) {
  const std::vector<std::string> texts = {
      R"({"id":"chatcmpl-1","choices":[{"index":0,"message":{"content":null,"tool_calls":[]}}],"usage":{"prompt_tokens":64}})",
      R"([1,-1,0,-0,1.0,-0.0,2.5e-3,1E5,18446744073709551615,-9223372036854775808,9223372036854775808])",
      R"({"s":"tab\there \u00e9 \ud83d\ude00 \"q\" \\ \/","e":"","n":null,"t":true,"f":false,"o":{},"a":[]})",
      "\"caf\xC3\xA9\"",
      "  {\"a\" : [ 1 , 2 ] }  ",
      "1",
      "null",
      "\"s\"",
      "[[[[[[[[[[]]]]]]]]]]",
  };
  for (const auto& t : texts) expect_read_as_parse_json(t);
}

TEST(ReadJson, RefusesWhatParseJsonRefusesWithItsError) {
  const std::vector<std::string> texts = {
      "",
      "   ",
      "{} x",
      "{}{}",
      "{\"a\":1,\"a\":2}",
      "{\"o\":{\"k\":1,\"k\":1}}",
      "[1,]",
      "{\"a\"}",
      "01",
      "-",
      "1.",
      "NaN",
      "[1e400]",
      "[-1e400]",
      "18446744073709551616",
      "-9223372036854775809",
      "\"\\ud800\"",
      "\"\\udc00x\"",
      "\"a\xFFz\"",
      "\"\xED\xA0\x80\"",
      std::string("\"a\0b\"", 5),
      "\"line\nbreak\"",
      "\xEF\xBB\xBF{}",
      "{\"a\":tru}",
      std::string(600, '[') + std::string(600, ']'),
      "[" + std::string(200, '{') + "}",
  };
  for (const auto& t : texts) expect_read_as_parse_json(t);
}

TEST(ReadJson, NestingAtTheLimitIsReadAndOneDeeperIsRefused) {
  for (std::size_t depth : {ptc::kMaxJsonDepth - 1, ptc::kMaxJsonDepth, ptc::kMaxJsonDepth + 1})
    expect_read_as_parse_json(std::string(depth, '[') + std::string(depth, ']'));
}

}  // namespace
