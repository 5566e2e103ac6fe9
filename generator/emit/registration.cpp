#include "emit/registration.hpp"

#include <algorithm>
#include <array>
#include <cstddef>
#include <optional>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <nlohmann/json.hpp>

#include <ptc/tool_catalog.hpp>
#include <ptc/tool_errors.hpp>

#include "emit/code_writer.hpp"
#include "emit/cpp_text.hpp"

namespace ptcgen::emit {

namespace {

bool is_member(const ToolPlan& t) { return !t.tool->class_name.empty(); }

std::string listing_variable(const ToolPlan& t) { return t.id + "_listing"; }
std::string factory_function(const ToolPlan& t) { return t.id + "_tool"; }
/// The factory of what registers the tool: the tool itself, or the resource or prompt it reads.
std::string registered_function(const ToolPlan& t) {
  switch (t.tool->kind) {
    case model::ToolKind::Resource: return t.id + "_resource";
    case model::ToolKind::Prompt: return t.id + "_prompt";
    case model::ToolKind::Tool: break;
  }
  return factory_function(t);
}

std::string argument(const ArgPlan& a) {
  switch (a.pass) {
    case Pass::StringView: return fmt::format("std::string_view(args.{})", a.member);
    case Pass::Span: return fmt::format("{}(args.{})", a.param->type.cpp, a.member);
    case Pass::Move: break;
  }
  return fmt::format("std::move(args.{})", a.member);
}

// The C++ arguments in parameter order, the context where the function takes it.
std::string call_arguments(const ToolPlan& t) {
  std::vector<std::string> list;
  for (const auto& a : t.args) list.push_back(argument(a));
  if (auto at = t.tool->context_index)
    list.insert(list.begin() + static_cast<std::ptrdiff_t>(std::min(*at, list.size())), "context");
  return fmt::format("{}", fmt::join(list, ", "));
}

std::string example_json(const nlohmann::json& value) {
  return fmt::format("nlohmann::json::parse({})", raw_string(value.dump()));
}

/// The tool's listing as the runtime renders it (ptc::render_tool_listing), from the same name and
/// signature; nullopt for a tool the MCP profile cannot express, which is then rendered at run time.
std::optional<ptc::ToolListingTexts> listing_of(const ToolPlan& t) {
  try {
    const ptc::Tool tool(ptc::ToolSpec{t.tool->name, t.tool->description, t.signature, nullptr});
    auto texts = ptc::render_tool_listing(tool);
    if (texts) return std::move(*texts);
  } catch (const ptc::DefinitionError&) {
    // A name or description the runtime refuses: registration says so at run time.
  }
  return std::nullopt;
}

// The texts listing the tool shows, rendered now, so that a program lists its tools without reading
// one signature (ToolListing; used only by the runtime of this version). False when there is none.
bool write_listing(CodeWriter& w, const ToolPlan& t) {
  auto texts = listing_of(t);
  if (!texts) return false;
  w.line(fmt::format("static constexpr ptc::ToolListing {}{{{}, {}, {}, {}, {}}};", listing_variable(t),
                     string_literal(std::string(ptc::ptc_version())), raw_string(texts->signature),
                     raw_string(texts->mcp_input), raw_string(texts->mcp_output), raw_string(texts->mcp_result)));
  w.blank();
  return true;
}

void write_factory(CodeWriter& w, const ToolPlan& t, bool listed) {
  const auto& tool = *t.tool;
  const std::string args = t.id + "_args";
  w.open(is_member(t) ? fmt::format("static ptc::Tool {}({}& instance)", factory_function(t), tool.class_cpp)
                      : fmt::format("static ptc::Tool {}()", factory_function(t)));
  if (!t.examples.empty()) w.line("std::vector<ptc::ToolExample> examples;");
  for (const auto& ex : t.examples)
    w.line(fmt::format("examples.push_back({{\"\", {}, {}}});", example_json(ex.input), example_json(ex.output)));
  // Unused lambda parameters stay unnamed: generated code compiles under -Wall -Wextra -Werror.
  const std::string lambda = fmt::format("[{}]({}&{}, ptc::ToolContext&{})", is_member(t) ? "target = &instance" : "",
                                         args, t.args.empty() ? "" : " args", tool.context_index ? " context" : "");
  w.open(fmt::format("auto invoker = ptc::codec::make_invoker<{}>({}", args, lambda));
  const std::string callee = is_member(t) ? "target->" + tool.function : tool.function;
  const std::string call = fmt::format("{}({})", callee, call_arguments(t));
  if (tool.return_style == model::ReturnStyle::Void) {
    w.line(call + ";");
    w.line("return ptc::codec::void_result();");
  } else {
    w.line(fmt::format("return ptc::codec::to_tool_result({});", call));
  }
  w.close("});");
  const std::string hints = t.hints ? fmt::format("ptc::ToolHints{{{}, {}, {}, {}}}", t.hints->read_only,
                                                  t.hints->destructive, t.hints->idempotent, t.hints->open_world)
                                    : "std::nullopt";
  w.line(fmt::format("ptc::ToolSpec spec{{{}, {}, {{}}, std::move(invoker), false, {}, {}, {}}};",
                     string_literal(tool.name), string_literal(tool.description),
                     t.examples.empty() ? "{}" : "std::move(examples)", string_literal(tool.title), hints));
  // The signature is read from its Malli text on first use; listing the tool needs only the listing.
  w.line(fmt::format("spec.signature_malli = {};", raw_string(t.signature_malli)));
  if (listed) w.line(fmt::format("spec.listing = &{};", listing_variable(t)));
  w.line("return ptc::Tool(std::move(spec));");
  w.close();
}

// The key is the argument's JSON name, which PTC_SIGNATURE may have renamed.
void write_completer(CodeWriter& w, const ToolPlan& t, const model::Completer& c) {
  std::string key = c.argument;
  for (const auto& a : t.args)
    if (a.member == c.argument) key = a.json_name;
  const std::string input = c.takes_request ? "request" : "std::string(request.value)";
  w.open(fmt::format("options.completers.emplace({}, [{}](const ptc::CompletionRequest& request)", string_literal(key),
                     c.on_instance ? "target = &instance" : ""));
  w.line(fmt::format("return {}{}({});", c.on_instance ? "target->" : "", c.function, input));
  w.close("});");
}

/// A resource or prompt around the tool that reads or renders it, with its options.
void write_served(CodeWriter& w, const ToolPlan& t) {
  const auto& tool = *t.tool;
  const bool resource = tool.kind == model::ToolKind::Resource;
  const char* type = resource ? "ptc::Resource" : "ptc::PromptTemplate";
  w.open(is_member(t) ? fmt::format("static {} {}({}& instance)", type, registered_function(t), tool.class_cpp)
                      : fmt::format("static {} {}()", type, registered_function(t)));
  const std::string reader = fmt::format("{}({})", factory_function(t), is_member(t) ? "instance" : "");
  const std::string head = resource ? fmt::format("{}, {}", string_literal(tool.uri), reader) : reader;
  if (tool.completers.empty() && tool.mime_type.empty()) {
    w.line(fmt::format("return {}({});", type, head));
    w.close();
    return;
  }
  w.line(resource ? "ptc::ResourceOptions options;" : "ptc::PromptTemplateOptions options;");
  if (!tool.mime_type.empty()) w.line(fmt::format("options.mime_type = {};", string_literal(tool.mime_type)));
  for (const auto& c : tool.completers) write_completer(w, t, c);
  w.line(fmt::format("return {}({}, std::move(options));", type, head));
  w.close();
}

/// The body of tools(), resources() or prompts() for one set: the factories of that kind.
std::string set_body(const Plan& plan, const std::string& class_name, model::ToolKind kind) {
  CodeWriter w(1);
  std::vector<const ToolPlan*> set;
  for (const auto& t : plan.tools)
    if (t.tool->class_name == class_name && t.tool->kind == kind) set.push_back(&t);
  if (set.empty() && kind != model::ToolKind::Tool) return {};
  if (set.empty()) {
    if (!class_name.empty()) w.line("(void)instance;");
    return w.line("return {};").take();
  }
  w.open("return");
  const char* instance = class_name.empty() ? "" : "instance";
  for (const auto* t : set) w.line(fmt::format("detail::{}({}),", registered_function(*t), instance));
  return w.close("};").take();
}

}  // namespace

std::string tool_factories(const Plan& plan) {
  CodeWriter w;
  for (const auto& t : plan.tools) {
    if (!w.empty()) w.blank();
    const bool listed = write_listing(w, t);
    write_factory(w, t, listed);
    if (t.tool->kind == model::ToolKind::Tool) continue;
    w.blank();
    write_served(w, t);
  }
  return w.take();
}

std::vector<ToolSet> tool_sets(const model::HeaderModel& header, const Plan& plan) {
  std::vector<ToolSet> sets;
  const auto bodies = [&](const std::string& class_name) {
    return std::array{set_body(plan, class_name, model::ToolKind::Tool),
                      set_body(plan, class_name, model::ToolKind::Resource),
                      set_body(plan, class_name, model::ToolKind::Prompt)};
  };
  auto [tools, resources, prompts] = bodies("");
  sets.push_back({"", "", "ptc::ToolRegistry& registry", "", std::move(tools), std::move(resources),
                  std::move(prompts)});
  for (const auto& name : header.classes) {
    std::string cpp = "::" + name;
    for (const auto& t : header.tools)
      if (t.class_name == name) {
        cpp = t.class_cpp;
        break;
      }
    auto [member_tools, member_resources, member_prompts] = bodies(name);
    sets.push_back({cpp, cpp + "& instance", "ptc::ToolRegistry& registry, " + cpp + "& instance", "instance",
                    std::move(member_tools), std::move(member_resources), std::move(member_prompts)});
  }
  return sets;
}

}  // namespace ptcgen::emit
