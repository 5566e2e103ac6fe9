// Encoding C++ values with ptc::codec: the JSON shapes of docs/codecs.md, and TextWriter's bytes equal
// to nlohmann::json::dump() of what JsonWriter builds for the same calls.

#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <tuple>
#include <unordered_map>
#include <unordered_set>
#include <variant>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <ptc/codec/codec.hpp>
#include <ptc/codec/invoker.hpp>
#include <ptc/signature.hpp>
#include <ptc/validate.hpp>

#include "shop_codec.hpp"

namespace shop {

enum class Level : std::uint8_t { low = 1 };

struct Report {
  std::vector<Item> items;
  std::unordered_map<std::string, std::int64_t> counts;
  Status status = Status::open;
  std::variant<std::monostate, double, std::string> extra;
  friend bool operator==(const Report&, const Report&) = default;
};

}  // namespace shop

namespace ptc::codec {
template <>
struct EnumTraits<::shop::Level> {
  static constexpr std::array<EnumEntry<::shop::Level>, 1> entries{{{"low", ::shop::Level::low}}};
};
template <>
struct StructTraits<::shop::Report> {
  static constexpr std::array<FieldInfo, 4> fields{
      {{"items", false, false}, {"counts", false, false}, {"status", false, false}, {"extra", false, false}}};
  static bool decode_field(Decoder& d, std::size_t index, Value& v, ::shop::Report& out) {
    switch (index) {
      case 0: return Codec<std::vector<::shop::Item>>::decode(d, v, out.items);
      case 1: return Codec<std::unordered_map<std::string, std::int64_t>>::decode(d, v, out.counts);
      case 2: return Codec<::shop::Status>::decode(d, v, out.status);
      case 3: return Codec<std::variant<std::monostate, double, std::string>>::decode(d, v, out.extra);
    }
    return true;
  }
  static void fill_default(std::size_t index, ::shop::Report& out) {
    (void)index;
    (void)out;
  }
  template <class W>
  static void encode_fields(W& w, const ::shop::Report& value) {
    w.key("items");
    Codec<std::vector<::shop::Item>>::encode(w, value.items);
    w.key("counts");
    Codec<std::unordered_map<std::string, std::int64_t>>::encode(w, value.counts);
    w.key("status");
    Codec<::shop::Status>::encode(w, value.status);
    w.key("extra");
    Codec<std::variant<std::monostate, double, std::string>>::encode(w, value.extra);
  }
};
}  // namespace ptc::codec

