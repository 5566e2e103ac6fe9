#pragma once
// Codecs of the types that wrap others: optional and pointers, tuples and pairs, variants, and
// std::expected (C++23).
// Part of ptc/codec/codec.hpp, which includes it after declaring Codec<T>, Decoder and the writers; not
// meant to be included on its own.

#include <memory>
#include <optional>
#include <tuple>
#include <utility>
#include <variant>
#include <version>

#if defined(__cpp_lib_expected)
#include <expected>
#endif

namespace ptc::codec {

namespace detail {

/// std::optional, std::unique_ptr, std::shared_ptr: [:maybe T].
template <class P, class T>
struct NullableCodec {
  static constexpr Shape shape{kind_bit(JsonKind::Null) | Codec<T>::shape.kinds, true};
  static std::string type_name() { return Codec<T>::type_name() + " or nil"; }

  static bool decode(Decoder& d, Value& v, P& out) {
    if (take_null(v)) {
      out.reset();
      return true;
    }
    if (!out) {
      if constexpr (std::is_same_v<P, std::unique_ptr<T>>) {
        out = std::make_unique<T>();
      } else if constexpr (std::is_same_v<P, std::shared_ptr<T>>) {
        out = std::make_shared<T>();
      } else {
        out.emplace();
      }
    }
    if (Codec<T>::decode(d, v, *out)) return true;
    out.reset();  // what did not decode is absent (WarnOnly and Disabled run on it)
    return false;
  }

  template <class W>
  static void encode(W& w, const P& value) {
    if (value) {
      Codec<T>::encode(w, *value);
    } else {
      w.null();
    }
  }
};

/// std::tuple, std::pair: [:tuple A B ...].
template <class Tup, class... Ts>
struct TupleCodec {
  static constexpr std::size_t N = sizeof...(Ts);
  static constexpr Shape shape{kind_bit(JsonKind::List), true};
  static std::string type_name() { return "tuple"; }

  static bool decode(Decoder& d, Value& v, Tup& out) {
    if (bool r = false;
        !is_kind(d, v, JsonKind::List, coercion::list_of(N), &r, [&](Value& inner) { return decode(d, inner, out); }))
      return r;
    out = Tup{};
    const auto from = d.mark();
    bool ok = true;
    const std::size_t n = each_item(d, v, [&](std::size_t i, Value& item) {
      if (i < N) {
        d.push(i);
        ok &= decode_at(d, i, item, out, std::index_sequence_for<Ts...>{});
        d.pop();
      } else {
        skip(d, item);  // the validator keeps extra items as given
      }
    });
    if (n != N) {
      wrong_length(d, from, N, n);
      ok = false;
    }
    return ok;
  }

  template <class W>
  static void encode(W& w, const Tup& value) {
    w.begin_array();
    std::apply([&](const auto&... items) { (Codec<std::remove_cvref_t<decltype(items)>>::encode(w, items), ...); },
               value);
    w.end_array();
  }

 private:
  template <std::size_t... I>
  static bool decode_at(Decoder& d, std::size_t i, Value& item, Tup& out, std::index_sequence<I...>) {
    bool ok = true;
    (void)((i == I && (ok = Codec<std::tuple_element_t<I, Tup>>::decode(d, item, std::get<I>(out)), true)) || ...);
    return ok;
  }
};

}  // namespace detail

template <class T>
struct Codec<std::optional<T>> : detail::NullableCodec<std::optional<T>, T> {};
template <class T>
struct Codec<std::unique_ptr<T>> : detail::NullableCodec<std::unique_ptr<T>, T> {};
template <class T>
struct Codec<std::shared_ptr<T>> : detail::NullableCodec<std::shared_ptr<T>, T> {};

template <class... Ts>
struct Codec<std::tuple<Ts...>> : detail::TupleCodec<std::tuple<Ts...>, Ts...> {};
template <class A, class B>
struct Codec<std::pair<A, B>> : detail::TupleCodec<std::pair<A, B>, A, B> {};

/// std::variant: [:or A B ...], each alternative tried on the value's text as the validator tries it.
template <class... Ts>
struct Codec<std::variant<Ts...>> {
  using V = std::variant<Ts...>;
  static constexpr Shape shape{(Codec<Ts>::shape.kinds | ...), true};
  static std::string type_name() { return coercion::union_name({Codec<Ts>::type_name()...}); }

  static bool decode(Decoder& d, Value& v, V& out) {
    const unsigned kind = kind_bit(detail::kind_of(v));
    const std::string_view raw = detail::raw_value(d, v);
    Tries tries{d, raw, kind, out, {}, {}, {}, {}};
    const bool exact = [&]<std::size_t... I>(std::index_sequence<I...>) { return (tries.template attempt<I>() || ...); }
    (std::index_sequence_for<Ts...>{});
    if (exact) return true;
    const bool ok = detail::union_outcome(d, tries.coerced ? &*tries.coerced : nullptr,
                                          tries.closest ? &*tries.closest : nullptr, raw, type_name(), tries.refused);
    if (ok) out = std::move(*tries.coerced_value);
    return ok;
  }

  template <class W>
  static void encode(W& w, const V& value) {
    std::visit([&](const auto& alt) { Codec<std::remove_cvref_t<decltype(alt)>>::encode(w, alt); }, value);
  }

 private:
  struct Tries {
    Decoder& d;
    std::string_view raw;
    unsigned kind;
    V& out;
    coercion::UnionChoice choice;
    std::optional<Decoder> coerced, closest;
    std::optional<V> coerced_value;
    bool refused = false;  // an alternative refused a number (Decoder::refused)

    // Whether alternative I matched exactly (the search stops there).
    template <std::size_t I>
    bool attempt() {
      using Alt = std::variant_alternative_t<I, V>;
      Decoder trial = d.trial();
      Alt value{};
      const bool ok =
          *detail::decode_root(raw, false, [&](Value& item) { return Codec<Alt>::decode(trial, item, value); });
      refused = refused || trial.refused();
      const bool detailed = (Codec<Alt>::shape.kinds & kind) && Codec<Alt>::shape.detailed;
      switch (choice.offer(ok, !trial.warnings().empty(), detailed, trial.error_count())) {
        case coercion::UnionChoice::Take::Exact: out.template emplace<I>(std::move(value)); return true;
        case coercion::UnionChoice::Take::Coerced:
          coerced.emplace(std::move(trial));
          coerced_value.emplace(std::in_place_index<I>, std::move(value));
          return false;
        case coercion::UnionChoice::Take::Closest: closest.emplace(std::move(trial)); return false;
        case coercion::UnionChoice::Take::Nothing: return false;
      }
      return false;
    }
  };
};

#if defined(__cpp_lib_expected)
/// std::expected<T,E>, a result only: {"result": T, "error": null} or {"result": null, "error": E}.
template <class T, class E>
struct Codec<std::expected<T, E>> {
  template <class W>
  static void encode(W& w, const std::expected<T, E>& value) {
    w.begin_object();
    w.key("result");
    if constexpr (std::is_void_v<T>) {
      w.null();
    } else if (value) {
      Codec<T>::encode(w, *value);
    } else {
      w.null();
    }
    w.key("error");
    if (value) {
      w.null();
    } else {
      Codec<E>::encode(w, value.error());
    }
    w.end_object();
  }
};
#endif

}  // namespace ptc::codec
