#include "emit/tool_docs.hpp"

#include <algorithm>
#include <functional>
#include <future>
#include <iterator>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include <ptc/prompt_template.hpp>
#include <ptc/resource.hpp>
#include <ptc/tool.hpp>
#include <ptc/tool_catalog.hpp>

namespace ptcgen::emit {

namespace {

constexpr ptc::Profile kProfiles[] = {ptc::Profile::Portable, ptc::Profile::OpenAI, ptc::Profile::Anthropic,
                                      ptc::Profile::Gemini, ptc::Profile::Mcp};

/// Per built tool: why a profile refuses it.
using Checks = std::vector<std::optional<std::string>>;

/// The runtime's tools for the plan's, without invokers (the documents describe tools, they never call
/// them), and per planned tool why the runtime would not build it. The documents list what a model may
/// call, so resources' readers and prompts' renderers are built (with their resource or prompt, so the
/// runtime's refusals surface here, not when the program starts) but not listed.
struct BuiltTools {
  std::vector<ptc::Tool> tools;
  std::vector<std::optional<EmitError>> refused;
  std::vector<bool> listed;  ///< per planned tool: in `tools`
};

BuiltTools build_tools(const Plan& plan) {
  BuiltTools built;
  built.refused.resize(plan.tools.size());
  built.listed.resize(plan.tools.size());
  for (std::size_t i = 0; i < plan.tools.size(); ++i) {
    const auto& t = plan.tools[i];
    const model::Tool& tool = *t.tool;
    try {
      ptc::Tool runtime_tool(ptc::ToolSpec{tool.name, tool.description, t.signature, nullptr, false, t.examples,
                                           tool.title, t.hints});
      if (tool.kind == model::ToolKind::Resource) (void)ptc::Resource(tool.uri, runtime_tool);
      if (tool.kind == model::ToolKind::Prompt) (void)ptc::PromptTemplate(runtime_tool);
      built.listed[i] = tool.kind == model::ToolKind::Tool;
      if (built.listed[i]) built.tools.push_back(std::move(runtime_tool));
    } catch (const ptc::DefinitionError& e) {
      built.refused[i] = EmitError{std::string(model::kind_name(tool.kind)) + " '" + tool.name + "': " + e.message(),
                                   tool.location, diagnostics::RuleId::RuntimeRefusal, tool.name};
    }
  }
  return built;
}

/// A profile whose results follow the portable rules has only its parameters checked: a result those
/// rules refuse is reported once, by portable, which is always required.
Checks check_profile(const std::vector<ptc::Tool>& tools, ptc::Profile profile) {
  const bool parameters_only =
      profile != ptc::Profile::Portable && ptc::result_rules(profile) == ptc::Profile::Portable;
  Checks out;
  for (const auto& tool : tools) {
    if (parameters_only) {
      auto problem = ptc::check_tool_parameters(tool, profile);
      out.push_back(problem ? std::optional(problem->to_string()) : std::nullopt);
      continue;
    }
    auto checked = ptc::tool_schemas(tool, profile);
    out.push_back(checked ? std::nullopt : std::optional(checked.error().to_string()));
  }
  return out;
}

/// Each problem found, in tool order and then profile order: an error when the profile is required,
/// a warning otherwise.
void report_problems(const Plan& plan, const EmitOptions& options, BuiltTools& built,
                     const std::vector<Checks>& results, ToolDocs& docs) {
  for (std::size_t i = 0, index = 0; i < plan.tools.size(); ++i) {
    if (built.refused[i]) {
      docs.errors.push_back(std::move(*built.refused[i]));
      continue;
    }
    if (!built.listed[i]) continue;
    for (std::size_t p = 0; p < std::size(kProfiles); ++p) {
      const auto& problem = results[p][index];
      if (!problem) continue;
      const ptc::Profile profile = kProfiles[p];
      const bool required = profile == ptc::Profile::Portable ||
                            std::find(options.required_profiles.begin(), options.required_profiles.end(), profile) !=
                                options.required_profiles.end();
      EmitError error{"profile " + std::string(ptc::profile_name(profile)) + ": " + *problem,
                      plan.tools[i].tool->location, diagnostics::RuleId::ProviderProfile, plan.tools[i].tool->name};
      (required ? docs.errors : docs.warnings).push_back(std::move(error));
    }
    ++index;
  }
}

}  // namespace

ToolDocs tool_docs(const Plan& plan, const EmitOptions& options) {
  ToolDocs docs;
  BuiltTools built = build_tools(plan);
  const auto& tools = built.tools;

  // Every tool's schemas are rendered once per profile to learn whether that provider accepts it: on a
  // large header that is most of the emitting, and the renderings are independent of one another, so
  // each profile's checks run as their own task. The portable document renders every tool anyway: only
  // when it fails are the tools checked one by one for portable, to name each one that fails. Results
  // are gathered in tool order: the output does not depend on the scheduling.
  // The document is written out (and its tree freed) in its own task too, beside the checks.
  auto document = std::async(std::launch::async, [&tools]() -> ptc::Result<std::string> {
    auto rendered = ptc::tools_document(tools, ptc::Profile::Portable);
    if (!rendered) return rendered.error();
    return rendered->dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) + "\n";
  });
  // Needed only when nothing fails; an exception from it is then never seen, as when it was not run.
  auto markdown = std::async(std::launch::async, [&tools] { return ptc::render_tool_list(tools); });
  std::vector<std::future<Checks>> checks;
  for (ptc::Profile profile : kProfiles)
    if (profile != ptc::Profile::Portable)
      checks.push_back(std::async(std::launch::async, check_profile, std::cref(tools), profile));
  auto rendered = document.get();
  std::vector<Checks> results(std::size(kProfiles));
  for (std::size_t p = 0, next = 0; p < std::size(kProfiles); ++p) {
    if (kProfiles[p] != ptc::Profile::Portable)
      results[p] = checks[next++].get();
    else
      results[p] = rendered ? Checks(tools.size()) : check_profile(tools, kProfiles[p]);
  }
  report_problems(plan, options, built, results, docs);
  if (!docs.errors.empty()) return docs;
  if (!rendered) {
    docs.errors.push_back({rendered.error().to_string(), {}, diagnostics::RuleId::ProviderProfile, {}});
    return docs;
  }
  docs.json = std::move(rendered).value();
  docs.markdown = markdown.get();
  return docs;
}

}  // namespace ptcgen::emit
