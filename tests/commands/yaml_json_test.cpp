// YAML frontmatter as JSON: the core schema's scalars, keys compared as text, and hostile input
// (alias bombs, deep nesting, numbers beyond 64 bits, bytes that are not UTF-8) refused with an error.
#include <chrono>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "yaml_json.hpp"

namespace {

using nlohmann::ordered_json;
using ptc::commands::parse_yaml;
using testing::HasSubstr;
using testing::StartsWith;

ordered_json yaml(const std::string& text) {
  auto parsed = parse_yaml(text);
  EXPECT_TRUE(parsed) << parsed.error().message;
  return parsed ? *parsed : ordered_json(ordered_json::value_t::discarded);
}

std::string error_of(const std::string& text) {
  auto parsed = parse_yaml(text);
  return parsed ? "accepted: " + parsed->dump() : parsed.error().message;
}

TEST(YamlJson, MapsKeepTheirOrder) {
  EXPECT_EQ(yaml("z: 1\na: 2\nm: 3\n").dump(), R"({"z":1,"a":2,"m":3})");
  EXPECT_EQ(yaml("{b: [1, {c: d}], a: {}}").dump(), R"({"b":[1,{"c":"d"}],"a":{}})");
}

TEST(YamlJson, PlainScalarsResolveByTheCoreSchema) {
  const auto v = yaml(
      "int: 42\nneg: -7\nplus: +5\nlead: 012\nhex: 0x1F\noct: 0o17\nf: 1.5\nexp: -1.5e3\ndot: .5\ntrail: 1.\n"
      "t: true\nT: True\nF: FALSE\nyes: yes\non: on\nn1: null\nn2: ~\nn3:\ntext: hello world\n");
  EXPECT_EQ(v["int"], 42);
  EXPECT_EQ(v["neg"], -7);
  EXPECT_EQ(v["plus"], 5);
  EXPECT_EQ(v["lead"], 12);
  EXPECT_EQ(v["hex"], 31);
  EXPECT_EQ(v["oct"], 15);
  EXPECT_EQ(v["f"], 1.5);
  EXPECT_EQ(v["exp"], -1500.0);
  EXPECT_TRUE(v["exp"].is_number_float());
  EXPECT_EQ(v["dot"], 0.5);
  EXPECT_EQ(v["trail"], 1.0);
  EXPECT_TRUE(v["trail"].is_number_float());
  EXPECT_EQ(v["t"], true);
  EXPECT_EQ(v["T"], true);
  EXPECT_EQ(v["F"], false);
  EXPECT_EQ(v["yes"], "yes");
  EXPECT_EQ(v["on"], "on");
  EXPECT_TRUE(v["n1"].is_null());
  EXPECT_TRUE(v["n2"].is_null());
  EXPECT_TRUE(v["n3"].is_null());
  EXPECT_EQ(v["text"], "hello world");
}

TEST(YamlJson, WhatIsAlmostANumberStaysText) {
  const auto v = yaml(
      "a: 0x\nb: 0xG1\nc: 1_000\nd: '42'\ne: \"1.5\"\nf: 1e\ng: .\nh: +\ni: 0o8\nj: -0x10\nk: 1.2.3\nl: .infinity\n"
      "m: -.nan\n");
  EXPECT_EQ(v["a"], "0x");
  EXPECT_EQ(v["b"], "0xG1");
  EXPECT_EQ(v["c"], "1_000");
  EXPECT_EQ(v["d"], "42");
  EXPECT_EQ(v["e"], "1.5");
  EXPECT_EQ(v["f"], "1e");
  EXPECT_EQ(v["g"], ".");
  EXPECT_EQ(v["h"], "+");
  EXPECT_EQ(v["i"], "0o8");
  EXPECT_EQ(v["j"], "-0x10");
  EXPECT_EQ(v["k"], "1.2.3");
  EXPECT_EQ(v["l"], ".infinity");
  EXPECT_EQ(v["m"], "-.nan");
}

TEST(YamlJson, InfinitiesAndNotANumber) {
  const auto v = yaml("a: .inf\nb: -.Inf\nc: +.INF\nd: .nan\ne: .NaN\n");
  EXPECT_EQ(v["a"], std::numeric_limits<double>::infinity());
  EXPECT_EQ(v["b"], -std::numeric_limits<double>::infinity());
  EXPECT_EQ(v["c"], std::numeric_limits<double>::infinity());
  EXPECT_TRUE(v["d"].is_number_float() && v["d"].get<double>() != v["d"].get<double>());
  EXPECT_TRUE(v["e"].is_number_float() && v["e"].get<double>() != v["e"].get<double>());
}

TEST(YamlJson, IntegersUpTo64BitsKeepEveryDigit) {
  const auto v = yaml(
      "max: 9223372036854775807\nabove: 9223372036854775808\numax: 18446744073709551615\n"
      "min: -9223372036854775808\nhex: 0xFFFFFFFFFFFFFFFF\n");
  EXPECT_EQ(v["max"], std::numeric_limits<std::int64_t>::max());
  EXPECT_TRUE(v["above"].is_number_unsigned());
  EXPECT_EQ(v["above"].get<std::uint64_t>(), std::uint64_t{9223372036854775808u});
  EXPECT_EQ(v["umax"].get<std::uint64_t>(), std::numeric_limits<std::uint64_t>::max());
  EXPECT_EQ(v["min"], std::numeric_limits<std::int64_t>::min());
  EXPECT_EQ(v["hex"].get<std::uint64_t>(), std::numeric_limits<std::uint64_t>::max());
}

TEST(YamlJson, IntegersBeyond64BitsAreRefusedNotRounded) {
  EXPECT_EQ(error_of("a: 18446744073709551616\n"), "a: int 18446744073709551616 is beyond 64 bits");
  EXPECT_EQ(error_of("a: -9223372036854775809\n"), "a: int -9223372036854775809 is beyond 64 bits");
  EXPECT_EQ(error_of("l: [1, 0x10000000000000000]\n"), "l[1]: int 0x10000000000000000 is beyond 64 bits");
  const std::string huge(5000, '9');
  EXPECT_EQ(error_of("x:\n  y: " + huge + "\n"), "x.y: int " + huge + " is beyond 64 bits");
  EXPECT_EQ(error_of("a: !!int 99999999999999999999\n"), "a: int 99999999999999999999 is beyond 64 bits");
}

TEST(YamlJson, FloatsBeyondTheDoubleRangeAreInfinite) {
  const auto v = yaml("big: 1e400\nsmall: 1e-400\nlong: 0." + std::string(5000, '1') + "\n");
  EXPECT_EQ(v["big"], std::numeric_limits<double>::infinity());
  EXPECT_EQ(v["small"], 0.0);
  EXPECT_NEAR(v["long"].get<double>(), 0.111111, 1e-6);
}

TEST(YamlJson, QuotedScalarsAreText) {
  const auto v = yaml("a: 'true'\nb: \"null\"\nc: '0x1F'\nd: \"\\u00e9\\n\"\ne: 'it''s'\n");
  EXPECT_EQ(v["a"], "true");
  EXPECT_EQ(v["b"], "null");
  EXPECT_EQ(v["c"], "0x1F");
  EXPECT_EQ(v["d"], "\xc3\xa9\n");
  EXPECT_EQ(v["e"], "it's");
}

TEST(YamlJson, CoreTagsResolveTheirTextOrFail) {
  const auto v = yaml("a: !!int \"42\"\nb: !!str 42\nc: !!bool 'false'\nd: !!float 2\ne: !custom 7\n");
  EXPECT_EQ(v["a"], 42);
  EXPECT_EQ(v["b"], "42");
  EXPECT_EQ(v["c"], false);
  EXPECT_EQ(v["d"], 2);  // the text resolves as the core schema reads it
  EXPECT_EQ(v["e"], "7");
  EXPECT_EQ(error_of("a: !!int x\n"), "a: \"x\" is not a value of tag tag:yaml.org,2002:int");
  EXPECT_EQ(error_of("a: [!!bool maybe]\n"), "a[0]: \"maybe\" is not a value of tag tag:yaml.org,2002:bool");
}

TEST(YamlJson, KeysAreComparedAsText) {
  EXPECT_EQ(error_of("a: 1\nb: 2\na: 3\n"), "duplicate key a");
  EXPECT_EQ(error_of("1: a\n\"1\": b\n"), "conflicting keys 1 and \"1\"");
  EXPECT_EQ(error_of("x:\n  y: 1\n  y: 2\n"), "x: duplicate key y");
  EXPECT_EQ(error_of("l:\n  - {k: 1, k: 2}\n"), "l[0]: duplicate key k");
  EXPECT_EQ(error_of("? [a, b]\n: 1\n? [a, b]\n: 2\n"), "duplicate key [a, b]");
  // The first repeat in the order written, whatever the keys sort as.
  EXPECT_EQ(error_of("b: 1\na: 1\na: 2\nb: 2\n"), "duplicate key a");
  EXPECT_EQ(yaml("? [a, {b: c}]\n: 1\n").dump(), R"({"[a, {b: c}]":1})");
  EXPECT_EQ(yaml("1: one\ntrue: t\n~: n\n").dump(), R"({"1":"one","true":"t","null":"n"})");
}

TEST(YamlJson, KeysInMessagesCannotStartALine) {
  EXPECT_EQ(error_of("\"a\\nb\": 1\n\"a\\nb\": 2\n"), "duplicate key \"a\\nb\"");
  EXPECT_EQ(error_of("\"x\\ry\":\n  k: 1\n  k: 2\n"), "[\"x\\ry\"]: duplicate key k");
}

TEST(YamlJson, AnAliasIsACopyOfItsAnchor) {
  const auto v = yaml("a: &x [1, {b: 2}]\nc: *x\nd: &s text\ne: *s\nf: &x 3\ng: *x\n");
  EXPECT_EQ(v["c"].dump(), R"([1,{"b":2}])");
  EXPECT_EQ(v["e"], "text");
  EXPECT_EQ(v["g"], 3);  // an anchor defined again names its latest value
}

TEST(YamlJson, AnUnknownOrSelfReferringAliasIsAnError) {
  EXPECT_THAT(error_of("a: *nope\n"), StartsWith("invalid YAML: "));
  // A cycle, which JSON cannot hold: refused, not cut short with a null.
  EXPECT_EQ(error_of("a: &a [1, *a]\n"), "a[1]: an alias refers to the collection it is inside");
  EXPECT_EQ(error_of("a: &a {k: [*a]}\n"), "a.k[0]: an alias refers to the collection it is inside");
}

TEST(YamlJson, NestedAliasesAreCountedAsExpanded) {
  std::string text = "a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n";
  for (int i = 1; i <= 9; ++i) {
    text += "a" + std::to_string(i) + ": &a" + std::to_string(i) + " [";
    for (int k = 0; k < 10; ++k) text += (k ? ", *a" : "*a") + std::to_string(i - 1);
    text += "]\n";
  }
  const auto start = std::chrono::steady_clock::now();
  EXPECT_EQ(error_of(text), "frontmatter has more than 100000 values once YAML aliases are expanded");
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5));
}

