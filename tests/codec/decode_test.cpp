// Decoding JSON text into C++ types with ptc::codec (docs/codecs.md): the validator's rules, paths and
// texts, per type and mode, and what only C++ types add (ranges of narrow integers, std::array's
// length, time formats).

#include <cmath>
#include <stdexcept>
#include <algorithm>
#include <array>
#include <chrono>
#include <cstdint>
#include <deque>
#include <list>
#include <map>
#include <memory>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <thread>
#include <tuple>
#include <unordered_map>
#include <unordered_set>
#include <variant>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <ptc/codec/codec.hpp>
#include <ptc/json_input.hpp>
#include <ptc/signature.hpp>

#include "shop_codec.hpp"

namespace shop {

struct Query {
  std::string text;
  std::int32_t limit = 0;
  Status status = Status::open;
  std::vector<Item> items;
};

// Fields f000, f001, ...: 130 is more than one word of the decoder's bookkeeping holds; 64 is the most
// fields whose keys, out of order, are looked up by their first byte rather than in turn.
template <std::size_t N>
struct Wide {
  std::array<std::int64_t, N> v{};
};
constexpr auto kWideNames = [] {
  std::array<std::array<char, 4>, 130> names{};
  for (std::size_t i = 0; i < names.size(); ++i)
    names[i] = {'f', static_cast<char>('0' + i / 100), static_cast<char>('0' + i / 10 % 10),
                static_cast<char>('0' + i % 10)};
  return names;
}();

// One field per name length from 0 to 17 bytes: "", "a", "ab", ..., around the eight bytes the decoder
// compares a key in place at a time.
struct Lengths {
  std::array<std::int64_t, 18> v{};
};
constexpr std::string_view kAlphabet = "abcdefghijklmnopq";

// Names that hold a quote and a backslash: the key `a\"b` in the text is the name `a"b`, never the
// name whose bytes are the same as the key's text.
struct Odd {
  std::int64_t quote = 0;      // a"b
  std::int64_t backslash = 0;  // a\"b
};

}  // namespace shop

namespace ptc::codec {
template <>
struct StructTraits<::shop::Lengths> {
  static constexpr auto fields = [] {
    std::array<FieldInfo, 18> f{};
    for (std::size_t i = 0; i < f.size(); ++i) f[i] = {shop::kAlphabet.substr(0, i), false, false};
    return f;
  }();
  static bool decode_field(Decoder& d, std::size_t index, Value& v, ::shop::Lengths& out) {
    return Codec<std::int64_t>::decode(d, v, out.v[index]);
  }
  static void fill_default(std::size_t, ::shop::Lengths&) {}
  template <class W>
  static void encode_fields(W& w, const ::shop::Lengths& value) {
    for (std::size_t i = 0; i < fields.size(); ++i) {
      w.key(fields[i].name);
      Codec<std::int64_t>::encode(w, value.v[i]);
    }
  }
};

template <>
struct StructTraits<::shop::Odd> {
  static constexpr std::array<FieldInfo, 2> fields{{{"a\"b", false, false}, {"a\\\"b", false, false}}};
  static bool decode_field(Decoder& d, std::size_t index, Value& v, ::shop::Odd& out) {
    return Codec<std::int64_t>::decode(d, v, index == 0 ? out.quote : out.backslash);
  }
  static void fill_default(std::size_t, ::shop::Odd&) {}
  template <class W>
  static void encode_fields(W& w, const ::shop::Odd& value) {
    w.key(fields[0].name);
    Codec<std::int64_t>::encode(w, value.quote);
    w.key(fields[1].name);
    Codec<std::int64_t>::encode(w, value.backslash);
  }
};

template <std::size_t N>
struct StructTraits<::shop::Wide<N>> {
  static constexpr auto fields = [] {
    std::array<FieldInfo, N> f{};
    for (std::size_t i = 0; i < f.size(); ++i) f[i] = {std::string_view(shop::kWideNames[i].data(), 4), false, false};
    return f;
  }();
  static bool decode_field(Decoder& d, std::size_t index, Value& v, ::shop::Wide<N>& out) {
    return Codec<std::int64_t>::decode(d, v, out.v[index]);
  }
  static void fill_default(std::size_t, ::shop::Wide<N>&) {}
  template <class W>
  static void encode_fields(W& w, const ::shop::Wide<N>& value) {
    for (std::size_t i = 0; i < fields.size(); ++i) {
      w.key(fields[i].name);
      Codec<std::int64_t>::encode(w, value.v[i]);
    }
  }
};

template <>
struct StructTraits<::shop::Query> {
  static constexpr std::array<FieldInfo, 4> fields{
      {{"text", false, false}, {"limit", false, true}, {"status", false, true}, {"items", false, false}}};
  static bool decode_field(Decoder& d, std::size_t index, Value& v, ::shop::Query& out) {
    static const Schema limit = parse_malli_type("[:and :int [:>= 1] [:<= 50]]").value();
    switch (index) {
      case 0: return Codec<std::string>::decode(d, v, out.text);
      case 1: return Codec<std::int32_t>::decode(d, v, out.limit) && check(d, limit, to_json_value(out.limit));
      case 2: return Codec<::shop::Status>::decode(d, v, out.status);
      case 3: return Codec<std::vector<::shop::Item>>::decode(d, v, out.items);
    }
    return true;
  }
  static void fill_default(std::size_t index, ::shop::Query& out) {
    switch (index) {
      case 1: out.limit = 10; break;
      case 2: out.status = ::shop::Status::open; break;
    }
  }
  template <class W>
  static void encode_fields(W& w, const ::shop::Query& value) {
    w.key("text");
    Codec<std::string>::encode(w, value.text);
    w.key("limit");
    Codec<std::int32_t>::encode(w, value.limit);
    w.key("status");
    Codec<::shop::Status>::encode(w, value.status);
    w.key("items");
    Codec<std::vector<::shop::Item>>::encode(w, value.items);
  }
};
}  // namespace ptc::codec

