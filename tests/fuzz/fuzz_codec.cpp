// libFuzzer target: the codecs of generated code against the runtime validator.
//
// Input: JSON text, as an LLM might send a tool's arguments. It is decoded with ptc::codec::decode_text
// into place_order_args (below) and, when nlohmann reads it, validated with ptc::validate_and_coerce
// against the signature ptc-gen derives for the same tool, in every Mode. Properties checked:
// - text nlohmann refuses is `invalid JSON` at (root) to the codec, never accepted or half-decoded;
// - otherwise ok, errors and warnings (the first limits::kStoredIssues stored, the rest counted, the
//   report) are the validator's (texts, paths, order), and the decoded value
//   is the validator's wherever the validator's value is the decoded one (see the value check below);
// - to_text of the decoded value is byte for byte nlohmann's dump of its JsonWriter value;
// - nothing crashes, leaks, hangs or trips a sanitizer.
//
// The traits are written as ptc-gen emits them (tests/generator/golden/expected/). Only the documented
// differences (docs/codecs.md) are applied to the validator's side: the reference signature bounds
// uint8 and int32 with refinements, whose messages become the codec's range message ("Narrow
// integers"); in warn_only and disabled a number beyond those bounds is refused as the codec refuses it
// ("Modes"); and values are compared with undeclared fields dropped and sets sorted ("The value").

#include <algorithm>
#include <array>
#include <charconv>
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <tuple>
#include <unordered_map>
#include <unordered_set>
#include <variant>
#include <vector>

#include <nlohmann/json.hpp>

#include <ptc/codec/codec.hpp>
#include <ptc/json_input.hpp>
#include <ptc/signature.hpp>
#include <ptc/validate.hpp>

#include "../support/codec_normalized.hpp"
#include "fuzz_common.hpp"

namespace fuzz_codec {

enum class Color { red, green, blue };

struct Part {
  std::string sku;  // PTC_PATTERN("^[A-Z]{2}-[0-9]+$")
  std::uint8_t qty = 0;
  std::optional<double> weight;
  std::vector<std::string> labels;
};

// The arguments of place_order(id, parts, spare?, color, shade?, counts, groups, tags, ids, ref, mark,
// level, offset, limit = 10, ratio, note = "none", pair, meta, cursor?).
struct place_order_args {
  std::string id;  // PTC_PATTERN("^[a-z][a-z0-9_]*$")
  std::vector<Part> parts;
  std::optional<Part> spare;
  Color color = Color::red;
  std::optional<Color> shade;
  std::map<std::string, std::int64_t> counts;
  std::unordered_map<std::string, std::vector<Part>> groups;
  std::set<std::string> tags;
  std::unordered_set<std::int64_t> ids;
  std::variant<std::int64_t, std::string, Part> ref;
  std::variant<std::monostate, bool, std::vector<double>> mark;
  std::uint8_t level = 0;
  std::int32_t offset = 0;
  std::int64_t limit{};  // PTC_RANGE(1, 50)
  double ratio = 0;      // PTC_RANGE(0.0, 1.0)
  std::string note{};
  std::tuple<std::string, bool> pair;
  nlohmann::json meta;
  std::optional<std::string> cursor;
};

}  // namespace fuzz_codec

