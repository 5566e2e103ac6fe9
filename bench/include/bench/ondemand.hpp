#pragma once
// The practical ceiling for decoding the `search_orders` call: what a careful programmer writes by hand
// with simdjson On-Demand for exactly this struct. Keys in any order, each field's own JSON type and no
// other (no coercion), unknown keys skipped, and one error for the whole call instead of a path per
// issue. The generated decoder does more (lenient coercion, every error with its path, defaults), so
// the ratio between the two is the price of those.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <simdjson.h>

#include "bench/orders.hpp"

namespace bench::ondemand {

struct SearchArgs {
  std::string customer_email;
  OrderStatus status = OrderStatus::pending;
  std::vector<std::string> tags;
  std::optional<double> min_total;
  std::int64_t limit = 0;
  bool include_cancelled = false;
  Address ship_to;
  std::vector<LineItem> items;
};

namespace detail {

using simdjson::error_code;
using simdjson::ondemand::object;
using simdjson::ondemand::value;

inline error_code read(value v, std::string& out) {
  std::string_view s;
  if (auto e = v.get_string().get(s)) return e;
  out.assign(s);
  return simdjson::SUCCESS;
}

inline error_code read(value v, OrderStatus& out) {
  std::string_view s;
  if (auto e = v.get_string().get(s)) return e;
  if (s == "pending")
    out = OrderStatus::pending;
  else if (s == "paid")
    out = OrderStatus::paid;
  else if (s == "shipped")
    out = OrderStatus::shipped;
  else if (s == "cancelled")
    out = OrderStatus::cancelled;
  else
    return simdjson::INCORRECT_TYPE;
  return simdjson::SUCCESS;
}

inline error_code read(value v, Address& out) {
  object o;
  if (auto e = v.get_object().get(o)) return e;
  for (auto field : o) {
    std::string_view key;
    if (auto e = field.unescaped_key().get(key)) return e;
    error_code e = simdjson::SUCCESS;
    if (key == "street")
      e = read(field.value(), out.street);
    else if (key == "city")
      e = read(field.value(), out.city);
    else if (key == "country")
      e = read(field.value(), out.country);
    if (e) return e;
  }
  return simdjson::SUCCESS;
}

inline error_code read(value v, LineItem& out) {
  object o;
  if (auto e = v.get_object().get(o)) return e;
  for (auto field : o) {
    std::string_view key;
    if (auto e = field.unescaped_key().get(key)) return e;
    error_code e = simdjson::SUCCESS;
    if (key == "sku")
      e = read(field.value(), out.sku);
    else if (key == "quantity")
      e = field.value().get_int64().get(out.quantity);
    else if (key == "unit_price")
      e = field.value().get_double().get(out.unit_price);
    if (e) return e;
  }
  return simdjson::SUCCESS;
}

template <class T>
error_code read_list(value v, std::vector<T>& out) {
  simdjson::ondemand::array a;
  if (auto e = v.get_array().get(a)) return e;
  for (auto item : a) {
    value element;
    if (auto e = item.get(element)) return e;
    if (auto e = read(element, out.emplace_back())) return e;
  }
  return simdjson::SUCCESS;
}

}  // namespace detail

/// Decodes `text` into `out`; false when it is not JSON or a field has another type.
inline bool decode(std::string_view text, SearchArgs& out) {
  using namespace detail;
  // A parser and a padded copy per thread, as the generated decoder keeps them.
  thread_local simdjson::ondemand::parser parser;
  thread_local std::string buffer;
  buffer.assign(text);
  buffer.append(simdjson::SIMDJSON_PADDING, '\0');
  simdjson::ondemand::document doc;
  if (parser.iterate(buffer.data(), text.size(), buffer.size()).get(doc)) return false;
  object o;
  if (doc.get_object().get(o)) return false;
  for (auto field : o) {
    std::string_view key;
    if (field.unescaped_key().get(key)) return false;
    value v = field.value();
    error_code e = simdjson::SUCCESS;
    if (key == "customer_email")
      e = read(v, out.customer_email);
    else if (key == "status")
      e = read(v, out.status);
    else if (key == "tags")
      e = read_list(v, out.tags);
    else if (key == "min_total") {
      bool null = false;
      if ((e = v.is_null().get(null)) == simdjson::SUCCESS) {
        if (null)
          out.min_total.reset();
        else
          e = v.get_double().get(out.min_total.emplace());
      }
    } else if (key == "limit")
      e = v.get_int64().get(out.limit);
    else if (key == "include_cancelled")
      e = v.get_bool().get(out.include_cancelled);
    else if (key == "ship_to")
      e = read(v, out.ship_to);
    else if (key == "items")
      e = read_list(v, out.items);
    if (e) return false;
  }
  return true;
}

}  // namespace bench::ondemand