TEST(YamlJson, ALongTextCopiedByManyAliasesIsRefused) {
  // Few values but gigabytes of text once expanded: 64 KiB times 60000 aliases.
  std::string text = "s: &s " + std::string(64 << 10, 'x') + "\nl: [*s";
  for (int i = 1; i < 60000; ++i) text += ",*s";
  text += "]\n";
  const auto start = std::chrono::steady_clock::now();
  EXPECT_EQ(error_of(text), "frontmatter has more than 4194304 bytes of text once YAML aliases are expanded");
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5));
  // Keys count too: an alias used as a key is copied into the key's text.
  std::string keys = "s: &s " + std::string(64 << 10, 'k') + "\nl:\n";
  for (int i = 0; i < 100; ++i) keys += "  - *s : " + std::to_string(i) + "\n";
  EXPECT_EQ(error_of(keys), "frontmatter has more than 4194304 bytes of text once YAML aliases are expanded");
}

TEST(YamlJson, TheValueCountIsExact) {
  const auto list = [](int n) {
    std::string s = "[";
    for (int i = 0; i < n; ++i) s += i ? ",1" : "1";
    return s + "]";
  };
  EXPECT_EQ(yaml(list(99999)).size(), 99999u);  // the list and its items: 100000 values
  EXPECT_EQ(error_of(list(100000)), "frontmatter has more than 100000 values once YAML aliases are expanded");
}

