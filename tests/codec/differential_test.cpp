// The codecs against the runtime validator (the harness is tests/support/codec_differential.hpp), with
// traits written exactly as ptc-gen emits them, so that builds without the generator test the codecs
// too; tests/generator/differential runs the same harness on generated code.

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <unordered_map>
#include <variant>
#include <vector>

#include <gtest/gtest.h>

#include <ptc/codec/codec.hpp>
#include <ptc/json_input.hpp>
#include <ptc/limits.hpp>
#include <ptc/signature.hpp>

#include "codec_differential.hpp"

namespace diff {

enum class Priority { low, high, urgent };

struct Flat {
  std::int32_t count = 0;
  std::uint8_t level = 0;
  double ratio = 0;
  bool flag = false;
  std::string name;
  Priority priority = Priority::low;
  std::optional<std::string> note;
  std::int64_t big = 0;
};

struct Item {
  std::int64_t id = 0;
  std::string title;
  std::vector<std::string> tags;
};

struct Order {
  std::string customer;
  std::vector<Item> items;
  Item primary;
  std::optional<Item> backup;
};

struct Collections {
  std::map<std::string, std::int64_t> counts;
  std::set<std::string> labels;
  std::unordered_map<std::string, std::vector<double>> series;
  std::set<std::int64_t> ids;
};

struct Unions {
  std::variant<std::int64_t, std::string> key;
  std::variant<std::monostate, double, Item> mixed;
  std::tuple<std::string, std::int64_t, bool> triple;
  std::pair<double, std::string> pair;
  std::variant<std::vector<std::int64_t>, Item, bool> shape;
};

// A tool's arguments: search(query, limit = 10, cursor, sort = "relevance", threshold, priority = low).
struct search_args {
  std::string query;
  std::int64_t limit = 0;
  std::optional<std::string> cursor;
  std::string sort;
  double threshold = 0;
  Priority priority = Priority::low;
};

const ptc::Schema& constraint(std::string_view malli) {
  static std::map<std::string, ptc::Schema, std::less<>> parsed;
  auto it = parsed.find(malli);
  if (it == parsed.end()) it = parsed.emplace(std::string(malli), ptc::parse_malli_type(malli).value()).first;
  return it->second;
}

}  // namespace diff

