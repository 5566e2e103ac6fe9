#pragma once
// Structs: nesting, docs, annotations on fields, templates, recursion and the depth limit.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <ptc/annotate.hpp>

namespace golden::structs {

/// A postal address.
struct Address {
  std::string street;  ///< Street and number.
  PTC_DOC("ISO 3166 alpha-2 country code") PTC_PATTERN("^[A-Z]{2}$") std::string country;
};

struct Customer {
  std::int64_t id;
  std::string name;
  Address address;
  std::optional<Address> billing;
  PTC_RANGE(0, 150) int age;
  PTC_FIREWALL std::string tax_number;
};

template <class T>
struct Page {
  std::vector<T> items;
  std::int64_t total;
};

/// A tree of categories: the recursion falls back to :any.
struct Category {
  std::string name;
  std::vector<Category> children;
};

struct Level4 { int value; };
struct Level3 { Level4 four; };
struct Level2 { Level3 three; };
struct Level1 { Level2 two; };

/// Lists customers page by page.
/// \param offset Where to start.
PTC_TOOL() Page<Customer> list_customers(PTC_RANGE(0, 1000000) std::int64_t offset = 0, PTC_RANGE(1, 100) int limit = 20);

/// Returns the category tree.
PTC_TOOL() Category categories();

/// Shows how deep structs become :map.
PTC_TOOL() Level1 deep(Level1 input);

}  // namespace golden::structs
