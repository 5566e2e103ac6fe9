// A list of free strings: elicitation's only lists are multi-selects over an enum's values.
// expect: elicit<T>: every field of T must be a string, a number, a boolean, a date, an enum
#include "common.hpp"

struct Tags {
  std::vector<std::string> tags;
};
ELICIT_REFUSED_TRAITS(Tags, 1, std::vector<std::string>);

void handler(ptc::ToolContext& context) { ask(context, std::type_identity<Tags>{}); }
