#pragma once
// Definitions behind ptc/codec/codec.hpp: the standard codecs and the templates generated code calls.
// The templates keep only the fast path of each value; reading values on slow paths, every message,
// and the bookkeeping of issue order live in runtime/src/codec_*.cpp.

#include <algorithm>
#include <concepts>
#include <limits>
#include <type_traits>
#include <version>

#if defined(__cpp_lib_expected)
#include <expected>
#endif

namespace ptc::codec {

namespace detail {

using coercion::JsonKind;
using coercion::kind_bit;

[[noreturn]] void invalid_json(simdjson::error_code e);
/// Throws InvalidJson unless `e` is SUCCESS.
inline void check_json(simdjson::error_code e) {
  if (e != simdjson::SUCCESS) [[unlikely]]
    invalid_json(e);
}
/// The value's kind, peeked (not read); throws InvalidJson when it is no JSON value.
inline JsonKind kind_of(Value& v) {
  simdjson::ondemand::json_type t{};
  check_json(v.type().get(t));
  switch (t) {
    case simdjson::ondemand::json_type::array: return JsonKind::List;
    case simdjson::ondemand::json_type::object: return JsonKind::Map;
    case simdjson::ondemand::json_type::number: return JsonKind::Number;
    case simdjson::ondemand::json_type::string: return JsonKind::String;
    case simdjson::ondemand::json_type::boolean: return JsonKind::Bool;
    case simdjson::ondemand::json_type::null: return JsonKind::Null;
  }
  invalid_json(simdjson::INCORRECT_TYPE);
}
/// Reads a null; false (reading nothing) when the value is not null.
bool take_null(Value& v);
/// Reads the value to its end, checking that it is JSON: simdjson skips what is not read without
/// looking inside, so nothing is left unread.
void skip(Decoder& d, Value& v);
/// Reads the value to its end; records `expected <what>, got <value>`; returns false.
bool fail(Decoder& d, Value& v, std::string_view what);

/// Slow paths of the scalar codecs: the value is not of the exact JSON kind.
bool decode_int(Decoder& d, Value& v, bool is_unsigned, std::int64_t min, std::uint64_t max, std::int64_t& out);
/// An int64 read from the JSON that does not fit the C++ type; records the error, returns false.
bool int_outside(Decoder& d, std::int64_t value, bool is_unsigned, std::int64_t min, std::uint64_t max);
bool decode_float(Decoder& d, Value& v, double& out);
bool decode_bool(Decoder& d, Value& v, bool& out);
/// A number written with more than 19 digits, read correctly rounded: simdjson 3.0.1 On-Demand
/// silently misreads some (simdjson#2093: 0.1234567890123456789012 became 0.0017...). `x` is what
/// get_double() gave, kept when the token is not a plain finite double.
double exact_double(std::string_view token, double x);
/// get_double() for every double the codecs read: only tokens long enough to hold 20 digits take
/// the slow, exact path.
inline simdjson::error_code read_double(Value& v, double& x) {
  const std::string_view token = v.raw_json_token();
  const auto e = v.get_double().get(x);
  if (e == simdjson::SUCCESS && token.size() > 20) x = exact_double(token, x);
  return e;
}
/// After read_double() read `x` where `x == 0` or the mode is Strict: "-0" is int 0 to JSON (and
/// nlohmann), widened to 0.0; in Strict mode an integer is noted for check() (Decoder::note_integer).
double read_float_token(Decoder& d, Value& v, double x);
/// `expected one of [...], got ...` for a string that names no enumerator, or any other value.
bool enum_mismatch(Decoder& d, std::string_view got, std::span<const std::string_view> names);
bool enum_mismatch(Decoder& d, Value& v, std::span<const std::string_view> names);

/// Which fields of an object were seen.
class Seen {
 public:
  explicit Seen(std::size_t n) : many_(n > 64 ? n : 0, false) {}
  void set(std::size_t i) {
    if (many_.empty()) {
      few_ |= std::uint64_t{1} << i;
    } else {
      many_[i] = true;
    }
  }
  bool operator[](std::size_t i) const { return many_.empty() ? (few_ >> i) & 1 : many_[i]; }

