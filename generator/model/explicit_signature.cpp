#include "model/explicit_signature.hpp"

#include "model/refine.hpp"
#include "model/schema.hpp"

namespace ptcgen::model {

namespace {

std::string plural(std::size_t n, const char* word) { return std::to_string(n) + " " + word + (n == 1 ? "" : "s"); }

// What a parameter's codec decodes, inside its own refinements and optionality. Generated decoders check
// refinements of the parameter itself; those inside would need the codecs of the types they refine.
const ptc::Schema& inner_type(const ptc::Schema& s) { return unrefined(s.kind() == ptc::Kind::Maybe ? s.item() : s); }

std::string cpp_names(const Tool& tool) {
  std::string out;
  for (const auto& p : tool.params) out += (out.empty() ? "" : ", ") + p.name;
  return out;
}

}  // namespace

Reconciled reconcile_explicit_signature(const Tool& tool, const ptc::Signature& derived) {
  Reconciled out;
  const std::string prefix = "PTC_SIGNATURE of tool '" + tool.name + "'";
  auto parsed = ptc::Signature::parse(*tool.explicit_signature);
  if (!parsed) {
    out.errors.push_back(prefix + " does not parse: " + parsed.error().to_string());
    return out;
  }
  const auto& given = parsed->params();
  const auto& cpp = derived.params();
  if (given.size() != cpp.size()) {
    std::string msg = prefix + " has " + plural(given.size(), "parameter") + " but the C++ function has " +
                      std::to_string(cpp.size());
    if (!cpp.empty()) msg += " (" + cpp_names(tool) + ")";
    if (tool.context_index) msg += ", not counting its ptc::ToolContext&";
    out.errors.push_back(std::move(msg));
    return out;
  }

  std::vector<ptc::MapEntry> params;
  for (std::size_t i = 0; i < cpp.size(); ++i) {
    const auto& g = given[i];
    const auto& c = cpp[i];
    std::string what = prefix + ": parameter '" + c.name + "'";
    if (g.name != c.name) what += " (named '" + g.name + "' there)";
    if (g.optional != c.optional) {
      const auto& type = tool.params[i].type;
      const std::string why = is_optional(type) ? "its type is " + type.cpp : "it has a default value";
      out.errors.push_back(what + (g.optional ? " is optional there but required in C++"
                                              : " is required there but optional in C++ (" + why + ")"));
      continue;
    }
    if (shape_of(g.schema) != shape_of(c.schema)) {
      out.errors.push_back(what + " is " + ptc::render(g.schema) + " there but the C++ type " +
                           tool.params[i].type.cpp + " maps to " + ptc::render(c.schema));
      continue;
    }
    ptc::Schema merged = overlay(g.schema, c.schema);
    if (inner_type(merged) != inner_type(c.schema)) {
      out.errors.push_back(what + " refines a type inside " + ptc::render(g.schema) +
                           "; only the parameter's own type can be refined there (PTC_RANGE and PTC_PATTERN " +
                           "refine struct fields)");
      continue;
    }
    ptc::MapEntry e(g.name, std::move(merged), c.optional);
    e.doc = c.doc;
    e.default_value = c.default_value;
    params.push_back(std::move(e));
  }

  const auto& result = parsed->output();
  if (shape_of(result) != shape_of(derived.output())) {
    const std::string cpp_type = tool.return_style == ReturnStyle::Void ? "void" : tool.result.cpp;
    out.errors.push_back(prefix + ": the result is " + ptc::render(result) + " there but the C++ type " + cpp_type +
                         " maps to " + ptc::render(derived.output()));
  }
  if (out.errors.empty()) out.signature = ptc::Signature(std::move(params), overlay(result, derived.output()));
  return out;
}

}  // namespace ptcgen::model
