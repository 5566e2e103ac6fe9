#pragma once
// Codecs of strings, booleans, integers, floating-point numbers, enums, std::monostate and
// nlohmann::json.
// Part of ptc/codec/codec.hpp, which includes it after declaring Codec<T>, Decoder and the writers; not
// meant to be included on its own.

#include <concepts>
#include <limits>
#include <optional>
#include <string>
#include <type_traits>

namespace ptc::codec {

template <>
struct Codec<std::string> {
  static constexpr Shape shape{kind_bit(coercion::JsonKind::String), false};
  static std::string type_name() { return "string"; }
  static bool decode(Decoder& d, Value& v, std::string& out) {
    std::string_view s;
    if (v.get_string().get(s) != simdjson::SUCCESS) return detail::fail(d, v, "string");
    out.assign(s.data(), s.size());
    return true;
  }
  template <class W>
  static void encode(W& w, const std::string& value) {
    w.string(value);
  }
};

template <>
struct Codec<bool> {
  static constexpr Shape shape{kind_bit(coercion::JsonKind::Bool), false};
  static std::string type_name() { return "bool"; }
  static bool decode(Decoder& d, Value& v, bool& out) {
    if (v.get_bool().get(out) == simdjson::SUCCESS) return true;
    return detail::decode_bool(d, v, out);
  }
  template <class W>
  static void encode(W& w, bool value) {
    w.boolean(value);
  }
};

/// Signed integers: :int, and the value must fit the type; types narrower than 32 bits are
/// [:and :int [:>= min] [:<= max]].
template <std::signed_integral T>
struct Codec<T> {
  static constexpr std::int64_t min = std::numeric_limits<T>::min();
  static constexpr std::uint64_t max = static_cast<std::uint64_t>(std::numeric_limits<T>::max());
  // Narrow types are an [:and ...] (coercion::kRangeInSchemaBelowBits), which is detailed.
  static constexpr Shape shape{kind_bit(coercion::JsonKind::Number), coercion::range_in_schema(max)};
  static std::string type_name() { return "int"; }
  static bool decode(Decoder& d, Value& v, T& out) {
    std::int64_t i = 0;
    if (v.get_int64().get(i) == simdjson::SUCCESS) {
      if (i < min || (i > 0 && static_cast<std::uint64_t>(i) > max)) return detail::int_outside(d, i, false, min, max);
    } else if (!detail::decode_int(d, v, false, min, max, i)) {
      return false;
    }
    out = static_cast<T>(i);
    return true;
  }
  template <class W>
  static void encode(W& w, T value) {
    w.integer(value);
  }
};

/// Unsigned integers: [:and :int [:>= 0]] (with [:<= max] below 32 bits), and the value must fit the type.
template <std::unsigned_integral T>
requires(!std::same_as<T, bool>) struct Codec<T> {
  static constexpr std::uint64_t max = std::numeric_limits<T>::max();
  static constexpr Shape shape{kind_bit(coercion::JsonKind::Number), true};  // an [:and ...] is detailed
  static std::string type_name() { return "int"; }
  static bool decode(Decoder& d, Value& v, T& out) {
    std::int64_t i = 0;
    if (v.get_int64().get(i) == simdjson::SUCCESS) {
      if (i < 0 || static_cast<std::uint64_t>(i) > max) return detail::int_outside(d, i, true, 0, max);
    } else if (!detail::decode_int(d, v, true, 0, max, i)) {
      return false;
    }
    out = static_cast<T>(i);
    return true;
  }
  template <class W>
  static void encode(W& w, T value) {
    w.unsigned_integer(value);
  }
};

namespace detail {

/// How ptc-gen's code reads an integer of type T that has a constraint (PTC_RANGE): as std::int64_t,
/// as Codec<std::int64_t> reads it, so that the constraint speaks before T's own bounds, which the
/// caller then checks (int_outside); but an integral float that no T holds (300.0 for a uint8_t) is
/// refused here, as Codec<T> refuses it.
template <std::integral T>
bool decode_wide(Decoder& d, Value& v, std::int64_t& out) {
  if (v.get_int64().get(out) == simdjson::SUCCESS) return true;
  return decode_int(d, v, std::is_unsigned_v<T>, std::numeric_limits<T>::min(),
                    static_cast<std::uint64_t>(std::numeric_limits<T>::max()), out, false);
}
/// The same for an optional T: null is an empty optional.
template <std::integral T>
bool decode_wide(Decoder& d, Value& v, std::optional<std::int64_t>& out) {
  if (take_null(v)) {
    out.reset();
    return true;
  }
  out.emplace();
  if (decode_wide<T>(d, v, *out)) return true;
  out.reset();
  return false;
}

}  // namespace detail

template <std::floating_point T>
struct Codec<T> {
  static constexpr Shape shape{kind_bit(coercion::JsonKind::Number), false};
  static std::string type_name() { return "float"; }
  static bool decode(Decoder& d, Value& v, T& out) {
    double x = 0;
    if (detail::read_double(v, x) == simdjson::SUCCESS) {
      if (x == 0 || !d.coercing()) x = detail::read_float_token(d, v, x);
    } else if (!detail::decode_float(d, v, x)) {
      return false;
    }
    // A double past float's range would become infinity: refused rather than silently changed.
    if constexpr (std::numeric_limits<T>::max() < std::numeric_limits<double>::max())
      if (x > static_cast<double>(std::numeric_limits<T>::max()) ||
          x < static_cast<double>(std::numeric_limits<T>::lowest()))
        return detail::float_outside(d, x, static_cast<double>(std::numeric_limits<T>::max()));
    out = static_cast<T>(x);
    return true;
  }
  template <class W>
  static void encode(W& w, T value) {
    w.number(static_cast<double>(value));
  }
};

/// Enums: [:enum "name" ...] of the enumerators EnumTraits lists; other values encode as integers.
template <class E>
requires std::is_enum_v<E>
struct Codec<E> {
  static constexpr auto& entries = EnumTraits<E>::entries;
  static constexpr auto names = [] {
    std::array<std::string_view, std::tuple_size_v<std::remove_cvref_t<decltype(entries)>>> out{};
    for (std::size_t i = 0; i < out.size(); ++i) out[i] = entries[i].name;
    return out;
  }();
  static constexpr Shape shape{coercion::kScalarKinds, false};
  static std::string type_name() { return "enum"; }
  static bool decode(Decoder& d, Value& v, E& out) {
    std::string_view s;
    if (v.get_string().get(s) != simdjson::SUCCESS) return detail::enum_mismatch(d, v, names);
    for (const auto& e : entries) {
      if (e.name == s) {
        out = e.value;
        return true;
      }
    }
    return detail::enum_mismatch(d, s, names);
  }
  template <class W>
  static void encode(W& w, E value) {
    for (const auto& e : entries) {
      if (e.value == value) {
        w.string(e.name);
        return;
      }
    }
    w.mark_off_schema();
    using U = std::underlying_type_t<E>;
    if constexpr (std::is_signed_v<U>) {
      w.integer(static_cast<std::int64_t>(value));
    } else {
      w.unsigned_integer(static_cast<std::uint64_t>(value));
    }
  }
};

template <>
struct Codec<std::monostate> {
  static constexpr Shape shape{kind_bit(coercion::JsonKind::Null), false};
  static std::string type_name() { return "nil"; }
  static bool decode(Decoder& d, Value& v, std::monostate&) {
    return detail::take_null(v) || detail::fail(d, v, "nil");
  }
  template <class W>
  static void encode(W& w, std::monostate) {
    w.null();
  }
};

/// nlohmann::json: :any, kept as nlohmann's parser would read it.
template <>
struct Codec<nlohmann::json> {
  static constexpr Shape shape{coercion::kAllKinds, false};
  static std::string type_name() { return "any"; }
  static bool decode(Decoder& d, Value& v, nlohmann::json& out) {
    out = to_json(d, v);
    return true;
  }
  template <class W>
  static void encode(W& w, const nlohmann::json& value) {
    w.json(value);
  }
};

}  // namespace ptc::codec
