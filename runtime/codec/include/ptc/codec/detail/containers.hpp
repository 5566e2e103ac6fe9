#pragma once
// Codecs of sequences (vector, list, deque, array), sets and string-keyed maps.
// Part of ptc/codec/codec.hpp, which includes it after declaring Codec<T>, Decoder and the writers; not
// meant to be included on its own.

#include <algorithm>
#include <array>
#include <cstddef>
#include <deque>
#include <list>
#include <map>
#include <set>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace ptc::codec {

namespace detail {

template <class C>
struct SequenceCodec {
  using T = typename C::value_type;
  static constexpr Shape shape{kind_bit(JsonKind::List), true};
  static std::string type_name() { return "list"; }

  static bool decode(Decoder& d, Value& v, C& out) {
    if (bool r = false; !is_kind(d, v, JsonKind::List, "list", &r, [&](Value& inner) { return decode(d, inner, out); }))
      return r;
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
    if (bool r = false;
        !is_kind(d, v, JsonKind::List, coercion::kSetOf, &r, [&](Value& inner) { return decode(d, inner, out); }))
      return r;
    out.clear();
    std::deque<T> items;                   // emplace_back gives a T& even for bool
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
        duplicates.emplace_back(i,
                                static_cast<std::size_t>(std::find(where.begin(), where.end(), first) - where.begin()));
      }
      where.push_back(&*it);
    }
    return duplicates;
  }

  // With failed items, the validator compares the coerced items with the failed ones as given.
  static std::vector<std::pair<std::size_t, std::size_t>> duplicates_as_json(
      std::deque<T>& items, const std::vector<std::string_view>& failed, S& out) {
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
    if (bool r = false; !is_kind(d, v, JsonKind::Map, "map", &r, [&](Value& inner) { return decode(d, inner, out); }))
      return r;
    simdjson::ondemand::object object;
    check_json(v.get_object().get(object));
    out.clear();
    d.enter();
    KeyedIssues issues(d);
    for (auto result : object) {
      auto&& field = in_place(std::move(result));
      const std::string_view key = key_of(field);
      std::string name(key);
      if (out.find(name) != out.end()) duplicate_key(d, key);
      const auto begin = issues.open();
      d.push(key);
      T item{};
      const bool ok = Codec<T>::decode(d, field.value(), item);
      d.pop();
      out.insert_or_assign(std::move(name), std::move(item));
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

}  // namespace detail

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
    if (bool r = false; !detail::is_kind(d, v, coercion::JsonKind::List, "list", &r,
                                         [&](Value& inner) { return decode(d, inner, out); }))
      return r;
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

}  // namespace ptc::codec
