#pragma once
// Hand-built models for the emitter tests: what the extractor would produce for a small header.

#include <string>
#include <utility>
#include <vector>

#include "model/model.hpp"

namespace ptcgen::test {

using model::Type;
using model::TypeKind;

inline Type type(TypeKind kind, std::string cpp, std::vector<Type> args = {}) {
  Type t;
  t.kind = kind;
  t.cpp = std::move(cpp);
  t.args = std::move(args);
  return t;
}
inline Type string_type() { return type(TypeKind::String, "std::string"); }
inline Type string_view_type() { return type(TypeKind::StringView, "std::string_view"); }
inline Type bool_type() { return type(TypeKind::Bool, "bool"); }
inline Type int_type(std::string cpp = "int", unsigned bits = 32, bool is_signed = true) {
  Type t = type(TypeKind::Integer, std::move(cpp));
  t.bits = bits;
  t.is_signed = is_signed;
  return t;
}
inline Type size_type() { return int_type("std::size_t", 64, false); }
inline Type double_type() { return type(TypeKind::Float, "double"); }
inline Type vector_of(Type item) { return type(TypeKind::Sequence, "std::vector<" + item.cpp + ">", {item}); }
inline Type optional_of(Type item) {
  Type t = type(TypeKind::Optional, "std::optional<" + item.cpp + ">", {item});
  t.wrapper = "std::optional";
  return t;
}
inline Type named(TypeKind kind, std::string name) {
  Type t = type(kind, "::" + name);
  t.name = std::move(name);
  return t;
}
inline Type void_type() { return type(TypeKind::Void, "void"); }

inline model::Param param(std::string name, Type t, std::string doc = "") {
  model::Param p;
  p.name = std::move(name);
  p.type = std::move(t);
  p.doc = std::move(doc);
  return p;
}

inline model::Field field(std::string name, Type t, std::string doc = "") {
  model::Field f;
  f.cpp_name = name;
  f.json_name = std::move(name);
  f.type = std::move(t);
  f.doc = std::move(doc);
  return f;
}

inline model::Tool tool(std::string name, std::string description, std::string function,
                        std::vector<model::Param> params, Type result) {
  model::Tool t;
  t.name = std::move(name);
  t.description = std::move(description);
  t.function = std::move(function);
  t.params = std::move(params);
  t.result = std::move(result);
  t.return_style = t.result.kind == TypeKind::Void ? model::ReturnStyle::Void : model::ReturnStyle::Value;
  t.location = {"shop.hpp", 10, 1};
  return t;
}

/// The model of a small tracker header:
///   namespace shop {
///   enum class Priority { low, high };
///   struct Issue { std::int64_t id; PTC_PATTERN("^[A-Z]") std::string title;
///                  std::optional<std::string> assignee; PTC_FIREWALL std::string email; };
///   /// Finds issues by text.
///   std::vector<Issue> search(std::string_view query, PTC_RANGE(1, 50) int limit = 10);
///   /// Files an issue.
///   Issue create(ptc::ToolContext& context, Issue issue, Priority priority);
///   class Tracker {
///    public:
///     /// Counts open issues.
///     PTC_TOOL() std::size_t count() const;
///     /// Forgets every issue.
///     PTC_TOOL() void reset();
///   };
///   }
inline model::HeaderModel shop_model() {
  model::HeaderModel h;
  h.stem = "shop";
  h.include = "shop/shop.hpp";

  model::Enum priority;
  priority.name = "shop::Priority";
  priority.cpp = "::shop::Priority";
  priority.enumerators = {{"low", "::shop::Priority::low"}, {"high", "::shop::Priority::high"}};
  h.enums.push_back(priority);

  model::Struct issue;
  issue.name = "shop::Issue";
  issue.cpp = "::shop::Issue";
  issue.fields.push_back(field("id", int_type("std::int64_t", 64), "Tracker-wide id"));
  issue.fields.push_back(field("title", string_type()));
  issue.fields.back().constraints.pattern = "^[A-Z]";
  issue.fields.push_back(field("assignee", optional_of(string_type())));
  issue.fields.push_back(field("email", string_type()));
  issue.fields.back().json_name = "_email";
  h.structs.push_back(issue);

  const Type issue_type = named(TypeKind::Struct, "shop::Issue");
  auto limit = param("limit", int_type(), "How many at most");
  limit.constraints.min = 1;
  limit.constraints.max = 50;
  limit.default_value = model::Default{10, "10"};
  h.tools.push_back(tool("search", "Finds issues by text.", "::shop::search",
                         {param("query", string_view_type(), "Words to look for"), limit}, vector_of(issue_type)));

  auto create =
      tool("create", "Files an issue.", "::shop::create",
           {param("issue", issue_type), param("priority", named(TypeKind::Enum, "shop::Priority"))}, issue_type);
  create.context_index = 0;
  h.tools.push_back(create);

  auto count = tool("count", "Counts open issues.", "count", {}, size_type());
  count.class_name = "shop::Tracker";
  count.class_cpp = "::shop::Tracker";
  count.const_member = true;
  h.tools.push_back(count);
  auto reset = tool("reset", "Forgets every issue.", "reset", {}, void_type());
  reset.class_name = "shop::Tracker";
  reset.class_cpp = "::shop::Tracker";
  h.tools.push_back(reset);
  h.classes = {"shop::Tracker"};
  return h;
}

}  // namespace ptcgen::test
