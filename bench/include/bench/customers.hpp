#pragma once
// A tool whose result has a firewalled field (each customer's email): the model sees "<Firewalled>",
// the C++ caller the address. bench_instructions dispatches it beside the orders tool, to count what
// hiding the field costs a call.

#include <cstdint>
#include <string>
#include <vector>

#include <ptc/annotate.hpp>

namespace bench {

struct Customer {
  std::int64_t id = 0;
  std::string name;
  PTC_FIREWALL std::string email;
  std::vector<std::string> tags;
};

/// Finds customers by name.
PTC_TOOL()
std::vector<Customer> find_customers(std::string name, std::int64_t limit);

}  // namespace bench
