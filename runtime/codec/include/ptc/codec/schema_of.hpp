#pragma once
// ptc::codec::SchemaOf<T> — the schema of a C++ type that has a codec, at run time: what ptc-gen writes
// for T in a tool's signature (docs/codecs.md, "Types"), so that code holding only the type (an agent
// asked for a typed answer) can show the model what to send and validate what it sent.
//
//   const ptc::Schema& s = ptc::codec::schema_of<std::vector<std::optional<int>>>();  // [:int?]
//
// The standard types are specialized here; ptc-gen specializes SchemaOf for the enums and structs it
// generates codecs for, from the Malli text it computes (field docs, PTC_RANGE and PTC_PATTERN
// included), next to their EnumTraits and StructTraits. Each schema is built on first use and kept; it
// may be read from many threads at once.

#include <array>
#include <chrono>
#include <climits>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <limits>
#include <list>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <type_traits>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <variant>
#include <vector>
#include <version>
#if defined(__cpp_lib_expected)
#include <expected>
#endif

#include <nlohmann/json.hpp>

#include <ptc/coercion.hpp>
#include <ptc/schema.hpp>

namespace ptc::codec {

/// `static const Schema& get();` — T's schema. No definition for a type ptc has no mapping for (a raw
/// pointer, `char`, a container with a custom allocator), nor for an enum or struct whose specialization
/// the translation unit does not see: ptc-gen writes those of PTC_ANSWER types into `<stem>.ptc.hpp`.
template <class T, class Enable = void>
struct SchemaOf;

/// SchemaOf<T>::get().
template <class T>
const Schema& schema_of() {
  return SchemaOf<T>::get();
}

namespace detail {

/// Builds Derived::build() once, on first use (thread-safe, as every function-local static).
template <class Derived>
struct BuiltSchema {
  static const Schema& get() {
    static const Schema schema = Derived::build();
    return schema;
  }
};

/// Integer types as ptc-gen maps them: neither bool nor a character type, which are no numbers to it.
template <class T>
concept SchemaInteger =
    std::integral<T> && !std::same_as<T, bool> && !std::same_as<T, char> && !std::same_as<T, wchar_t> &&
    !std::same_as<T, char8_t> && !std::same_as<T, char16_t> && !std::same_as<T, char32_t>;

/// T of std::expected<T, E>, where void (nothing) is :nil.
template <class T>
Schema result_schema() {
  if constexpr (std::is_void_v<T>)
    return Schema::nil();
  else
    return SchemaOf<T>::get();
}

}  // namespace detail

template <>
struct SchemaOf<std::string> : detail::BuiltSchema<SchemaOf<std::string>> {
  static Schema build() { return Schema::string(); }
};

template <>
struct SchemaOf<bool> : detail::BuiltSchema<SchemaOf<bool>> {
  static Schema build() { return Schema::boolean(); }
};

/// :int; a type narrower than coercion::kRangeInSchemaBelowBits carries its range
/// (`[:and :int [:>= 0] [:<= 255]]`), a wider unsigned one `[:and :int [:>= 0]]`.
template <detail::SchemaInteger T>
struct SchemaOf<T> : detail::BuiltSchema<SchemaOf<T>> {
  static Schema build() {
    constexpr unsigned bits = sizeof(T) * CHAR_BIT;
    if constexpr (bits < coercion::kRangeInSchemaBelowBits) {
      return Schema::all_of({Schema::integer(),
                             Schema::refinement(Refine::Ge, static_cast<std::int64_t>(std::numeric_limits<T>::min())),
                             Schema::refinement(Refine::Le, static_cast<std::int64_t>(std::numeric_limits<T>::max()))});
    } else if constexpr (std::is_unsigned_v<T>) {
      return Schema::all_of({Schema::integer(), Schema::refinement(Refine::Ge, std::int64_t{0})});
    } else {
      return Schema::integer();
    }
  }
};

template <std::floating_point T>
struct SchemaOf<T> : detail::BuiltSchema<SchemaOf<T>> {
  static Schema build() { return Schema::number(); }
};

/// Inside a std::variant.
template <>
struct SchemaOf<std::monostate> : detail::BuiltSchema<SchemaOf<std::monostate>> {
  static Schema build() { return Schema::nil(); }
};

template <>
struct SchemaOf<nlohmann::json> : detail::BuiltSchema<SchemaOf<nlohmann::json>> {
  static Schema build() { return Schema::any(); }
};

// Containers with their default allocators, comparators and hashers only, as ptc-gen maps them.

template <class T>
struct SchemaOf<std::vector<T>> : detail::BuiltSchema<SchemaOf<std::vector<T>>> {
  static Schema build() { return Schema::vector(SchemaOf<T>::get()); }
};
template <class T>
struct SchemaOf<std::list<T>> : detail::BuiltSchema<SchemaOf<std::list<T>>> {
  static Schema build() { return Schema::vector(SchemaOf<T>::get()); }
};
template <class T>
struct SchemaOf<std::deque<T>> : detail::BuiltSchema<SchemaOf<std::deque<T>>> {
  static Schema build() { return Schema::vector(SchemaOf<T>::get()); }
};
/// Exactly N items.
template <class T, std::size_t N>
struct SchemaOf<std::array<T, N>> : detail::BuiltSchema<SchemaOf<std::array<T, N>>> {
  static Schema build() { return Schema::vector(SchemaOf<T>::get(), N); }
};

template <class T>
struct SchemaOf<std::set<T>> : detail::BuiltSchema<SchemaOf<std::set<T>>> {
  static Schema build() { return Schema::set(SchemaOf<T>::get()); }
};
template <class T>
struct SchemaOf<std::unordered_set<T>> : detail::BuiltSchema<SchemaOf<std::unordered_set<T>>> {
  static Schema build() { return Schema::set(SchemaOf<T>::get()); }
};

template <class T>
struct SchemaOf<std::map<std::string, T>> : detail::BuiltSchema<SchemaOf<std::map<std::string, T>>> {
  static Schema build() { return Schema::map_of(Schema::string(), SchemaOf<T>::get()); }
};
template <class T>
struct SchemaOf<std::unordered_map<std::string, T>>
    : detail::BuiltSchema<SchemaOf<std::unordered_map<std::string, T>>> {
  static Schema build() { return Schema::map_of(Schema::string(), SchemaOf<T>::get()); }
};

template <class T>
struct SchemaOf<std::optional<T>> : detail::BuiltSchema<SchemaOf<std::optional<T>>> {
  static Schema build() { return Schema::maybe(SchemaOf<T>::get()); }
};
template <class T>
struct SchemaOf<std::unique_ptr<T>> : detail::BuiltSchema<SchemaOf<std::unique_ptr<T>>> {
  static Schema build() { return Schema::maybe(SchemaOf<T>::get()); }
};
template <class T>
struct SchemaOf<std::shared_ptr<T>> : detail::BuiltSchema<SchemaOf<std::shared_ptr<T>>> {
  static Schema build() { return Schema::maybe(SchemaOf<T>::get()); }
};

template <class... Ts>
struct SchemaOf<std::variant<Ts...>> : detail::BuiltSchema<SchemaOf<std::variant<Ts...>>> {
  static Schema build() { return Schema::one_of({SchemaOf<Ts>::get()...}); }
};
template <class... Ts>
struct SchemaOf<std::tuple<Ts...>> : detail::BuiltSchema<SchemaOf<std::tuple<Ts...>>> {
  static Schema build() { return Schema::tuple({SchemaOf<Ts>::get()...}); }
};
template <class A, class B>
struct SchemaOf<std::pair<A, B>> : detail::BuiltSchema<SchemaOf<std::pair<A, B>>> {
  static Schema build() { return Schema::tuple({SchemaOf<A>::get(), SchemaOf<B>::get()}); }
};

/// ISO 8601 text, at any precision the codec reads.
template <class Duration>
struct SchemaOf<std::chrono::time_point<std::chrono::system_clock, Duration>>
    : detail::BuiltSchema<SchemaOf<std::chrono::time_point<std::chrono::system_clock, Duration>>> {
  static Schema build() { return Schema::string("date-time"); }
};
template <>
struct SchemaOf<std::chrono::year_month_day> : detail::BuiltSchema<SchemaOf<std::chrono::year_month_day>> {
  static Schema build() { return Schema::string("date"); }
};
/// The count, in the duration's own unit (which the schema does not say: ptc-gen writes it into the
/// description of the field or parameter).
template <detail::SchemaInteger Rep, class Period>
struct SchemaOf<std::chrono::duration<Rep, Period>> : SchemaOf<Rep> {};

#if defined(__cpp_lib_expected)
/// `{result T, error E?}`, a result type (a tool's, not an argument's).
template <class T, class E>
struct SchemaOf<std::expected<T, E>> : detail::BuiltSchema<SchemaOf<std::expected<T, E>>> {
  static Schema build() {
    return Schema::map({MapEntry("result", detail::result_schema<T>()), MapEntry("error", SchemaOf<E>::get(), true)});
  }
};
#endif

}  // namespace ptc::codec
