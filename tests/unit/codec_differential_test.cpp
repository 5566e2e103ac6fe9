// The codecs against the runtime validator: random JSON text (valid, LLM-quirky, broken) decoded with
// ptc::codec and validated with ptc::validate_and_coerce on the equivalent signature must give the
// same ok, errors and warnings (texts, paths, order) in every mode, and the same value when it is ok.
//
// The traits below are written exactly as ptc-gen emits them. Known, documented differences
// (docs/codecs.md) are applied to the validator's side before comparing:
// - int32/uint8 must fit their C++ type: the reference schema bounds them with refinements, whose
//   messages become the codec's range message;
// - the codec's value holds the declared fields only (absent optional fields as null), and a set's
//   items in the set's order.

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <map>
#include <optional>
#include <random>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <tuple>
#include <unordered_map>
#include <variant>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <ptc/codec/codec.hpp>
#include <ptc/json_input.hpp>
#include <ptc/signature.hpp>
#include <ptc/validate.hpp>

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
template <> struct EnumTraits<::diff::Priority> {
  static constexpr std::array<EnumEntry<::diff::Priority>, 3> entries{{{"low", ::diff::Priority::low}, {"high", ::diff::Priority::high}, {"urgent", ::diff::Priority::urgent}}};
};
template <> struct StructTraits<::diff::Flat> {
  static constexpr std::array<FieldInfo, 8> fields{{{"count", false, false}, {"level", false, false}, {"ratio", false, false}, {"flag", false, false}, {"name", false, false}, {"priority", false, false}, {"note", true, false}, {"big", false, false}}};
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
  static void fill_default(std::size_t index, ::diff::Flat& out) { (void)index; (void)out; }
  template <class W> static void encode_fields(W& w, const ::diff::Flat& value) {
    w.key("count"); Codec<std::int32_t>::encode(w, value.count);
    w.key("level"); Codec<std::uint8_t>::encode(w, value.level);
    w.key("ratio"); Codec<double>::encode(w, value.ratio);
    w.key("flag"); Codec<bool>::encode(w, value.flag);
    w.key("name"); Codec<std::string>::encode(w, value.name);
    w.key("priority"); Codec<::diff::Priority>::encode(w, value.priority);
    w.key("note"); Codec<std::optional<std::string>>::encode(w, value.note);
    w.key("big"); Codec<std::int64_t>::encode(w, value.big);
  }
};
template <> struct StructTraits<::diff::Item> {
  static constexpr std::array<FieldInfo, 3> fields{{{"id", false, false}, {"title", false, false}, {"tags", false, false}}};
  static bool decode_field(Decoder& d, std::size_t index, Value& v, ::diff::Item& out) {
    switch (index) {
      case 0: return Codec<std::int64_t>::decode(d, v, out.id);
      case 1: return Codec<std::string>::decode(d, v, out.title);
      case 2: return Codec<std::vector<std::string>>::decode(d, v, out.tags);
    }
    return true;
  }
  static void fill_default(std::size_t index, ::diff::Item& out) { (void)index; (void)out; }
  template <class W> static void encode_fields(W& w, const ::diff::Item& value) {
    w.key("id"); Codec<std::int64_t>::encode(w, value.id);
    w.key("title"); Codec<std::string>::encode(w, value.title);
    w.key("tags"); Codec<std::vector<std::string>>::encode(w, value.tags);
  }
};
template <> struct StructTraits<::diff::Order> {
  static constexpr std::array<FieldInfo, 4> fields{{{"customer", false, false}, {"items", false, false}, {"primary", false, false}, {"backup", true, false}}};
  static bool decode_field(Decoder& d, std::size_t index, Value& v, ::diff::Order& out) {
    switch (index) {
      case 0: return Codec<std::string>::decode(d, v, out.customer);
      case 1: return Codec<std::vector<::diff::Item>>::decode(d, v, out.items);
      case 2: return Codec<::diff::Item>::decode(d, v, out.primary);
      case 3: return Codec<std::optional<::diff::Item>>::decode(d, v, out.backup);
    }
    return true;
  }
  static void fill_default(std::size_t index, ::diff::Order& out) { (void)index; (void)out; }
  template <class W> static void encode_fields(W& w, const ::diff::Order& value) {
    w.key("customer"); Codec<std::string>::encode(w, value.customer);
    w.key("items"); Codec<std::vector<::diff::Item>>::encode(w, value.items);
    w.key("primary"); Codec<::diff::Item>::encode(w, value.primary);
    w.key("backup"); Codec<std::optional<::diff::Item>>::encode(w, value.backup);
  }
};
template <> struct StructTraits<::diff::Collections> {
  static constexpr std::array<FieldInfo, 4> fields{{{"counts", false, false}, {"labels", false, false}, {"series", false, false}, {"ids", false, false}}};
  static bool decode_field(Decoder& d, std::size_t index, Value& v, ::diff::Collections& out) {
    switch (index) {
      case 0: return Codec<std::map<std::string, std::int64_t>>::decode(d, v, out.counts);
      case 1: return Codec<std::set<std::string>>::decode(d, v, out.labels);
      case 2: return Codec<std::unordered_map<std::string, std::vector<double>>>::decode(d, v, out.series);
      case 3: return Codec<std::set<std::int64_t>>::decode(d, v, out.ids);
    }
    return true;
  }
  static void fill_default(std::size_t index, ::diff::Collections& out) { (void)index; (void)out; }
  template <class W> static void encode_fields(W& w, const ::diff::Collections& value) {
    w.key("counts"); Codec<std::map<std::string, std::int64_t>>::encode(w, value.counts);
    w.key("labels"); Codec<std::set<std::string>>::encode(w, value.labels);
    w.key("series"); Codec<std::unordered_map<std::string, std::vector<double>>>::encode(w, value.series);
    w.key("ids"); Codec<std::set<std::int64_t>>::encode(w, value.ids);
  }
};
template <> struct StructTraits<::diff::Unions> {
  static constexpr std::array<FieldInfo, 5> fields{{{"key", false, false}, {"mixed", false, false}, {"triple", false, false}, {"pair", false, false}, {"shape", false, false}}};
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
  static void fill_default(std::size_t index, ::diff::Unions& out) { (void)index; (void)out; }
  template <class W> static void encode_fields(W& w, const ::diff::Unions& value) {
    w.key("key"); Codec<std::variant<std::int64_t, std::string>>::encode(w, value.key);
    w.key("mixed"); Codec<std::variant<std::monostate, double, ::diff::Item>>::encode(w, value.mixed);
    w.key("triple"); Codec<std::tuple<std::string, std::int64_t, bool>>::encode(w, value.triple);
    w.key("pair"); Codec<std::pair<double, std::string>>::encode(w, value.pair);
    w.key("shape"); Codec<std::variant<std::vector<std::int64_t>, ::diff::Item, bool>>::encode(w, value.shape);
  }
};
template <> struct StructTraits<::diff::search_args> {
  static constexpr std::array<FieldInfo, 6> fields{{{"query", false, false}, {"limit", false, true}, {"cursor", true, false}, {"sort", false, true}, {"threshold", false, false}, {"priority", false, true}}};
  static bool decode_field(Decoder& d, std::size_t index, Value& v, ::diff::search_args& out) {
    switch (index) {
      case 0: return Codec<std::string>::decode(d, v, out.query) && check(d, ::diff::constraint(R"([:and :string [:re "^[a-z ]+$"]])"), to_json_value(out.query));
      case 1: return Codec<std::int64_t>::decode(d, v, out.limit) && check(d, ::diff::constraint("[:and :int [:>= 1] [:<= 50]]"), to_json_value(out.limit));
      case 2: return Codec<std::optional<std::string>>::decode(d, v, out.cursor);
      case 3: return Codec<std::string>::decode(d, v, out.sort);
      case 4: return Codec<double>::decode(d, v, out.threshold) && check(d, ::diff::constraint("[:and :float [:>= 0.0] [:<= 1.0]]"), to_json_value(out.threshold));
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
  template <class W> static void encode_fields(W& w, const ::diff::search_args& value) {
    w.key("query"); Codec<std::string>::encode(w, value.query);
    w.key("limit"); Codec<std::int64_t>::encode(w, value.limit);
    w.key("cursor"); Codec<std::optional<std::string>>::encode(w, value.cursor);
    w.key("sort"); Codec<std::string>::encode(w, value.sort);
    w.key("threshold"); Codec<double>::encode(w, value.threshold);
    w.key("priority"); Codec<::diff::Priority>::encode(w, value.priority);
  }
};
}  // namespace ptc::codec

namespace {

using json = nlohmann::json;
using ptc::Kind;
using ptc::Mode;
using ptc::Schema;
using ptc::Validation;

constexpr std::string_view kItem = "[:map [:id :int] [:title :string] [:tags [:vector :string]]]";

std::string with_item(std::string text) {
  for (auto at = text.find("ITEM"); at != std::string::npos; at = text.find("ITEM")) text.replace(at, 4, kItem);
  return text;
}

// The schemas ptc-gen derives for the shapes, with int32 and uint8 bounded (see the top).
Schema flat_schema() {
  return ptc::parse_malli_type(
             R"([:map [:count [:and :int [:>= -2147483648] [:<= 2147483647]]] [:level [:and :int [:>= 0] [:<= 255]]]
                 [:ratio :double] [:flag :boolean] [:name :string] [:priority [:enum "low" "high" "urgent"]]
                 [:note {:optional true} [:maybe :string]] [:big :int]])")
      .value();
}
Schema order_schema() {
  return ptc::parse_malli_type(with_item(
             "[:map [:customer :string] [:items [:vector ITEM]] [:primary ITEM] [:backup {:optional true} [:maybe ITEM]]]"))
      .value();
}
Schema collections_schema() {
  return ptc::parse_malli_type(
             "[:map [:counts [:map-of :string :int]] [:labels [:set :string]] [:series [:map-of :string [:vector :double]]] "
             "[:ids [:set :int]]]")
      .value();
}
Schema unions_schema() {
  return ptc::parse_malli_type(with_item(
             "[:map [:key [:or :int :string]] [:mixed [:or :nil :double ITEM]] [:triple [:tuple :string :int :boolean]] "
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

// ---------------------------------------------------------------------------------------------------
// Random documents, driven by the schema.

class Gen {
 public:
  explicit Gen(std::uint64_t seed) : rng_(seed) {}

  std::string document(const Schema& s) {
    std::string text = value(s, 0);
    if (chance(0.04)) text = corrupt(std::move(text));
    if (chance(0.002)) text = deep_inside(std::move(text));
    return text;
  }

 private:
  bool chance(double p) { return std::uniform_real_distribution<double>(0, 1)(rng_) < p; }
  std::size_t pick(std::size_t n) { return std::uniform_int_distribution<std::size_t>(0, n - 1)(rng_); }
  template <class T>
  const T& one(const std::vector<T>& options) {
    return options[pick(options.size())];
  }

  std::string ws() {
    if (!chance(0.15)) return "";
    static const std::vector<std::string> spaces{" ", "\n", "  ", "\t", "\r\n "};
    return one(spaces);
  }

  static std::string quote(const std::string& s) { return json(s).dump(); }

  std::string value(const Schema& s, int depth) {
    if (depth > 6 || chance(0.03)) return wrong(depth);
    switch (s.kind()) {
      case Kind::Int: return integer();
      case Kind::Float: return floating();
      case Kind::Bool: return boolean();
      case Kind::String: case Kind::Keyword: return string();
      case Kind::Nil: return "null";
      case Kind::Any: return any(depth);
      case Kind::Enum: return enumeration(s);
      case Kind::Maybe: return chance(0.3) ? "null" : value(s.item(), depth);
      case Kind::And: return refined(s, depth);
      case Kind::Or: return value(s.children()[pick(s.children().size())], depth);
      case Kind::Vector: case Kind::Sequential: case Kind::Set: return list(s, depth);
      case Kind::Tuple: return tuple(s, depth);
      case Kind::Map: return map(s, depth);
      case Kind::MapOf: return map_of(s, depth);
      case Kind::Refinement: return any(depth);
    }
    return "null";
  }

  std::string integer() {
    static const std::vector<std::string> exact{"0", "1", "-1", "7", "42", "-5", "10", "50", "51", "127", "128", "255", "256",
                                                "2147483647", "2147483648", "-2147483648", "-2147483649",
                                                "9223372036854775807", "-9223372036854775808", "-0", "1000000"};
    static const std::vector<std::string> quirky{"\"42\"", "\"-5\"", "\"0\"", "\"300\"", "\"-1\"", "\"2147483648\"",
                                                 "\"9223372036854775808\"", "\"99999999999999999999\"", "\"007\"",
                                                 "\" 42\"", "\"+5\"", "\"4.0\"", "\"1e3\"", "\"abc\"", "\"\""};
    static const std::vector<std::string> broken{"42.0", "1e2", "3.5", "-0.0", "9223372036854775808",
                                                 "-9223372036854775809", "18446744073709551615", "18446744073709551616",
                                                 "123456789012345678901234567890", "-123456789012345678901234567890",
                                                 "1E400", "true", "null", "[]", "{}", "[1]"};
    const double r = std::uniform_real_distribution<double>(0, 1)(rng_);
    if (r < 0.86) return one(exact);
    if (r < 0.94) return one(quirky);
    return one(broken);
  }

  std::string floating() {
    static const std::vector<std::string> exact{"0.5", "1.5", "-2.25", "0", "1", "5", "-0", "-0.0", "0.0", "1e3", "2.5E-3",
                                                "1e308", "4.9e-324", "1e-400", "0.1", "123456789012345678901234567890",
                                                "9007199254740993", "0.30000000000000004"};
    static const std::vector<std::string> quirky{"\"3.14\"", "\"1e3\"", "\"-0\"", "\"42\"", "\"abc\"", "\"\"", "\"1.\"",
                                                 "\"NaN\"", "\"1e400\"", "\" 1\""};
    static const std::vector<std::string> broken{"true", "null", "[]", "{\"a\":1}", "\"x\""};
    const double r = std::uniform_real_distribution<double>(0, 1)(rng_);
    if (r < 0.86) return one(exact);
    if (r < 0.94) return one(quirky);
    return one(broken);
  }

  std::string boolean() {
    static const std::vector<std::string> exact{"true", "false"};
    static const std::vector<std::string> other{"\"true\"", "\"false\"", "\"True\"", "1", "0", "null", "\"yes\"", "[]"};
    return chance(0.85) ? one(exact) : one(other);
  }

  std::string string() {
    static const std::vector<std::string> exact{
        "\"abc\"", "\"\"", "\"hello world\"", "\"h\\u00e9llo\"", "\"a\\\"b\\\\c\\n\"", "\"\\ud83d\\ude00\"",
        "\"caf\xc3\xa9\"", "\"x/y\\/z\"", "\"" + std::string(70, 'a') + "\"",
        "\"" + std::string(63, 'b') + "\xc3\xa9tail and more text to pass the cut\"", "\"low\"", "\"relevance\"",
        "\"search terms\""};
    static const std::vector<std::string> other{"42", "-1", "4.5", "true", "null", "[]", "{}", "[\"a\"]"};
    return chance(0.88) ? one(exact) : one(other);
  }

  std::string enumeration(const Schema& s) {
    static const std::vector<std::string> other{"\"medium\"", "\"LOW\"", "\"\"", "1", "true", "null", "[]", "{}", "2.5",
                                                "\"" + std::string(80, 'z') + "\""};
    if (chance(0.85)) return s.values()[pick(s.values().size())].dump();
    return one(other);
  }

  std::string refined(const Schema& s, int depth) {
    const Schema& base = s.children().front();
    if (base.kind() == Kind::String && chance(0.6)) {
      static const std::vector<std::string> texts{"\"red shoes\"", "\"abc\"", "\"ABC\"", "\"a1\"", "\"\"", "\"x y z\""};
      return one(texts);
    }
    if (base.kind() == Kind::Float && chance(0.6)) {
      static const std::vector<std::string> numbers{"0.5", "0", "1", "1.5", "-0.1", "\"0.25\"", "\"2\"", "0.999"};
      return one(numbers);
    }
    if (base.kind() == Kind::Int && chance(0.4)) {
      static const std::vector<std::string> numbers{"1", "50", "0", "51", "-1", "255", "256", "\"25\"", "\"0\""};
      return one(numbers);
    }
    return value(base, depth);
  }

  std::string list(const Schema& s, int depth) {
    const std::size_t n = pick(5);
    std::vector<std::string> items;
    for (std::size_t i = 0; i < n; ++i) {
      if (!items.empty() && chance(0.2)) {
        items.push_back(one(items));  // a repeat: sets must notice it
      } else {
        items.push_back(value(s.item(), depth + 1));
      }
    }
    return join('[', items, ']');
  }

  std::string tuple(const Schema& s, int depth) {
    std::vector<std::string> items;
    for (const auto& c : s.children()) items.push_back(value(c, depth + 1));
    if (chance(0.08)) items.push_back(any(depth + 1));
    if (chance(0.08) && !items.empty()) items.pop_back();
    return join('[', items, ']');
  }

  std::string key(const std::string& name) {
    // An escaped spelling of the same key is the same key.
    if (!name.empty() && chance(0.05)) {
      char hex[8];
      std::snprintf(hex, sizeof hex, "\\u%04x", static_cast<unsigned char>(name[0]));
      return "\"" + std::string(hex) + name.substr(1) + "\"";
    }
    return quote(name);
  }

  std::string map(const Schema& s, int depth) {
    std::vector<std::string> members;
    for (const auto& e : s.entries()) {
      const bool leave_out = (e.optional || e.has_default()) ? chance(0.3) : chance(0.04);
      if (leave_out) continue;
      const std::string v = (e.optional || e.has_default()) && chance(0.1) ? "null" : value(e.schema, depth + 1);
      members.push_back(key(e.name) + ws() + ":" + ws() + v);
      if (chance(0.04)) members.push_back(key(e.name) + ":" + value(e.schema, depth + 1));  // repeated key
    }
    static const std::vector<std::string> extras{"extra", "zeta", "a", "odd key", "Z", "_hidden", "\xc3\xa9t\xc3\xa9",
                                                  "a\"b", "", "id", "title"};
    while (chance(0.15)) members.push_back(quote(one(extras)) + ":" + any(depth + 1));
    std::shuffle(members.begin(), members.end(), rng_);
    return join('{', members, '}');
  }

  std::string map_of(const Schema& s, int depth) {
    static const std::vector<std::string> keys{"a", "b", "zz", "odd key", "", "\xc3\xa9", "A", "10", "a b"};
    std::vector<std::string> members;
    const std::size_t n = pick(5);
    for (std::size_t i = 0; i < n; ++i) members.push_back(key(one(keys)) + ":" + value(s.value(), depth + 1));
    return join('{', members, '}');
  }

  // Any JSON: the wrong kind for most schemas, or garbage nested deep.
  std::string any(int depth) {
    const std::size_t kind = pick(depth > 4 ? 6 : 8);
    switch (kind) {
      case 0: return "null";
      case 1: return chance(0.5) ? "true" : "false";
      case 2: return integer();
      case 3: return floating();
      case 4: return string();
      case 5: return "\"" + std::to_string(pick(1000)) + "\"";
      case 6: {
        std::vector<std::string> items;
        for (std::size_t i = 0, n = pick(4); i < n; ++i) items.push_back(any(depth + 1));
        return join('[', items, ']');
      }
      default: {
        std::vector<std::string> members;
        for (std::size_t i = 0, n = pick(4); i < n; ++i)
          members.push_back(quote(std::string(1, static_cast<char>('a' + pick(3)))) + ":" + any(depth + 1));
        return join('{', members, '}');
      }
    }
  }

  std::string wrong(int depth) {
    if (chance(0.05)) {  // deep garbage, within the nesting limit
      std::string text = "0";
      for (std::size_t i = 0, n = 20 + pick(40); i < n; ++i) text = chance(0.5) ? "[" + text + "]" : "{\"k\":" + text + "}";
      return text;
    }
    return any(depth);
  }

  std::string join(char open, const std::vector<std::string>& parts, char close) {
    std::string out(1, open);
    out += ws();
    for (std::size_t i = 0; i < parts.size(); ++i) {
      if (i) out += "," + ws();
      out += parts[i];
    }
    return out + ws() + close;
  }

  // Text that is (most likely) not JSON any more.
  std::string corrupt(std::string text) {
    static const std::vector<std::string> junk{"{", "}", "[", "]", ",", ":", "\"", "\\", "x", "tru", "nul", "01", "1.",
                                               "-", "\"\\q\"", "\"\\ud800\"", "\x01", "\xff", "\"a\x02\"", "NaN", ",,", " "};
    const std::size_t at = pick(text.size() + 1);
    switch (pick(5)) {
      case 0: return text.substr(0, at);
      case 1: return text.insert(at, one(junk));
      case 2: return at < text.size() ? text.erase(at, 1) : text + "}";
      case 3: return text + one(junk);
      default: return text.insert(at, " " + one(junk) + " ");
    }
  }

  // Nesting beyond the 512 levels ptc::parse_json accepts, as the value of an undeclared field.
  std::string deep_inside(std::string text) {
    if (text.empty() || text[0] != '{') return text;
    std::string deep(600, '[');
    deep += std::string(600, ']');
    return "{\"deep\":" + deep + (text.size() > 2 ? "," + text.substr(1) : "}");
  }

  std::mt19937_64 rng_;
};

// ---------------------------------------------------------------------------------------------------
// Comparison.

struct NarrowRange {
  std::int64_t min;
  std::int64_t max;
  bool is_unsigned;
};

// The refinement message the reference schema gives for a narrow type's bound, as the codec says it.
std::string as_codec_says(const std::string& message, const std::vector<NarrowRange>& narrow) {
  static const std::regex bound(R"(^expected value (>=|<=) (-?[0-9]+), got (-?[0-9]+)$)");
  std::smatch m;
  if (!std::regex_match(message, m, bound)) return message;
  const std::int64_t b = std::stoll(m[2]);
  for (const auto& r : narrow) {
    const bool upper = m[1] == "<=" && b == r.max;
    const bool lower = m[1] == ">=" && b == r.min && !r.is_unsigned;
    if (upper || lower)
      return "expected int in range " + std::to_string(r.min) + ".." + std::to_string(r.max) + ", got int " + m[3].str();
  }
  return message;
}

void map_issues(std::vector<ptc::Issue>& issues, const std::vector<NarrowRange>& narrow) {
  for (auto& i : issues) i.message = as_codec_says(i.message, narrow);
}

// The validator's value as the codec holds it: declared fields only, absent optional fields null,
// sets sorted.
json normalized(const Schema& s, const json& v) {
  switch (s.kind()) {
    case Kind::Maybe: return v.is_null() ? v : normalized(s.item(), v);
    case Kind::And: return normalized(s.children().front(), v);
    case Kind::Or:
      for (const auto& alt : s.children())
        if (ptc::validate(alt, v, {ptc::Direction::Output, Mode::Enabled}).ok) return normalized(alt, v);
      return v;
    case Kind::Vector: case Kind::Sequential: case Kind::Set: case Kind::Tuple: {
      if (!v.is_array()) return v;
      json out = json::array();
      for (std::size_t i = 0; i < v.size(); ++i)
        out.push_back(normalized(s.kind() == Kind::Tuple ? s.children()[i] : s.item(), v[i]));
      if (s.kind() == Kind::Set) std::sort(out.begin(), out.end());
      return out;
    }
    case Kind::MapOf: {
      json out = json::object();
      for (auto it = v.begin(); it != v.end(); ++it) out[it.key()] = normalized(s.value(), it.value());
      return out;
    }
    case Kind::Map: {
      json out = json::object();
      for (const auto& e : s.entries()) {
        auto it = v.find(e.name);
        out[e.name] = it == v.end() ? json(nullptr) : normalized(e.schema, *it);
      }
      return out;
    }
    default: return v;
  }
}

// The codec's value with its sets sorted (unordered_set / set order is the C++ container's).
json sorted_sets(const Schema& s, const json& v) { return normalized(s, v); }

std::string show(const Validation& r) {
  std::ostringstream out;
  out << "ok=" << r.ok << "\n  value=" << r.value.dump() << "\n";
  for (const auto& e : r.errors) out << "  error   " << e.path << ": " << e.message << "\n";
  for (const auto& w : r.warnings) out << "  warning " << w.path << ": " << w.message << "\n";
  return out.str();
}

bool is_invalid_json(const Validation& r) {
  return r.errors.size() == 1 && r.errors[0].path == "(root)" && r.errors[0].message.rfind("invalid JSON: ", 0) == 0;
}

struct Tally {
  std::size_t documents = 0, valid = 0, invalid_json = 0, mismatches = 0;
};

template <class T>
Tally run_shape(const Schema& schema, std::uint64_t seed, std::size_t count, const std::vector<NarrowRange>& narrow) {
  Gen gen(seed);
  Tally tally;
  auto mismatch = [&](const std::string& text, Mode mode, const std::string& what, const Validation& codec,
                      const Validation& ref) {
    if (++tally.mismatches <= 5)
      ADD_FAILURE() << what << " in mode " << ptc::mode_name(mode) << " for\n  " << text << "\ncodec:     " << show(codec)
                    << "validator: " << show(ref);
  };
  for (std::size_t n = 0; n < count; ++n) {
    const std::string text = gen.document(schema);
    ++tally.documents;
    auto parsed = ptc::parse_json(text);
    std::optional<Validation> enabled_ref;
    for (Mode mode : {Mode::Enabled, Mode::WarnOnly, Mode::Strict, Mode::Disabled}) {
      T out{};
      Validation codec = ptc::codec::decode_text(text, out, mode);
      if (!parsed) {
        if (!is_invalid_json(codec)) mismatch(text, mode, "nlohmann refuses the text, the codec does not", codec, {});
        if (mode == Mode::Enabled) ++tally.invalid_json;
        continue;
      }
      if (is_invalid_json(codec)) {
        mismatch(text, mode, "the codec refuses text nlohmann reads", codec, {});
        continue;
      }
      Validation ref = ptc::validate_and_coerce(schema, *parsed, {ptc::Direction::Input, mode});
      map_issues(ref.errors, narrow);
      map_issues(ref.warnings, narrow);
      if (mode == Mode::Enabled) {
        enabled_ref = ref;
        if (ref.ok) ++tally.valid;
      }
      if (codec.ok != ref.ok || codec.errors != ref.errors || codec.warnings != ref.warnings) {
        mismatch(text, mode, "different results", codec, ref);
        continue;
      }
      // The value: where the validator's is the decoded one (in WarnOnly and Disabled the values agree
      // with Enabled's when Enabled found no error).
      const Validation* reference = nullptr;
      if ((mode == Mode::Enabled || mode == Mode::Strict) && ref.ok) reference = &ref;
      if ((mode == Mode::WarnOnly || mode == Mode::Disabled) && enabled_ref && enabled_ref->errors.empty())
        reference = &*enabled_ref;
      if (reference && sorted_sets(schema, codec.value) != normalized(schema, reference->value))
        mismatch(text, mode, "different values", codec, *reference);
    }
  }
  return tally;
}

constexpr std::size_t kDocuments = 10000;

void report(const char* shape, const Tally& t) {
  std::printf("%s: %zu documents, %zu valid (enabled), %zu not JSON, %zu mismatches\n", shape, t.documents, t.valid,
              t.invalid_json, t.mismatches);
  EXPECT_EQ(t.mismatches, 0u);
  EXPECT_GT(t.valid, t.documents / 20) << "the generator should produce valid documents too";
  EXPECT_GT(t.documents - t.valid - t.invalid_json, t.documents / 10) << "and invalid ones";
}

TEST(CodecDifferential, FlatScalars) {
  report("flat", run_shape<diff::Flat>(flat_schema(), 1, kDocuments,
                                       {{-2147483648LL, 2147483647LL, false}, {0, 255, true}}));
}

TEST(CodecDifferential, NestedStructsAndVectors) {
  report("nested", run_shape<diff::Order>(order_schema(), 2, kDocuments, {}));
}

TEST(CodecDifferential, MapsAndSets) {
  report("collections", run_shape<diff::Collections>(collections_schema(), 3, kDocuments, {}));
}

TEST(CodecDifferential, VariantsAndTuples) {
  report("unions", run_shape<diff::Unions>(unions_schema(), 4, kDocuments, {}));
}

TEST(CodecDifferential, DefaultsAndConstraints) {
  report("defaults", run_shape<diff::search_args>(search_schema(), 5, kDocuments, {}));
}

}  // namespace
