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

template <class DecodeField, class FillDefault>
bool decode_object(Decoder& d, Value& v, std::span<const FieldInfo> fields, DecodeField&& decode_field,
                   FillDefault&& fill_default) {
  if (bool r = false; !detail::is_kind(d, v, coercion::JsonKind::Map, "map", &r, [&](Value& inner) {
        return decode_object(d, inner, fields, decode_field, fill_default);
      }))
    return r;
  simdjson::ondemand::object object;
  detail::check_json(v.get_object().get(object));
  d.enter();
  detail::KeyedIssues issues(d);
  detail::Seen seen(fields.size());
  detail::SeenKeys unknown;
  std::size_t hint = 0;
  for (auto result : object) {
    simdjson::ondemand::field field;
    detail::check_json(std::move(result).get(field));
    const std::string_view key = detail::key_of(field);
    Value& value = field.value();
    const std::size_t i =
        hint < fields.size() && detail::same_key(fields[hint].name, key) ? hint : detail::find_field(fields, key, hint);
    if (i == fields.size() ? !unknown.insert(key) : seen[i]) detail::duplicate_key(d, key);
    const auto begin = d.mark();
    d.push(key);
    bool ok = true;
    if (i == fields.size()) {
      ok = detail::unknown_field(d, value, fields, key);
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

}  // namespace ptc::codec
