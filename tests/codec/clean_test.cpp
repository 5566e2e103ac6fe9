// The clean reads (ptc/codec/detail/clean.hpp) and how the struct codec uses a clean reader: only in
// the optimistic pass and not in Strict, with the reporting pass behind it on the first surprise.

#include <array>
#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <ptc/codec/codec.hpp>

namespace clean_test {
struct Point {
  std::string name;
  double x = 0;
  std::optional<long> tag;
  std::vector<std::string> labels;
};
}  // namespace clean_test

namespace ptc::codec {
// As ptc-gen writes them (generator/emit/codec_traits.cpp), with a count of the clean reader's calls.
template <>
struct StructTraits<clean_test::Point> {
  static inline int clean_reads = 0;
  static constexpr std::array<FieldInfo, 4> fields{
      {{"name", false, false}, {"x", false, false}, {"tag", true, false}, {"labels", false, false}}};
  static bool decode_field(Decoder& d, std::size_t index, Value& v, clean_test::Point& out) {
    switch (index) {
      case 0: return Codec<std::string>::decode(d, v, out.name);
      case 1: return Codec<double>::decode(d, v, out.x);
      case 2: return Codec<std::optional<long>>::decode(d, v, out.tag);
      case 3: return Codec<std::vector<std::string>>::decode(d, v, out.labels);
    }
    return true;
  }
  static void fill_default(std::size_t, clean_test::Point&) {}
  static bool read_clean(Decoder& d, Value& v, clean_test::Point& out) {
    ++clean_reads;
    std::uint64_t seen = 0;
    const bool read =
        detail::read_clean_object(d, v, fields, Codec<clean_test::Point>::keys, seen, [&](std::size_t i, Value& value) {
          switch (i) {
            case 0: return detail::Clean<std::string>::read(d, value, out.name);
            case 1: return detail::Clean<double>::read(d, value, out.x);
            case 2: return detail::Clean<std::optional<long>>::read(d, value, out.tag);
            case 3: return detail::Clean<std::vector<std::string>>::read(d, value, out.labels);
          }
          return false;
        });
    if (!read || (seen & 0xbu) != 0xbu) return false;
    if (!(seen >> 2 & 1)) out.tag.reset();
    return true;
  }
  template <class W>
  static void encode_fields(W& w, const clean_test::Point& value) {
    w.key("labels");
    Codec<std::vector<std::string>>::encode(w, value.labels);
    w.key("name");
    Codec<std::string>::encode(w, value.name);
    w.key("tag");
    Codec<std::optional<long>>::encode(w, value.tag);
    w.key("x");
    Codec<double>::encode(w, value.x);
  }
};
}  // namespace ptc::codec