namespace ptc::codec {
template <>
struct EnumTraits<::diff::Priority> {
  static constexpr std::array<EnumEntry<::diff::Priority>, 3> entries{
      {{"low", ::diff::Priority::low}, {"high", ::diff::Priority::high}, {"urgent", ::diff::Priority::urgent}}};
};
template <>
struct StructTraits<::diff::Flat> {
  static constexpr std::array<FieldInfo, 8> fields{{{"count", false, false},
                                                    {"level", false, false},
                                                    {"ratio", false, false},
                                                    {"flag", false, false},
                                                    {"name", false, false},
                                                    {"priority", false, false},
                                                    {"note", true, false},
                                                    {"big", false, false}}};
  static bool decode_field(Decoder& d, std::size_t index, Value& v, ::diff::Flat& out) {
    switch (index) {
      case 0: return Codec<std::int32_t>::decode(d, v, out.count);
      case 1: return Codec<std::uint8_t>::decode(d, v, out.level);
      case 2: return Codec<double>::decode(d, v, out.ratio);
      case 3: return Codec<bool>::decode(d, v, out.flag);
      case 4: return Codec<std::string>::decode(d, v, out.name);
      case 5: return Codec<::diff::Priority>::decode(d, v, out.priority);
      case 6: return Codec<std::optional<std::string>>::decode(d, v, out.note);
      case 7: return Codec<std::int64_t>::decode(d, v, out.big);
    }
    return true;
  }
  static void fill_default(std::size_t index, ::diff::Flat& out) {
    (void)index;
    (void)out;
  }
  template <class W>
  static void encode_fields(W& w, const ::diff::Flat& value) {
    w.key("count");
    Codec<std::int32_t>::encode(w, value.count);
    w.key("level");
    Codec<std::uint8_t>::encode(w, value.level);
    w.key("ratio");
    Codec<double>::encode(w, value.ratio);
    w.key("flag");
    Codec<bool>::encode(w, value.flag);
    w.key("name");
    Codec<std::string>::encode(w, value.name);
    w.key("priority");
    Codec<::diff::Priority>::encode(w, value.priority);
    w.key("note");
    Codec<std::optional<std::string>>::encode(w, value.note);
    w.key("big");
    Codec<std::int64_t>::encode(w, value.big);
  }
};
template <>
struct StructTraits<::diff::Item> {
  static constexpr std::array<FieldInfo, 3> fields{
      {{"id", false, false}, {"title", false, false}, {"tags", false, false}}};
  static bool decode_field(Decoder& d, std::size_t index, Value& v, ::diff::Item& out) {
    switch (index) {
      case 0: return Codec<std::int64_t>::decode(d, v, out.id);
      case 1: return Codec<std::string>::decode(d, v, out.title);
      case 2: return Codec<std::vector<std::string>>::decode(d, v, out.tags);
    }
    return true;
  }
  static void fill_default(std::size_t index, ::diff::Item& out) {
    (void)index;
    (void)out;
  }
  template <class W>
  static void encode_fields(W& w, const ::diff::Item& value) {
    w.key("id");
    Codec<std::int64_t>::encode(w, value.id);
    w.key("title");
    Codec<std::string>::encode(w, value.title);
    w.key("tags");
    Codec<std::vector<std::string>>::encode(w, value.tags);
  }
};
template <>
struct StructTraits<::diff::Order> {
  static constexpr std::array<FieldInfo, 4> fields{
      {{"customer", false, false}, {"items", false, false}, {"primary", false, false}, {"backup", true, false}}};
  static bool decode_field(Decoder& d, std::size_t index, Value& v, ::diff::Order& out) {
    switch (index) {
      case 0: return Codec<std::string>::decode(d, v, out.customer);
      case 1: return Codec<std::vector<::diff::Item>>::decode(d, v, out.items);
      case 2: return Codec<::diff::Item>::decode(d, v, out.primary);
      case 3: return Codec<std::optional<::diff::Item>>::decode(d, v, out.backup);
    }
    return true;
  }
  static void fill_default(std::size_t index, ::diff::Order& out) {
    (void)index;
    (void)out;
  }
  template <class W>
  static void encode_fields(W& w, const ::diff::Order& value) {
    w.key("customer");
    Codec<std::string>::encode(w, value.customer);
    w.key("items");
    Codec<std::vector<::diff::Item>>::encode(w, value.items);
    w.key("primary");
    Codec<::diff::Item>::encode(w, value.primary);
    w.key("backup");
    Codec<std::optional<::diff::Item>>::encode(w, value.backup);
  }
};
template <>
struct StructTraits<::diff::Collections> {
  static constexpr std::array<FieldInfo, 4> fields{
      {{"counts", false, false}, {"labels", false, false}, {"series", false, false}, {"ids", false, false}}};
  static bool decode_field(Decoder& d, std::size_t index, Value& v, ::diff::Collections& out) {
    switch (index) {
      case 0: return Codec<std::map<std::string, std::int64_t>>::decode(d, v, out.counts);
      case 1: return Codec<std::set<std::string>>::decode(d, v, out.labels);
      case 2: return Codec<std::unordered_map<std::string, std::vector<double>>>::decode(d, v, out.series);
      case 3: return Codec<std::set<std::int64_t>>::decode(d, v, out.ids);
    }
    return true;
  }
  static void fill_default(std::size_t index, ::diff::Collections& out) {
    (void)index;
    (void)out;
  }
  template <class W>
  static void encode_fields(W& w, const ::diff::Collections& value) {
    w.key("counts");
    Codec<std::map<std::string, std::int64_t>>::encode(w, value.counts);
    w.key("labels");
    Codec<std::set<std::string>>::encode(w, value.labels);
    w.key("series");
    Codec<std::unordered_map<std::string, std::vector<double>>>::encode(w, value.series);
    w.key("ids");
    Codec<std::set<std::int64_t>>::encode(w, value.ids);
  }
};
template <>
struct StructTraits<::diff::Unions> {
  static constexpr std::array<FieldInfo, 5> fields{{{"key", false, false},
                                                    {"mixed", false, false},
                                                    {"triple", false, false},
                                                    {"pair", false, false},
                                                    {"shape", false, false}}};
  static bool decode_field(Decoder& d, std::size_t index, Value& v, ::diff::Unions& out) {
    switch (index) {
      case 0: return Codec<std::variant<std::int64_t, std::string>>::decode(d, v, out.key);
      case 1: return Codec<std::variant<std::monostate, double, ::diff::Item>>::decode(d, v, out.mixed);
      case 2: return Codec<std::tuple<std::string, std::int64_t, bool>>::decode(d, v, out.triple);
      case 3: return Codec<std::pair<double, std::string>>::decode(d, v, out.pair);
      case 4: return Codec<std::variant<std::vector<std::int64_t>, ::diff::Item, bool>>::decode(d, v, out.shape);
    }
    return true;
  }
  static void fill_default(std::size_t index, ::diff::Unions& out) {
    (void)index;
    (void)out;
  }
  template <class W>
  static void encode_fields(W& w, const ::diff::Unions& value) {
    w.key("key");
    Codec<std::variant<std::int64_t, std::string>>::encode(w, value.key);
    w.key("mixed");
    Codec<std::variant<std::monostate, double, ::diff::Item>>::encode(w, value.mixed);
    w.key("triple");
    Codec<std::tuple<std::string, std::int64_t, bool>>::encode(w, value.triple);
    w.key("pair");
    Codec<std::pair<double, std::string>>::encode(w, value.pair);
    w.key("shape");
    Codec<std::variant<std::vector<std::int64_t>, ::diff::Item, bool>>::encode(w, value.shape);
  }
};
template <>
struct StructTraits<::diff::search_args> {
  static constexpr std::array<FieldInfo, 6> fields{{{"query", false, false},
                                                    {"limit", false, true},
                                                    {"cursor", true, false},
                                                    {"sort", false, true},
                                                    {"threshold", false, false},
                                                    {"priority", false, true}}};
  static bool decode_field(Decoder& d, std::size_t index, Value& v, ::diff::search_args& out) {
    switch (index) {
      case 0:
        return Codec<std::string>::decode(d, v, out.query) &&
               check(d, ::diff::constraint(R"([:and :string [:re "^[a-z ]+$"]])"), to_json_value(out.query));
      case 1:
        return Codec<std::int64_t>::decode(d, v, out.limit) &&
               check(d, ::diff::constraint("[:and :int [:>= 1] [:<= 50]]"), to_json_value(out.limit));
      case 2: return Codec<std::optional<std::string>>::decode(d, v, out.cursor);
      case 3: return Codec<std::string>::decode(d, v, out.sort);
      case 4:
        return Codec<double>::decode(d, v, out.threshold) &&
               check(d, ::diff::constraint("[:and :float [:>= 0.0] [:<= 1.0]]"), to_json_value(out.threshold));
      case 5: return Codec<::diff::Priority>::decode(d, v, out.priority);
    }
    return true;
  }
  static void fill_default(std::size_t index, ::diff::search_args& out) {
    switch (index) {
      case 1: out.limit = 10; break;
      case 3: out.sort = "relevance"; break;
      case 5: out.priority = ::diff::Priority::low; break;
    }
  }
  template <class W>
  static void encode_fields(W& w, const ::diff::search_args& value) {
    w.key("query");
    Codec<std::string>::encode(w, value.query);
    w.key("limit");
    Codec<std::int64_t>::encode(w, value.limit);
    w.key("cursor");
    Codec<std::optional<std::string>>::encode(w, value.cursor);
    w.key("sort");
    Codec<std::string>::encode(w, value.sort);
    w.key("threshold");
    Codec<double>::encode(w, value.threshold);
    w.key("priority");
    Codec<::diff::Priority>::encode(w, value.priority);
  }
};
}  // namespace ptc::codec