namespace ptc::codec {

template <>
struct EnumTraits<::fuzz_codec::Color> {
  static constexpr std::array<EnumEntry<::fuzz_codec::Color>, 3> entries{
      {{"red", ::fuzz_codec::Color::red}, {"green", ::fuzz_codec::Color::green}, {"blue", ::fuzz_codec::Color::blue}}};
};

template <>
struct StructTraits<::fuzz_codec::Part> {
  static constexpr std::array<FieldInfo, 4> fields{
      {{"sku", false, false}, {"qty", false, false}, {"weight", true, false}, {"labels", false, false}}};
  static const ptc::Schema& constraint_sku() {
    static const ptc::Schema schema =
        ptc::parse_malli_type(R"ptc([:and :string [:re "^[A-Z]{2}-[0-9]+$"]])ptc").value();
    return schema;
  }
  static bool decode_field(Decoder& d, std::size_t index, Value& v, ::fuzz_codec::Part& out) {
    switch (index) {
      case 0: return Codec<std::string>::decode(d, v, out.sku) && check(d, constraint_sku(), to_json_value(out.sku));
      case 1: return Codec<std::uint8_t>::decode(d, v, out.qty);
      case 2: return Codec<std::optional<double>>::decode(d, v, out.weight);
      case 3: return Codec<std::vector<std::string>>::decode(d, v, out.labels);
    }
    return true;
  }
  static void fill_default(std::size_t index, ::fuzz_codec::Part& out) {
    (void)index;
    (void)out;
  }
  template <class W>
  static void encode_fields(W& w, const ::fuzz_codec::Part& value) {
    w.key("sku");
    Codec<std::string>::encode(w, value.sku);
    w.key("qty");
    Codec<std::uint8_t>::encode(w, value.qty);
    w.key("weight");
    Codec<std::optional<double>>::encode(w, value.weight);
    w.key("labels");
    Codec<std::vector<std::string>>::encode(w, value.labels);
  }
};

template <>
struct StructTraits<::fuzz_codec::place_order_args> {
  static constexpr std::array<FieldInfo, 19> fields{{{"id", false, false},
                                                     {"parts", false, false},
                                                     {"spare", true, false},
                                                     {"color", false, false},
                                                     {"shade", true, false},
                                                     {"counts", false, false},
                                                     {"groups", false, false},
                                                     {"tags", false, false},
                                                     {"ids", false, false},
                                                     {"ref", false, false},
                                                     {"mark", false, false},
                                                     {"level", false, false},
                                                     {"offset", false, false},
                                                     {"limit", false, true},
                                                     {"ratio", false, false},
                                                     {"note", false, true},
                                                     {"pair", false, false},
                                                     {"meta", false, false},
                                                     {"cursor", true, false}}};
  static const ptc::Schema& constraint_id() {
    static const ptc::Schema schema =
        ptc::parse_malli_type(R"ptc([:and :string [:re "^[a-z][a-z0-9_]*$"]])ptc").value();
    return schema;
  }
  static const ptc::Schema& constraint_limit() {
    static const ptc::Schema schema = ptc::parse_malli_type(R"ptc([:and :int [:>= 1] [:<= 50]])ptc").value();
    return schema;
  }
  static const ptc::Schema& constraint_ratio() {
    static const ptc::Schema schema = ptc::parse_malli_type(R"ptc([:and :double [:>= 0.0] [:<= 1.0]])ptc").value();
    return schema;
  }
  static bool decode_field(Decoder& d, std::size_t index, Value& v, ::fuzz_codec::place_order_args& out) {
    switch (index) {
      case 0: return Codec<std::string>::decode(d, v, out.id) && check(d, constraint_id(), to_json_value(out.id));
      case 1: return Codec<std::vector<::fuzz_codec::Part>>::decode(d, v, out.parts);
      case 2: return Codec<std::optional<::fuzz_codec::Part>>::decode(d, v, out.spare);
      case 3: return Codec<::fuzz_codec::Color>::decode(d, v, out.color);
      case 4: return Codec<std::optional<::fuzz_codec::Color>>::decode(d, v, out.shade);
      case 5: return Codec<std::map<std::string, std::int64_t>>::decode(d, v, out.counts);
      case 6: return Codec<std::unordered_map<std::string, std::vector<::fuzz_codec::Part>>>::decode(d, v, out.groups);
      case 7: return Codec<std::set<std::string>>::decode(d, v, out.tags);
      case 8: return Codec<std::unordered_set<std::int64_t>>::decode(d, v, out.ids);
      case 9: return Codec<std::variant<std::int64_t, std::string, ::fuzz_codec::Part>>::decode(d, v, out.ref);
      case 10: return Codec<std::variant<std::monostate, bool, std::vector<double>>>::decode(d, v, out.mark);
      case 11: return Codec<std::uint8_t>::decode(d, v, out.level);
      case 12: return Codec<std::int32_t>::decode(d, v, out.offset);
      case 13:
        return Codec<std::int64_t>::decode(d, v, out.limit) && check(d, constraint_limit(), to_json_value(out.limit));
      case 14: return Codec<double>::decode(d, v, out.ratio) && check(d, constraint_ratio(), to_json_value(out.ratio));
      case 15: return Codec<std::string>::decode(d, v, out.note);
      case 16: return Codec<std::tuple<std::string, bool>>::decode(d, v, out.pair);
      case 17: return Codec<nlohmann::json>::decode(d, v, out.meta);
      case 18: return Codec<std::optional<std::string>>::decode(d, v, out.cursor);
    }
    return true;
  }
  static void fill_default(std::size_t index, ::fuzz_codec::place_order_args& out) {
    switch (index) {
      case 13: out.limit = 10; return;
      case 15: out.note = "none"; return;
    }
  }
  template <class W>
  static void encode_fields(W& w, const ::fuzz_codec::place_order_args& value) {
    w.key("id");
    Codec<std::string>::encode(w, value.id);
    w.key("parts");
    Codec<std::vector<::fuzz_codec::Part>>::encode(w, value.parts);
    w.key("spare");
    Codec<std::optional<::fuzz_codec::Part>>::encode(w, value.spare);
    w.key("color");
    Codec<::fuzz_codec::Color>::encode(w, value.color);
    w.key("shade");
    Codec<std::optional<::fuzz_codec::Color>>::encode(w, value.shade);
    w.key("counts");
    Codec<std::map<std::string, std::int64_t>>::encode(w, value.counts);
    w.key("groups");
    Codec<std::unordered_map<std::string, std::vector<::fuzz_codec::Part>>>::encode(w, value.groups);
    w.key("tags");
    Codec<std::set<std::string>>::encode(w, value.tags);
    w.key("ids");
    Codec<std::unordered_set<std::int64_t>>::encode(w, value.ids);
    w.key("ref");
    Codec<std::variant<std::int64_t, std::string, ::fuzz_codec::Part>>::encode(w, value.ref);
    w.key("mark");
    Codec<std::variant<std::monostate, bool, std::vector<double>>>::encode(w, value.mark);
    w.key("level");
    Codec<std::uint8_t>::encode(w, value.level);
    w.key("offset");
    Codec<std::int32_t>::encode(w, value.offset);
    w.key("limit");
    Codec<std::int64_t>::encode(w, value.limit);
    w.key("ratio");
    Codec<double>::encode(w, value.ratio);
    w.key("note");
    Codec<std::string>::encode(w, value.note);
    w.key("pair");
    Codec<std::tuple<std::string, bool>>::encode(w, value.pair);
    w.key("meta");
    Codec<nlohmann::json>::encode(w, value.meta);
    w.key("cursor");
    Codec<std::optional<std::string>>::encode(w, value.cursor);
  }
};

}  // namespace ptc::codec