 private:
  std::uint64_t few_ = 0;
  std::vector<bool> many_;
};

/// The field named `key`, or fields.size(). Keys usually come in declaration order, so the search
/// starts at `hint` (the field after the last one found).
std::size_t find_field(std::span<const FieldInfo> fields, std::string_view key, std::size_t hint);
/// An undeclared field: read to its end; in Strict mode, `unexpected field`.
bool unknown_field(Decoder& d, Value& v);

/// Puts the issues of an object's keys in the validator's order: declared fields in declaration
/// order, then undeclared fields (or a map's keys) by key, and lets the last of a repeated key win.
class KeyedIssues {
 public:
  explicit KeyedIssues(Decoder& d) : d_(d), from_(d.mark()) {}
  /// After decoding one key's value, whose issues were recorded since `begin`.
  void close(Decoder::Mark begin, std::size_t rank, std::string_view key, bool ok) {
    if (ok && entries_.empty() && begin == d_.mark()) return;  // nothing to order, nothing to drop
    record(begin, rank, key, ok);
  }
  /// Orders the issues; whether every key (the last of each repeated one) decoded.
  bool finish();

 private:
  void record(Decoder::Mark begin, std::size_t rank, std::string_view key, bool ok);
  struct Entry {
    Decoder::Span span;
    bool ok = true;
    bool dropped = false;
  };
  Decoder& d_;
  Decoder::Mark from_;
  std::vector<Entry> entries_;
};

/// `missing required field` at `name`, as one key of `issues`.
void missing_field(Decoder& d, KeyedIssues& issues, std::size_t rank, std::string_view name);
/// `expected list of N items, got M`, moved before the items' issues (recorded since `from`).
void wrong_length(Decoder& d, Decoder::Mark from, std::size_t expected, std::size_t got);

/// The item's text as given (it must have been read to its end): for a failed set item.
nlohmann::json given_item(std::string_view token);
/// `duplicate item (same as [j])` at each `[i]`.
void report_duplicates(Decoder& d, const std::vector<std::pair<std::size_t, std::size_t>>& duplicates);

/// The value's JSON text, read to its end (and so checked): a union tries it once per alternative.
std::string_view raw_value(Decoder& d, Value& v);
/// What a union reports once no alternative matched exactly: the coerced match's warnings (true), or
/// the closest failure's issues, or `expected <type_name>, got <value>` (false).
bool union_outcome(Decoder& d, Decoder* coerced, Decoder* closest, std::string_view raw, const std::string& type_name);

/// A callable passed to decode_root without std::function's allocation.
struct RootDecode {
  void* context;
  bool (*call)(void* context, Value& v);
};
/// Parses `text` (one JSON value) with this thread's parser for the current nesting of documents, and
/// calls `decode` on the value. Throws InvalidJson when the text is not JSON. With `object_only`, a
/// value that is not an object is not decoded: nullopt.
std::optional<bool> decode_root(std::string_view text, bool object_only, RootDecode decode);
template <class F>
std::optional<bool> decode_root(std::string_view text, bool object_only, F&& decode) {
  using Fn = std::remove_reference_t<F>;
  return decode_root(text, object_only,
                     RootDecode{&decode, [](void* c, Value& v) -> bool { return (*static_cast<Fn*>(c))(v); }});
}
/// The Validation of a finished decode (without `value`): ok as the validator decides it per mode.
Validation finish(Decoder& d, bool decoded);

/// ISO 8601 times and dates (DESIGN.md section 8).
struct UtcTime {
  std::int64_t seconds = 0;  ///< since 1970-01-01T00:00:00Z
  std::uint32_t nanos = 0;
};
std::optional<UtcTime> parse_time(std::string_view text);
std::string format_time(UtcTime t);
std::optional<std::chrono::year_month_day> parse_date(std::string_view text);
std::string format_date(const std::chrono::year_month_day& date);
/// `expected ISO 8601 time such as "2025-12-29T10:30:00Z", got string "..."`; returns false.
bool bad_time(Decoder& d, std::string_view text);
bool bad_date(Decoder& d, std::string_view text);

template <class T>
concept HasStructTraits = requires { StructTraits<T>::fields; };

/// Reads a list (the caller checked its kind) one nesting level down, calling `item(index, value)` for
/// each item in order; returns how many there were.
template <class F>
std::size_t each_item(Decoder& d, Value& v, F&& item) {
  simdjson::ondemand::array array;
  check_json(v.get_array().get(array));
  d.enter();
  std::size_t i = 0;
  for (auto result : array) {
    Value value;
    check_json(std::move(result).get(value));
    item(i++, value);
  }
  d.leave();
  return i;
}

template <class C>
struct SequenceCodec {
  using T = typename C::value_type;
  static constexpr Shape shape{kind_bit(JsonKind::List), true};
  static std::string type_name() { return "list"; }

