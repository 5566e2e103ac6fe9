// Gemini's reply to a function call (src/providers/gemini.cpp): gemini_function_response's exact shape
// for a success with and without a visible value, a failure, and a call without an id. The tool
// definitions are tested with the other providers' (provider_test.cpp).

#include <optional>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <ptc/provider.hpp>
#include <ptc/tool_call.hpp>
#include <ptc/tool_result.hpp>

namespace {

using nlohmann::json;
using ptc::ToolOutcome;

ToolOutcome outcome(std::string call_id, ptc::ToolResult<json> result, std::string rendered,
                    std::optional<json> visible) {
  ToolOutcome o;
  o.call_id = std::move(call_id);
  o.name = "get_weather";
  o.status = result.success ? ptc::CallStatus::Succeeded : ptc::CallStatus::Failed;
  o.result = std::move(result);
  o.rendered = std::move(rendered);
  if (visible) o.visible_value = ptc::LazyJson(*visible);
  return o;
}

TEST(GeminiFunctionResponse, SuccessGivesTheVisibleValueAsOutput) {
  ToolOutcome o =
      outcome("call_1", ptc::ToolResult<json>::ok(json{{"temp", 14}}), R"({"temp":14})", json{{"temp", 14}});
  EXPECT_EQ(ptc::gemini_function_response(o), json::parse(R"({"functionResponse": {
    "id": "call_1", "name": "get_weather", "response": {"output": {"temp": 14}}}})"));
}

TEST(GeminiFunctionResponse, SuccessWithoutAVisibleValueGivesTheText) {
  // A firewalled or value-less result: the model gets what ptc rendered, as text.
  ToolOutcome o = outcome("call_2", ptc::ToolResult<json>::ok(json(15)), "OK", std::nullopt);
  EXPECT_EQ(ptc::gemini_function_response(o), json::parse(R"({"functionResponse": {
    "id": "call_2", "name": "get_weather", "response": {"output": "OK"}}})"));
}

TEST(GeminiFunctionResponse, NonObjectValuesAreWrappedInOutput) {
  // `response` must be an object (a protobuf Struct); a list or a number only fits under `output`.
  ToolOutcome o = outcome("call_3", ptc::ToolResult<json>::ok(json{1, 2}), "[1,2]", json{1, 2});
  EXPECT_EQ(ptc::gemini_function_response(o)["functionResponse"]["response"], json::parse(R"({"output": [1, 2]})"));
}

TEST(GeminiFunctionResponse, FailureGoesUnderError) {
  ToolOutcome o = outcome("call_4", ptc::ToolResult<json>::error("no such city"), "no such city", std::nullopt);
  EXPECT_EQ(ptc::gemini_function_response(o), json::parse(R"({"functionResponse": {
    "id": "call_4", "name": "get_weather", "response": {"error": "no such city"}}})"));
}

TEST(GeminiFunctionResponse, InvalidArgumentsAreAnError) {
  ToolOutcome o = outcome("call_5", ptc::ToolResult<json>::error("Tool validation errors:\n- city: missing\n"),
                          "Tool validation errors:\n- city: missing\n", std::nullopt);
  o.status = ptc::CallStatus::InvalidArguments;
  EXPECT_EQ(ptc::gemini_function_response(o)["functionResponse"]["response"],
            json::parse(R"({"error": "Tool validation errors:\n- city: missing\n"})"));
}

TEST(GeminiFunctionResponse, CallWithoutIdHasNoIdField) {
  // Gemini's functionCall.id is optional; answering with an empty id would not match it.
  ToolOutcome o = outcome("", ptc::ToolResult<json>::ok(json("sunny")), "sunny", json("sunny"));
  EXPECT_EQ(ptc::gemini_function_response(o), json::parse(R"({"functionResponse": {
    "name": "get_weather", "response": {"output": "sunny"}}})"));
}

}  // namespace
