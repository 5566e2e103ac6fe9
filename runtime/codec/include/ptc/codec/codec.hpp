#pragma once
// ptc::codec::Codec<T> — decode JSON text into T and encode T as JSON, for every C++ type of docs/codecs.md
// "Types". The standard types are specialized here; ptc-gen specializes EnumTraits and StructTraits
// for the user's enums and structs, so the generated part of a decoder is only the per-struct walk.
//
// Every Codec<T> has:
//   static bool decode(Decoder& d, Value& v, T& out);  // false when it recorded an error
//   template <class W> static void encode(W& w, const T& value);  // W: TextWriter or JsonWriter
//   static constexpr Shape shape;        // which JSON kinds it could accept (for variants)
//   static std::string type_name();      // as the validator says it: "int", "string or nil", "map"
// Decoding gives exactly the validator's results for the signature ptc-gen derives from T (the rules
// and the few differences are in docs/codecs.md). `decode` reads the value to its end, assigns all of
// `out` (a repeated key decodes again into the same object), and on failure leaves `out` valid but
// unspecified. std::expected<T,E> has only `encode`: it is a result type.

#include <array>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <list>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <string_view>
#include <tuple>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <variant>
#include <vector>

#include <nlohmann/json.hpp>

#include <ptc/codec/decoder.hpp>
#include <ptc/codec/writer.hpp>
#include <ptc/coercion.hpp>
#include <ptc/schema.hpp>

namespace ptc::codec {

/// What a union needs to know of an alternative: the JSON kinds its schema could accept
/// (coercion::family, a coercion::kind_bit each), and whether its failures are worth detailing
/// (coercion::detailed: not a primitive, not an enum).
struct Shape {
  unsigned kinds = 0;
  bool detailed = false;
};

template <class T, class Enable = void>
struct Codec;  // no definition: a type ptc cannot map fails to compile here

/// ptc-gen specializes this for each enum a tool reaches:
///   template <> struct EnumTraits<::shop::Status> {
///     static constexpr std::array<EnumEntry<::shop::Status>, 2> entries{{{"open", ::shop::Status::open}, ...}};
///   };
template <class E>
struct EnumEntry {
  std::string_view name;
  E value;
};
template <class E>
struct EnumTraits;

/// One field of a struct (or one parameter of a tool's arguments), in declaration order.
struct FieldInfo {
  std::string_view name;  ///< the JSON key
  /// May be absent or null ([:maybe T]). The C++ type must be nullable (std::optional, a smart pointer):
  /// null is decoded by its codec, which empties it.
  bool optional = false;
  bool has_default = false;  ///< absent or null fills the default (StructTraits::fill_default)
};

/// ptc-gen specializes this for each struct a tool reaches, and for each tool's arguments:
///   template <> struct StructTraits<::shop::Item> {
///     static constexpr std::array<FieldInfo, 2> fields{{{"id"}, {"title"}}};
///     using field_types = std::tuple<std::int64_t, std::string>;  // optional: the members' types
///     static bool decode_field(Decoder& d, std::size_t index, Value& v, ::shop::Item& out);
///     static void fill_default(std::size_t index, ::shop::Item& out);
///     template <class W> static void encode_fields(W& w, const ::shop::Item& value);
///     // optional: the optimistic pass's decoder of clean input (detail/clean.hpp)
///     static bool read_clean(Decoder& d, Value& v, ::shop::Item& out);
///   };
template <class T>
struct StructTraits;

/// Decodes a JSON object field by field, in any key order, with the validator's rules: a repeated key
/// is invalid JSON (InvalidJson), missing required fields and (Strict) unexpected fields are errors,
/// null for an optional field is fine, null or absent with a default fills the default, unknown
/// fields are otherwise skipped (but must be valid JSON), and issues come out in field order.
/// `decode_field(index, value)` decodes one present field; `fill_default(index)` fills a default.
template <class DecodeField, class FillDefault>
bool decode_object(Decoder& d, Value& v, std::span<const FieldInfo> fields, DecodeField&& decode_field,
                   FillDefault&& fill_default);
namespace detail {
struct FieldKeys;
template <class DecodeField, class FillDefault>
bool decode_fields(Decoder& d, Value& v, std::span<const FieldInfo> fields, const FieldKeys* keys,
                   DecodeField&& decode_field, FillDefault&& fill_default);
}  // namespace detail

/// Checks `value` (already decoded) against the refinements of `constraint`, an `[:and T refinements...]`
/// schema from PTC_RANGE / PTC_PATTERN, with the validator's messages; T itself is not checked again.
/// Call it only when the decode succeeded: the validator skips refinements when T fails. A null value
/// (an empty optional) passes, as [:maybe [:and ...]] lets null through. `held`: whether the C++ type
/// holds `value` (an integer read wider than its type, as ptc-gen's code reads a checked one); when it
/// does not, a failed refinement is refused (Decoder::refuse) rather than an ordinary error.
bool check(Decoder& d, const Schema& constraint, const nlohmann::json& value, bool held = true);

/// Encodes `value` as JSON text.
template <class T>
std::string to_text(const T& value);
/// Encodes `value` as nlohmann::json.
template <class T>
nlohmann::json to_json_value(const T& value);

/// Decodes a whole document (JSON text) into `out`; `value` is to_json_value(out). Text that is not
/// JSON is an error at `(root)` in every mode: "invalid JSON: <simdjson's message>" (or "invalid JSON:
/// nesting deeper than 512 levels").
template <class T>
Validation decode_text(std::string_view text, T& out, Mode mode = Mode::Enabled);
/// The same without building `value` (it stays null): for callers that only need the C++ value.
template <class T>
Validation decode_only(std::string_view text, T& out, Mode mode = Mode::Enabled);

}  // namespace ptc::codec

// Definitions of the templates above and the standard codecs, by type family (the fmt/simdjson split of
// declarations and definitions).
#include <ptc/codec/detail/read.hpp>
#include <ptc/codec/detail/scalars.hpp>
#include <ptc/codec/detail/containers.hpp>
#include <ptc/codec/detail/wrappers.hpp>
#include <ptc/codec/detail/clean.hpp>
#include <ptc/codec/detail/object.hpp>
#include <ptc/codec/detail/chrono.hpp>
#include <ptc/codec/detail/document.hpp>