namespace {

using json = nlohmann::json;
using ptc::Issue;
using ptc::Mode;
using ptc::Validation;
using testing::ElementsAre;
using testing::IsEmpty;

template <class T>
struct Decoded {
  T value{};
  Validation result;
};

template <class T>
Decoded<T> decode(std::string_view text, Mode mode = Mode::Enabled) {
  Decoded<T> out;
  out.result = ptc::codec::decode_text(text, out.value, mode);
  return out;
}

// Exactly one error (no warnings) and ok = false.
template <class T>
void expect_error(std::string_view text, const std::string& path, const std::string& message,
                  Mode mode = Mode::Enabled) {
  auto r = decode<T>(text, mode).result;
  EXPECT_FALSE(r.ok) << text;
  EXPECT_THAT(r.errors, ElementsAre(Issue{path, message})) << text;
  EXPECT_THAT(r.warnings, IsEmpty()) << text;
}

// ---- integers -----------------------------------------------------------------------------------

TEST(DecodeInt, ExactValues) {
  auto r = decode<std::int64_t>("42");
  EXPECT_TRUE(r.result.ok);
  EXPECT_EQ(r.value, 42);
  EXPECT_THAT(r.result.errors, IsEmpty());
  EXPECT_THAT(r.result.warnings, IsEmpty());
  EXPECT_EQ(r.result.value, json(42));
  EXPECT_EQ(decode<std::int64_t>("-9223372036854775808").value, INT64_MIN);
  EXPECT_EQ(decode<std::int64_t>("-0").value, 0);
  EXPECT_EQ(decode<std::int64_t>("  7 ").value, 7);
}

TEST(DecodeInt, QuotedIntegersAreCoercedWithAWarning) {
  auto r = decode<std::int64_t>("\"-5\"");
  EXPECT_TRUE(r.result.ok);
  EXPECT_EQ(r.value, -5);
  EXPECT_THAT(r.result.warnings, ElementsAre(Issue{"(root)", "coerced string \"-5\" to int"}));
}

TEST(DecodeInt, WhatIsNotAnInteger) {
  expect_error<std::int64_t>("42.0", "(root)", "expected int, got float 42.0");
  expect_error<std::int64_t>("1e2", "(root)", "expected int, got float 100.0");
  expect_error<std::int64_t>("\"abc\"", "(root)", "expected int, got string \"abc\"");
  expect_error<std::int64_t>("\" 42\"", "(root)", "expected int, got string \" 42\"");
  expect_error<std::int64_t>("\"007\"", "(root)", "expected int, got string \"007\"");
  expect_error<std::int64_t>("true", "(root)", "expected int, got bool true");
  expect_error<std::int64_t>("null", "(root)", "expected int, got nil");
  expect_error<std::int64_t>("[1, 2]", "(root)", "expected int, got list");
  expect_error<std::int64_t>("{\"a\": 1}", "(root)", "expected int, got map");
}

TEST(DecodeInt, BeyondInt64) {
  const std::string range = "expected int in range -9223372036854775808..9223372036854775807, got ";
  expect_error<std::int64_t>("9223372036854775808", "(root)", range + "int 9223372036854775808");
  expect_error<std::int64_t>("123456789012345678901234567890", "(root)",
                             "invalid JSON: int 123456789012345678901234567890 is beyond 64 bits at (root)");
  expect_error<std::int64_t>("1e19", "(root)", range + "float 1e+19");
  expect_error<std::int64_t>("\"99999999999999999999\"", "(root)", range + "string \"99999999999999999999\"");
  // uint64 is [:and :int [:>= 0]]: beyond int64 it says what :int says.
  expect_error<std::uint64_t>("18446744073709551615", "(root)", range + "int 18446744073709551615");
}

// Below 32 bits the range is in the schema ([:and :int [:>= -128] [:<= 127]]) and said as its
// refinements are; wider types say their range.
TEST(DecodeInt, NarrowTypesCheckTheirRange) {
  expect_error<std::int8_t>("300", "(root)", "expected value <= 127, got 300");
  expect_error<std::int8_t>("-129", "(root)", "expected value >= -128, got -129");
  expect_error<std::int16_t>("-40000", "(root)", "expected value >= -32768, got -40000");
  expect_error<std::int32_t>("2147483648", "(root)",
                             "expected int in range -2147483648..2147483647, got int 2147483648");
  expect_error<std::uint8_t>("256", "(root)", "expected value <= 255, got 256");
  expect_error<std::uint16_t>("70000", "(root)", "expected value <= 65535, got 70000");
  expect_error<std::uint32_t>("4294967296", "(root)", "expected int in range 0..4294967295, got int 4294967296");
  EXPECT_EQ(decode<std::int8_t>("-128").value, -128);
  EXPECT_EQ(decode<std::uint8_t>("255").value, 255);
  EXPECT_EQ(decode<std::uint32_t>("4294967295").value, 4294967295u);
}

TEST(DecodeInt, UnsignedTypesRefuseNegativeValuesAsTheirRefinementDoes) {
  expect_error<std::uint8_t>("-1", "(root)", "expected value >= 0, got -1");
  expect_error<std::size_t>("-7", "(root)", "expected value >= 0, got -7");
}

TEST(DecodeInt, ACoercedValueOutOfRangeKeepsItsWarning) {
  auto r = decode<std::uint8_t>("\"300\"").result;
  EXPECT_FALSE(r.ok);
  EXPECT_THAT(r.warnings, ElementsAre(Issue{"(root)", "coerced string \"300\" to int"}));
  EXPECT_THAT(r.errors, ElementsAre(Issue{"(root)", "expected value <= 255, got 300"}));
}

TEST(DecodeInt, StrictModeDoesNotCoerce) {
  expect_error<std::int64_t>("\"42\"", "(root)", "expected int, got string \"42\"", Mode::Strict);
}

// ---- floats, bools, strings, enums ----------------------------------------------------------------

TEST(DecodeFloat, IntegersWidenSilently) {
  auto r = decode<double>("5");
  EXPECT_TRUE(r.result.ok);
  EXPECT_EQ(r.value, 5.0);
  EXPECT_THAT(r.result.warnings, IsEmpty());
  EXPECT_TRUE(r.result.value.is_number_float());
  EXPECT_FALSE(std::signbit(decode<double>("-0").value)) << "-0 is the integer 0";
  EXPECT_TRUE(std::signbit(decode<double>("-0.0").value));
  EXPECT_EQ(decode<float>("0.5").value, 0.5f);
}

TEST(DecodeFloat, ManyDigitsAreReadCorrectlyRounded) {
  // simdjson 3.0.1 misreads these (simdjson#2093); the codecs must give what nlohmann gives.
  for (const char* text :
       {"0.1234567890123456789012", "-0.00000000000000000000001234567890123456789", "12345678901234567890.5",
        "1.00000000000000000000000000001e10", "0.30000000000000000000004"}) {
    const double expected = nlohmann::json::parse(text).get<double>();
    EXPECT_EQ(decode<double>(text).value, expected) << text;
    EXPECT_EQ(decode<nlohmann::json>(text).value, nlohmann::json::parse(text)) << text;
  }
}

TEST(DecodeFloat, NumericStrings) {
  auto r = decode<double>("\"3.14\"");
  EXPECT_EQ(r.value, 3.14);
  EXPECT_THAT(r.result.warnings, ElementsAre(Issue{"(root)", "coerced string \"3.14\" to float"}));
  expect_error<double>("\"3.14abc\"", "(root)", "expected float, got string \"3.14abc\"");
  expect_error<double>("\"NaN\"", "(root)", "expected float, got string \"NaN\"");
  expect_error<double>("true", "(root)", "expected float, got bool true");
}

TEST(DecodeBool, ExactlyTrueOrFalse) {
  auto r = decode<bool>("\"false\"");
  EXPECT_TRUE(r.result.ok);
  EXPECT_FALSE(r.value);
  EXPECT_THAT(r.result.warnings, ElementsAre(Issue{"(root)", "coerced string \"false\" to bool"}));
  expect_error<bool>("\"True\"", "(root)", "expected bool, got string \"True\"");
  expect_error<bool>("1", "(root)", "expected bool, got int 1");
}

TEST(DecodeString, OnlyStrings) {
  auto r = decode<std::string>(R"("caf\u00e9 \"x\"\n")");
  EXPECT_EQ(r.value, "caf\xc3\xa9 \"x\"\n");
  expect_error<std::string>("42", "(root)", "expected string, got int 42");
  expect_error<std::string>("4.5", "(root)", "expected string, got float 4.5");
}

TEST(DecodeString, LongValuesAreCutInMessages) {
  expect_error<std::int64_t>("\"" + std::string(70, 'a') + "\"", "(root)",
                             "expected int, got string \"" + std::string(64, 'a') + "...\" (70 bytes)");
}

TEST(DecodeEnum, NamesAreStrings) {
  EXPECT_EQ(decode<shop::Status>("\"closed\"").value, shop::Status::closed);
  expect_error<shop::Status>("\"medium\"", "(root)", R"(expected one of ["open", "closed"], got "medium")");
  expect_error<shop::Status>("\"Open\"", "(root)", R"(expected one of ["open", "closed"], got "Open")");
  expect_error<shop::Status>("1", "(root)", R"(expected one of ["open", "closed"], got 1)");
  expect_error<shop::Status>("null", "(root)", R"(expected one of ["open", "closed"], got nil)");
  expect_error<shop::Status>("[]", "(root)", R"(expected one of ["open", "closed"], got list)");
}

// ---- structs --------------------------------------------------------------------------------------

TEST(DecodeStruct, FieldsInAnyOrder) {
  auto r = decode<shop::Item>(R"({"title": "Fix", "assignee": "ann", "id": 7})");
  EXPECT_TRUE(r.result.ok);
  EXPECT_EQ(r.value.id, 7);
  EXPECT_EQ(r.value.title, "Fix");
  EXPECT_EQ(r.value.assignee, "ann");
  EXPECT_EQ(r.result.value, (json{{"id", 7}, {"title", "Fix"}, {"assignee", "ann"}}));
}

TEST(DecodeStruct, IssuesComeInFieldOrderWhateverTheKeyOrder) {
  auto r = decode<shop::Item>(R"({"assignee": 5, "title": 6, "id": "x"})").result;
  EXPECT_FALSE(r.ok);
  EXPECT_THAT(r.errors,
              ElementsAre(Issue{"id", "expected int, got string \"x\""}, Issue{"title", "expected string, got int 6"},
                          Issue{"assignee", "expected string, got int 5"}));
}

TEST(DecodeStruct, MissingRequiredFieldsButNotOptionalOnes) {
  auto r = decode<shop::Item>(R"({"title": "t"})").result;
  EXPECT_THAT(r.errors, ElementsAre(Issue{"id", "missing required field"}));
  auto all = decode<shop::Item>("{}").result;
  EXPECT_THAT(all.errors, ElementsAre(Issue{"id", "missing required field"}, Issue{"title", "missing required field"}));
}

TEST(DecodeStruct, NullIsFineForOptionalFieldsOnly) {
  auto r = decode<shop::Item>(R"({"id": 1, "title": "t", "assignee": null})");
  EXPECT_TRUE(r.result.ok);
  EXPECT_EQ(r.value.assignee, std::nullopt);
  EXPECT_EQ(r.result.value["assignee"], json(nullptr));
  expect_error<shop::Item>(R"({"id": null, "title": "t"})", "id", "expected int, got nil");
}

TEST(DecodeStruct, UndeclaredFieldsAreDroppedOrInStrictModeUnexpectedInKeyOrder) {
  const char* text = R"({"zeta": [1, {"deep": true}], "id": 1, "title": "t", "Alpha": null, "odd key": 2})";
  auto r = decode<shop::Item>(text);
  EXPECT_TRUE(r.result.ok);
  EXPECT_EQ(r.result.value, (json{{"id", 1}, {"title", "t"}, {"assignee", nullptr}}));
  auto strict = decode<shop::Item>(text, Mode::Strict).result;
  EXPECT_FALSE(strict.ok);
  EXPECT_THAT(strict.errors, ElementsAre(Issue{"Alpha", "unexpected field"}, Issue{"[\"odd key\"]", "unexpected field"},
                                         Issue{"zeta", "unexpected field"}));
}

// "Last wins" would let a policy reading the arguments with one parser see another value than the handler:
// a repeated key is refused, declared or not, in every mode, as ptc::parse_json refuses it.
TEST(DecodeStruct, ARepeatedKeyIsInvalidJsonInEveryMode) {
  for (Mode mode : {Mode::Enabled, Mode::WarnOnly, Mode::Strict, Mode::Disabled}) {
    auto declared = decode<shop::Item>(R"({"id": "bad", "title": "t", "id": 9})", mode).result;
    EXPECT_THAT(declared.errors, ElementsAre(Issue{"(root)", R"(invalid JSON: duplicate key "id" at (root))"}));
    auto undeclared = decode<shop::Item>(R"({"id": 1, "title": "t", "x": 1, "x": 2})", mode).result;
    EXPECT_THAT(undeclared.errors, ElementsAre(Issue{"(root)", R"(invalid JSON: duplicate key "x" at (root))"}));
  }
  auto escaped = decode<shop::Item>(R"({"id": 1, "title": "t", "\u0069d": 2})").result;
  EXPECT_THAT(escaped.errors, ElementsAre(Issue{"(root)", R"(invalid JSON: duplicate key "id" at (root))"}));
}

// As ptc::parse_json refuses it, in every mode and whatever the field's type: an int field, a float
// field (which would read the nearest double), a value nobody reads.
TEST(DecodeStruct, AnIntegerBeyond64BitsIsInvalidJsonWithItsPlace) {
  for (Mode mode : {Mode::Enabled, Mode::WarnOnly, Mode::Strict, Mode::Disabled}) {
    auto as_int = decode<shop::Item>(R"({"id": -9223372036854775809, "title": "t"})", mode).result;
    EXPECT_THAT(as_int.errors,
                ElementsAre(Issue{"(root)", "invalid JSON: int -9223372036854775809 is beyond 64 bits at id"}));
    auto unread = decode<shop::Item>(R"({"id": 1, "title": "t", "x": [18446744073709551616]})", mode).result;
    EXPECT_THAT(unread.errors,
                ElementsAre(Issue{"(root)", "invalid JSON: int 18446744073709551616 is beyond 64 bits at x[0]"}));
  }
  for (const char* token : {"18446744073709551616", "-18446744073709551616", "123456789012345678901234567890"}) {
    auto as_float = decode<double>(token).result;
    EXPECT_THAT(as_float.errors, ElementsAre(Issue{"(root)", std::string("invalid JSON: int ") + token +
                                                                 " is beyond 64 bits at (root)"}));
  }
  EXPECT_EQ(decode<double>("18446744073709551615").value, 18446744073709551615.0);
  EXPECT_EQ(decode<double>("1.8446744073709551616e19").value, 18446744073709551616.0);
}

TEST(DecodeStruct, AnEscapedKeyIsTheSameKey) {
  auto r = decode<shop::Item>(R"({"\u0069d": 3, "t\u0069tle": "t"})");
  EXPECT_TRUE(r.result.ok);
  EXPECT_EQ(r.value.id, 3);
  // Keys are read eight bytes at a time: an escape in a later word, or a quote after an escape.
  auto wide = decode<shop::Wide<130>>(R"({"f00\u0030": 7, "f12\u0039": 9, "f064": 1, "f\u0030\u00364\"": 2})");
  EXPECT_EQ(wide.value.v[0], 7);
  EXPECT_EQ(wide.value.v[129], 9);
  EXPECT_EQ(wide.value.v[64], 1);
  ASSERT_EQ(wide.result.warnings.size(), 1u);
  EXPECT_EQ(wide.result.warnings[0].path, R"(["f064\""])");
  auto later = decode<shop::Query>(R"({"items": [], "text": "q", "limit": 5, "statu\u0073": "open"})");
  EXPECT_TRUE(later.result.ok);
}

