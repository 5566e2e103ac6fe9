#pragma once
// Whole documents: to_text, to_json_value, decode_text and decode_only.
// Part of ptc/codec/codec.hpp, which includes it after declaring Codec<T>, Decoder and the writers; not
// meant to be included on its own.

#include <algorithm>
#include <cstddef>
#include <string>
#include <string_view>

namespace ptc::codec {

namespace detail {
/// `value` written by a TextWriter, which the caller takes the text from.
template <class T>
TextWriter write_text(const T& value) {
  // Texts of one type tend to be alike in size: starting at the last one's size saves the copies and
  // page faults of growing a large buffer step by step. Capped, so that one huge result does not make
  // every later small one hold megabytes.
  constexpr std::size_t kMaxReserve = std::size_t{8} << 20;
  thread_local std::size_t last_size = 0;
  TextWriter w;
  w.reserve(std::min(last_size, kMaxReserve));
  Codec<T>::encode(w, value);
  last_size = w.size();
  return w;
}
}  // namespace detail

template <class T>
std::string to_text(const T& value) {
  return detail::write_text(value).take();
}

template <class T>
nlohmann::json to_json_value(const T& value) {
  JsonWriter w;
  Codec<T>::encode(w, value);
  return w.take();
}

namespace detail {
/// Decodes the JSON text `text` into `out`, recording issues in `d`, a new reporting decoder; otherwise
/// as decode_root: nullopt when `object_only` and the text is no object, InvalidJson when it is not
/// JSON. An optimistic pass goes first (Decoder::optimistic). Only when it meets something to report
/// is the document read again, from its start, by `d`. A document that needs coercing or has errors
/// pays for part of a pass more; the others do without the bookkeeping of issues.
template <class T>
std::optional<bool> decode_document_into(Decoder& d, std::string_view text, bool object_only, T& out) {
  Decoder first = Decoder::optimistic(d.mode());
  auto optimistic = [&](Value& v) { return Codec<T>::decode(first, v, out) && !first.surprised(); };
  auto reporting = [&](Value& v) { return Codec<T>::decode(d, v, out); };
  const RootDecode again = root_decode(reporting);
  return decode_root(text, object_only, root_decode(optimistic), &again);
}

// Decodes into `out`; false when the text is not JSON (then `result` holds only that error).
template <class T>
bool decode_document(std::string_view text, T& out, Mode mode, Validation& result) {
  Decoder d(mode);
  try {
    result = detail::finish(d, *decode_document_into(d, text, false, out));
  } catch (const InvalidJson& e) {
    result.ok = false;
    result.add_error({std::string(coercion::kRootPath), e.what()});
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
