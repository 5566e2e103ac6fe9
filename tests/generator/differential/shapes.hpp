#pragma once
// The shapes of tests/unit/codec_differential_test.cpp as tools, for generated_differential_test.cpp,
// plus checked integers of other types than std::int64_t. Each tool returns its arguments as one
// struct with the same names, so a call shows the generated invoker passing each argument where it
// belongs.

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <unordered_map>
#include <utility>
#include <variant>
#include <vector>

#include <ptc/annotate.hpp>

namespace shapes {

enum class Priority { low, high, urgent };

struct Item {
  std::int64_t id;
  std::string title;
  std::vector<std::string> tags;
};

struct Flat {
  std::int32_t count;
  std::uint8_t level;
  double ratio;
  bool flag;
  std::string name;
  Priority priority;
  std::optional<std::string> note;
  std::int64_t big;
};

/// Scalars of every kind.
PTC_TOOL()
Flat flat(std::int32_t count, std::uint8_t level, double ratio, bool flag, std::string name, Priority priority,
          std::optional<std::string> note, std::int64_t big);

struct Shipment {
  std::string carrier;
  std::vector<Item> parcels;
};

struct Order {
  std::string customer;
  std::vector<Item> items;
  std::optional<Item> backup;
  Shipment shipment;
};

/// Structs inside structs, and vectors of them.
PTC_TOOL() Order nested(std::string customer, std::vector<Item> items, std::optional<Item> backup, Shipment shipment);

struct Collections {
  std::map<std::string, std::int64_t> counts;
  std::set<std::string> labels;
  std::unordered_map<std::string, std::vector<double>> series;
  std::set<std::int64_t> ids;
};

/// Maps and sets.
PTC_TOOL()
Collections collections(std::map<std::string, std::int64_t> counts, std::set<std::string> labels,
                        std::unordered_map<std::string, std::vector<double>> series, std::set<std::int64_t> ids);

struct Unions {
  std::variant<std::int64_t, std::string> key;
  std::variant<std::monostate, double, Item> mixed;
  std::tuple<std::string, std::int64_t, bool> triple;
  std::pair<double, std::string> pair;
  std::variant<std::vector<std::int64_t>, Item, bool> shape;
};

/// Variants and tuples.
PTC_TOOL()
Unions unions(std::variant<std::int64_t, std::string> key, std::variant<std::monostate, double, Item> mixed,
              std::tuple<std::string, std::int64_t, bool> triple, std::pair<double, std::string> pair,
              std::variant<std::vector<std::int64_t>, Item, bool> shape);

struct Search {
  std::string query;
  double threshold;
  std::int64_t limit;
  std::optional<std::string> cursor;
  std::string sort;
  Priority priority;
};

/// Defaults and constraints.
PTC_TOOL()
Search search(PTC_PATTERN("^[a-z ]+$") std::string query, PTC_RANGE(0.0, 1.0) double threshold,
              PTC_RANGE(1, 50) std::int64_t limit = 10, std::optional<std::string> cursor = std::nullopt,
              std::string sort = "relevance", Priority priority = Priority::low);

struct Limits {
  PTC_RANGE(1, 10) std::uint8_t level;
  PTC_RANGE(1, 100) std::optional<std::uint32_t> retries;
  PTC_RANGE(2, 9) std::unique_ptr<std::uint16_t> boxed;
  PTC_RANGE(1, 7) std::shared_ptr<short> shared;
};

struct Ranged {
  std::uint8_t level;
  std::uint8_t spread;
  std::uint64_t pages;
  int offset;
  std::optional<std::uint16_t> minutes;
  Limits limits;
};

// The range speaks before the type's own bounds (`[:>= 0]` of an unsigned type, the range of a
// narrow one); spread's range is wider than its type.
/// Ranges on integers of other types than std::int64_t.
PTC_TOOL()
Ranged ranged(PTC_RANGE(1, 10) std::uint8_t level, PTC_RANGE(1, 1000) std::uint8_t spread,
              PTC_RANGE(1, 50) std::uint64_t pages, PTC_RANGE(-5, 50) int offset,
              PTC_RANGE(1, 60) std::optional<std::uint16_t> minutes, Limits limits);

}  // namespace shapes
