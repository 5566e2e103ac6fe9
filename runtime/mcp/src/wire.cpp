// MCP's shapes for tools (<ptc/mcp/wire.hpp>): tools/call params in, CallToolResult out, tools/list
// entries.

#include <ptc/mcp/wire.hpp>

#include <utility>

#include <ptc/coercion.hpp>
#include <ptc/json_text.hpp>

#include "text.hpp"

namespace ptc {
namespace {

using json = nlohmann::json;

// Paths and messages as the other providers' readers write them (<ptc/provider.hpp>).
Error at(std::string_view path, std::string_view message) {
  return Error{std::string(path.empty() ? coercion::kRootPath : path) + ": " + std::string(message)};
}

// `tool` null: wrap by the value's JSON type (mcp_call_tool_result without a tool).
std::string mcp_result_text(const ToolOutcome& outcome, const Tool* tool, McpResults results) {
  std::string out;
  out.reserve(2 * outcome.rendered.size() + 96);
  // The text block of what the model reads, then the blocks the handler attached.
  out += R"({"content":[{"text":)";
  text::append_json_string(out, outcome.rendered);
  out += R"(,"type":"text"})";
  for (const auto& attachment : outcome.attachments) {
    out += ',';
    out += compact_text(attachment.block());
  }
  out += outcome.success() ? R"(],"isError":false)" : R"(],"isError":true)";
  if (outcome.success() && outcome.visible_value) {
    const std::string value = outcome.visible_value->dump();
    const bool object = !value.empty() && value.front() == '{';
    // Wrapped as the tool's outputSchema is: the result's own only for a `{...}` map.
    const bool wrap = results == McpResults::Unwrapped ? false : tool ? mcp_wraps_result(tool->output()) : !object;
    // A `{...}` result whose value is not an object gets no structuredContent (it must be an object).
    if (wrap || object || results == McpResults::Unwrapped) {
      out += wrap ? R"(,"structuredContent":{"result":)" : R"(,"structuredContent":)";
      out += value;
      if (wrap) out += '}';
    }
  }
  out += '}';
  return out;
}

}  // namespace

// ---- tool calls in -------------------------------------------------------------------------------

Result<McpToolCallParams> read_mcp_tool_call(const nlohmann::json& params) {
  if (!params.is_object()) return at("", "expected an object");
  auto name = params.find("name");
  if (name == params.end()) return at("name", "missing required field");
  if (!name->is_string()) return at("name", "expected a string");
  McpToolCallParams read{name->get_ref<const std::string&>(), nullptr};
  if (auto args = params.find("arguments"); args != params.end() && !args->is_null()) read.arguments = &*args;
  return read;
}

// MCP makes `arguments` optional; a missing (or null) one is the empty object.
Result<ToolCall> parse_mcp_tool_call(const nlohmann::json& params, std::string id) {
  auto read = read_mcp_tool_call(params);
  if (!read) return read.error();
  if (read->name.empty()) return at("name", "must not be empty");
  if (!read->arguments) return ToolCall{std::move(id), std::string(read->name), json::object()};
  if (!read->arguments->is_object()) return at("arguments", "expected an object");
  return ToolCall{std::move(id), std::string(read->name), *read->arguments};
}

// ---- outcomes out --------------------------------------------------------------------------------

std::string mcp_call_tool_result_text(const ToolOutcome& outcome, const Tool& tool, McpResults results) {
  return mcp_result_text(outcome, &tool, results);
}

nlohmann::json mcp_call_tool_result(const ToolOutcome& outcome) {
  return json::parse(mcp_result_text(outcome, nullptr, McpResults::Wrapped));
}

nlohmann::json mcp_call_tool_result(const ToolOutcome& outcome, const Tool& tool, McpResults results) {
  return json::parse(mcp_result_text(outcome, &tool, results));
}

// ---- tool definitions ----------------------------------------------------------------------------

Result<OrderedJson> mcp_tool(const Tool& tool, McpResults results) {
  auto schemas = tool_schemas(tool, Profile::Mcp);
  if (!schemas) return schemas.error();
  OrderedJson out = OrderedJson::object();
  out["name"] = tool.name();
  if (!tool.title().empty()) out["title"] = tool.title();
  out["description"] = tool.description();
  out["inputSchema"] = std::move(schemas->input);
  // Unwrapping takes the schema the profile wrapped.
  out["outputSchema"] = results == McpResults::Unwrapped && mcp_wraps_result(tool.output())
                            ? std::move(schemas->output["properties"]["result"])
                            : std::move(schemas->output);
  out["annotations"] = mcp_tool_annotations(tool);
  return out;
}

Result<std::string> mcp_tool_text(const Tool& tool, McpResults results) {
  const ToolListing* listing = tool.listing();
  if (!listing) {
    auto definition = mcp_tool(tool, results);
    if (!definition) return definition.error();
    return compact_text(*definition);
  }
  // mcp_tool's members, in its order, with the schemas as the listing rendered them.
  std::string out = "{\"name\":";
  text::append_json_string(out, tool.name());
  if (!tool.title().empty()) {
    out += ",\"title\":";
    text::append_json_string(out, tool.title());
  }
  out += ",\"description\":";
  text::append_json_string(out, tool.description());
  out.append(",\"inputSchema\":").append(listing->mcp_input);
  out.append(",\"outputSchema\":").append(results == McpResults::Unwrapped ? listing->mcp_result : listing->mcp_output);
  out += ",\"annotations\":";
  append_compact_text(mcp_tool_annotations(tool), out);
  out += '}';
  return out;
}

}  // namespace ptc
