#pragma once
// The tool the codec benchmarks decode and encode: a typical order search, with a ~300-byte call.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <ptc/annotate.hpp>

namespace bench {

enum class OrderStatus { pending, paid, shipped, cancelled };

struct Address {
  std::string street;
  std::string city;
  std::string country;
};

struct LineItem {
  std::string sku;
  std::int64_t quantity = 0;
  double unit_price = 0;
};

struct Order {
  std::int64_t id = 0;
  std::string customer_email;
  OrderStatus status = OrderStatus::pending;
  std::vector<LineItem> items;
  Address ship_to;
  std::optional<std::string> note;
  double total = 0;
};

/// Finds orders matching a filter.
PTC_TOOL()
std::vector<Order> search_orders(std::string customer_email, OrderStatus status, std::vector<std::string> tags,
                                 std::optional<double> min_total, std::int64_t limit, bool include_cancelled,
                                 Address ship_to, std::vector<LineItem> items);

}  // namespace bench
