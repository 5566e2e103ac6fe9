#pragma once
// The reads of a struct's clean reader: the decoder ptc-gen writes for each struct, which the
// optimistic pass (Decoder::optimistic) runs in place of the generic walk of decode_fields.
// Part of ptc/codec/codec.hpp, which includes it after declaring Codec<T>, Decoder and the writers; not
// meant to be included on its own.
//
// A clean read takes the value only as the reporting decoder would take it without recording anything:
// the exact JSON kind, nothing to coerce, no key undeclared, repeated or missing. At the first thing it
// does not take it returns false, and the whole document is decoded again by the reporting decoder,
// so what is reported, and every value that needed any care, never depends on this code. It keeps no
// path and no order of issues, and is used in every mode but Strict, where a float read notes whether
// it was written as an integer (Decoder::note_integer).

#include <bit>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <span>
#include <string_view>
#include <string>
#include <type_traits>
#include <vector>

namespace ptc::codec {

namespace detail {

/// One nesting level of the decoder (Decoder::enter) for as long as it lives: a clean reader returns
/// from anywhere inside an object.
class Level {
 public:
  explicit Level(Decoder& d) : d_(d) { d_.enter(); }
  ~Level() { d_.leave(); }
  Level(const Level&) = delete;
  Level& operator=(const Level&) = delete;

 private:
  Decoder& d_;
};

/// A struct whose StructTraits have a clean reader, which ptc-gen writes:
///   static bool read_clean(Decoder& d, Value& v, T& out);
template <class T>
concept HasCleanRead = requires(Decoder& d, Value& v, T& out) {
  { StructTraits<T>::read_clean(d, v, out) } -> std::same_as<bool>;
};

/// The clean read of a T. For most types it is the codec's own, whose exact path already does no more
/// than a clean read needs, with the optimistic decoder noting any surprise.
template <class T, class Enable = void>
struct Clean {
  [[gnu::always_inline]] static bool read(Decoder& d, Value& v, T& out) {
    return Codec<T>::decode(d, v, out) && !d.surprised();
  }
};

template <>
struct Clean<std::string> {
  [[gnu::always_inline]] static bool read(Decoder&, Value& v, std::string& out) {
    std::string_view s;
    if (v.get_string().get(s) != simdjson::SUCCESS) return false;
    out.assign(s.data(), s.size());
    return true;
  }
};

template <std::floating_point T>
struct Clean<T> {
  [[gnu::always_inline]] static bool read(Decoder& d, Value& v, T& out) {
    double x = 0;
    if (read_double(v, x) != simdjson::SUCCESS) return false;
    if (x == 0) [[unlikely]]
      x = read_float_token(d, v, x);  // "-0" is int 0 to JSON, so +0.0; "-0.0" stays negative
    if constexpr (std::numeric_limits<T>::max() < std::numeric_limits<double>::max())
      if (x > static_cast<double>(std::numeric_limits<T>::max()) ||
          x < static_cast<double>(std::numeric_limits<T>::lowest()))
        return false;
    out = static_cast<T>(x);
    return true;
  }
};

template <class T>
struct Clean<std::optional<T>> {
  [[gnu::always_inline]] static bool read(Decoder& d, Value& v, std::optional<T>& out) {
    if (take_null(v)) {
      out.reset();
      return true;
    }
    if (!out) out.emplace();
    return Clean<T>::read(d, v, *out);
  }
};

template <class T, class A>
requires(!std::is_same_v<T, bool>) struct Clean<std::vector<T, A>> {
  static bool read(Decoder& d, Value& v, std::vector<T, A>& out) {
    simdjson::ondemand::array array;
    if (v.get_array().get(array) != simdjson::SUCCESS) return false;
    out.clear();
    const Level level(d);
    for (auto result : array)
      if (result.error() != simdjson::SUCCESS || !Clean<T>::read(d, result.value_unsafe(), out.emplace_back()))
        return false;
    return true;
  }
};

template <HasCleanRead T>
struct Clean<T> {
  [[gnu::always_inline]] static bool read(Decoder& d, Value& v, T& out) {
    return StructTraits<T>::read_clean(d, v, out);
  }
};

/// The field whose name the key at `raw` (past its opening quote) is, written without escapes, or
/// fields.size(): of a struct's `fields` and their `keys` (Codec<T>::keys, bucketed: clean readers are
/// written for structs of at most kBucketedFields fields). The field expected next (`next`) is compared
/// first, as keys mostly come in declaration order.
[[gnu::always_inline]] inline std::size_t clean_field(std::span<const FieldInfo> fields, const FieldKeys& keys,
                                                      const char* raw, std::size_t next) {
  const std::uint64_t first = word_at(raw);
  if (next < fields.size() && raw_key_is(first, raw, fields[next], keys.words[next])) [[likely]]
    return next;
  for (std::uint64_t m = keys.buckets[static_cast<unsigned char>(raw[0]) & 31]; m; m &= m - 1) {
    const auto at = static_cast<std::size_t>(std::countr_zero(m));
    if (raw_key_is(first, raw, fields[at], keys.words[at])) return at;
  }
  return fields.size();
}

/// The walk of a clean reader over the object `v`: each key's field (clean_field), refused when
/// undeclared, written with escapes or repeated, its value read by `read(index, value)`; `seen` gets
/// one bit a field read. False at the first key or value not taken; the caller checks what is missing.
template <class Read>
[[gnu::always_inline]] inline bool read_clean_object(Decoder& d, Value& v, std::span<const FieldInfo> fields,
                                                     const FieldKeys& keys, std::uint64_t& seen, Read&& read) {
  simdjson::ondemand::object object;
  if (v.get_object().get(object) != simdjson::SUCCESS) return false;
  const Level level(d);
  std::size_t next = 0;
  for (auto result : object) {
    if (result.error() != simdjson::SUCCESS) return false;
    auto& field = result.value_unsafe();
    const std::size_t i = clean_field(fields, keys, field.key().raw(), next);
    if (i == fields.size() || (seen >> i & 1)) return false;
    seen |= std::uint64_t{1} << i;
    next = i + 1;
    if (!read(i, field.value())) return false;
  }
  return true;
}

}  // namespace detail

}  // namespace ptc::codec