  static bool decode(Decoder& d, Value& v, C& out) {
    if (kind_of(v) != JsonKind::List) return fail(d, v, "list");
    out.clear();
    bool ok = true;
    each_item(d, v, [&](std::size_t i, Value& item) {
      d.push(i);
      if constexpr (std::is_same_v<T, bool>) {  // vector<bool>::emplace_back gives no bool&
        bool b = false;
        ok &= Codec<T>::decode(d, item, b);
        out.push_back(b);
      } else {
        ok &= Codec<T>::decode(d, item, out.emplace_back());
      }
      d.pop();
    });
    return ok;
  }

  template <class W>
  static void encode(W& w, const C& value) {
    w.begin_array();
    for (const auto& item : value) Codec<T>::encode(w, item);
    w.end_array();
  }
};

template <class S>
struct SetCodec {
  using T = typename S::value_type;
  static constexpr Shape shape{kind_bit(JsonKind::List), true};
  static std::string type_name() { return "set"; }

  static bool decode(Decoder& d, Value& v, S& out) {
    if (kind_of(v) != JsonKind::List) return fail(d, v, coercion::kSetOf);
    out.clear();
    std::deque<T> items;  // emplace_back gives a T& even for bool
    std::vector<std::string_view> failed;  // the text of each item that did not decode, else empty
    bool all_ok = true;
    each_item(d, v, [&](std::size_t i, Value& item) {
      const std::string_view token = item.raw_json_token();
      d.push(i);
      const bool ok = Codec<T>::decode(d, item, items.emplace_back());
      d.pop();
      failed.push_back(ok ? std::string_view{} : token);
      all_ok &= ok;
    });
    auto duplicates = all_ok ? insert_unique(items, out) : duplicates_as_json(items, failed, out);
    report_duplicates(d, duplicates);
    return all_ok && duplicates.empty();
  }

  template <class W>
  static void encode(W& w, const S& value) {
    w.begin_array();
    for (const auto& item : value) Codec<T>::encode(w, item);
    w.end_array();
  }

 private:
  // Items that decoded are duplicates when the set itself says so; the first of its equals stays.
  static std::vector<std::pair<std::size_t, std::size_t>> insert_unique(std::deque<T>& items, S& out) {
    std::vector<std::pair<std::size_t, std::size_t>> duplicates;
    std::vector<const T*> where;  // the set's element each item went into (node-based: addresses stay)
    where.reserve(items.size());
    for (std::size_t i = 0; i < items.size(); ++i) {
      auto [it, inserted] = out.insert(std::move(items[i]));
      if (!inserted) {
        const T* first = &*it;
        duplicates.emplace_back(i, static_cast<std::size_t>(std::find(where.begin(), where.end(), first) - where.begin()));
      }
      where.push_back(&*it);
    }
    return duplicates;
  }

  // With failed items, the validator compares the coerced items with the failed ones as given.
  static std::vector<std::pair<std::size_t, std::size_t>> duplicates_as_json(std::deque<T>& items,
                                                                             const std::vector<std::string_view>& failed,
                                                                             S& out) {
    nlohmann::json all = nlohmann::json::array();
    for (std::size_t i = 0; i < items.size(); ++i)
      all.push_back(failed[i].empty() ? to_json_value(items[i]) : given_item(failed[i]));
    for (auto& item : items) out.insert(std::move(item));
    return coercion::duplicates(all);
  }
};

template <class M>
struct MapCodec {
  using T = typename M::mapped_type;
  static_assert(std::is_same_v<typename M::key_type, std::string>, "JSON object keys are strings");
  static constexpr Shape shape{kind_bit(JsonKind::Map), true};
  static std::string type_name() { return "map"; }

