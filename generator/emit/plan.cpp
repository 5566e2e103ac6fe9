#include "emit/plan.hpp"

#include <exception>
#include <future>
#include <set>

#include <nlohmann/json.hpp>

#include "emit/cpp_text.hpp"
#include "model/refine.hpp"
#include "model/schema.hpp"

namespace ptcgen::emit {

using diagnostics::RuleId;

namespace {

bool is_span(const model::Type& type) {
  return type.kind == model::TypeKind::Sequence && type.cpp.rfind("std::span<", 0) == 0 && !type.args.empty();
}

bool reads_back(const std::string& malli, const ptc::Signature& signature) {
  auto back = ptc::Signature::from_malli(malli);
  return back && *back == signature;
}

// Signature::to_malli prints `[:cat T...]`, which drops parameter names, unless a parameter has options
// it must keep. `[:catn ...]` keeps names and options, and its entries print like a map's.
std::optional<std::string> malli_text(const ptc::Signature& signature) {
  std::string text = signature.to_malli();
  if (reads_back(text, signature)) return text;
  const std::string map = ptc::to_malli(ptc::Schema::map(signature.params()));  // "[:map <entries>]"
  text = "[:=> [:catn" + map.substr(std::string_view("[:map").size()) + " " + ptc::to_malli(signature.output()) + "]";
  if (reads_back(text, signature)) return text;
  return std::nullopt;
}

std::optional<nlohmann::json> parse_json(const std::string& text) {
  auto j = nlohmann::json::parse(text, nullptr, false);
  if (j.is_discarded()) return std::nullopt;
  return j;
}

ArgPlan arg_plan(const model::Param& param, std::size_t index, const ptc::MapEntry& entry,
                 const model::HeaderModel& header) {
  ArgPlan a;
  a.param = &param;
  a.member = param.name.empty() ? "arg" + std::to_string(index) : param.name;
  a.json_name = entry.name;
  a.stored_type = param.type.cpp;
  if (param.type.kind == model::TypeKind::StringView) {
    a.stored_type = "std::string";
    a.pass = Pass::StringView;
  } else if (is_span(param.type)) {
    a.stored_type = "std::vector<" + param.type.args.front().cpp + ">";
    a.pass = Pass::Span;
  }
  a.nullable = model::is_optional(param.type);
  a.fills_default = param.default_value && !(a.nullable && param.default_value->value.is_null());
  const ptc::Schema& value =
      entry.optional && entry.schema.kind() == ptc::Kind::Maybe ? entry.schema.item() : entry.schema;
  a.check = extra_check(value, param.type, header);
  return a;
}

}  // namespace

std::optional<ptc::Schema> extra_check(const ptc::Schema& value, const model::Type& type,
                                       const model::HeaderModel& header) {
  if (!model::is_refined(value)) return std::nullopt;
  const model::Type& inner = model::is_optional(type) && !type.args.empty() ? type.args.front() : type;
  if (value == model::schema_of(inner, header)) return std::nullopt;
  return value;
}

namespace {

// A struct's or enum's schema, an error when it has none; with `public_schema` (a type answer types
// reach, whose SchemaOf is generated) also as Malli text that reads back as exactly that schema.
void plan_type(model::TypeKind kind, const std::string& name, const model::Location& location, bool public_schema,
               const model::HeaderModel& header, Plan& plan) {
  model::Type type;
  type.kind = kind;
  type.name = name;
  const std::string what = (kind == model::TypeKind::Enum ? "enum " : "struct ") + name + ": ";
  try {
    const ptc::Schema schema = model::schema_of(type, header);
    if (!public_schema) return;
    std::string text = ptc::to_malli(schema);
    auto back = ptc::parse_malli_type(text);
    if (!back || !(*back == schema)) {
      plan.errors.push_back(
          {what + "its schema does not read back from Malli text: " + text, location, RuleId::RuntimeRefusal, {}});
      return;
    }
    plan.type_malli.emplace(name, std::move(text));
  } catch (const ptc::Exception& e) {
    plan.errors.push_back({what + e.error().message, location, RuleId::RuntimeRefusal, {}});
  }
}

void plan_types(const model::HeaderModel& header, Plan& plan) {
  const std::set<std::string> reached = model::reached_from_answers(header);
  for (const auto& e : header.enums)
    if (reached.count(e.name)) plan_type(model::TypeKind::Enum, e.name, e.location, true, header, plan);
  for (const auto& s : header.structs)
    plan_type(model::TypeKind::Struct, s.name, s.location, reached.count(s.name) > 0, header, plan);
}

bool plan_examples(const model::Tool& tool, ToolPlan& t, std::vector<EmitError>& errors) {
  bool ok = true;
  for (const auto& ex : tool.examples) {
    auto input = parse_json(ex.input);
    auto output = parse_json(ex.output);
    if (input && output) {
      t.examples.push_back({"", std::move(*input), std::move(*output)});
      continue;
    }
    errors.push_back({"tool '" + tool.name + "': PTC_EXAMPLE " + (input ? "output" : "input") + " is not valid JSON",
                      ex.location, RuleId::InvalidExample, tool.name});
    ok = false;
  }
  return ok;
}

std::optional<ToolPlan> plan_tool(const model::Tool& tool, const model::HeaderModel& header,
                                  std::vector<EmitError>& errors) {
  auto error = [&](std::string message) {
    errors.push_back({std::move(message), tool.location, RuleId::InvalidSignature, tool.name});
  };
  if (auto problems = model::check_explicit_signature(tool, header); !problems.empty()) {
    for (auto& p : problems) error(std::move(p));
    return std::nullopt;
  }
  auto signature = model::signature_of(tool, header);
  if (!signature) {
    error(signature.error().message);
    return std::nullopt;
  }
  ToolPlan t;
  t.tool = &tool;
  t.signature = *signature;
  auto text = malli_text(t.signature);
  if (!text) {
    error("tool '" + tool.name + "': its signature does not read back from Malli text: " + t.signature.to_malli());
    return std::nullopt;
  }
  t.signature_malli = std::move(*text);
  if (!plan_examples(tool, t, errors)) return std::nullopt;
  if (const auto& h = tool.hints; h.stated)
    t.hints = ptc::ToolHints{h.read_only, h.destructive, h.idempotent, h.open_world};
  for (std::size_t i = 0; i < tool.params.size(); ++i)
    t.args.push_back(arg_plan(tool.params[i], i, t.signature.params()[i], header));
  return t;
}

}  // namespace

Plan plan_header(const model::HeaderModel& header) {
  Plan plan;
  // Every struct gets traits, with its constraint checks, whether or not a signature reached it; the
  // structs and enums answer types reach get their schemas too.
  plan_types(header, plan);
  // Each tool is planned on its own, so on a large header the two halves are planned side by side;
  // everything is gathered in declaration order afterwards, so nothing depends on the scheduling.
  struct Planned {
    bool repeated = false;
    std::optional<ToolPlan> plan;
    std::vector<EmitError> errors;
  };
  std::vector<Planned> planned(header.tools.size());
  std::set<std::string> names;
  for (std::size_t i = 0; i < header.tools.size(); ++i)
    planned[i].repeated = !names.insert(model::registry_key(header.tools[i])).second;
  const auto plan_tools = [&](std::size_t begin, std::size_t end) {
    for (std::size_t i = begin; i < end; ++i)
      if (!planned[i].repeated) planned[i].plan = plan_tool(header.tools[i], header, planned[i].errors);
  };
  const std::size_t half = header.tools.size() / 2;
  auto first = std::async(std::launch::async, plan_tools, 0, half);
  std::exception_ptr second_failed;
  try {
    plan_tools(half, header.tools.size());
  } catch (...) {
    second_failed = std::current_exception();
  }
  first.get();  // an earlier tool's exception first, as when the tools are planned in order
  if (second_failed) std::rethrow_exception(second_failed);
  IdentifierNamer ids;
  for (std::size_t i = 0; i < header.tools.size(); ++i) {
    const auto& tool = header.tools[i];
    auto& p = planned[i];
    if (p.repeated) {
      const std::string kind = model::kind_name(tool.kind);
      plan.errors.push_back({tool.kind == model::ToolKind::Resource
                                 ? "resource URI '" + tool.uri + "' is used by an earlier resource of this header"
                                 : kind + " name '" + tool.name + "' is used by an earlier " + kind + " of this header",
                             tool.location, RuleId::NameCollision, tool.name});
      continue;
    }
    for (auto& e : p.errors) plan.errors.push_back(std::move(e));
    if (p.plan) {
      p.plan->id = ids.make(tool.name);
      plan.tools.push_back(std::move(*p.plan));
    }
  }
  return plan;
}

ptc::ToolSpec tool_spec(const ToolPlan& t) {
  return ptc::ToolSpec{t.tool->name, t.tool->description, t.signature,   nullptr,
                       false,        t.examples,          t.tool->title, t.hints};
}

}  // namespace ptcgen::emit
