#include "emit/tool_docs.hpp"

#include <algorithm>
#include <span>

#include <ptc/tool.hpp>
#include <ptc/tool_catalog.hpp>

namespace ptcgen::emit {

namespace {

constexpr ptc::Profile kProfiles[] = {ptc::Profile::Portable, ptc::Profile::OpenAI, ptc::Profile::Anthropic,
                                      ptc::Profile::Gemini, ptc::Profile::Mcp};

}  // namespace

ToolDocs tool_docs(const Plan& plan, const EmitOptions& options) {
  ToolDocs docs;
  std::vector<ptc::Tool> tools;
  for (const auto& t : plan.tools) {
    const auto& where = t.tool->location;
    try {
      // No invoker: the documents describe tools, they never call them.
      tools.emplace_back(ptc::ToolSpec{t.tool->name, t.tool->description, t.signature, nullptr, false, t.examples});
    } catch (const ptc::PromptValidationError& e) {
      docs.errors.push_back({"tool '" + t.tool->name + "': " + e.message(), where});
      continue;
    }
    for (ptc::Profile profile : kProfiles) {
      auto checked = ptc::tools_document(std::span<const ptc::Tool>(&tools.back(), 1), profile);
      if (checked) continue;
      const bool required = profile == ptc::Profile::Portable ||
                            std::find(options.required_profiles.begin(), options.required_profiles.end(),
                                      profile) != options.required_profiles.end();
      EmitError problem{"profile " + std::string(ptc::profile_name(profile)) + ": " + checked.error().to_string(),
                        where};
      (required ? docs.errors : docs.warnings).push_back(std::move(problem));
    }
  }
  if (!docs.errors.empty()) return docs;
  auto document = ptc::tools_document(tools, ptc::Profile::Portable);
  if (!document) {
    docs.errors.push_back({document.error().to_string(), {}});
    return docs;
  }
  docs.json = document->dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) + "\n";
  docs.markdown = ptc::render_tool_list(tools);
  return docs;
}

}  // namespace ptcgen::emit