  static bool decode(Decoder& d, Value& v, M& out) {
    if (kind_of(v) != JsonKind::Map) return fail(d, v, "map");
    simdjson::ondemand::object object;
    check_json(v.get_object().get(object));
    out.clear();
    d.enter();
    KeyedIssues issues(d);
    for (auto result : object) {
      simdjson::ondemand::field field;
      check_json(std::move(result).get(field));
      std::string_view key;
      check_json(field.unescaped_key().get(key));
      const auto begin = d.mark();
      d.push(key);
      T item{};
      const bool ok = Codec<T>::decode(d, field.value(), item);
      d.pop();
      out.insert_or_assign(std::string(key), std::move(item));
      issues.close(begin, 0, key, ok);
    }
    d.leave();
    return issues.finish();
  }

  template <class W>
  static void encode(W& w, const M& value) {
    w.begin_object();
    for (const auto& [key, item] : value) {
      w.key(key);
      Codec<T>::encode(w, item);
    }
    w.end_object();
  }
};

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
    if (kind_of(v) != JsonKind::List) return fail(d, v, coercion::list_of(N));
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

/// Signed integers: :int, and the value must fit the type.
template <std::signed_integral T>
struct Codec<T> {
  static constexpr std::int64_t min = std::numeric_limits<T>::min();
  static constexpr std::uint64_t max = static_cast<std::uint64_t>(std::numeric_limits<T>::max());
  static constexpr Shape shape{kind_bit(coercion::JsonKind::Number), false};
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

/// Unsigned integers: [:and :int [:>= 0]], and the value must fit the type.
template <std::unsigned_integral T>
  requires(!std::same_as<T, bool>)
struct Codec<T> {
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
    using U = std::underlying_type_t<E>;
    if constexpr (std::is_signed_v<U>) {
      w.integer(static_cast<std::int64_t>(value));
    } else {
      w.unsigned_integer(static_cast<std::uint64_t>(value));
    }
  }
};

/// Structs (and tools' Args): [:map ...] of the fields StructTraits declares.
template <detail::HasStructTraits T>
struct Codec<T> {
  static constexpr Shape shape{kind_bit(coercion::JsonKind::Map), true};
  static std::string type_name() { return "map"; }
  static bool decode(Decoder& d, Value& v, T& out) {
    out = T{};
    return decode_object(
        d, v, StructTraits<T>::fields,
        [&](std::size_t index, Value& field) { return StructTraits<T>::decode_field(d, index, field, out); },
        [&](std::size_t index) { StructTraits<T>::fill_default(index, out); });
  }
  template <class W>
  static void encode(W& w, const T& value) {
    w.begin_object();
    StructTraits<T>::encode_fields(w, value);
    w.end_object();
  }
};

template <class T, class A>
struct Codec<std::vector<T, A>> : detail::SequenceCodec<std::vector<T, A>> {};
template <class T, class A>
struct Codec<std::list<T, A>> : detail::SequenceCodec<std::list<T, A>> {};
template <class T, class A>
struct Codec<std::deque<T, A>> : detail::SequenceCodec<std::deque<T, A>> {};

/// std::array<T,N>: [:vector T] with exactly N items (not expressible in the schema).
template <class T, std::size_t N>
struct Codec<std::array<T, N>> {
  static constexpr Shape shape{kind_bit(coercion::JsonKind::List), true};
  static std::string type_name() { return "list"; }
  static bool decode(Decoder& d, Value& v, std::array<T, N>& out) {
    if (detail::kind_of(v) != coercion::JsonKind::List) return detail::fail(d, v, "list");
    out = {};
    const auto from = d.mark();
    bool ok = true;
    const std::size_t n = detail::each_item(d, v, [&](std::size_t i, Value& item) {
      d.push(i);
      if (i < N) {
        ok &= Codec<T>::decode(d, item, out[i]);
      } else {
        T extra{};  // checked as [:vector T] checks every item, then dropped
        ok &= Codec<T>::decode(d, item, extra);
      }
      d.pop();
    });
    if (n != N) {
      detail::wrong_length(d, from, N, n);
      ok = false;
    }
    return ok;
  }
  template <class W>
  static void encode(W& w, const std::array<T, N>& value) {
    w.begin_array();
    for (const auto& item : value) Codec<T>::encode(w, item);
    w.end_array();
  }
};

template <class T, class C, class A>
struct Codec<std::set<T, C, A>> : detail::SetCodec<std::set<T, C, A>> {};
template <class T, class H, class E, class A>
struct Codec<std::unordered_set<T, H, E, A>> : detail::SetCodec<std::unordered_set<T, H, E, A>> {};

template <class K, class T, class C, class A>
struct Codec<std::map<K, T, C, A>> : detail::MapCodec<std::map<K, T, C, A>> {};
template <class K, class T, class H, class E, class A>
struct Codec<std::unordered_map<K, T, H, E, A>> : detail::MapCodec<std::unordered_map<K, T, H, E, A>> {};

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

template <>
struct Codec<std::monostate> {
  static constexpr Shape shape{kind_bit(coercion::JsonKind::Null), false};
  static std::string type_name() { return "nil"; }
  static bool decode(Decoder& d, Value& v, std::monostate&) { return detail::take_null(v) || detail::fail(d, v, "nil"); }
  template <class W>
  static void encode(W& w, std::monostate) {
    w.null();
  }
};

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
    const bool exact = [&]<std::size_t... I>(std::index_sequence<I...>) {
      return (tries.template attempt<I>() || ...);
    }(std::index_sequence_for<Ts...>{});
    if (exact) return true;
    const bool ok = detail::union_outcome(d, tries.coerced ? &*tries.coerced : nullptr,
                                          tries.closest ? &*tries.closest : nullptr, raw, type_name());
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

