// OpenAI Responses: the `tools` entry of a request, one `function_call` output item, and the
// `function_call_output` item that answers it. This file is the format's one home: code that sends
// Responses requests and reads their responses (an agent loop's) belongs beside these.

#include <string>
#include <utility>

#include <ptc/provider.hpp>
#include <ptc/tool_catalog.hpp>

#include "common.hpp"
#include "text.hpp"

namespace ptc {
namespace providers {

// `id` names the output item (fc_...); the function_call_output must quote `call_id` (call_...), so that
// is the one kept.
Result<ToolCall> responses_call(const json& call, const std::string& path) {
  if (auto bad = expect_object(call, path)) return *bad;
  if (auto bad = expect_type(call, path, "function_call")) return *bad;
  auto id = required_string(call, path, "call_id");
  if (!id) return id.error();
  auto name = required_name(call, path);
  if (!name) return name.error();
  auto args = openai_arguments(call, path);
  if (!args) return args.error();
  return ToolCall{std::move(id).value(), std::move(name).value(), std::move(args).value()};
}

}  // namespace providers

// Written as text with nlohmann::json's sorted keys: byte for byte the dump() of the JSON version.
std::string openai_responses_output_text(const ToolOutcome& outcome) {
  std::string out;
  out.reserve(outcome.rendered.size() + outcome.call_id.size() + 64);
  out += R"({"call_id":)";
  text::append_json_string(out, outcome.call_id);
  out += R"(,"output":)";
  text::append_json_string(out, outcome.rendered);
  out += R"(,"type":"function_call_output"})";
  return out;
}

nlohmann::json openai_responses_output(const ToolOutcome& outcome) {
  nlohmann::json out(nlohmann::json::value_t::object);  // members in place, as openai_chat_tool_message's
  auto& members = out.get_ref<nlohmann::json::object_t&>();
  members.emplace("call_id", text::valid_utf8(outcome.call_id));
  members.emplace("output", text::valid_utf8(outcome.rendered));
  members.emplace("type", "function_call_output");
  return out;
}

Result<OrderedJson> openai_responses_tool(const Tool& tool) {
  auto schemas = tool_schemas(tool, Profile::OpenAI);
  if (!schemas) return schemas.error();
  OrderedJson out = OrderedJson::object();
  out["type"] = "function";
  out["name"] = tool.name();
  out["description"] = tool.description();
  out["parameters"] = std::move(schemas->input);
  out["strict"] = true;
  return out;
}

}  // namespace ptc