namespace {

using json = nlohmann::json;
using ptc::Mode;
using ptc::Schema;
using ptc::Validation;

// What ptc-gen would write for place_order, except that uint8 and int32 carry their C++ bounds.
const Schema& reference_schema() {
  static const Schema schema = [] {
    const std::string part =
        R"([:map [:sku [:and :string [:re "^[A-Z]{2}-[0-9]+$"]]] [:qty [:and :int [:>= 0] [:<= 255]]] )"
        R"([:weight {:optional true} [:maybe :double]] [:labels [:vector :string]]])";
    const std::string color = R"([:enum "red" "green" "blue"])";
    const std::string text =
        R"([:=> [:catn [:id [:and :string [:re "^[a-z][a-z0-9_]*$"]]] [:parts [:vector )" + part + "]] " +
        "[:spare {:optional true} [:maybe " + part + "]] [:color " + color + "] " +
        "[:shade {:optional true} [:maybe " + color + "]] [:counts [:map-of :string :int]] " +
        "[:groups [:map-of :string [:vector " + part + "]]] [:tags [:set :string]] [:ids [:set :int]] " +
        "[:ref [:or :int :string " + part + "]] [:mark [:or :nil :boolean [:vector :double]]] " +
        "[:level [:and :int [:>= 0] [:<= 255]]] [:offset [:and :int [:>= -2147483648] [:<= 2147483647]]] " +
        "[:limit {:optional true :default 10} [:maybe [:and :int [:>= 1] [:<= 50]]]] " +
        "[:ratio [:and :double [:>= 0.0] [:<= 1.0]]] " +
        R"([:note {:optional true :default "none"} [:maybe :string]] [:pair [:tuple :string :boolean]] )" +
        "[:meta :any] [:cursor {:optional true} [:maybe :string]]] :any]";
    return ptc::Signature::from_malli(text).value().input();
  }();
  return schema;
}

struct NarrowRange {
  std::int64_t min;
  std::int64_t max;
  bool is_unsigned;
};
// uint8's bounds are in the schema as ptc-gen writes it, and its codec says them as refinements.
constexpr NarrowRange kNarrow[] = {{-2147483648LL, 2147483647LL, false}};

std::optional<std::int64_t> whole_number(std::string_view s) {
  std::int64_t n = 0;
  const char* end = s.data() + s.size();
  auto [ptr, ec] = std::from_chars(s.data(), end, n);
  if (ec != std::errc{} || ptr != end || s.empty()) return std::nullopt;
  return n;
}

// `expected value <= 2147483647, got 2147483648` from a bound the reference schema added is, to the
// codec, `expected int in range -2147483648..2147483647, got int 2147483648`.
std::string as_codec_says(const std::string& message) {
  constexpr std::string_view prefix = "expected value ";
  if (!message.starts_with(prefix) || message.size() < prefix.size() + 3) return message;
  const std::string_view op = std::string_view(message).substr(prefix.size(), 2);
  if (op != "<=" && op != ">=") return message;
  const std::string_view rest = std::string_view(message).substr(prefix.size() + 3);
  const auto comma = rest.find(", got ");
  if (comma == std::string_view::npos) return message;
  const auto bound = whole_number(rest.substr(0, comma));
  const auto got = whole_number(rest.substr(comma + 6));
  if (!bound || !got) return message;
  for (const auto& r : kNarrow) {
    const bool upper = op == "<=" && *bound == r.max;
    const bool lower = op == ">=" && *bound == r.min && !r.is_unsigned;
    if (upper || lower)
      return "expected int in range " + std::to_string(r.min) + ".." + std::to_string(r.max) + ", got int " +
             std::to_string(*got);
  }
  return message;
}

void map_issues(std::vector<ptc::Issue>& issues) {
  for (auto& i : issues) i.message = as_codec_says(i.message);
}

// Whether the codec refuses what the validator reports as `issue` in Enabled mode (mapped): a narrow
// integer's range in the message, or a number beyond a uint8's range (qty, level), or fractional there.
bool refused_by_type(const ptc::Issue& issue) {
  if (issue.message.starts_with("expected int in range ")) return true;
  const bool uint8 = issue.path == "level" || issue.path.ends_with(".qty");
  const auto got = issue.message.rfind(", got ");
  if (!uint8 || got == std::string::npos) return false;
  std::string_view number = std::string_view(issue.message).substr(got + 6);
  for (std::string_view type : {"int ", "float "})
    if (number.starts_with(type)) number.remove_prefix(type.size());
  double x = 0;
  const char* end = number.data() + number.size();
  const auto [ptr, ec] = std::from_chars(number.data(), end, x);
  if (ec != std::errc{} || ptr != end) return false;
  return x < 0 || x > 255 || x != static_cast<double>(static_cast<std::int64_t>(x));
}

// What the codec reports in warn_only or disabled: the validator's errors there (its refusals) and those
// refused_by_type, in Enabled's order; the others stay the validator's warnings in warn_only.
Validation as_codec_refuses(Validation lenient, const Validation& enabled, Mode mode) {
  std::vector<ptc::Issue> errors;
  std::size_t next = 0;
  for (const auto& e : enabled.errors) {
    if (next < lenient.errors.size() && lenient.errors[next] == e) {
      errors.push_back(e);
      ++next;
    } else if (refused_by_type(e)) {
      errors.push_back(e);
      if (mode == Mode::WarnOnly) {
        auto demoted = std::find(lenient.warnings.begin(), lenient.warnings.end(), e);
        if (demoted != lenient.warnings.end()) lenient.warnings.erase(demoted);
      }
    }
  }
  lenient.errors = std::move(errors);
  lenient.ok = lenient.errors.empty();
  return lenient;
}

std::string show(const Validation& r) {
  std::string out = "ok=" + std::string(r.ok ? "true" : "false") +
                    "\n  value=" + r.value.dump(-1, ' ', false, json::error_handler_t::replace) + "\n";
  for (const auto& e : r.errors) out += "  error   " + e.path + ": " + e.message + "\n";
  for (const auto& w : r.warnings) out += "  warning " + w.path + ": " + w.message + "\n";
  return out;
}

bool is_invalid_json(const Validation& r) {
  return !r.ok && r.errors.size() == 1 && r.errors[0].path == "(root)" &&
         r.errors[0].message.starts_with("invalid JSON: ") && r.warnings.empty();
}

// The input with bytes outside printable ASCII as \xNN: a NUL would end oracle_failure's printf, and
// the bytes are the point when the two parsers disagree.
std::string escaped(std::string_view text) {
  std::string out;
  for (unsigned char c : text) {
    if (c >= 0x20 && c < 0x7f && c != '\\') {
      out += static_cast<char>(c);
    } else {
      constexpr char hex[] = "0123456789abcdef";
      out += "\\x";
      out += hex[c >> 4];
      out += hex[c & 15];
    }
  }
  return out;
}

[[noreturn]] void mismatch(const char* property, Mode mode, std::string_view text, const Validation& codec,
                           const Validation* validator) {
  std::string both = "mode " + std::string(ptc::mode_name(mode)) + "\ncodec:     " + show(codec);
  if (validator) both += "validator: " + show(*validator);
  ptc_fuzz::oracle_failure(property, "input, bytes outside printable ASCII (and \\) as \\xNN", escaped(text), "results",
                           both);
}

constexpr Mode kModes[] = {Mode::Enabled, Mode::WarnOnly, Mode::Strict, Mode::Disabled};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto text = ptc_fuzz::as_text(data, size);
  const Schema& schema = reference_schema();

