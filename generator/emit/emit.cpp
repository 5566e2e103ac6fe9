#include "emit/emit.hpp"

#include <algorithm>
#include <future>
#include <string_view>
#include <utility>

#include <kainjow/mustache.hpp>

#include "emit/codec_traits.hpp"
#include "emit/plan.hpp"
#include "emit/registration.hpp"
#include "emit/templates.hpp"
#include "emit/tool_docs.hpp"

namespace ptcgen::emit {

namespace {

using kainjow::mustache::data;
using kainjow::mustache::mustache;

std::string file_name(const std::string& path) {
  const auto slash = path.find_last_of("/\\");
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

std::string render(std::string_view skeleton, const data& values) {
  mustache tmpl{std::string(skeleton)};
  // The output is C++, not HTML: values go in as they are.
  tmpl.set_custom_escape([](const std::string& s) { return s; });
  std::string out = tmpl.render(values);
  if (!tmpl.is_valid()) throw std::logic_error("ptc-gen template: " + tmpl.error_message());
  return out;
}

data common_values(const model::HeaderModel& header) {
  data values;
  values.set("stem", header.stem);
  // The file name only: generated text must not depend on where the build tree is.
  values.set("source", file_name(header.include));
  values.set("include", header.include);
  return values;
}

std::string header_file(const model::HeaderModel& header, const Plan& plan, std::string answers) {
  data values = common_values(header);
  data classes{data::type::list};
  for (const auto& set : tool_sets(header, plan)) {
    if (set.class_cpp.empty()) {
      values.set("free_resources", !set.resources.empty());
      values.set("free_prompts", !set.prompts.empty());
      continue;
    }
    data c;
    c.set("class", set.class_cpp);
    c.set("has_resources", !set.resources.empty());
    c.set("has_prompts", !set.prompts.empty());
    classes.push_back(c);
  }
  values.set("classes", classes);
  values.set("has_answers", !answers.empty());
  values.set("answer_traits", std::move(answers));
  return render(templates::ptc_hpp(), values);
}

std::string source_file(const model::HeaderModel& header, const Plan& plan, bool has_answers) {
  data values = common_values(header);
  values.set("has_tools", !plan.tools.empty());
  values.set("has_served", std::any_of(plan.tools.begin(), plan.tools.end(),
                                       [](const ToolPlan& t) { return t.tool->kind != model::ToolKind::Tool; }));
  values.set("has_answers", has_answers);
  values.set("args", args_structs(plan));
  std::string traits = codec_traits(header, plan);
  values.set("has_traits", !traits.empty());
  values.set("traits", std::move(traits));
  values.set("factories", tool_factories(plan));
  data sets{data::type::list};
  for (const auto& set : tool_sets(header, plan)) {
    data s;
    s.set("parameter", set.parameter);
    s.set("register_parameters", set.register_parameters);
    s.set("argument", set.argument);
    s.set("body", set.body);
    s.set("has_resources", !set.resources.empty());
    s.set("resources_body", set.resources);
    s.set("has_prompts", !set.prompts.empty());
    s.set("prompts_body", set.prompts);
    sets.push_back(s);
  }
  values.set("tool_sets", sets);
  return render(templates::ptc_cpp(), values);
}

// An author who states no hint may not know that MCP then assumes the worst, and hosts ask before each
// call or refuse the tool; a note, not a warning, since the default is safe.
std::vector<EmitError> unstated_hints(const model::HeaderModel& header) {
  std::vector<EmitError> notes;
  for (const auto& tool : header.tools) {
    if (tool.hints.stated || tool.kind != model::ToolKind::Tool) continue;
    notes.push_back({"tool '" + tool.name +
                         "' states no behaviour hints; MCP clients will treat it as destructive and open-world "
                         "(add PTC_READ_ONLY, PTC_ADDITIVE, PTC_DESTRUCTIVE, PTC_IDEMPOTENT or PTC_OPEN_WORLD)",
                     tool.location, diagnostics::RuleId::UnstatedHints, tool.name});
  }
  return notes;
}

}  // namespace

Emitted emit_header(const model::HeaderModel& header, const EmitOptions& options) {
  Emitted out;
  out.notes = unstated_hints(header);
  Plan plan = plan_header(header);
  out.errors = std::move(plan.errors);
  // The code needs only the plan, so it is written while the tools' documents are checked; when those
  // fail it is dropped, an exception from it included, as if it had not been written.
  std::future<std::pair<std::string, std::string>> code;
  if (out.errors.empty())
    code = std::async(std::launch::async, [&header, &plan] {
      std::string answers = answer_traits(header, plan);
      const bool has_answers = !answers.empty();
      return std::pair(header_file(header, plan, std::move(answers)), source_file(header, plan, has_answers));
    });
  ToolDocs docs = tool_docs(plan, options);
  for (auto& e : docs.errors) out.errors.push_back(std::move(e));
  out.warnings = std::move(docs.warnings);
  if (!out.errors.empty()) return out;
  auto [hpp, cpp] = code.get();
  out.files.push_back({header.stem + ".ptc.hpp", std::move(hpp)});
  out.files.push_back({header.stem + ".ptc.cpp", std::move(cpp)});
  out.files.push_back({header.stem + ".tools.json", std::move(docs.json)});
  out.files.push_back({header.stem + ".tools.md", std::move(docs.markdown)});
  return out;
}

}  // namespace ptcgen::emit
