#include "emit/registration.hpp"

#include <algorithm>
#include <cstddef>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <nlohmann/json.hpp>

#include "emit/code_writer.hpp"
#include "emit/cpp_text.hpp"

namespace ptcgen::emit {

namespace {

bool is_member(const ToolPlan& t) { return !t.tool->class_name.empty(); }

std::string signature_function(const ToolPlan& t) { return t.id + "_signature"; }
std::string factory_function(const ToolPlan& t) { return t.id + "_tool"; }

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

void write_signature(CodeWriter& w, const ToolPlan& t) {
  w.open(fmt::format("static const ptc::Signature& {}()", signature_function(t)));
  w.line(fmt::format("static const ptc::Signature signature = ptc::Signature::from_malli({}).value();",
                     raw_string(t.signature_malli)));
  w.line("return signature;");
  w.close();
}

void write_factory(CodeWriter& w, const ToolPlan& t) {
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
  w.line(fmt::format("return ptc::Tool(ptc::ToolSpec{{{}, {}, {}(), std::move(invoker), false, {}, {}, {}}});",
                     string_literal(tool.name), string_literal(tool.description), signature_function(t),
                     t.examples.empty() ? "{}" : "std::move(examples)", string_literal(tool.title), hints));
  w.close();
}

std::string tools_body(const Plan& plan, const std::string& class_name) {
  CodeWriter w(1);
  std::vector<const ToolPlan*> set;
  for (const auto& t : plan.tools)
    if (t.tool->class_name == class_name) set.push_back(&t);
  if (set.empty()) {
    if (!class_name.empty()) w.line("(void)instance;");
    return w.line("return {};").take();
  }
  w.open("return");
  const char* instance = class_name.empty() ? "" : "instance";
  for (const auto* t : set) w.line(fmt::format("detail::{}({}),", factory_function(*t), instance));
  return w.close("};").take();
}

}  // namespace

std::string tool_factories(const Plan& plan) {
  CodeWriter w;
  for (const auto& t : plan.tools) {
    if (!w.empty()) w.blank();
    write_signature(w, t);
    w.blank();
    write_factory(w, t);
  }
  return w.take();
}

std::vector<ToolSet> tool_sets(const model::HeaderModel& header, const Plan& plan) {
  std::vector<ToolSet> sets;
  sets.push_back({"", "", "ptc::ToolRegistry& registry", "", tools_body(plan, "")});
  for (const auto& name : header.classes) {
    std::string cpp = "::" + name;
    for (const auto& t : header.tools)
      if (t.class_name == name) {
        cpp = t.class_cpp;
        break;
      }
    sets.push_back({cpp, cpp + "& instance", "ptc::ToolRegistry& registry, " + cpp + "& instance", "instance",
                    tools_body(plan, name)});
  }
  return sets;
}

}  // namespace ptcgen::emit