  // ptc::parse_json is nlohmann's parser with the 512-level nesting limit decode_text shares; what it
  // refuses, the validator never sees.
  auto parsed = ptc::parse_json(text);
  std::optional<Validation> enabled_ref;
  for (Mode mode : kModes) {
    fuzz_codec::place_order_args out{};
    const Validation codec = ptc::codec::decode_text(text, out, mode);
    if (!parsed) {
      if (!is_invalid_json(codec))
        mismatch("nlohmann refuses the text, the codec does not", mode, text, codec, nullptr);
      continue;
    }
    if (is_invalid_json(codec)) mismatch("the codec refuses text nlohmann reads", mode, text, codec, nullptr);

    const std::string written = ptc::codec::to_text(out);
    const std::string dumped = ptc::codec::to_json_value(out).dump(-1, ' ', false, json::error_handler_t::replace);
    if (written != dumped)
      ptc_fuzz::oracle_failure("to_text differs from dump() of the JsonWriter value", "input", escaped(text),
                               "to_text, then dump", written + "\n" + dumped);

    Validation ref = ptc::validate_and_coerce(schema, *parsed, {ptc::Direction::Input, mode, /*drop_undeclared=*/true});
    map_issues(ref.errors);
    map_issues(ref.warnings);
    if (mode == Mode::Enabled) enabled_ref = ref;
    const bool lenient = mode == Mode::WarnOnly || mode == Mode::Disabled;
    // Both store the first limits::kStoredIssues issues of a list and count the rest. The lenient
    // modes' reference is made from Enabled's issues, which takes all of them: past the cap it is not
    // made (rare for a fuzzer's short inputs).
    if (lenient && enabled_ref && (enabled_ref->more_errors != 0 || ref.more_errors != 0 || ref.more_warnings != 0))
      continue;
    if (lenient && enabled_ref) ref = as_codec_refuses(std::move(ref), *enabled_ref, mode);
    if (codec.ok != ref.ok || codec.errors != ref.errors || codec.warnings != ref.warnings ||
        codec.more_errors != ref.more_errors || codec.more_warnings != ref.more_warnings ||
        codec.report() != ref.report())
      mismatch("the codec and the validator disagree", mode, text, codec, &ref);

    // The validator's value is the decoded one where nothing failed: in Enabled and Strict when ok, in
    // WarnOnly and Disabled (which decode as Enabled does) when Enabled found no error. Elsewhere the
    // validator keeps the input as given and the codec defaults (docs/codecs.md, "The value").
    const Validation* reference = nullptr;
    if ((mode == Mode::Enabled || mode == Mode::Strict) && ref.ok) reference = &ref;
    if (lenient && enabled_ref && enabled_ref->error_count() == 0) reference = &*enabled_ref;
    if (reference && ptc::test::normalized(schema, codec.value) != ptc::test::normalized(schema, reference->value))
      mismatch("the codec and the validator decode different values", mode, text, codec, reference);
  }
  return 0;
}
