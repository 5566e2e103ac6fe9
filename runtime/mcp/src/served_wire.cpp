// MCP's shapes for resources and prompts (<ptc/mcp/wire.hpp>).

#include <ptc/json_text.hpp>
#include <ptc/mcp/wire.hpp>

namespace ptc {
namespace {

void describe(OrderedJson& out, const std::string& title, const std::string& description) {
  if (!title.empty()) out["title"] = title;
  if (!description.empty()) out["description"] = description;
}

OrderedJson text_message(std::string role, std::string text) {
  return OrderedJson{{"role", std::move(role)}, {"content", OrderedJson{{"type", "text"}, {"text", std::move(text)}}}};
}

/// `[{role, text}, ...]` with roles MCP knows: a renderer's own list of messages.
bool is_message_list(const nlohmann::json& value) {
  if (!value.is_array() || value.empty()) return false;
  for (const auto& m : value) {
    if (!m.is_object() || m.size() != 2) return false;
    auto role = m.find("role");
    auto text = m.find("text");
    if (role == m.end() || text == m.end() || !text->is_string()) return false;
    if (*role != "user" && *role != "assistant") return false;
  }
  return true;
}

}  // namespace

OrderedJson mcp_resource(const Resource& resource) {
  OrderedJson out;
  out[resource.is_template() ? "uriTemplate" : "uri"] = resource.uri().text();
  out["name"] = resource.name();
  describe(out, resource.title(), resource.description());
  if (!resource.mime_type().empty()) out["mimeType"] = resource.mime_type();
  return out;
}

OrderedJson mcp_resource_contents(const ToolOutcome& outcome, const Resource& resource, std::string_view uri) {
  OrderedJson contents = OrderedJson::array();
  for (const auto& block : outcome.attachments)
    if (block.block().value("type", "") == "resource") contents.push_back(OrderedJson(block.block().at("resource")));
  if (!contents.empty()) return contents;
  const auto& value = outcome.visible_value;
  const bool text = value && (*value)->is_string();
  OrderedJson item{{"uri", std::string(uri)}};
  item["mimeType"] = !resource.mime_type().empty() ? resource.mime_type() : text ? "text/plain" : "application/json";
  item["text"] = !value ? std::string() : text ? (*value)->get<std::string>() : compact_text(**value);
  contents.push_back(std::move(item));
  return contents;
}

OrderedJson mcp_prompt(const PromptTemplate& prompt) {
  OrderedJson out{{"name", prompt.name()}};
  describe(out, prompt.title(), prompt.description());
  OrderedJson arguments = OrderedJson::array();
  const Schema& input = prompt.renderer().input();
  if (input.kind() == Kind::Map)
    for (const auto& entry : input.entries()) {
      OrderedJson argument{{"name", entry.name}};
      if (!entry.doc.empty()) argument["description"] = entry.doc;
      argument["required"] = !entry.optional && !entry.has_default();
      arguments.push_back(std::move(argument));
    }
  out["arguments"] = std::move(arguments);
  return out;
}

OrderedJson mcp_prompt_messages(const ToolOutcome& outcome) {
  OrderedJson messages = OrderedJson::array();
  // Attached blocks first: the text after them refers to them ("the image above").
  for (const auto& block : outcome.attachments)
    messages.push_back(OrderedJson{{"role", "user"}, {"content", OrderedJson(block.block())}});
  const auto& value = outcome.visible_value;
  if (!value) return messages;
  const nlohmann::json& v = **value;
  if (v.is_string()) {
    messages.push_back(text_message("user", v.get<std::string>()));
  } else if (is_message_list(v)) {
    for (const auto& m : v)
      messages.push_back(text_message(m.at("role").get<std::string>(), m.at("text").get<std::string>()));
  } else {
    messages.push_back(text_message("user", compact_text(v)));
  }
  return messages;
}

}  // namespace ptc