// Keys are compared with the names in place, eight bytes at a time: a key one byte shorter or longer
// than a name, or differing only in its last byte, is another key, whatever the order of the keys.
TEST(DecodeStruct, KeysAreRecognisedInPlaceWhateverTheirLength) {
  auto object = [](auto&& keys) {
    std::string text = "{";
    for (const auto& [key, value] : keys)
      text += (text.size() > 1 ? "," : "") + json(key).dump() + ":" + std::to_string(value);
    return text + "}";
  };
  std::vector<std::pair<std::string, int>> exact;
  for (std::size_t i = 0; i < 18; ++i)
    exact.emplace_back(std::string(shop::kAlphabet.substr(0, i)), static_cast<int>(i) + 100);
  for (bool reversed : {false, true}) {
    auto keys = exact;
    if (reversed) std::reverse(keys.begin(), keys.end());
    auto r = decode<shop::Lengths>(object(keys));
    EXPECT_TRUE(r.result.ok) << reversed;
    EXPECT_THAT(r.result.warnings, IsEmpty()) << reversed;
    for (std::size_t i = 0; i < 18; ++i) EXPECT_EQ(r.value.v[i], static_cast<std::int64_t>(i) + 100) << i << reversed;
  }
  for (std::size_t i = 1; i < 18; ++i) {
    const std::string name(shop::kAlphabet.substr(0, i));
    for (const std::string& other : {name + "!", name.substr(0, i - 1) + "!", "!" + name.substr(1)}) {
      auto keys = exact;
      keys.emplace_back(other, 1);
      auto r = decode<shop::Lengths>(object(keys));
      EXPECT_TRUE(r.result.ok) << other;
      ASSERT_EQ(r.result.warnings.size(), 1u) << other;
      EXPECT_THAT(r.result.warnings[0].path, testing::HasSubstr(other)) << other;
      EXPECT_EQ(r.value.v[i], static_cast<std::int64_t>(i) + 100) << other;
    }
    // The same name escaped is the same key: given twice, it is a repeated key.
    auto keys = exact;
    std::string text = object(keys);
    text.insert(text.size() - 1, ",\"\\u0061" + name.substr(1) + "\":1");
    EXPECT_THAT(decode<shop::Lengths>(text).result.errors.at(0).message,
                testing::StartsWith("invalid JSON: duplicate key"))
        << text;
  }
  // Every name is compared with the one short key of a short document: nothing is read past the
  // parser's padding (the sanitizer build would see it).
  auto short_document = decode<shop::Lengths>(R"({"!":1})").result;
  EXPECT_EQ(short_document.warnings.size(), 1u);
  EXPECT_EQ(short_document.errors.size(), 18u);
}

TEST(DecodeStruct, NamesWithAQuoteOrABackslashAreComparedUnescaped) {
  auto r = decode<shop::Odd>(R"({"a\"b": 1, "a\\\"b": 2})");
  EXPECT_TRUE(r.result.ok);
  EXPECT_EQ(r.value.quote, 1);
  EXPECT_EQ(r.value.backslash, 2);
  auto reversed = decode<shop::Odd>(R"({"a\\\"b": 2, "a\"b": 1})");
  EXPECT_EQ(reversed.value.quote, 1);
  EXPECT_EQ(reversed.value.backslash, 2);
}

// Most documents decode in one optimistic pass that records nothing; the first thing to report makes
// the decoder start again from the beginning. What the first pass filled is then not kept twice.
TEST(DecodeStruct, AnIssueAfterFieldsWereFilledDecodesAgainFromTheStart) {
  auto r = decode<shop::Query>(
      R"({"text": "q", "items": [{"id": 1, "title": "a"}, {"id": 2, "title": "b"}, {"id": "3", "title": "c"}]})");
  EXPECT_TRUE(r.result.ok);
  EXPECT_THAT(r.result.warnings, ElementsAre(Issue{"items[2].id", R"(coerced string "3" to int)"}));
  ASSERT_EQ(r.value.items.size(), 3u);
  EXPECT_EQ(r.value.items[2].id, 3);
  EXPECT_EQ(r.result.value["items"].size(), 3u);
  // Into a value that held something: as a single decode leaves it.
  std::vector<shop::Query> queries(4);
  auto again = ptc::codec::decode_text(R"([{"text": "a", "items": []}, {"text": "b", "items": [], "extra": 1}])",
                                       queries, Mode::Enabled);
  EXPECT_TRUE(again.ok);
  EXPECT_THAT(again.warnings, testing::SizeIs(1));
  ASSERT_EQ(queries.size(), 2u);
  EXPECT_EQ(queries[1].text, "b");
}

TEST(DecodeStruct, DefaultsFillAbsentAndNullFields) {
  auto r = decode<shop::Query>(R"({"text": "q", "status": null, "items": []})");
  EXPECT_TRUE(r.result.ok);
  EXPECT_EQ(r.value.limit, 10);
  EXPECT_EQ(r.value.status, shop::Status::open);
  EXPECT_THAT(r.result.warnings, IsEmpty());
  EXPECT_EQ(r.result.value, (json{{"text", "q"}, {"limit", 10}, {"status", "open"}, {"items", json::array()}}));
}

TEST(DecodeStruct, ConstraintsAreCheckedAfterTheType) {
  auto r = decode<shop::Query>(R"({"text": "q", "limit": "0", "items": []})").result;
  EXPECT_FALSE(r.ok);
  EXPECT_THAT(r.warnings, ElementsAre(Issue{"limit", "coerced string \"0\" to int"}));
  EXPECT_THAT(r.errors, ElementsAre(Issue{"limit", "expected value >= 1, got 0"}));
  expect_error<shop::Query>(R"({"text": "q", "limit": 4.5, "items": []})", "limit", "expected int, got float 4.5");
}

