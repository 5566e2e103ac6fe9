// ptc::compact_text: the one form of JSON text ptc writes.
#include <cstdint>
#include <limits>
#include <string>

#include <gtest/gtest.h>

#include <ptc/json_text.hpp>

namespace {

TEST(CompactText, IsTheCompactDump) {
  const nlohmann::json value = {{"b", {1, 2.5, nullptr}}, {"a", "x y"}};
  EXPECT_EQ(ptc::compact_text(value), R"({"a":"x y","b":[1,2.5,null]})");
}

TEST(CompactText, ReplacesInvalidUtf8InsteadOfThrowing) {
  const nlohmann::json value = std::string("ok\xff");
  EXPECT_THROW((void)value.dump(), nlohmann::json::type_error);
  EXPECT_EQ(ptc::compact_text(value), "\"ok\xEF\xBF\xBD\"");
}

TEST(CompactText, KeepsAnOrderedObjectsOrder) {
  nlohmann::ordered_json value;
  value["z"] = 1;
  value["a"] = 2;
  EXPECT_EQ(ptc::compact_text(value), R"({"z":1,"a":2})");
}

// compact_text writes its own bytes; nlohmann's dump is the reference they must equal.
template <class Json>
void expect_same_as_dump(const Json& value) {
  EXPECT_EQ(ptc::compact_text(value), value.dump(-1, ' ', false, Json::error_handler_t::replace)) << value.type_name();
}

TEST(CompactText, EqualsNlohmannsDumpForEveryKindOfValue) {
  const nlohmann::json values[] = {nullptr,
                                   true,
                                   false,
                                   0,
                                   -1,
                                   42,
                                   INT64_MIN,
                                   INT64_MAX,
                                   UINT64_MAX,
                                   0.0,
                                   -0.0,
                                   1.0,
                                   0.1,
                                   1e21,
                                   1e-7,
                                   -2.5e300,
                                   std::numeric_limits<double>::infinity(),
                                   std::numeric_limits<double>::quiet_NaN(),
                                   "",
                                   "plain",
                                   "é ü 中 😀",
                                   nlohmann::json::array(),
                                   nlohmann::json::object(),
                                   {{"k", {1, {{"n", nullptr}}, "x"}}, {"a", nlohmann::json::array()}},
                                   nlohmann::json::binary({1, 2, 3})};
  for (const auto& v : values) {
    expect_same_as_dump(v);
    expect_same_as_dump(nlohmann::ordered_json(v));
  }
}

TEST(CompactText, EscapesWhatJsonEscapesAndNothingElse) {
  std::string every;
  for (int c = 0; c < 0x80; ++c) every += static_cast<char>(c);
  expect_same_as_dump(nlohmann::json(every));
  EXPECT_EQ(ptc::compact_text(nlohmann::json(std::string("a\"b\\c\x01\x1f\x7f/", 9))), R"("a\"b\\c\u0001\u001f)"
                                                                                       "\x7f/\"");
  nlohmann::json keyed;
  keyed["line\nbreak"] = "tab\there";
  EXPECT_EQ(ptc::compact_text(keyed), R"({"line\nbreak":"tab\there"})");
}

TEST(CompactText, MalformedUtf8IsReplacedAsNlohmannReplacesIt) {
  const std::string cases[] = {
      "\x80",               // a lone continuation byte
      "a\xC0\x80z",         // an overlong NUL
      "\xC1\xBF",           // overlong
      "\xE0\x80\x80",       // overlong three bytes
      "\xED\xA0\x80",       // a surrogate
      "\xF4\x90\x80\x80",   // past U+10FFFF
      "\xF5\x80\x80\x80",   // no such lead byte
      "ok\xE2\x82",         // cut short at the end
      "\xE2\x82z\xF0\x9F",  // cut short twice
      "\xFF\xFE",           // never UTF-8
      "\xC3\xA9\xC3",       // a good character, then half of one
      "\xF0\x9F\x98\x80\x80",
  };
  for (const auto& s : cases) {
    expect_same_as_dump(nlohmann::json(s));
    nlohmann::ordered_json keyed;
    keyed[s] = s;
    expect_same_as_dump(keyed);
  }
  EXPECT_EQ(ptc::compact_text(nlohmann::json(std::string("\xED\xA0\x80"))), "\"\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD\"");
}

TEST(CompactText, AppendsToWhatIsThere) {
  std::string out = "body=";
  ptc::append_compact_text(nlohmann::ordered_json{{"z", 1}, {"a", "b"}}, out);
  EXPECT_EQ(out, R"(body={"z":1,"a":"b"})");
}

TEST(PlainText, IsAStringsOwnCharactersAndAnyOtherValuesCompactText) {
  EXPECT_EQ(ptc::plain_text(nlohmann::json("a \"b\"")), "a \"b\"");
  EXPECT_EQ(ptc::plain_text(nlohmann::json("")), "");
  EXPECT_EQ(ptc::plain_text(nlohmann::json({{"k", "v"}})), R"({"k":"v"})");
  EXPECT_EQ(ptc::plain_text(nlohmann::json(nullptr)), "null");
  EXPECT_EQ(ptc::plain_text(nlohmann::json(std::string("x\xff"))), "x\xff");  // a string's bytes as they are
}

}  // namespace
