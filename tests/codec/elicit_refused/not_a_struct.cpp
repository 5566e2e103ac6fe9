// A bare value: elicitation asks for an object of fields.
// expect: elicit<T>: T must be a struct with a codec
#include "common.hpp"

void handler(ptc::ToolContext& context) { ask(context, std::type_identity<int>{}); }
