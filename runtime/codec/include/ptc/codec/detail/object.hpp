#pragma once
// Structs (through StructTraits) and decode_object, which generated argument decoders call.
// Part of ptc/codec/codec.hpp, which includes it after declaring Codec<T>, Decoder and the writers; not
// meant to be included on its own.

#include <cstddef>
#include <span>

namespace ptc::codec {

/// Structs (and tools' Args): [:map ...] of the fields StructTraits declares.
template <detail::HasStructTraits T>
struct Codec<T> {
  static constexpr Shape shape{kind_bit(coercion::JsonKind::Map), true};
  static constexpr bool kPlain = detail::plain_names(StructTraits<T>::fields);
  static constexpr std::size_t kFields = std::size(StructTraits<T>::fields);
  static constexpr auto key_words = detail::key_words<kFields>(StructTraits<T>::fields);
  static constexpr auto key_buckets = detail::key_buckets<kFields>(StructTraits<T>::fields);
  static constexpr detail::FieldKeys keys{key_words.data(),
                                          kFields <= detail::kBucketedFields ? key_buckets.data() : nullptr};
  static std::string type_name() { return "map"; }
  static bool decode(Decoder& d, Value& v, T& out) {
    if constexpr (detail::HasCleanRead<T>) {
      // The optimistic pass of a struct ptc-gen wrote a clean reader for (not in Strict: detail/clean.hpp).
      if (d.is_optimistic() && d.coercing()) {
        if (StructTraits<T>::read_clean(d, v, out)) [[likely]]
          return true;
        d.surprise();
        return false;
      }
    }
    out = T{};
    return detail::decode_fields(
        d, v, StructTraits<T>::fields, kPlain ? &keys : nullptr,
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

template <class DecodeField, class FillDefault>
bool decode_object(Decoder& d, Value& v, std::span<const FieldInfo> fields, DecodeField&& decode_field,
                   FillDefault&& fill_default) {
  return detail::decode_fields(d, v, fields, nullptr, decode_field, fill_default);
}

namespace detail {

/// The field that the key of `field` names, or fields.size() for an undeclared key; `key` is set to the
/// key. Keys mostly come unescaped: with the fields' FieldKeys (`keys`), the names are compared with the
/// text in place first, which spares finding where the key ends. An escaped or undeclared key takes the
/// slower way.
[[gnu::always_inline]] inline std::size_t field_of(simdjson::ondemand::field& field, std::span<const FieldInfo> fields,
                                                   const FieldKeys* keys, std::size_t hint, std::string_view& key) {
  std::size_t i = fields.size();
  if (keys) {
    const char* raw = field.key().raw();
    const std::uint64_t first = word_at(raw);
    if (hint < fields.size() && raw_key_is(first, raw, fields[hint], keys->words[hint])) [[likely]] {
      i = hint;
    } else if (keys->buckets) {
      for (std::uint64_t m = keys->buckets[static_cast<unsigned char>(raw[0]) & 31]; m; m &= m - 1) {
        const auto at = static_cast<std::size_t>(std::countr_zero(m));
        if (raw_key_is(first, raw, fields[at], keys->words[at])) {
          i = at;
          break;
        }
      }
    } else {
      i = find_raw_key(fields, keys->words, raw, hint);
    }
  }
  if (i < fields.size()) [[likely]] {
    key = fields[i].name;
    return i;
  }
  key = key_of(field);
  return find_field(fields, key, hint);
}

/// Reads the keys of `object` in order, calling `key_read(i, key, value)` with the field each key names
/// (fields.size() for an undeclared key) until it returns false; whether it never did. Keys usually
/// come in declaration order, so each search starts at the field after the last one found.
template <class KeyRead>
[[gnu::always_inline]] inline bool each_field(simdjson::ondemand::object& object, std::span<const FieldInfo> fields,
                                              const FieldKeys* keys, KeyRead&& key_read) {
  std::size_t hint = 0;
  for (auto result : object) {
    auto&& field = in_place(std::move(result));
    std::string_view key;
    const std::size_t i = field_of(field, fields, keys, hint, key);
    if (i < fields.size()) hint = i + 1;
    if (!key_read(i, key, field.value())) return false;
  }
  return true;
}

/// A declared field present in the object: null or a value for a field with a default fills the
/// default (null), else the value is decoded.
template <class DecodeField, class FillDefault>
[[gnu::always_inline]] inline bool read_present(std::span<const FieldInfo> fields, std::size_t i, Value& value,
                                                DecodeField& decode_field, FillDefault& fill_default) {
  if (fields[i].has_default && take_null(value)) {
    fill_default(i);
    return true;
  }
  return decode_field(i, value);
}

/// The keys of an object, read by a reporting decoder: every issue is recorded at its path and put in
/// the validator's order (the first of each kind stored, the rest counted: KeyedIssues).
template <class DecodeField, class FillDefault>
bool read_fields(Decoder& d, simdjson::ondemand::object& object, std::span<const FieldInfo> fields,
                 const FieldKeys* keys, DecodeField& decode_field, FillDefault& fill_default) {
  KeyedIssues issues(d);
  Seen seen(fields.size());
  SeenKeys unknown;
  each_field(object, fields, keys, [&](std::size_t i, std::string_view key, Value& value) {
    if (i == fields.size() ? !unknown.insert(key) : seen[i]) duplicate_key(d, key);
    const auto begin = issues.open();
    d.push(key);
    bool ok = true;
    if (i == fields.size()) {
      ok = unknown_field(d, value, fields, key);
    } else {
      seen.set(i);
      ok = read_present(fields, i, value, decode_field, fill_default);
    }
    d.pop();
    issues.close(begin, i, key, ok);
    return true;
  });
  for (std::size_t i = 0; i < fields.size(); ++i) {
    if (seen[i]) continue;
    if (fields[i].has_default) {
      fill_default(i);
    } else if (!fields[i].optional) {
      missing_field(d, issues, i, fields[i].name);
    }
  }
  return issues.finish();
}

/// The keys of an object, read by an optimistic decoder (Decoder::optimistic): no path, no order of
/// issues. It stops at the first thing a reporting decoder would record: an undeclared key (a
/// warning, or an error in Strict mode), a repeated one (invalid JSON), a value that needs coercing
/// or does not decode, a missing required field.
template <class DecodeField, class FillDefault>
bool read_fields_optimistically(Decoder& d, simdjson::ondemand::object& object, std::span<const FieldInfo> fields,
                                const FieldKeys* keys, DecodeField& decode_field, FillDefault& fill_default) {
  Seen seen(fields.size());
  const bool read = each_field(object, fields, keys, [&](std::size_t i, std::string_view, Value& value) {
    if (i == fields.size() || seen[i]) [[unlikely]]
      return false;
    seen.set(i);
    return read_present(fields, i, value, decode_field, fill_default) && !d.surprised();
  });
  if (!read) [[unlikely]] {
    d.surprise();
    return false;
  }
  if (seen.all(fields.size())) return true;
  for (std::size_t i = 0; i < fields.size(); ++i) {
    if (seen[i]) continue;
    if (fields[i].has_default) {
      fill_default(i);
    } else if (!fields[i].optional) {
      d.surprise();
      return false;
    }
  }
  return true;
}

/// decode_object; `keys` are the fields' FieldKeys when their names are plain (plain_names), else null.
template <class DecodeField, class FillDefault>
bool decode_fields(Decoder& d, Value& v, std::span<const FieldInfo> fields, const FieldKeys* keys,
                   DecodeField&& decode_field, FillDefault&& fill_default) {
  // Opening the object is tried first: it fails without reading anything when the value is of another
  // kind, so the usual case does without peeking at the kind.
  simdjson::ondemand::object object;
  if (v.get_object().get(object) != simdjson::SUCCESS) [[unlikely]] {
    if (bool r = false; !is_kind(d, v, coercion::JsonKind::Map, "map", &r, [&](Value& inner) {
          return decode_fields(d, inner, fields, keys, decode_field, fill_default);
        }))
      return r;
    check_json(v.get_object().get(object));  // a map that does not open is not JSON
  }
  d.enter();
  const bool ok = d.is_optimistic() ? read_fields_optimistically(d, object, fields, keys, decode_field, fill_default)
                                    : read_fields(d, object, fields, keys, decode_field, fill_default);
  d.leave();
  return ok;
}

}  // namespace detail

}  // namespace ptc::codec
