#pragma once
// ptc::Prompt — sections rendered in order, followed by the list of the tools they offer.

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include <ptc/section.hpp>

namespace ptc {

class RenderedPrompt;
class ToolRegistry;

class Prompt {
 public:
  /// Throws DefinitionError: "Duplicate tool name registered for prompt." (field = the tool name,
  /// section path = where the second one is), or a section key used twice among siblings.
  Prompt(std::string key, std::vector<Section> sections);

  const std::string& key() const { return key_; }
  const std::vector<Section>& sections() const { return sections_; }

  /// Renders the enabled sections, depth first: a heading "## 1. Title" ("### 1.1. Title" for a child),
  /// a blank line, the template with placeholders filled from `params` (strings as they are, other
  /// values as JSON), then the tool list (docs/json-schema.md) of the offered tools. `params` is one
  /// object shared by all sections; each section validates and coerces it against its own params.
  /// Throws DefinitionError (field "params") when it does not fit.
  RenderedPrompt render(const nlohmann::json& params = nlohmann::json::object()) const;

 private:
  std::string key_;
  std::vector<Section> sections_;
};

class RenderedPrompt {
 public:
  const std::string& text() const { return text_; }
  /// Tools of the enabled sections, in declaration order (depth first).
  const std::vector<Tool>& tools() const { return tools_; }
  /// The policies governing `tool`: its section's and its ancestors' (outermost first). Empty for a
  /// name that is not offered.
  const std::vector<std::shared_ptr<const ToolPolicy>>& policies_for(std::string_view tool) const;
  /// Adds the offered tools to `registry`, each governed by the policies of its section and the section's
  /// ancestors. Throws DefinitionError, as ToolRegistry::add does, for a name the registry has.
  void register_tools(ToolRegistry& registry) const;

 private:
  friend class Prompt;
  std::string text_;
  std::vector<Tool> tools_;
  std::vector<std::vector<std::shared_ptr<const ToolPolicy>>> policies_;  // parallel to tools_
};

}  // namespace ptc