namespace {

using clean_test::Point;
using ptc::Mode;
using Traits = ptc::codec::StructTraits<Point>;

/// decode_only into a Point that holds something already, and how many clean reads it took.
struct Decoded {
  ptc::Validation validation;
  Point point;
  int clean_reads = 0;
};
Decoded decode(const std::string& text, Mode mode = Mode::Enabled) {
  Decoded out;
  out.point = {"old", 9, 7, {"old"}};
  const int before = Traits::clean_reads;
  out.validation = ptc::codec::decode_only(text, out.point, mode);
  out.clean_reads = Traits::clean_reads - before;
  return out;
}

TEST(CleanRead, TakesACleanDocumentInOnePass) {
  for (Mode mode : {Mode::Enabled, Mode::WarnOnly, Mode::Disabled}) {
    const auto d = decode(R"({"name":"a","x":1.5,"labels":["p","q"]})", mode);
    EXPECT_EQ(d.clean_reads, 1);
    EXPECT_TRUE(d.validation.ok);
    EXPECT_TRUE(d.validation.warnings.empty());
    EXPECT_EQ(d.point.name, "a");
    EXPECT_EQ(d.point.x, 1.5);
    EXPECT_FALSE(d.point.tag) << "an absent optional field is reset, not left as it was";
    EXPECT_EQ(d.point.labels, (std::vector<std::string>{"p", "q"}));
  }
}

TEST(CleanRead, KeysInAnyOrderAndNullForAnOptionalField) {
  const auto d = decode(R"({"labels":[],"tag":null,"x":2,"name":"b"})");
  EXPECT_EQ(d.clean_reads, 1);
  EXPECT_TRUE(d.validation.ok);
  EXPECT_EQ(d.point.name, "b");
  EXPECT_FALSE(d.point.tag);
  EXPECT_TRUE(d.point.labels.empty());
}

TEST(CleanRead, StrictModeUsesTheGenericWalk) {
  const auto d = decode(R"({"name":"a","x":1,"labels":[]})", Mode::Strict);
  EXPECT_EQ(d.clean_reads, 0);
  EXPECT_TRUE(d.validation.ok);
  EXPECT_EQ(d.point.x, 1.0);
}

// Whatever the clean reader gives up on is decoded again by the reporting decoder, which reports it.
TEST(CleanRead, GivesUpToTheReportingPass) {
  const auto undeclared = decode(R"({"name":"a","x":1,"labels":[],"extra":1})");
  EXPECT_EQ(undeclared.clean_reads, 1);
  EXPECT_TRUE(undeclared.validation.ok);
  ASSERT_EQ(undeclared.validation.warnings.size(), 1u);
  EXPECT_EQ(undeclared.validation.warnings[0].path, "extra");

  const auto coerced = decode(R"({"name":"a","x":"1.5","labels":[]})");
  EXPECT_TRUE(coerced.validation.ok);
  EXPECT_EQ(coerced.point.x, 1.5);
  ASSERT_EQ(coerced.validation.warnings.size(), 1u);
  EXPECT_EQ(coerced.validation.warnings[0].path, "x");

  const auto missing = decode(R"({"name":"a","labels":[]})");
  EXPECT_FALSE(missing.validation.ok);
  ASSERT_EQ(missing.validation.errors.size(), 1u);
  EXPECT_EQ(missing.validation.errors[0].path, "x");

  const auto wrong = decode(R"({"name":"a","x":1,"labels":["p",2]})");
  EXPECT_FALSE(wrong.validation.ok);
  ASSERT_EQ(wrong.validation.errors.size(), 1u);
  EXPECT_EQ(wrong.validation.errors[0].path, "labels[1]");

  // A repeated key is invalid JSON, as the reporting pass finds it.
  const auto repeated = decode(R"({"name":"a","name":"b","x":1,"labels":[]})");
  EXPECT_FALSE(repeated.validation.ok);

  // A key written with escapes is still the key it spells.
  const auto escaped = decode(R"({"n\u0061me":"a","x":1,"labels":[]})");
  EXPECT_TRUE(escaped.validation.ok);
  EXPECT_EQ(escaped.point.name, "a");
}

TEST(CleanRead, NegativeZeroAsJsonMeansIt) {
  EXPECT_FALSE(std::signbit(decode(R"({"name":"a","x":-0,"labels":[]})").point.x)) << "-0 is the integer 0";
  EXPECT_TRUE(std::signbit(decode(R"({"name":"a","x":-0.0,"labels":[]})").point.x));
}

TEST(CleanRead, AFloatTooLargeForItsTypeIsNotTaken) {
  ptc::codec::Decoder d = ptc::codec::Decoder::optimistic(Mode::Enabled);
  simdjson::ondemand::parser parser;
  simdjson::padded_string text(std::string("[3.5e38, 1.5]"));
  auto doc = parser.iterate(text);
  std::vector<float> out;
  simdjson::ondemand::value v = doc.get_value();
  EXPECT_FALSE(ptc::codec::detail::Clean<std::vector<float>>::read(d, v, out));
  EXPECT_EQ(d.depth(), 0u) << "the level entered is left on the way out";
}

}  // namespace