namespace {

using ptc::Schema;
using ptc::test::compare_with_validator;
using ptc::test::decode_text_into;
using ptc::test::report;
using ptc::Direction;
using ptc::Mode;
using ptc::Validation;

constexpr std::string_view kItem = "[:map [:id :int] [:title :string] [:tags [:vector :string]]]";

std::string with_item(std::string text) {
  for (auto at = text.find("ITEM"); at != std::string::npos; at = text.find("ITEM")) text.replace(at, 4, kItem);
  return text;
}

// The schemas ptc-gen derives for the shapes (uint8 bounded as ptc-gen bounds it), with int32 bounded
// too: its range is the codec's to check.
Schema flat_schema() {
  return ptc::parse_malli_type(
             R"([:map [:count [:and :int [:>= -2147483648] [:<= 2147483647]]] [:level [:and :int [:>= 0] [:<= 255]]]
                 [:ratio :double] [:flag :boolean] [:name :string] [:priority [:enum "low" "high" "urgent"]]
                 [:note {:optional true} [:maybe :string]] [:big :int]])")
      .value();
}
Schema order_schema() {
  return ptc::parse_malli_type(with_item("[:map [:customer :string] [:items [:vector ITEM]] [:primary ITEM] [:backup "
                                         "{:optional true} [:maybe ITEM]]]"))
      .value();
}
Schema collections_schema() {
  return ptc::parse_malli_type(
             "[:map [:counts [:map-of :string :int]] [:labels [:set :string]] [:series [:map-of :string [:vector "
             ":double]]] "
             "[:ids [:set :int]]]")
      .value();
}
Schema unions_schema() {
  return ptc::parse_malli_type(
             with_item("[:map [:key [:or :int :string]] [:mixed [:or :nil :double ITEM]] [:triple [:tuple :string :int "
                       ":boolean]] "
                       "[:pair [:tuple :double :string]] [:shape [:or [:vector :int] ITEM :boolean]]]"))
      .value();
}
Schema search_schema() {
  return ptc::Signature::from_malli(
             R"([:=> [:catn [:query [:and :string [:re "^[a-z ]+$"]]] [:limit {:default 10} [:and :int [:>= 1] [:<= 50]]]
                  [:cursor [:maybe :string]] [:sort {:default "relevance"} :string]
                  [:threshold [:and :double [:>= 0.0] [:<= 1.0]]] [:priority {:default "low"} [:enum "low" "high" "urgent"]]] :any])")
      .value()
      .input();
}

