// The firewalled tool's body: `limit` customers whose names start with `name`.
#include "bench/customers.hpp"

namespace bench {

std::vector<Customer> find_customers(std::string name, std::int64_t limit) {
  std::vector<Customer> out;
  for (std::int64_t i = 0; i < limit; ++i) {
    const std::string n = std::to_string(i);
    out.push_back({i, name + " " + n, name + n + "@example.com", {"retail", "newsletter"}});
  }
  return out;
}

}  // namespace bench