namespace {

using json = nlohmann::json;
using ptc::codec::to_json_value;
using ptc::codec::to_text;

std::string dumped(const json& j) { return j.dump(-1, ' ', false, json::error_handler_t::replace); }

// Both writers, the same bytes.
template <class T>
std::string text_of(const T& value) {
  const std::string text = to_text(value);
  EXPECT_EQ(text, dumped(to_json_value(value)));
  return text;
}

TEST(Encode, Scalars) {
  EXPECT_EQ(text_of(std::int64_t{-42}), "-42");
  EXPECT_EQ(text_of(std::uint64_t{18446744073709551615u}), "18446744073709551615");
  EXPECT_EQ(text_of(std::int8_t{-128}), "-128");
  EXPECT_EQ(text_of(true), "true");
  EXPECT_EQ(text_of(std::string("x")), "\"x\"");
  EXPECT_EQ(text_of(0.5f), "0.5");
  EXPECT_TRUE(to_json_value(std::uint32_t{7}).is_number_unsigned());
  EXPECT_TRUE(to_json_value(std::int32_t{7}).is_number_integer());
}

TEST(Encode, FloatsAsNlohmannWritesThem) {
  EXPECT_EQ(text_of(1.0), "1.0");
  EXPECT_EQ(text_of(1e20), "1e+20");
  EXPECT_EQ(text_of(0.1), "0.1");
  EXPECT_EQ(text_of(-0.0), "-0.0");
  EXPECT_EQ(text_of(1e-7), "1e-07");
  EXPECT_EQ(text_of(5e-324), "5e-324");
  EXPECT_EQ(text_of(std::numeric_limits<double>::quiet_NaN()), "null");
  EXPECT_EQ(text_of(-std::numeric_limits<double>::infinity()), "null");
  std::mt19937_64 rng(7);
  for (int i = 0; i < 20000; ++i) {
    std::uint64_t bits = rng();
    double d;
    std::memcpy(&d, &bits, sizeof d);
    text_of(d);
  }
}

TEST(Encode, StringsEscapedAsNlohmannEscapesThem) {
  EXPECT_EQ(text_of(std::string("a\"b\\c\b\f\n\r\t\x01\x1f\x7f/")), R"("a\"b\\c\b\f\n\r\t\u0001\u001f)"
                                                                    "\x7f"
                                                                    R"(/")");
  EXPECT_EQ(text_of(std::string("caf\xc3\xa9 \xf0\x9f\x98\x80")), "\"caf\xc3\xa9 \xf0\x9f\x98\x80\"");
  EXPECT_EQ(text_of(std::string("bad \xff\xfe and \xc3 cut")), "\"bad \xef\xbf\xbd\xef\xbf\xbd and \xef\xbf\xbd cut\"");
  std::string all;
  for (int c = 1; c < 256; ++c) all += static_cast<char>(c);
  text_of(all);
  // Every length around the eight-byte steps the writer checks strings in, with a byte that needs
  // attention (an escape, a control character, UTF-8 valid or not) anywhere, or none.
  static const std::string odd[] = {"\"",           "\\",   "\n",   std::string(1, '\0'), "\x1f", "\x7f", "\xc3\xa9",
                                    "\xe2\x82\xac", "\xff", "\xc3", "\xed\xa0\x80"};
  for (std::size_t length = 0; length <= 33; ++length) {
    for (std::size_t at = 0; at <= length; ++at) {
      for (const std::string& o : odd) {
        for (bool with_odd : {false, true}) {
          std::string s(length, 'x');
          if (with_odd) s.insert(at, o);
          ASSERT_EQ(text_of(s), dumped(json(s))) << "length " << length << " at " << at;
        }
      }
    }
  }
  // Long strings and map keys, which the writer escapes on their own before copying them in.
  for (std::size_t length : {4095u, 4096u, 4097u, 100000u}) {
    for (const std::string& o : odd) {
      const std::string s = std::string(length, 'x') + o;
      ASSERT_EQ(text_of(s), dumped(json(s))) << "length " << length;
      const std::map<std::string, int> m{{s, 1}, {o, 2}};
      ASSERT_EQ(text_of(m), dumped(json(m))) << "length " << length;
    }
  }
}

TEST(Encode, StructKeysComeOutSorted) {
  EXPECT_EQ(text_of(shop::Item{7, "Fix", std::nullopt}), R"({"assignee":null,"id":7,"title":"Fix"})");
  shop::Report r{{{1, "a", "ann"}, {2, "b", std::nullopt}}, {{"zz", 1}, {"a", 2}, {"m", 3}}, shop::Status::closed, 2.5};
  EXPECT_EQ(text_of(r), R"({"counts":{"a":2,"m":3,"zz":1},"extra":2.5,"items":[{"assignee":"ann","id":1,"title":"a"},)"
                        R"({"assignee":null,"id":2,"title":"b"}],"status":"closed"})");
}

TEST(Encode, EnumValuesThatNameNoEnumeratorAreIntegers) {
  EXPECT_EQ(text_of(shop::Status::closed), "\"closed\"");
  EXPECT_EQ(text_of(static_cast<shop::Status>(7)), "7");
  EXPECT_EQ(text_of(static_cast<shop::Level>(200)), "200");
}

TEST(Encode, Containers) {
  EXPECT_EQ(text_of(std::vector<bool>{true, false}), "[true,false]");
  EXPECT_EQ(text_of(std::array<std::int64_t, 2>{3, 4}), "[3,4]");
  EXPECT_EQ(text_of(std::set<std::string>{"b", "a"}), R"(["a","b"])");
  EXPECT_EQ(text_of(std::map<std::string, double>{{"x", 1}}), R"({"x":1.0})");
  EXPECT_EQ(text_of(std::tuple<std::string, std::int64_t, bool>{"a", 1, false}), R"(["a",1,false])");
  EXPECT_EQ(text_of(std::pair<double, std::string>{0.5, "x"}), R"([0.5,"x"])");
  EXPECT_EQ(text_of(std::optional<std::int64_t>{}), "null");
  EXPECT_EQ(text_of(std::make_unique<std::string>("u")), "\"u\"");
  EXPECT_EQ(text_of(std::shared_ptr<std::string>{}), "null");
  EXPECT_EQ(text_of(std::variant<std::monostate, std::int64_t>{}), "null");
  EXPECT_EQ(text_of(std::variant<std::monostate, std::int64_t>{std::int64_t{3}}), "3");
  EXPECT_EQ(text_of(json::parse(R"({"b": [1, 2.5, null], "a": "x"})")), R"({"a":"x","b":[1,2.5,null]})");
  std::unordered_set<std::int64_t> many;
  for (std::int64_t i = 0; i < 50; ++i) many.insert(i);
  EXPECT_EQ(to_json_value(many).size(), 50u);
}

TEST(Encode, TimesInUtcWithZ) {
  using namespace std::chrono;
  const auto t = sys_days(year(2025) / 12 / 29) + hours(10) + minutes(30);
  EXPECT_EQ(text_of(time_point_cast<system_clock::duration>(t)), "\"2025-12-29T10:30:00Z\"");
  EXPECT_EQ(text_of(time_point_cast<system_clock::duration>(t + milliseconds(250))), "\"2025-12-29T10:30:00.25Z\"");
  EXPECT_EQ(text_of(time_point_cast<system_clock::duration>(sys_days(year(1970) / 1 / 1) - milliseconds(500))),
            "\"1969-12-31T23:59:59.5Z\"");
  EXPECT_EQ(text_of(sys_seconds(seconds(0))), "\"1970-01-01T00:00:00Z\"");
  EXPECT_EQ(text_of(year(2025) / 3 / 7), "\"2025-03-07\"");
  EXPECT_EQ(text_of(year(987) / 3 / 7), "\"0987-03-07\"");
  EXPECT_EQ(text_of(milliseconds(1500)), "1500");
}

#if defined(PTC_REQUIRE_EXPECTED) && !defined(__cpp_lib_expected)
#error "codec_encode_cxx23_test is built to test std::expected, but <expected> is not available"
#endif
#if defined(__cpp_lib_expected)
TEST(Encode, ExpectedHasAResultOrAnError) {
  EXPECT_EQ(text_of(std::expected<std::int64_t, std::string>(5)), R"({"error":null,"result":5})");
  EXPECT_EQ(text_of(std::expected<std::int64_t, std::string>(std::unexpect, "no")), R"({"error":"no","result":null})");
}

TEST(ToolResultOf, ExpectedValueIsASuccessThatMatchesItsDeclaredShape) {
  auto r = ptc::codec::to_tool_result(std::expected<std::int64_t, std::string>(5));
  EXPECT_TRUE(r.success);
  ASSERT_TRUE(r.value.has_value());
  EXPECT_EQ(*r.value, json::parse(R"({"error":null,"result":5})"));
  // What the generator declares for std::expected<int64_t, std::string>, checked as dispatch checks results.
  const auto shape =
      ptc::parse_malli_type(R"([:map [:result :int] [:error {:optional true} [:maybe :string]]])").value();
  EXPECT_TRUE(ptc::validate(shape, *r.value, {ptc::Direction::Output, ptc::Mode::Strict}).ok);
}

TEST(ToolResultOf, ExpectedErrorIsAFailedCallNamedByTheError) {
  auto text = ptc::codec::to_tool_result(std::expected<std::int64_t, std::string>(std::unexpect, "disk full"));
  EXPECT_FALSE(text.success);
  EXPECT_EQ(text.message, "disk full");
  EXPECT_FALSE(text.value.has_value());
  auto code = ptc::codec::to_tool_result(std::expected<std::string, std::int64_t>(std::unexpect, 404));
  EXPECT_FALSE(code.success);
  EXPECT_EQ(code.message, "404");
  auto item =
      ptc::codec::to_tool_result(std::expected<void, shop::Item>(std::unexpect, shop::Item{7, "Fix", std::nullopt}));
  EXPECT_FALSE(item.success);
  EXPECT_EQ(item.message, R"({"assignee":null,"id":7,"title":"Fix"})");
}
#endif

// Writer calls in random order, with unsorted and repeated keys: the same JSON from both writers.
template <class W>
void program(W& w, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  static const char* keys[] = {"b", "a", "zeta", "", "a b", "\xc3\xa9", "A", "b\"", "a\n"};
  // Fields as generated encoders write them: ascending, each with its JSON text written out by hand.
  static const ptc::codec::KnownKey known[] = {{"", R"("":)"},
                                               {"A", R"("A":)"},
                                               {"a\n", R"("a\n":)"},
                                               {"b\"", R"("b\"":)"},
                                               {"street_address", R"("street_address":)"},
                                               {"\xc3\xa9", "\"\xc3\xa9\":"}};
  auto pick = [&](std::size_t n) { return static_cast<std::size_t>(rng() % n); };
  auto scalar = [&] {
    switch (pick(7)) {
      case 0: w.null(); break;
      case 1: w.boolean(pick(2) == 0); break;
      case 2: w.integer(static_cast<std::int64_t>(rng())); break;
      case 3: w.unsigned_integer(rng()); break;
      case 4: w.number(static_cast<double>(rng() % 1000) / 8); break;
      case 5: w.string(keys[pick(9)]); break;
      default: w.json(json{{"k", {1, "x"}}, {"a", nullptr}}); break;
    }
  };
  auto value = [&](auto& self, int depth) -> void {
    const std::size_t kind = depth > 3 ? 0 : pick(4);
    if (kind == 0) return scalar();
    if (kind == 1) {
      w.begin_array();
      for (std::size_t i = 0, n = pick(4); i < n; ++i) self(self, depth + 1);
      w.end_array();
      return;
    }
    w.begin_object();
    if (kind == 3) {
      for (const auto& k : known) {
        if (pick(2)) continue;
        w.key(k);
        self(self, depth + 1);
      }
    } else {
      for (std::size_t i = 0, n = pick(6); i < n; ++i) {
        w.key(keys[pick(9)]);
        self(self, depth + 1);
      }
    }
    w.end_object();
  };
  value(value, 0);
}

TEST(Encode, TextWriterEqualsDumpOfJsonWriter) {
  for (std::uint64_t seed = 0; seed < 3000; ++seed) {
    ptc::codec::TextWriter text;
    ptc::codec::JsonWriter tree;
    program(text, seed);
    program(tree, seed);
    ASSERT_EQ(text.str(), dumped(tree.take())) << "seed " << seed;
  }
}

TEST(Encode, RoundTrips) {
  shop::Report r{{{1, "a", "ann"}}, {{"k", -1}}, shop::Status::closed, std::string("note")};
  shop::Report back;
  auto v = ptc::codec::decode_text(to_text(r), back);
  EXPECT_TRUE(v.ok);
  EXPECT_TRUE(v.warnings.empty());
  EXPECT_EQ(back, r);
  EXPECT_EQ(v.value, to_json_value(r));

  std::vector<double> numbers{0.1, 1e300, -2.5e-300, 3.0};
  std::vector<double> numbers_back;
  EXPECT_TRUE(ptc::codec::decode_text(to_text(numbers), numbers_back).ok);
  EXPECT_EQ(numbers_back, numbers);
}

}  // namespace
