// Gemini: the `functionDeclarations` entry of a request. This file is the format's one home: reading
// Gemini's function calls, answering them, and the code that sends requests and reads responses (an
// agent loop's) belong beside it.

#include <utility>

#include <ptc/provider.hpp>
#include <ptc/tool_catalog.hpp>

#include "common.hpp"

namespace ptc {

// Gemini answers 400 "parameters.properties: should be non-empty for OBJECT type" to a declaration
// whose parameters have no properties; a function without parameters simply has none.
Result<OrderedJson> gemini_function_declaration(const Tool& tool) {
  auto schemas = tool_schemas(tool, Profile::Gemini);
  if (!schemas) return schemas.error();
  OrderedJson out = providers::named(tool);
  const OrderedJson& input = schemas->input;
  bool no_params = input.contains("properties") && input["properties"].empty();
  if (!no_params) out["parameters"] = std::move(schemas->input);
  return out;
}

}  // namespace ptc
