// Anthropic Messages: the `tools` entry of a request, one `tool_use` content block, and the
// `tool_result` block that answers it. This file is the format's one home: code that sends Messages
// requests and reads their responses (an agent loop's) belongs beside these.

#include <string>
#include <utility>

#include <ptc/coercion.hpp>
#include <ptc/provider.hpp>
#include <ptc/tool_catalog.hpp>

#include "common.hpp"
#include "text.hpp"

namespace ptc {
namespace providers {

Result<ToolCall> anthropic_call(const json& block, const std::string& path) {
  if (auto bad = expect_object(block, path)) return *bad;
  if (auto bad = expect_type(block, path, "tool_use")) return *bad;
  auto id = required_string(block, path, "id");
  if (!id) return id.error();
  auto name = required_name(block, path);
  if (!name) return name.error();
  auto input = block.find("input");
  if (input == block.end()) return at(coercion::key_path(path, "input"), "missing required field");
  if (auto bad = expect_object(*input, coercion::key_path(path, "input"))) return *bad;
  return ToolCall{std::move(id).value(), std::move(name).value(), *input};
}

}  // namespace providers

Result<ToolCall> parse_anthropic_tool_use(const nlohmann::json& block) { return providers::anthropic_call(block, ""); }

// Written as text with nlohmann::json's sorted keys: byte for byte the dump() of the JSON version.
std::string anthropic_tool_result_text(const ToolOutcome& outcome) {
  std::string out;
  out.reserve(outcome.rendered.size() + outcome.call_id.size() + 72);
  out += R"({"content":)";
  text::append_json_string(out, outcome.rendered);
  out += outcome.success() ? R"(,"is_error":false,"tool_use_id":)" : R"(,"is_error":true,"tool_use_id":)";
  text::append_json_string(out, outcome.call_id);
  out += R"(,"type":"tool_result"})";
  return out;
}

nlohmann::json anthropic_tool_result(const ToolOutcome& outcome) {
  nlohmann::json out(nlohmann::json::value_t::object);  // members in place, as openai_chat_tool_message's
  auto& members = out.get_ref<nlohmann::json::object_t&>();
  members.emplace("content", text::valid_utf8(outcome.rendered));
  members.emplace("is_error", !outcome.success());
  members.emplace("tool_use_id", text::valid_utf8(outcome.call_id));
  members.emplace("type", "tool_result");
  return out;
}

Result<OrderedJson> anthropic_tool(const Tool& tool) {
  auto schemas = tool_schemas(tool, Profile::Anthropic);
  if (!schemas) return schemas.error();
  OrderedJson out = providers::named(tool);
  out["input_schema"] = std::move(schemas->input);
  return out;
}

}  // namespace ptc
