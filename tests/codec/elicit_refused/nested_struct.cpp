// A field that is itself a struct: MCP elicitation asks for flat objects only.
// expect: elicit<T>: every field of T must be a string, a number, a boolean, a date, an enum
#include "common.hpp"

struct Address {
  std::string street;
};
struct Customer {
  std::string name;
  Address address;
};
ELICIT_REFUSED_TRAITS(Customer, 2, std::string, Address);

void handler(ptc::ToolContext& context) { ask(context, std::type_identity<Customer>{}); }