    // Whether alternative I matched exactly (the search stops there).
    template <std::size_t I>
    bool attempt() {
      using Alt = std::variant_alternative_t<I, V>;
      Decoder trial = d.trial();
      Alt value{};
      const bool ok = *detail::decode_root(raw, false, [&](Value& item) { return Codec<Alt>::decode(trial, item, value); });
      const bool detailed = (Codec<Alt>::shape.kinds & kind) && Codec<Alt>::shape.detailed;
      switch (choice.offer(ok, !trial.warnings().empty(), detailed, trial.errors().size())) {
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

/// system_clock time points: :string, ISO 8601 in UTC ("2025-12-29T10:30:00Z"; fractions and offsets
/// are read, Z is written).
template <class Duration>
struct Codec<std::chrono::time_point<std::chrono::system_clock, Duration>> {
  using TimePoint = std::chrono::time_point<std::chrono::system_clock, Duration>;
  static constexpr Shape shape{kind_bit(coercion::JsonKind::String), false};
  static std::string type_name() { return "string"; }
  static bool decode(Decoder& d, Value& v, TimePoint& out) {
    std::string_view s;
    if (v.get_string().get(s) != simdjson::SUCCESS) return detail::fail(d, v, "string");
    const auto t = detail::parse_time(s);
    using Seconds = std::chrono::duration<double>;
    constexpr double lo = std::chrono::duration_cast<Seconds>(Duration::min()).count();
    constexpr double hi = std::chrono::duration_cast<Seconds>(Duration::max()).count();
    if (!t || static_cast<double>(t->seconds) <= lo || static_cast<double>(t->seconds) + 1 >= hi) return detail::bad_time(d, s);
    out = TimePoint(std::chrono::duration_cast<Duration>(std::chrono::seconds(t->seconds)) +
                    std::chrono::duration_cast<Duration>(std::chrono::nanoseconds(t->nanos)));
    return true;
  }
  template <class W>
  static void encode(W& w, const TimePoint& value) {
    const auto since = value.time_since_epoch();
    const auto seconds = std::chrono::floor<std::chrono::seconds>(since);
    const auto nanos = std::chrono::duration_cast<std::chrono::nanoseconds>(since - seconds);
    w.string(detail::format_time({seconds.count(), static_cast<std::uint32_t>(nanos.count())}));
  }
};

/// Dates: :string "2025-12-29".
template <>
struct Codec<std::chrono::year_month_day> {
  static constexpr Shape shape{kind_bit(coercion::JsonKind::String), false};
  static std::string type_name() { return "string"; }
  static bool decode(Decoder& d, Value& v, std::chrono::year_month_day& out) {
    std::string_view s;
    if (v.get_string().get(s) != simdjson::SUCCESS) return detail::fail(d, v, "string");
    const auto date = detail::parse_date(s);
    if (!date) return detail::bad_date(d, s);
    out = *date;
    return true;
  }
  template <class W>
  static void encode(W& w, const std::chrono::year_month_day& value) {
    w.string(detail::format_date(value));
  }
};

/// Durations: the count in the duration's own unit, with the rules of its representation.
template <class Rep, class Period>
struct Codec<std::chrono::duration<Rep, Period>> {
  using D = std::chrono::duration<Rep, Period>;
  static constexpr Shape shape = Codec<Rep>::shape;
  static std::string type_name() { return Codec<Rep>::type_name(); }
  static bool decode(Decoder& d, Value& v, D& out) {
    Rep count{};
    if (!Codec<Rep>::decode(d, v, count)) return false;
    out = D(count);
    return true;
  }
  template <class W>
  static void encode(W& w, const D& value) {
    Codec<Rep>::encode(w, value.count());
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

template <class DecodeField, class FillDefault>
bool decode_object(Decoder& d, Value& v, std::span<const FieldInfo> fields, DecodeField&& decode_field,
                   FillDefault&& fill_default) {
  if (detail::kind_of(v) != coercion::JsonKind::Map) return detail::fail(d, v, "map");
  simdjson::ondemand::object object;
  detail::check_json(v.get_object().get(object));
  d.enter();
  detail::KeyedIssues issues(d);
  detail::Seen seen(fields.size());
  std::size_t hint = 0;
  for (auto result : object) {
    simdjson::ondemand::field field;
    detail::check_json(std::move(result).get(field));
    std::string_view key;
    detail::check_json(field.unescaped_key().get(key));
    Value& value = field.value();
    const std::size_t i = hint < fields.size() && fields[hint].name == key ? hint : detail::find_field(fields, key, hint);
    const auto begin = d.mark();
    d.push(key);
    bool ok = true;
    if (i == fields.size()) {
      ok = detail::unknown_field(d, value);
    } else {
      seen.set(i);
      hint = i + 1;
      if (fields[i].has_default && detail::take_null(value)) {
        fill_default(i);
      } else {
        ok = decode_field(i, value);
      }
    }
    d.pop();
    issues.close(begin, i, key, ok);
  }
  for (std::size_t i = 0; i < fields.size(); ++i) {
    if (seen[i]) continue;
    if (fields[i].has_default) {
      fill_default(i);
    } else if (!fields[i].optional) {
      detail::missing_field(d, issues, i, fields[i].name);
    }
  }
  d.leave();
  return issues.finish();
}

template <class T>
std::string to_text(const T& value) {
  // Results of one type tend to be alike in size: starting at the last one's size saves the copies
  // and page faults of growing a large string step by step. Capped, so that one huge result does not
  // make every later small one hold megabytes.
  constexpr std::size_t kMaxReserve = std::size_t{8} << 20;
  thread_local std::size_t last_size = 0;
  TextWriter w;
  w.reserve(std::min(last_size, kMaxReserve));
  Codec<T>::encode(w, value);
  last_size = w.str().size();
  return w.take();
}

template <class T>
nlohmann::json to_json_value(const T& value) {
  JsonWriter w;
  Codec<T>::encode(w, value);
  return w.take();
}

namespace detail {
// Decodes into `out`; false when the text is not JSON (then `result` holds only that error).
template <class T>
bool decode_document(std::string_view text, T& out, Mode mode, Validation& result) {
  Decoder d(mode);
  try {
    result = detail::finish(d, *detail::decode_root(text, false, [&](Value& v) { return Codec<T>::decode(d, v, out); }));
  } catch (const InvalidJson& e) {
    result.ok = false;
    result.errors.push_back({std::string(coercion::kRootPath), e.what()});
    return false;
  }
  return true;
}
}  // namespace detail

template <class T>
Validation decode_text(std::string_view text, T& out, Mode mode) {
  Validation result;
  if (detail::decode_document(text, out, mode, result)) result.value = to_json_value(out);
  return result;
}

template <class T>
Validation decode_only(std::string_view text, T& out, Mode mode) {
  Validation result;
  detail::decode_document(text, out, mode, result);
  return result;
}

}  // namespace ptc::codec
