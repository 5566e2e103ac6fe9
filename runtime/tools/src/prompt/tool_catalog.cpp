// Tool -> the descriptions the prompt shows and the `tools.json` document.

#include <ptc/tool_catalog.hpp>

#include <ptc/json_text.hpp>

namespace ptc {
namespace {

Error named(const Tool& tool, const Error& inner) { return Error{"tool '" + tool.name() + "': " + inner.to_string()}; }

Result<OrderedJson> tool_entry(const Tool& tool, Profile profile) {
  auto schemas = tool_schemas(tool, profile);
  if (!schemas) return schemas.error();
  // Key order is part of the contract (docs/json-schema.md), hence ordered_json built key by key.
  OrderedJson entry = OrderedJson::object();
  entry["name"] = tool.name();
  entry["description"] = tool.description();
  entry["signature"] = tool.signature().render();
  entry["malli"] = tool.signature().to_malli();
  entry["input_schema"] = std::move(schemas->input);
  entry["output_schema"] = std::move(schemas->output);
  entry["annotations"] = mcp_tool_annotations(tool);
  return entry;
}

}  // namespace

Result<SignatureSchemas> tool_schemas(const Tool& tool, Profile profile) {
  if (auto bad = check_tool_name(tool.name(), profile)) return named(tool, *bad);
  auto schemas = to_json_schemas(tool.signature(), profile);
  if (!schemas) return named(tool, schemas.error());
  return schemas;
}

std::optional<Error> check_tool_parameters(const Tool& tool, Profile profile) {
  if (auto bad = check_tool_name(tool.name(), profile)) return named(tool, *bad);
  auto input = to_json_schema(tool.signature().input(), profile);
  if (!input) return named(tool, input.error());
  return std::nullopt;
}

Result<ToolListingTexts> render_tool_listing(const Tool& tool) {
  auto schemas = tool_schemas(tool, Profile::Mcp);
  if (!schemas) return schemas.error();
  ToolListingTexts out;
  out.signature = tool.signature().render();
  out.mcp_input = compact_text(schemas->input);
  out.mcp_output = compact_text(schemas->output);
  out.mcp_result =
      mcp_wraps_result(tool.output()) ? compact_text(schemas->output["properties"]["result"]) : out.mcp_output;
  return out;
}

OrderedJson mcp_tool_annotations(const Tool& tool) {
  const ToolHints hints = tool.hints();
  OrderedJson out = OrderedJson::object();
  if (!tool.title().empty()) out["title"] = tool.title();
  out["readOnlyHint"] = hints.read_only;
  out["destructiveHint"] = hints.destructive;
  out["idempotentHint"] = hints.idempotent;
  out["openWorldHint"] = hints.open_world;
  return out;
}

std::vector<ToolDescription> describe_tools(std::span<const Tool> tools) {
  std::vector<ToolDescription> out;
  out.reserve(tools.size());
  for (const auto& t : tools) out.push_back({t.name(), t.description(), t.signature(), t.examples()});
  return out;
}

std::string render_tool_list(std::span<const Tool> tools) {
  const auto descriptions = describe_tools(tools);
  return render_tool_list(std::span<const ToolDescription>(descriptions));
}

Result<OrderedJson> tools_document(std::span<const Tool> tools, Profile profile) {
  OrderedJson list = OrderedJson::array();
  for (const auto& t : tools) {
    auto entry = tool_entry(t, profile);
    if (!entry) return entry;
    list.push_back(std::move(entry).value());
  }
  OrderedJson doc = OrderedJson::object();
  doc["tools"] = std::move(list);
  return doc;
}

}  // namespace ptc