TEST(YamlJson, NestingIsBoundedWhateverTheStyle) {
  EXPECT_EQ(yaml(std::string(128, '[') + std::string(128, ']')).dump(), std::string(128, '[') + std::string(128, ']'));
  EXPECT_EQ(error_of(std::string(129, '[') + std::string(129, ']')), "frontmatter nests deeper than 128 levels");
  EXPECT_EQ(error_of(std::string(100000, '[') + std::string(100000, ']')), "frontmatter nests deeper than 128 levels");
  EXPECT_EQ(error_of(std::string(100000, '{')), "frontmatter nests deeper than 128 levels");
  std::string block;
  for (int i = 0; i < 200; ++i) block += std::string(i, ' ') + "k:\n";
  EXPECT_EQ(error_of(block), "frontmatter nests deeper than 128 levels");
}

TEST(YamlJson, MalformedTextIsAnErrorWithItsPosition) {
  auto unclosed = parse_yaml("a: 1\nb: [1, 2\n");
  ASSERT_FALSE(unclosed);
  EXPECT_THAT(unclosed.error().message, StartsWith("invalid YAML: "));
  EXPECT_GT(unclosed.error().line, 0u);

  auto map_value = parse_yaml("a: 1\nb: c: d\n");
  ASSERT_FALSE(map_value);
  EXPECT_EQ(map_value.error().message, "invalid YAML: illegal map value");
  EXPECT_EQ(map_value.error().line, 2u);
  EXPECT_EQ(map_value.error().column, 5u);

  for (const char* text : {"a: \"open", "a: 'open", "[1, 2", "{a: 1", "a: 1\n- b\n", "a: 1\n]\n", "a:\n  - b\n c: 1\n"})
    EXPECT_FALSE(parse_yaml(text)) << text;
}

