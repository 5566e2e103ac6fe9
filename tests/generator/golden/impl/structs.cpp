// Definitions of the functions declared in cases/structs.hpp.
#include "cases/structs.hpp"

namespace golden::structs {

Page<Customer> list_customers(std::int64_t offset, int limit) {
  Page<Customer> page;
  page.total = 2;
  Customer ada{1, "Ada", {"1 Analytical Way", "GB"}, std::nullopt, 36, "GB-123"};
  Customer grace{2, "Grace", {"2 Compiler Street", "US"}, Address{"PO Box 9", "US"}, 45, "US-456"};
  std::vector<Customer> all{ada, grace};
  for (std::int64_t i = offset;
       i < static_cast<std::int64_t>(all.size()) && static_cast<int>(page.items.size()) < limit; ++i)
    page.items.push_back(all[static_cast<std::size_t>(i)]);
  return page;
}

Category categories() { return Category{"root", {Category{"books", {}}, Category{"music", {Category{"jazz", {}}}}}}; }

Level1 deep(Level1 input) { return input; }

}  // namespace golden::structs