constexpr std::size_t kDocuments = 10000;

// level is a uint8_t: in warn_only and disabled a number beyond 0..255 is still an error.
TEST(CodecDifferential, FlatScalars) {
  report("flat", compare_with_validator(flat_schema(), 1, kDocuments, {{-2147483648LL, 2147483647LL, false}},
                                        decode_text_into<diff::Flat>(), {{"level", 0, 255}}));
}

TEST(CodecDifferential, NestedStructsAndVectors) {
  report("nested", compare_with_validator(order_schema(), 2, kDocuments, {}, decode_text_into<diff::Order>()));
}

TEST(CodecDifferential, MapsAndSets) {
  report("collections",
         compare_with_validator(collections_schema(), 3, kDocuments, {}, decode_text_into<diff::Collections>()));
}

TEST(CodecDifferential, VariantsAndTuples) {
  report("unions", compare_with_validator(unions_schema(), 4, kDocuments, {}, decode_text_into<diff::Unions>()));
}

TEST(CodecDifferential, DefaultsAndConstraints) {
  report("defaults", compare_with_validator(search_schema(), 5, kDocuments, {}, decode_text_into<diff::search_args>()));
}

// Documents with more issues than a Validation stores (limits::kStoredIssues): the codec records them
// in the order it reads them and puts them in the validator's order object by object, keeping only the
// first of each kind (KeyedIssues, Decoder::room); what it stores, its counts and its report must be the
// validator's exactly, in every mode.
template <class T>
void expect_same_past_the_cap(const Schema& schema, const std::string& text) {
  const auto parsed = ptc::parse_json(text);
  ASSERT_TRUE(parsed) << parsed.error().to_string();
  for (Mode mode : {Mode::Enabled, Mode::WarnOnly, Mode::Strict, Mode::Disabled}) {
    T out{};
    const Validation codec = ptc::codec::decode_text(text, out, mode);
    const Validation ref = validate_and_coerce(schema, *parsed, {Direction::Input, mode, /*drop_undeclared=*/true});
    EXPECT_LE(codec.errors.size(), ptc::limits::kStoredIssues);
    EXPECT_LE(codec.warnings.size(), ptc::limits::kStoredIssues);
    EXPECT_EQ(codec.ok, ref.ok) << mode_name(mode);
    EXPECT_EQ(codec.errors, ref.errors) << mode_name(mode);
    EXPECT_EQ(codec.warnings, ref.warnings) << mode_name(mode);
    EXPECT_EQ(codec.more_errors, ref.more_errors) << mode_name(mode);
    EXPECT_EQ(codec.more_warnings, ref.more_warnings) << mode_name(mode);
    EXPECT_EQ(codec.report(), ref.report()) << mode_name(mode);
  }
}