TEST(YamlJson, ControlCharactersInYamlCppMessagesAreEscaped) {
  const std::string message = error_of("a: \"\\\x01\"\n");
  EXPECT_EQ(message, "invalid YAML: unknown escape character: \\u0001");
  EXPECT_EQ(message.find('\x01'), std::string::npos);
}

TEST(YamlJson, EmptyAndScalarDocuments) {
  EXPECT_TRUE(yaml("").is_null());
  EXPECT_TRUE(yaml("# only a comment\n").is_null());
  EXPECT_EQ(yaml("just text"), "just text");
  EXPECT_EQ(yaml("- 1\n- two\n").dump(), R"([1,"two"])");
  EXPECT_EQ(yaml("a: 1\n---\nb: 2\n").dump(), R"({"a":1})");  // the first document only
}

// JSON holds UTF-8 only: a byte yaml-cpp passed through would make every later dump of the value throw.
TEST(YamlJson, BytesThatAreNotUtf8AreRefusedWhereTheyAre) {
  const auto position = [](const std::string& text) {
    auto parsed = parse_yaml(text);
    if (parsed) return std::string("accepted");
    return parsed.error().message + " @" + std::to_string(parsed.error().line) + ":" +
           std::to_string(parsed.error().column);
  };
  EXPECT_EQ(position("a: \xff\xfe\n"), "invalid YAML: invalid UTF-8 @1:4");
  EXPECT_EQ(position("a: 1\nb: \"x\xc3\"\n"), "invalid YAML: invalid UTF-8 @2:6");  // a sequence cut short
  EXPECT_EQ(position("\xc3\x28: 1\n"), "invalid YAML: invalid UTF-8 @1:1");
  EXPECT_EQ(position("a: \xc0\xaf\n"), "invalid YAML: invalid UTF-8 @1:4");      // overlong
  EXPECT_EQ(position("a: \xed\xa0\x80\n"), "invalid YAML: invalid UTF-8 @1:4");  // a surrogate
  EXPECT_EQ(position("# \xff in a comment\na: 1\n"), "invalid YAML: invalid UTF-8 @1:3");
  EXPECT_EQ(position("\xff\xfe"
                     "a\0:\0 \0001\0"),
            "invalid YAML: invalid UTF-8 @1:1");  // UTF-16 is not read
  EXPECT_EQ(yaml("a: \xc3\xa9\xf0\x9f\x99\x82\n")["a"], "\xc3\xa9\xf0\x9f\x99\x82");
  EXPECT_EQ(yaml("a: \"\\xff\\u00e9\"\n")["a"], "\xc3\xbf\xc3\xa9");  // escapes are written as UTF-8
  EXPECT_EQ(yaml("\xef\xbb\xbf"
                 "a: 1\n")
                .dump(),
            R"({"a":1})");  // a byte order mark is skipped
}

TEST(YamlJson, AnEscapeOfASurrogateIsRefused) {
  EXPECT_THAT(error_of("a: \"\\ud800\"\n"), StartsWith("invalid YAML: "));
}

}  // namespace