// A list or map sent as a string holding its JSON text is read with a warning, as the validator reads
// it (tests/core/validate_test.cpp, JsonText); the differential test covers the rest.
TEST(DecodeStruct, AListOrStructSentAsItsJsonText) {
  auto r = decode<shop::Query>(R"({"text": "q", "items": "[{\"id\": \"1\", \"title\": \"a\"}]"})");
  EXPECT_TRUE(r.result.ok);
  EXPECT_THAT(r.result.warnings,
              ElementsAre(Issue{"items", R"(coerced string "[{\"id\": \"1\", \"title\": \"a\"}]" to list)"},
                          Issue{"items[0].id", R"(coerced string "1" to int)"}));
  ASSERT_EQ(r.value.items.size(), 1u);
  EXPECT_EQ(r.value.items[0].id, 1);
  EXPECT_EQ(r.value.items[0].title, "a");
  auto nested = decode<std::vector<shop::Query>>(R"(["{\"text\": \"q\", \"items\": \"[]\"}"])");
  EXPECT_TRUE(nested.result.ok);
  EXPECT_EQ(nested.result.warnings.size(), 2u);
  expect_error<shop::Query>(R"({"text": "q", "items": "[1, 2"})", "items", R"(expected list, got string "[1, 2")");
  expect_error<shop::Query>(R"({"text": "q", "items": "{}"})", "items", R"(expected list, got string "{}")");
  expect_error<shop::Query>(R"({"text": "q", "items": "[]"})", "items", R"(expected list, got string "[]")",
                            Mode::Strict);
  // Never the document itself.
  expect_error<shop::Query>(R"("{\"text\": \"q\", \"items\": []}")", "(root)",
                            R"(expected map, got string "{\"text\": \"q\", \"items\": []}")");
}

TEST(DecodeStruct, NestedPaths) {
  auto r = decode<shop::Query>(R"({"text": "q", "items": [{"id": 1, "title": "a"}, {"id": "2", "title": 3}]})").result;
  EXPECT_THAT(r.errors, ElementsAre(Issue{"items[1].title", "expected string, got int 3"}));
  EXPECT_THAT(r.warnings, ElementsAre(Issue{"items[1].id", "coerced string \"2\" to int"}));
  expect_error<shop::Query>(R"({"text": "q", "items": {}})", "items", "expected list, got map");
  expect_error<shop::Query>("[]", "(root)", "expected map, got list");
}

TEST(DecodeStruct, ManyFieldsEachSeenOnce) {
  auto text_without = [](std::set<std::size_t> left_out, std::string extra = "") {
    std::string text = "{";
    for (std::size_t i = 0; i < 130; ++i) {
      if (left_out.contains(i)) continue;
      if (text.size() > 1) text += ',';
      text += '"' + std::string(shop::kWideNames[i].data(), 4) + "\":" + std::to_string(i);
    }
    return text + extra + "}";
  };
  auto all = decode<shop::Wide<130>>(text_without({}));
  EXPECT_TRUE(all.result.ok);
  EXPECT_EQ(all.value.v[0], 0);
  EXPECT_EQ(all.value.v[64], 64);
  EXPECT_EQ(all.value.v[129], 129);
  auto some = decode<shop::Wide<130>>(text_without({3, 63, 64, 127, 128, 129})).result;
  EXPECT_THAT(some.errors,
              ElementsAre(Issue{"f003", "missing required field"}, Issue{"f063", "missing required field"},
                          Issue{"f064", "missing required field"}, Issue{"f127", "missing required field"},
                          Issue{"f128", "missing required field"}, Issue{"f129", "missing required field"}));
  for (const char* again : {R"(,"f000":1)", R"(,"f064":1)", R"(,"f129":1)"}) {
    auto twice = decode<shop::Wide<130>>(text_without({}, again)).result;
    ASSERT_EQ(twice.errors.size(), 1u) << again;
    EXPECT_THAT(twice.errors[0].message, testing::StartsWith("invalid JSON: duplicate key")) << again;
  }
}

// Keys out of order are found by looking at the fields in turn (over 64 fields) or among those whose
// names start alike (up to 64, where all these names start with the same byte): each way finds every
// field, an undeclared key and a repeated one, whatever the order.
template <std::size_t N>
void expect_every_order_read() {
  std::vector<std::size_t> order(N);
  for (std::size_t i = 0; i < N; ++i) order[i] = i;
  std::mt19937 shuffle(7);
  for (int round = 0; round < 4; ++round) {
    if (round == 1) std::reverse(order.begin(), order.end());
    if (round > 1) std::shuffle(order.begin(), order.end(), shuffle);
    auto text_of = [&](std::string extra) {
      std::string text = "{" + extra;
      for (std::size_t i : order)
        text += (text.size() > 1 ? "," : "") + json(std::string(shop::kWideNames[i].data(), 4)).dump() + ":" +
                std::to_string(i + 1);
      return text + "}";
    };
    auto all = decode<shop::Wide<N>>(text_of(""));
    EXPECT_TRUE(all.result.ok) << N << " round " << round;
    EXPECT_THAT(all.result.warnings, IsEmpty());
    for (std::size_t i = 0; i < N; ++i) EXPECT_EQ(all.value.v[i], static_cast<std::int64_t>(i) + 1) << N << " f" << i;
    auto unknown = decode<shop::Wide<N>>(text_of(R"("undeclared":0)")).result;
    EXPECT_THAT(unknown.warnings, ElementsAre(Issue{"undeclared", "unexpected field (ignored)"})) << N;
    const std::string last = std::string(shop::kWideNames[order.back()].data(), 4);
    auto twice = decode<shop::Wide<N>>(text_of("\"" + last + "\":0")).result;
    EXPECT_THAT(twice.errors, ElementsAre(Issue{"(root)", "invalid JSON: duplicate key \"" + last + "\" at (root)"}))
        << N;
  }
}

TEST(DecodeStruct, KeysInAnyOrderAreFoundAmongManyFields) {
  expect_every_order_read<64>();
  expect_every_order_read<130>();
}

// ---- modes ----------------------------------------------------------------------------------------

TEST(DecodeModes, WarnOnlyReportsErrorsAsWarningsInOrder) {
  auto r = decode<shop::Item>(R"({"title": 6, "id": "7"})", Mode::WarnOnly).result;
  EXPECT_TRUE(r.ok);
  EXPECT_THAT(r.errors, IsEmpty());
  EXPECT_THAT(r.warnings,
              ElementsAre(Issue{"id", "coerced string \"7\" to int"}, Issue{"title", "expected string, got int 6"}));
}

TEST(DecodeModes, DisabledReportsNothingAndDecodesWhatItCan) {
  auto r = decode<shop::Item>(R"({"title": 6, "id": "7", "x": 1})", Mode::Disabled);
  EXPECT_TRUE(r.result.ok);
  EXPECT_THAT(r.result.errors, IsEmpty());
  EXPECT_THAT(r.result.warnings, IsEmpty());
  EXPECT_EQ(r.value.id, 7);
  EXPECT_EQ(r.value.title, "");
}

// ---- numbers a type cannot hold -------------------------------------------------------------------
// In every mode, warn_only and disabled included, a number the C++ type cannot hold exactly is an
// error with its path (a refusal, Decoder::refuse): no function runs on a wrapped, truncated or
// undefined conversion of it, nor on the default left in its place. What is no number type keeps the
// lenient modes' rules for a value of the wrong type.

constexpr Mode kEveryMode[] = {Mode::Enabled, Mode::WarnOnly, Mode::Strict, Mode::Disabled};

struct BadNumber {
  const char* shape;  ///< "beyond the range", "fractional", "past float's range"
  std::string text;
  std::string message;               ///< the error at (root), the same in every mode
  const char* coerced_to = nullptr;  ///< a string read as a number first, with its warning (not in disabled)
};

struct ScalarRow {
  const char* type;
  Validation (*decode)(std::string_view text, Mode mode);
  bool is_number;  ///< a number type: refused in every mode; else a type error, lenient in warn_only and disabled
  std::vector<BadNumber> bad;
  json fallback;  ///< what a type error leaves (not a number type): the type's default
};

template <class T>
Validation decoded(std::string_view text, Mode mode) {
  T out{};
  return ptc::codec::decode_text(text, out, mode);
}

const std::string kInt64Range = "expected int in range -9223372036854775808..9223372036854775807, got ";

// An integer type's rows: its own bounds, then what no integer holds.
std::vector<BadNumber> integer(std::vector<BadNumber> bounds) {
  for (BadNumber b : std::initializer_list<BadNumber>{
           {"beyond the range", "1e300", kInt64Range + "float 1e+300"},
           {"beyond the range", "-1e19", kInt64Range + "float -1e+19"},
           {"beyond the range", "18446744073709551615", kInt64Range + "int 18446744073709551615"},
           {"beyond the range", "\"99999999999999999999\"", kInt64Range + "string \"99999999999999999999\""},
           {"fractional", "2.9", "expected int, got float 2.9"},
           {"fractional", "-0.5", "expected int, got float -0.5"},
           {"fractional", "1e-7", "expected int, got float 1e-07"}})
    bounds.push_back(b);
  return bounds;
}

// Below 32 bits the range is in the schema and said as its refinements; an integral float beyond it is a
// type error that the type cannot hold either.
std::vector<BadNumber> narrow(std::int64_t min, std::int64_t max) {
  const std::string above = std::to_string(max + 1), below = std::to_string(min - 1);
  return integer({{"beyond the range", above, "expected value <= " + std::to_string(max) + ", got " + above},
                  {"beyond the range", below,
                   min == 0 ? "expected value >= 0, got " + below
                            : "expected value >= " + std::to_string(min) + ", got " + below},
                  {"beyond the range", above + ".0", "expected int, got float " + above + ".0"},
                  {"beyond the range", "\"" + above + "\"",
                   "expected value <= " + std::to_string(max) + ", got " + above, "int"}});
}

std::vector<BadNumber> wide(const std::string& range, const std::string& above, const std::string& below) {
  return integer({{"beyond the range", above, "expected int in range " + range + ", got int " + above},
                  {"beyond the range", below,
                   below == "-1" ? "expected value >= 0, got -1"
                                 : "expected int in range " + range + ", got int " + below}});
}

std::vector<BadNumber> float32() {
  return {{"past float's range", "3.5e38", "expected float within +/-3.40282e+38, got float 3.5e+38"},
          {"past float's range", "-3.5e38", "expected float within +/-3.40282e+38, got float -3.5e+38"},
          {"past float's range", "1e300", "expected float within +/-3.40282e+38, got float 1e+300"},
          {"past float's range", "\"1e300\"", "expected float within +/-3.40282e+38, got float 1e+300", "float"}};
}

// A value of another type than a number's; `typed`: the message names the value's type.
std::vector<BadNumber> mismatch(const std::string& expected, bool typed = true) {
  std::vector<BadNumber> out;
  for (const auto& [text, type] :
       {std::pair{"1e300", "float "}, std::pair{"2.9", "float "}, std::pair{"18446744073709551615", "int "}}) {
    const std::string shown = std::string(text) == "1e300" ? "1e+300" : text;
    out.push_back({"not a number type", text, expected + (typed ? type : "") + shown});
  }
  return out;
}

const std::vector<ScalarRow>& scalar_rows() {
  using namespace std::chrono;
  static const std::vector<ScalarRow> rows{
      {"int8_t", decoded<std::int8_t>, true, narrow(-128, 127), {}},
      {"int16_t", decoded<std::int16_t>, true, narrow(-32768, 32767), {}},
      {"int32_t", decoded<std::int32_t>, true, wide("-2147483648..2147483647", "2147483648", "-2147483649"), {}},
      {"long",
       decoded<long>,
       true,
       integer({{"beyond the range", "9223372036854775808", kInt64Range + "int 9223372036854775808"}}),
       {}},
      {"int64_t", decoded<std::int64_t>, true, integer({}), {}},
      {"uint8_t", decoded<std::uint8_t>, true, narrow(0, 255), {}},
      {"uint16_t", decoded<std::uint16_t>, true, narrow(0, 65535), {}},
      {"uint32_t", decoded<std::uint32_t>, true, wide("0..4294967295", "4294967296", "-1"), {}},
      {"uint64_t",
       decoded<std::uint64_t>,
       true,
       wide("-9223372036854775808..9223372036854775807", "9223372036854775808", "-1"),
       {}},
      {"size_t", decoded<std::size_t>, true, integer({{"beyond the range", "-7", "expected value >= 0, got -7"}}), {}},
      {"float", decoded<float>, true, float32(), {}},
      {"milliseconds", decoded<milliseconds>, true, integer({}), {}},
      {"duration<uint8_t>", decoded<duration<std::uint8_t>>, true, narrow(0, 255), {}},
      {"duration<float>", decoded<duration<float>>, true, float32(), {}},
      {"optional<int16_t>", decoded<std::optional<std::int16_t>>, true, narrow(-32768, 32767), {}},
      {"optional<uint32_t>",
       decoded<std::optional<std::uint32_t>>,
       true,
       wide("0..4294967295", "4294967296", "-1"),
       {}},
      {"optional<float>", decoded<std::optional<float>>, true, float32(), {}},
      {"unique_ptr<int8_t>", decoded<std::unique_ptr<std::int8_t>>, true, narrow(-128, 127), {}},
      {"bool", decoded<bool>, false, mismatch("expected bool, got "), false},
      {"enum", decoded<shop::Status>, false, mismatch("expected one of [\"open\", \"closed\"], got ", false), "open"},
      {"string", decoded<std::string>, false, mismatch("expected string, got "), ""},
  };
  return rows;
}

TEST(DecodeModes, ANumberTheTypeCannotHoldIsAnErrorInEveryMode) {
  for (const auto& row : scalar_rows()) {
    for (const auto& bad : row.bad) {
      for (Mode mode : kEveryMode) {
        SCOPED_TRACE(std::string(row.type) + " given " + bad.text + " (" + bad.shape + ") in " +
                     std::string(ptc::mode_name(mode)));
        const Validation r = row.decode(bad.text, mode);
        const std::vector<Issue> error{{"(root)", bad.message}};
        if (row.is_number && bad.text.front() == '"' && mode == Mode::Strict) {
          EXPECT_FALSE(r.ok);  // Strict reads no string as a number: an ordinary type error
        } else if (row.is_number) {
          EXPECT_FALSE(r.ok);
          EXPECT_EQ(r.errors, error);
          std::vector<Issue> warnings;
          if (bad.coerced_to && mode != Mode::Disabled)
            warnings.push_back({"(root)", "coerced string " + bad.text + " to " + bad.coerced_to});
          EXPECT_EQ(r.warnings, warnings);
        } else {
          // Not a number type: the lenient modes' rules for a value of the wrong type, and the function
          // runs on the type's default, never on a conversion of the number.
          EXPECT_EQ(r.ok, mode == Mode::WarnOnly || mode == Mode::Disabled);
          EXPECT_EQ(r.errors, (r.ok ? std::vector<Issue>{} : error));
          EXPECT_EQ(r.warnings, (mode == Mode::WarnOnly ? error : std::vector<Issue>{}));
          EXPECT_EQ(r.value, row.fallback);
        }
      }
    }
  }
}

// No JSON text holds NaN or an infinity, and a number past double's range is not read as one: the text
// is refused as invalid JSON, whatever the type and the mode.
TEST(DecodeModes, NoTextMakesANonFiniteNumber) {
  for (const auto& row : scalar_rows()) {
    for (const char* text : {"NaN", "-NaN", "Infinity", "-Infinity", "inf", "1e400", "-1e400", "[1e999]"}) {
      for (Mode mode : kEveryMode) {
        SCOPED_TRACE(std::string(row.type) + " given " + text + " in " + std::string(ptc::mode_name(mode)));
        const Validation r = row.decode(text, mode);
        EXPECT_FALSE(r.ok);
        ASSERT_EQ(r.errors.size(), 1u);
        EXPECT_EQ(r.errors[0].path, "(root)");
        EXPECT_THAT(r.errors[0].message, testing::StartsWith("invalid JSON: "));
        EXPECT_THAT(r.warnings, IsEmpty());
      }
    }
  }
  EXPECT_FALSE(decoded<double>("1e400", Mode::Disabled).ok);
  EXPECT_TRUE(decoded<double>("1e308", Mode::Disabled).ok);
}

// Fractions, the whole range of double and the exact coercions stay what they were in every mode.
TEST(DecodeModes, WhatTheTypeHoldsIsStillReadInEveryLenientMode) {
  for (Mode mode : {Mode::WarnOnly, Mode::Disabled}) {
    EXPECT_EQ(decode<double>("2.9", mode).value, 2.9);
    EXPECT_EQ(decode<double>("-1e300", mode).value, -1e300);
    EXPECT_EQ(decode<float>("3.4e38", mode).value, 3.4e38f);
    EXPECT_EQ(decode<std::chrono::duration<double>>("1.5", mode).value, std::chrono::duration<double>(1.5));
    EXPECT_EQ(decode<std::int8_t>("-128", mode).value, -128);
    EXPECT_EQ(decode<std::uint64_t>("9223372036854775807", mode).value, 9223372036854775807u);
    auto coerced = decode<std::uint8_t>("\"255\"", mode);
    EXPECT_TRUE(coerced.result.ok);
    EXPECT_EQ(coerced.value, 255);
    // An integral float an int64 holds is a type error, as ever: a warning in warn_only, and the
    // function runs on the default.
    auto whole = decode<std::int64_t>("42.0", mode);
    EXPECT_TRUE(whole.result.ok);
    EXPECT_EQ(whole.value, 0);
    EXPECT_THAT(whole.result.errors, IsEmpty());
  }
}

// Wherever the number sits, the error has its path, and the other issues keep their modes' rules.
TEST(DecodeModes, ARefusalKeepsItsPathInsideEveryType) {
  const std::vector<std::tuple<std::string, Validation (*)(std::string_view, Mode), std::string, Issue>> cases{
      {"vector<uint8_t>", decoded<std::vector<std::uint8_t>>, "[1, 256]", {"[1]", "expected value <= 255, got 256"}},
      {"array<int16_t, 2>",
       decoded<std::array<std::int16_t, 2>>,
       "[1, -32769]",
       {"[1]", "expected value >= -32768, got -32769"}},
      {"set<uint32_t>", decoded<std::set<std::uint32_t>>, "[2, -1]", {"[1]", "expected value >= 0, got -1"}},
      {"deque<float>",
       decoded<std::deque<float>>,
       "[1e39]",
       {"[0]", "expected float within +/-3.40282e+38, got float 1e+39"}},
      {"map<string, int32_t>",
       decoded<std::map<std::string, std::int32_t>>,
       R"({"a": 1, "b c": 2.9})",
       {"[\"b c\"]", "expected int, got float 2.9"}},
      {"unordered_map<string, optional<int8_t>>",
       decoded<std::unordered_map<std::string, std::optional<std::int8_t>>>,
       R"({"a": null, "b": 128})",
       {"b", "expected value <= 127, got 128"}},
      {"tuple<string, uint16_t>",
       decoded<std::tuple<std::string, std::uint16_t>>,
       R"(["x", 1e300])",
       {"[1]", kInt64Range + "float 1e+300"}},
      {"pair<int32_t, bool>",
       decoded<std::pair<std::int32_t, bool>>,
       "[2147483648, true]",
       {"[0]", "expected int in range -2147483648..2147483647, got int 2147483648"}},
      {"variant<int32_t, string>",
       decoded<std::variant<std::int32_t, std::string>>,
       "2147483648",
       {"(root)", "expected int or string, got int 2147483648"}},
      {"variant<int64_t, bool>",
       decoded<std::variant<std::int64_t, bool>>,
       "2.9",
       {"(root)", "expected int or bool, got float 2.9"}},
      {"variant<uint8_t, string>",
       decoded<std::variant<std::uint8_t, std::string>>,
       "300",
       {"(root)", "expected value <= 255, got 300"}},
      {"variant<bool, vector<uint8_t>>",
       decoded<std::variant<bool, std::vector<std::uint8_t>>>,
       "[1, -1]",
       {"[1]", "expected value >= 0, got -1"}},
      {"Query",
       decoded<shop::Query>,
       R"({"text": "t", "limit": 4294967296, "items": []})",
       {"limit", "expected int in range -2147483648..2147483647, got int 4294967296"}},
      {"Query",
       decoded<shop::Query>,
       R"({"text": "t", "items": [{"id": 1e19, "title": "x"}]})",
       {"items[0].id", kInt64Range + "float 1e+19"}},
      {"optional<milliseconds>",
       decoded<std::optional<std::chrono::milliseconds>>,
       "0.5",
       {"(root)", "expected int, got float 0.5"}},
  };
  for (const auto& [type, decode_as, text, issue] : cases) {
    for (Mode mode : kEveryMode) {
      SCOPED_TRACE(type + " given " + text + " in " + std::string(ptc::mode_name(mode)));
      const Validation r = decode_as(text, mode);
      EXPECT_FALSE(r.ok);
      EXPECT_THAT(r.errors, ElementsAre(issue));
      EXPECT_THAT(r.warnings, IsEmpty());
    }
  }
}

// A refusal beside ordinary issues: in warn_only the others are warnings, in disabled nothing, and the
// call fails all the same.
TEST(DecodeModes, ARefusalBesideOrdinaryIssues) {
  const char* text = R"({"text": 5, "limit": "3000000000", "status": "gone", "items": [{"id": 2.5, "title": 1}]})";
  const Issue limit{"limit", "expected int in range -2147483648..2147483647, got int 3000000000"};
  const Issue id{"items[0].id", "expected int, got float 2.5"};
  auto warn = decode<shop::Query>(text, Mode::WarnOnly).result;
  EXPECT_FALSE(warn.ok);
  EXPECT_THAT(warn.errors, ElementsAre(limit, id));
  EXPECT_THAT(warn.warnings, ElementsAre(Issue{"text", "expected string, got int 5"},
                                         Issue{"limit", "coerced string \"3000000000\" to int"},
                                         Issue{"status", "expected one of [\"open\", \"closed\"], got \"gone\""},
                                         Issue{"items[0].title", "expected string, got int 1"}));
  auto disabled = decode<shop::Query>(text, Mode::Disabled).result;
  EXPECT_FALSE(disabled.ok);
  EXPECT_THAT(disabled.errors, ElementsAre(limit, id));
  EXPECT_THAT(disabled.warnings, IsEmpty());
  auto enabled = decode<shop::Query>(text).result;
  EXPECT_EQ(enabled.errors.size(), 5u);
}

// A constraint checked on an integer read wider than its type (as ptc-gen's code reads one): a failed
// check is an ordinary error when the type holds the value, a refusal when it does not.
TEST(DecodeModes, AConstraintOnAValueTheTypeCannotHoldIsARefusal) {
  static const ptc::Schema range = ptc::parse_malli_type("[:and :int [:>= 1] [:<= 10]]").value();
  for (Mode mode : {Mode::WarnOnly, Mode::Disabled}) {
    ptc::codec::Decoder held(mode);
    EXPECT_FALSE(ptc::codec::check(held, range, json(11)));
    EXPECT_THAT(held.errors(), IsEmpty());
    ptc::codec::Decoder not_held(mode);
    EXPECT_FALSE(ptc::codec::check(not_held, range, json(300), false));
    EXPECT_THAT(not_held.errors(), ElementsAre(Issue{"(root)", "expected value <= 10, got 300"}));
  }
  // How ptc-gen's code reads such an integer (detail::decode_wide): 300 as an int64, for the check to
  // speak first, but 300.0, which no uint8_t holds, refused at once; 5.0 a type error as ever.
  for (Mode mode : kEveryMode) {
    auto wide = [mode](std::string_view text) {
      ptc::codec::Decoder d(mode);
      std::optional<std::int64_t> out;
      const bool ok = *ptc::codec::detail::decode_root(text, false, [&](ptc::codec::Value& v) {
        return ptc::codec::detail::decode_wide<std::uint8_t>(d, v, out);
      });
      return std::tuple{ok, out, d.errors(), d.refused()};
    };
    EXPECT_EQ(wide("300"), std::tuple(true, std::optional<std::int64_t>(300), std::vector<Issue>{}, false));
    EXPECT_EQ(wide("null"), std::tuple(true, std::optional<std::int64_t>(), std::vector<Issue>{}, false));
    const auto [ok, out, errors, refused] = wide("300.0");
    EXPECT_FALSE(ok);
    EXPECT_EQ(out, std::nullopt);
    EXPECT_THAT(errors, ElementsAre(Issue{"(root)", "expected int, got float 300.0"}));
    EXPECT_TRUE(refused);
    EXPECT_FALSE(std::get<3>(wide("5.0")));
  }
}

// ---- containers -----------------------------------------------------------------------------------

TEST(DecodeSequence, VectorListDeque) {
  EXPECT_EQ(decode<std::vector<std::int64_t>>("[1, \"2\", 3]").value, (std::vector<std::int64_t>{1, 2, 3}));
  EXPECT_EQ(decode<std::list<std::string>>("[\"a\"]").value, (std::list<std::string>{"a"}));
  EXPECT_EQ(decode<std::deque<bool>>("[true, false]").value, (std::deque<bool>{true, false}));
  EXPECT_EQ(decode<std::vector<bool>>("[true, \"false\"]").value, (std::vector<bool>{true, false}));
  auto r = decode<std::vector<std::int64_t>>("[1, \"x\", 2.5]").result;
  EXPECT_THAT(r.errors,
              ElementsAre(Issue{"[1]", "expected int, got string \"x\""}, Issue{"[2]", "expected int, got float 2.5"}));
}

TEST(DecodeArray, ExactlyNItemsTheLengthFirst) {
  EXPECT_EQ((decode<std::array<std::int64_t, 2>>("[1, 2]").value), (std::array<std::int64_t, 2>{1, 2}));
  auto r = decode<std::array<std::int64_t, 2>>("[1, \"x\", 3.5]").result;
  EXPECT_THAT(r.errors,
              ElementsAre(Issue{"(root)", "expected list of 2 items, got 3"},
                          Issue{"[1]", "expected int, got string \"x\""}, Issue{"[2]", "expected int, got float 3.5"}));
  expect_error<std::array<std::int64_t, 2>>("[1]", "(root)", "expected list of 2 items, got 1");
  expect_error<std::array<std::int64_t, 2>>("{}", "(root)", "expected list, got map");
}

TEST(DecodeSet, DuplicatesAfterCoercion) {
  auto r = decode<std::set<std::int64_t>>("[3, \"1\", 1, 3]");
  EXPECT_FALSE(r.result.ok);
  EXPECT_EQ(r.value, (std::set<std::int64_t>{1, 3}));
  EXPECT_THAT(r.result.warnings, ElementsAre(Issue{"[1]", "coerced string \"1\" to int"}));
  EXPECT_THAT(r.result.errors,
              ElementsAre(Issue{"[2]", "duplicate item (same as [1])"}, Issue{"[3]", "duplicate item (same as [0])"}));
  auto unordered = decode<std::unordered_set<std::string>>(R"(["a", "b", "a"])").result;
  EXPECT_THAT(unordered.errors, ElementsAre(Issue{"[2]", "duplicate item (same as [0])"}));
  expect_error<std::set<std::string>>("{}", "(root)", "expected set (a list of unique items), got map");
}

TEST(DecodeSet, FailedItemsCompareAsGiven) {
  auto r = decode<std::set<std::int64_t>>(R"(["x", 1, "x", [2], [2]])").result;
  EXPECT_THAT(r.errors,
              ElementsAre(Issue{"[0]", "expected int, got string \"x\""},
                          Issue{"[2]", "expected int, got string \"x\""}, Issue{"[3]", "expected int, got list"},
                          Issue{"[4]", "expected int, got list"}, Issue{"[2]", "duplicate item (same as [0])"},
                          Issue{"[4]", "duplicate item (same as [3])"}));
}

TEST(DecodeMap, IssuesInKeyOrder) {
  auto r = decode<std::map<std::string, std::int64_t>>(R"({"b": "2", "a b": true, "a": 1})");
  EXPECT_EQ(r.value.at("b"), 2);
  EXPECT_THAT(r.result.errors, ElementsAre(Issue{"[\"a b\"]", "expected int, got bool true"}));
  EXPECT_THAT(r.result.warnings, ElementsAre(Issue{"b", "coerced string \"2\" to int"}));
  auto unordered = decode<std::unordered_map<std::string, double>>(R"({"z": "q", "y": "1"})").result;
  EXPECT_THAT(unordered.errors, ElementsAre(Issue{"z", "expected float, got string \"q\""}));
  EXPECT_THAT(unordered.warnings, ElementsAre(Issue{"y", "coerced string \"1\" to float"}));
  auto repeated = decode<std::map<std::string, std::map<std::string, std::int64_t>>>(R"({"m": {"b": 1, "b": 2}})");
  EXPECT_THAT(repeated.result.errors, ElementsAre(Issue{"(root)", R"(invalid JSON: duplicate key "b" at m)"}));
}

TEST(DecodeTuple, ThePositionsAndTheLength) {
  using Triple = std::tuple<std::string, std::int64_t, bool>;
  EXPECT_EQ(decode<Triple>(R"(["a", "2", true])").value, (Triple{"a", 2, true}));
  auto r = decode<Triple>(R"([1, 2, true, {"extra": [}])").result;
  EXPECT_EQ(r.errors.at(0).message,
            "invalid JSON: The JSON document has an improper structure: missing or superfluous "
            "commas, braces, missing keys, etc.");
  auto longer = decode<Triple>(R"([1, 2, true, {"extra": []}])").result;
  EXPECT_THAT(longer.errors, ElementsAre(Issue{"(root)", "expected list of 3 items, got 4"},
                                         Issue{"[0]", "expected string, got int 1"}));
  expect_error<Triple>(R"(["a"])", "(root)", "expected list of 3 items, got 1");
  expect_error<Triple>("{}", "(root)", "expected list of 3 items, got map");
  EXPECT_EQ((decode<std::pair<double, std::string>>(R"([1, "x"])").value), (std::pair<double, std::string>{1.0, "x"}));
}

// ---- nullable and variants ------------------------------------------------------------------------

TEST(DecodeNullable, OptionalAndSmartPointers) {
  EXPECT_EQ(decode<std::optional<std::int64_t>>("null").value, std::nullopt);
  EXPECT_EQ(decode<std::optional<std::int64_t>>("4").value, 4);
  EXPECT_EQ(*decode<std::unique_ptr<std::string>>("\"u\"").value, "u");
  EXPECT_EQ(decode<std::shared_ptr<std::string>>("null").value, nullptr);
  expect_error<std::optional<std::int64_t>>("\"x\"", "(root)", "expected int, got string \"x\"");
}

TEST(DecodeVariant, ExactMatchesFirst) {
  using V = std::variant<std::int64_t, std::string>;
  EXPECT_EQ(decode<V>("5").value, V(std::int64_t{5}));
  auto quoted = decode<V>("\"5\"");
  EXPECT_EQ(quoted.value, V(std::string("5")));
  EXPECT_THAT(quoted.result.warnings, IsEmpty());
  using Number = std::variant<double, std::int64_t>;
  EXPECT_EQ(decode<Number>("5").value, Number(5.0)) << "int -> float widening is exact";
  using Nullable = std::variant<std::monostate, std::int64_t>;
  EXPECT_EQ(decode<Nullable>("null").value, Nullable());
}

TEST(DecodeVariant, ThenTheFirstCoercedMatch) {
  using V = std::variant<std::int64_t, bool>;
  auto r = decode<V>("\"true\"");
  EXPECT_TRUE(r.result.ok);
  EXPECT_EQ(r.value, V(true));
  EXPECT_THAT(r.result.warnings, ElementsAre(Issue{"(root)", "coerced string \"true\" to bool"}));
}

TEST(DecodeVariant, ThenTheClosestDetailedAlternative) {
  using V = std::variant<bool, shop::Item, std::vector<std::int64_t>>;
  auto r = decode<V>(R"({"id": "x", "title": "7"})").result;
  EXPECT_THAT(r.errors, ElementsAre(Issue{"id", "expected int, got string \"x\""}));
  auto list = decode<V>(R"([1, "2", "z"])").result;
  EXPECT_THAT(list.warnings, ElementsAre(Issue{"[1]", "coerced string \"2\" to int"}));
  EXPECT_THAT(list.errors, ElementsAre(Issue{"[2]", "expected int, got string \"z\""}));
  expect_error<V>("\"x\"", "(root)", "expected bool, map or list, got string \"x\"");
  expect_error<std::variant<std::int64_t, std::optional<std::string>>>("true", "(root)",
                                                                       "expected int or string or nil, got bool true");
}

TEST(DecodeVariant, WarnOnlyReportsTheClosestWarningsThenItsErrors) {
  using V = std::variant<bool, std::vector<std::int64_t>>;
  auto r = decode<V>(R"(["z", "2"])", Mode::WarnOnly).result;
  EXPECT_TRUE(r.ok);
  EXPECT_THAT(r.warnings,
              ElementsAre(Issue{"[1]", "coerced string \"2\" to int"}, Issue{"[0]", "expected int, got string \"z\""}));
}

// ---- time, durations, :any ------------------------------------------------------------------------

TEST(DecodeTime, Iso8601InUtc) {
  using namespace std::chrono;
  const auto t = sys_days(year(2025) / 12 / 29) + hours(10) + minutes(30);
  EXPECT_EQ(decode<system_clock::time_point>("\"2025-12-29T10:30:00Z\"").value, t);
  EXPECT_EQ(decode<system_clock::time_point>("\"2025-12-29T12:30:00.25+02:00\"").value, t + milliseconds(250));
  EXPECT_EQ(decode<sys_seconds>("\"2025-12-29T05:00:00-05:30\"").value, t);
  const std::string what = "expected ISO 8601 time such as \"2025-12-29T10:30:00Z\", got string ";
  expect_error<system_clock::time_point>("\"yesterday\"", "(root)", what + "\"yesterday\"");
  expect_error<system_clock::time_point>("\"2025-12-29 10:30:00Z\"", "(root)", what + "\"2025-12-29 10:30:00Z\"");
  expect_error<system_clock::time_point>("\"2025-02-30T10:30:00Z\"", "(root)", what + "\"2025-02-30T10:30:00Z\"");
  expect_error<system_clock::time_point>(
      "\"2025-12-29T10:30:00\"", "(root)",
      what + "\"2025-12-29T10:30:00\" (the time zone offset is missing: add Z or an offset such as +02:00)");
  expect_error<system_clock::time_point>("\"2025-12-29T23:59:60Z\"", "(root)",
                                         what + "\"2025-12-29T23:59:60Z\" (leap seconds are not supported)");
  expect_error<system_clock::time_point>(
      "\"1500-01-01T00:00:00Z\"", "(root)",
      "expected time within the range of the C++ type, got string \"1500-01-01T00:00:00Z\"");
  expect_error<system_clock::time_point>("1735468200", "(root)", "expected string, got int 1735468200");
}

// Digits of a second the time point cannot hold are refused, never dropped; zeros are exact.
TEST(DecodeTime, AFractionFinerThanTheTypeIsRefused) {
  using namespace std::chrono;
  const auto t = sys_days(year(2025) / 12 / 29) + hours(10) + minutes(30);
  expect_error<sys_seconds>("\"2025-12-29T10:30:00.5Z\"", "(root)",
                            "expected time in whole seconds, got string \"2025-12-29T10:30:00.5Z\"");
  EXPECT_EQ(decode<sys_seconds>("\"2025-12-29T10:30:00.000Z\"").value, t);
  using ms_time = time_point<system_clock, milliseconds>;
  expect_error<ms_time>("\"2025-12-29T10:30:00.1234Z\"", "(root)",
                        "expected time with at most 3 fractional digits, got string \"2025-12-29T10:30:00.1234Z\"");
  EXPECT_EQ(decode<ms_time>("\"2025-12-29T10:30:00.123Z\"").value, t + milliseconds(123));
}

// A year the text cannot hold is refused where it is written, not turned into text the decoder refuses.
TEST(EncodeTime, YearsOutsideFourDigitsAreRefused) {
  using namespace std::chrono;
  const sys_seconds far = sys_days(year(10000) / 1 / 1) + seconds(0);
  EXPECT_THROW(ptc::codec::to_json_value(far), std::out_of_range);
  const sys_seconds last = sys_days(year(9999) / 12 / 31) + hours(23) + minutes(59) + seconds(59);
  EXPECT_EQ(ptc::codec::to_json_value(last), "9999-12-31T23:59:59Z");
  EXPECT_EQ(ptc::codec::to_json_value(sys_seconds(sys_days(year(0) / 1 / 1))), "0000-01-01T00:00:00Z");
}

TEST(DecodeTime, Dates) {
  using namespace std::chrono;
  EXPECT_EQ(decode<year_month_day>("\"2024-02-29\"").value, year(2024) / 2 / 29);
  expect_error<year_month_day>("\"2025-02-29\"", "(root)",
                               "expected ISO 8601 date such as \"2025-12-29\", got string \"2025-02-29\"");
  expect_error<year_month_day>("\"2025-1-2\"", "(root)",
                               "expected ISO 8601 date such as \"2025-12-29\", got string \"2025-1-2\"");
}

TEST(DecodeTime, DurationsCountInTheirOwnUnit) {
  using namespace std::chrono;
  EXPECT_EQ(decode<milliseconds>("1500").value, milliseconds(1500));
  auto r = decode<seconds>("\"30\"");
  EXPECT_EQ(r.value, seconds(30));
  EXPECT_THAT(r.result.warnings, ElementsAre(Issue{"(root)", "coerced string \"30\" to int"}));
  expect_error<seconds>("1.5", "(root)", "expected int, got float 1.5");
}

TEST(DecodeAny, KeepsTheJsonAsNlohmannReadsIt) {
  auto r = decode<json>(R"({"b": [1, -2, 2.5, "x", null, true], "a": {"n": 18446744073709551615}})");
  EXPECT_TRUE(r.result.ok);
  EXPECT_EQ(r.value, json::parse(R"({"a": {"n": 18446744073709551615}, "b": [1, -2, 2.5, "x", null, true]})"));
  EXPECT_TRUE(r.value["b"][0].is_number_unsigned());
  auto repeated = decode<json>(R"({"b": [{"x": 1, "x": 2}]})").result;
  EXPECT_THAT(repeated.errors, ElementsAre(Issue{"(root)", R"(invalid JSON: duplicate key "x" at b[0])"}));
  EXPECT_TRUE(decode<json>("-3").value.is_number_integer());
  EXPECT_TRUE(decode<json>("1.2345678901234567e29").value.is_number_float());
  EXPECT_FALSE(decode<json>("123456789012345678901234567890").result.ok);
}

// ---- paths and threads ----------------------------------------------------------------------------

// std::array<T, 1> rather than std::vector<T>: a vector's name spells T twice (once more in its
// allocator), so twenty levels make names of 2^20 copies, which debug information writes out in full
// (the file took minutes and gigabytes to compile with -g).
template <int N>
struct Nested {
  using type = std::array<typename Nested<N - 1>::type, 1>;
};
template <>
struct Nested<0> {
  using type = std::int64_t;
};

TEST(DecodePath, DeepTypesKeepTheirWholePath) {
  std::string text = "\"x\"", path;
  for (int i = 0; i < 20; ++i) {
    text = "[" + text + "]";
    path += "[0]";
  }
  expect_error<Nested<20>::type>(text, path, "expected int, got string \"x\"");
}

TEST(DecodeThreads, EachThreadHasItsOwnParsers) {
  std::vector<std::thread> threads;
  std::vector<int> failures(4, 0);
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([t, &failures] {
      for (int i = 0; i < 500; ++i) {
        const std::string text = R"({"id": )" + std::to_string(t * 1000 + i) + R"(, "title": "t", "assignee": null})";
        auto r = decode<std::variant<bool, shop::Item>>(text);
        if (!r.result.ok || std::get<shop::Item>(r.value).id != t * 1000 + i) ++failures[t];
      }
    });
  }
  for (auto& th : threads) th.join();
  EXPECT_THAT(failures, ElementsAre(0, 0, 0, 0));
}

// ---- text that is not JSON ------------------------------------------------------------------------

TEST(DecodeInvalidJson, IsAnErrorAtTheRootInEveryMode) {
  for (Mode mode : {Mode::Enabled, Mode::WarnOnly, Mode::Strict, Mode::Disabled}) {
    auto r = decode<shop::Item>(R"({"id": 1, "title": "t",})", mode).result;
    EXPECT_FALSE(r.ok);
    EXPECT_EQ(r.errors.size(), 1u);
    EXPECT_EQ(r.errors.at(0).path, "(root)");
    EXPECT_THAT(r.errors.at(0).message, testing::StartsWith("invalid JSON: "));
    EXPECT_EQ(r.value, json(nullptr));
  }
}

TEST(DecodeInvalidJson, AnywhereInTheText) {
  auto invalid = [](std::string_view text) {
    auto r = decode<shop::Item>(text).result;
    return r.errors.size() == 1 && r.errors[0].message.starts_with("invalid JSON: ");
  };
  EXPECT_TRUE(invalid(R"({"id": 1, "title": "t", "x": [1 2]})")) << "inside an undeclared field";
  EXPECT_TRUE(invalid(R"({"id": 1, "title": "t", "x": {"a": tru}})"));
  EXPECT_TRUE(invalid(R"({"id": 1, "title": "t", "x": "\q"})"));
  EXPECT_TRUE(invalid(R"({"id": 1, "title": "t", "x": 1e400})"));
  EXPECT_TRUE(invalid(R"({"id": 1, "title": "t", "x": 01})"));
  EXPECT_TRUE(invalid(R"({"id": [1,], "title": "t"})")) << "inside a value that failed";
  EXPECT_TRUE(invalid(R"({"id": 1, "title": "t"} x)"));
  EXPECT_TRUE(invalid(R"({"id": 1, "title": "t"}] [)"));
  EXPECT_TRUE(invalid(R"({"id": 1, "title": "t"}, 2)"));
  EXPECT_TRUE(invalid("{\"id\": 1, \"title\": \"a\x01\"}"));
  EXPECT_TRUE(invalid("{\"id\": 1, \"title\": \"\xff\"}"));
  EXPECT_TRUE(invalid(""));
  EXPECT_TRUE(invalid("  "));
  EXPECT_FALSE(invalid(R"({"id": 1, "title": "t", "x": [1, {"y": [null, 1.5e3, "\u00e9"]}]})"));
}

// Found by fuzz_codec: the text must be read exactly as nlohmann::json (and so ptc::validate) reads it.
TEST(DecodeInvalidJson, TextIsReadAsNlohmannReadsIt) {
  using namespace std::string_literals;
  auto invalid = [](const std::string& text) {
    auto r = decode<shop::Item>(text).result;
    return r.errors.size() == 1 && r.errors[0].message.starts_with("invalid JSON: ");
  };
  EXPECT_TRUE(decode<shop::Item>("\xEF\xBB\xBF{\"id\": 1, \"title\": \"t\"}"s).result.ok) << "a leading BOM is skipped";
  EXPECT_TRUE(invalid("{\"id\": 1, \"title\": \"t\"}\0 junk"s)) << "a NUL is invalid anywhere, as parse_json says";
  EXPECT_TRUE(invalid("{\"id\": 1\0, \"title\": \"t\"}"s)) << "not the end of a number";
  for (const auto& text : {"[[0\0]]"s, "[[0]\0]"s}) {
    std::set<std::vector<int>> out;
    auto r = ptc::codec::decode_text(text, out);  // once terminated the process
    EXPECT_FALSE(r.ok);
    ASSERT_EQ(r.errors.size(), 1u);
    EXPECT_EQ(r.errors[0].path, "(root)");
    EXPECT_FALSE(static_cast<bool>(ptc::parse_json(text)));
  }
}

TEST(DecodeInvalidJson, NestingDeeperThanParseJsonAccepts) {
  const std::string ok = "{\"id\": 1, \"title\": \"t\", \"x\": " + std::string(511, '[') + std::string(511, ']') + "}";
  EXPECT_TRUE(decode<shop::Item>(ok).result.ok);
  const std::string deep =
      "{\"id\": 1, \"title\": \"t\", \"x\": " + std::string(512, '[') + std::string(512, ']') + "}";
  EXPECT_THAT(decode<shop::Item>(deep).result.errors,
              ElementsAre(Issue{"(root)", "invalid JSON: nesting deeper than 512 levels"}));
  EXPECT_TRUE(decode<json>(std::string(512, '[') + std::string(512, ']')).result.ok);
}

}  // namespace

namespace {

// 3.4e39 is a finite double but no float: it would reach the C++ function as +inf.
TEST(DecodeFloat, AValuePastFloatsRangeIsRefusedNotMadeInfinite) {
  auto big = decode<float>("3.4e39").result;
  EXPECT_FALSE(big.ok);
  ASSERT_EQ(big.errors.size(), 1u);
  EXPECT_EQ(big.errors[0].message.rfind("expected float within +/-3.40282e+38, got float", 0), 0u)
      << big.errors[0].message;
  EXPECT_FALSE(decode<float>("-3.4e39").result.ok);
  auto fits = decode<float>("3.4e38");
  EXPECT_TRUE(fits.result.ok);
  EXPECT_TRUE(std::isfinite(fits.value));
  EXPECT_TRUE(decode<double>("3.4e39").result.ok);
}

TEST(DecodeText, ANulByteAfterTheDocumentIsInvalidJson) {
  auto r = decode<std::int64_t>(std::string("7\0 8", 4)).result;
  ASSERT_EQ(r.errors.size(), 1u);
  EXPECT_EQ(r.errors[0].message.rfind("invalid JSON", 0), 0u) << r.errors[0].message;
}

}  // namespace
