// Gemini: the `functionDeclarations` entry of a request and the `functionResponse` part that answers a
// call. This file is the format's one home: reading Gemini's function calls, and the code that sends
// requests and reads responses (an agent loop's) belong beside it.

#include <utility>

#include <ptc/provider.hpp>
#include <ptc/tool_catalog.hpp>

#include "common.hpp"

namespace ptc {

// Gemini reads `output` and `error` in a response and takes any other object as the output; a failure
// goes under `error` so the model can tell it from a result. A success gives the value itself when
// the model may see one: Gemini is given structured data rather than text it would have to re-read.
nlohmann::json gemini_function_response(const ToolOutcome& outcome) {
  nlohmann::json response = nlohmann::json::object();
  if (!outcome.success())
    response["error"] = outcome.rendered;
  else if (outcome.visible_value)
    response["output"] = outcome.visible_value->json();
  else
    response["output"] = outcome.rendered;
  nlohmann::json call = nlohmann::json::object();
  if (!outcome.call_id.empty()) call["id"] = outcome.call_id;
  call["name"] = outcome.name;
  call["response"] = std::move(response);
  nlohmann::json out(nlohmann::json::value_t::object);  // members in place, as openai_chat_tool_message's
  out.get_ref<nlohmann::json::object_t&>().emplace("functionResponse", std::move(call));
  return out;
}

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