// Keys in an order far from sorted: k0 .. k(n-1) visited by a stride prime to n.
std::string shuffled_members(std::size_t n, const std::string& value, const std::string& prefix = "k") {
  std::string out;
  for (std::size_t i = 0; i < n; ++i) {
    if (!out.empty()) out += ',';
    out += '"' + prefix + std::to_string((i * 7919) % n) + "\":" + value;
  }
  return out;
}

TEST(CodecDifferential, PastTheStoredCapTheCodecStoresAndCountsAsTheValidator) {
  const std::string item = R"({"id": 1, "title": "t", "tags": []})";
  // Thousands of undeclared fields around the declared ones.
  expect_same_past_the_cap<diff::Order>(order_schema(), "{" + shuffled_members(3000, "[1, {\"a\": 2}]") +
                                                            R"(, "customer": "c", "items": [], "primary": )" + item +
                                                            "," + shuffled_members(1000, "0", "a") + "}");
  // Many items, each with an error, a coercion and an undeclared field met out of the validator's
  // order, then an object with hundreds of undeclared fields and a missing field after them.
  std::string items;
  for (int i = 0; i < 400; ++i)
    items += std::string(i ? "," : "") + R"({"x": 1, "title": 5, "id": "3", "tags": ["a"]})";
  expect_same_past_the_cap<diff::Order>(order_schema(), R"({"primary": {)" + shuffled_members(300, "true") +
                                                            R"(, "title": 1}, "items": [)" + items +
                                                            R"(], "customer": 7, "backup": null})");
  // A map's keys (sorted by key), coerced and wrong values; a set's repeated items.
  std::string counts;
  for (std::size_t i = 0; i < 2000; ++i)
    counts +=
        std::string(i ? "," : "") + "\"c" + std::to_string((i * 7919) % 2000) + "\": " + (i % 3 ? "\"5\"" : "\"x\"");
  std::string ids;
  for (int i = 0; i < 300; ++i) ids += std::string(i ? "," : "") + (i % 2 ? "\"1\"" : "1");
  expect_same_past_the_cap<diff::Collections>(
      collections_schema(), R"({"counts": {)" + counts + R"(}, "labels": [], "series": {}, "ids": [)" + ids + "]}");
  // A union's closest alternative with more errors of each kind than are stored (refusals after the
  // others), and a tuple too long with a coercion in it.
  std::string shape;
  for (int i = 0; i < 150; ++i) shape += std::string(i ? "," : "") + "\"abc\"";
  for (int i = 0; i < 130; ++i) shape += ",2.5";
  for (int i = 0; i < 20; ++i) shape += ",\"3\"";
  expect_same_past_the_cap<diff::Unions>(unions_schema(), R"({"key": 1, "mixed": null, "triple": ["a", "1", true, 4, 5],
      "pair": [1.5, "b"], "shape": [)" + shape + "]}");
}

}  // namespace
