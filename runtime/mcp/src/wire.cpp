// MCP's shapes for tools (<ptc/mcp/wire.hpp>): tools/call params in, CallToolResult out, tools/list
// entries.

#include <ptc/mcp/wire.hpp>

#include <algorithm>
#include <optional>
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

/// What a successful outcome's value becomes in structuredContent.
enum class Structured { None, AsIs, Wrapped };

/// The one rule for structuredContent: wrapped as the tool's outputSchema is (`tool` null: by the
/// value's JSON type), the result's own only for a `{...}` map; a `{...}` result whose value is not an
/// object gets none (it must be an object). Unwrapped results (2026-07-28) carry any value as it is.
Structured structured(const Tool* tool, McpResults results, bool object) {
  const bool wrap = results == McpResults::Unwrapped ? false : tool ? mcp_wraps_result(tool->output()) : !object;
  if (wrap) return Structured::Wrapped;
  return object || results == McpResults::Unwrapped ? Structured::AsIs : Structured::None;
}

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
    const Structured how = structured(tool, results, !value.empty() && value.front() == '{');
    if (how != Structured::None) {
      out += how == Structured::Wrapped ? R"(,"structuredContent":{"result":)" : R"(,"structuredContent":)";
      out += value;
      if (how == Structured::Wrapped) out += '}';
    }
  }
  out += '}';
  return out;
}

/// Whether every string in `v`, keys included, is valid UTF-8: then `v` is what its text reads back as.
bool utf8_throughout(const json& v) {
  switch (v.type()) {
    case json::value_t::string: return !text::invalid_utf8_at(v.get_ref<const std::string&>());
    case json::value_t::array:
      return std::all_of(v.begin(), v.end(), [](const json& item) { return utf8_throughout(item); });
    case json::value_t::object:
      for (auto it = v.begin(); it != v.end(); ++it)
        if (text::invalid_utf8_at(it.key()) || !utf8_throughout(*it)) return false;
      return true;
    default: return true;
  }
}

/// The same as JSON, built member by member: what mcp_result_text writes, parsed (the tests hold them
/// equal), without writing and parsing it.
json mcp_result_json(const ToolOutcome& outcome, const Tool* tool, McpResults results) {
  json text_block = json::object();
  auto& block = text_block.get_ref<json::object_t&>();
  block.emplace("text", text::valid_utf8(outcome.rendered));
  block.emplace("type", "text");
  json content = json::array();
  auto& blocks = content.get_ref<json::array_t&>();
  blocks.reserve(1 + outcome.attachments.size());
  blocks.push_back(std::move(text_block));
  for (const auto& attachment : outcome.attachments) blocks.push_back(attachment.block());
  json out = json::object();
  auto& members = out.get_ref<json::object_t&>();
  members.emplace("content", std::move(content));
  members.emplace("isError", !outcome.success());
  if (outcome.success() && outcome.visible_value) {
    // A value holding invalid UTF-8 (a hand-written handler's) is held as its text reads back, with
    // U+FFFD in place of each invalid sequence, as the text form writes it.
    const json& given = **outcome.visible_value;
    std::optional<json> replaced;
    if (!utf8_throughout(given)) replaced = json::parse(compact_text(given));
    const json& value = replaced ? *replaced : given;
    const Structured how = structured(tool, results, value.is_object());
    if (how == Structured::Wrapped) {
      json wrapped = json::object();
      wrapped.get_ref<json::object_t&>().emplace("result", value);
      members.emplace("structuredContent", std::move(wrapped));
    } else if (how == Structured::AsIs) {
      members.emplace("structuredContent", value);
    }
  }
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
  return mcp_result_json(outcome, nullptr, McpResults::Wrapped);
}

nlohmann::json mcp_call_tool_result(const ToolOutcome& outcome, const Tool& tool, McpResults results) {
  return mcp_result_json(outcome, &tool, results);
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
