// ptc::Prompt: the checks that need the whole section tree, rendering, and the registry of what a rendered
// prompt offers.

#include <ptc/prompt.hpp>

#include <set>

#include <ptc/firewall.hpp>
#include <ptc/json_text.hpp>
#include <ptc/placeholders.hpp>
#include <ptc/registry.hpp>
#include <ptc/tool_catalog.hpp>
#include <ptc/tool_errors.hpp>
#include <ptc/validate.hpp>

#include "section_rules.hpp"

namespace ptc {
namespace {

using Path = std::vector<std::string>;
using Policies = std::vector<std::shared_ptr<const ToolPolicy>>;

Path child_path(const Path& parent, const std::string& key) {
  Path path = parent;
  path.push_back(key);
  return path;
}

// Disabled sections are checked too: the rules are about how the prompt is defined, and a prompt
// whose duplicate only shows up when some section is switched on is still defined wrong.
void check_sections(const std::vector<Section>& siblings, const Path& parent, std::set<std::string>& tool_names) {
  std::set<std::string_view> keys;
  for (const auto& section : siblings) {
    Path path = child_path(parent, section.key());
    if (!keys.insert(section.key()).second)
      throw DefinitionError("Duplicate section key '" + section.key() + "'.", path, "key");
    for (const auto& tool : section.tools())
      if (!tool_names.insert(tool.name()).second)
        throw DefinitionError("Duplicate tool name registered for prompt.", path, tool.name());
    check_sections(section.children(), path, tool_names);
  }
}

// The shared params object, validated and coerced for one section, with firewalled fields hidden:
// the prompt is LLM-facing text.
nlohmann::json section_values(const Section& section, const nlohmann::json& params, const Path& path) {
  const Schema& schema = section.params().input();
  Validation v = validate_and_coerce(schema, params, {Direction::Input, Mode::Enabled});
  if (!v.ok)
    throw DefinitionError("Prompt params are invalid for section '" + section.key() + "':\n" + v.report(), path,
                          "params");
  return firewall(schema, v.value);
}

// nullptr when the path leads nowhere (a missing optional field, or one under a missing parent).
const nlohmann::json* lookup(const nlohmann::json& values, const std::vector<std::string>& path) {
  const nlohmann::json* current = &values;
  for (const auto& segment : path) {
    if (!current->is_object()) return nullptr;
    auto it = current->find(segment);
    if (it == current->end()) return nullptr;
    current = &*it;
  }
  return current;
}

std::string placeholder_text(const nlohmann::json* value) {
  if (value == nullptr || value->is_null()) return {};
  // Replace rather than throw on bad UTF-8: rendering a prompt should not fail on a stray byte.
  return plain_text(*value);
}

std::string fill(const std::string& text, const nlohmann::json& values) {
  // The template was checked when the section was built, so it parses.
  auto placeholders = parse_placeholders(text).value();
  std::string out;
  std::size_t pos = 0;
  for (const auto& p : placeholders) {
    out.append(text, pos, p.offset - pos);
    out += placeholder_text(lookup(values, p.path));
    pos = text.find("}}", p.offset + 2) + 2;  // the same closing braces parse_placeholders matched
  }
  out.append(text, pos);
  return out;
}

// Blank lines around a body would break the one-blank-line layout between blocks, so they go.
std::string tidy(std::string body) {
  constexpr std::string_view ws = " \t\r\n";
  auto last = body.find_last_not_of(ws);
  if (last == std::string::npos) return {};
  body.erase(last + 1);
  auto first = body.find_first_not_of(ws);
  auto line_start = body.rfind('\n', first);  // keep the first line's indentation (code blocks)
  body.erase(0, line_start == std::string::npos ? 0 : line_start + 1);
  return body;
}

class Renderer {
 public:
  explicit Renderer(const nlohmann::json& params) : params_(params) {}

  void sections(const std::vector<Section>& siblings, const Path& parent, const std::string& number_prefix) {
    int number = 0;
    for (const auto& section : siblings) {
      if (!section.enabled()) continue;  // nor its children, nor their tools
      std::string number_text = number_prefix + std::to_string(++number);
      one(section, child_path(parent, section.key()), number_text);
    }
  }

  std::string text() const {
    std::string out;
    for (const auto& block : blocks_) out += (out.empty() ? "" : "\n\n") + block;
    if (!tools_.empty()) return out + "\n\n" + render_tool_list(std::span<const Tool>(tools_));
    return out.empty() ? out : out + "\n";
  }
  std::vector<Tool>& tools() { return tools_; }
  std::vector<Policies>& policies() { return policies_; }

 private:
  void one(const Section& section, const Path& path, const std::string& number) {
    // "## 1." at the top, one more '#' per level down.
    std::string block = std::string(path.size() + 1, '#') + " " + number + ". " + section.title();
    std::string body = tidy(fill(section.template_text(), section_values(section, params_, path)));
    if (!body.empty()) block += "\n\n" + body;
    blocks_.push_back(std::move(block));

    std::size_t inherited = governing_.size();
    governing_.insert(governing_.end(), section.policies().begin(), section.policies().end());
    for (const auto& tool : section.tools()) {
      tools_.push_back(tool);
      policies_.push_back(governing_);
    }
    sections(section.children(), path, number + ".");
    governing_.resize(inherited);
  }

  const nlohmann::json& params_;
  std::vector<std::string> blocks_;
  std::vector<Tool> tools_;
  std::vector<Policies> policies_;
  Policies governing_;  // outermost section's policies first
};

}  // namespace

Prompt::Prompt(std::string key, std::vector<Section> sections) : key_(std::move(key)), sections_(std::move(sections)) {
  if (!detail::is_section_key(key_))
    throw DefinitionError("Prompt key must match " + std::string(detail::kSectionKeyRule) + ".", {}, "key");
  std::set<std::string> tool_names;
  check_sections(sections_, {}, tool_names);
}

RenderedPrompt Prompt::render(const nlohmann::json& params) const {
  Renderer renderer(params);
  renderer.sections(sections_, {}, "");
  RenderedPrompt out;
  out.text_ = renderer.text();
  out.tools_ = std::move(renderer.tools());
  out.policies_ = std::move(renderer.policies());
  return out;
}

const std::vector<std::shared_ptr<const ToolPolicy>>& RenderedPrompt::policies_for(std::string_view tool) const {
  static const std::vector<std::shared_ptr<const ToolPolicy>> none;
  for (std::size_t i = 0; i < tools_.size(); ++i)
    if (tools_[i].name() == tool) return policies_[i];
  return none;
}

void RenderedPrompt::register_tools(ToolRegistry& registry) const {
  for (std::size_t i = 0; i < tools_.size(); ++i) registry.add(tools_[i], policies_[i]);
}

// Defined on the prompt's side so that the registry's own source includes nothing of prompts.
ToolRegistry::ToolRegistry(const RenderedPrompt& prompt) : ToolRegistry() { prompt.register_tools(*this); }

}  // namespace ptc
