#include "extract/types.hpp"

#include <clang/AST/DeclCXX.h>
#include <clang/AST/DeclTemplate.h>
#include <clang/AST/RawCommentList.h>
#include <clang/Basic/SourceManager.h>

#include "extract/doc_comment.hpp"
#include "extract/values.hpp"

namespace ptcgen::extract::detail {

using namespace clang;

namespace {

constexpr llvm::StringLiteral kSupported =
    "ptc maps strings, bool, integers, float/double, enums, aggregate structs, std::vector/list/deque/array, "
    "std::set/unordered_set, std::map/unordered_map with std::string keys, std::optional/unique_ptr/shared_ptr, "
    "std::variant, std::pair/tuple, std::chrono time_point/year_month_day/duration, std::expected and "
    "nlohmann::json";

model::Type make(model::TypeKind kind, std::string cpp) {
  model::Type t;
  t.kind = kind;
  t.cpp = std::move(cpp);
  return t;
}

/// The template arguments of a specialization as written where possible, so that aliases such as
/// std::string or std::chrono::seconds survive into the element types; the canonical ones otherwise
/// (defaults the code did not write, or a type reached without sugar).
std::vector<TemplateArgument> type_arguments(QualType sugared, const ClassTemplateSpecializationDecl* spec) {
  std::vector<TemplateArgument> args = flat_arguments(spec->getTemplateArgs().asArray());
  QualType t = sugared;
  while (const auto* tst = t->getAs<TemplateSpecializationType>()) {
    if (tst->isTypeAlias()) {
      t = tst->getAliasedType();
      continue;
    }
    if (QualType(tst, 0).getCanonicalType().getUnqualifiedType() !=
        sugared.getCanonicalType().getUnqualifiedType())
      break;
    const auto written = flat_arguments(tst->template_arguments());
    for (std::size_t i = 0; i < written.size() && i < args.size(); ++i) {
      if (written[i].getKind() == TemplateArgument::Type && args[i].getKind() == TemplateArgument::Type &&
          written[i].getAsType().getCanonicalType() == args[i].getAsType().getCanonicalType())
        args[i] = written[i];
    }
    break;
  }
  return args;
}

bool is_type(const TemplateArgument& a) { return a.getKind() == TemplateArgument::Type; }

/// The std::chrono alias a duration is written with ("std::chrono::milliseconds"), if any.
std::optional<std::string> chrono_alias(QualType type) {
  QualType t = type;
  while (const auto* alias = t->getAs<TypedefType>()) {
    const std::string name = qualified_name(alias->getDecl());
    if (llvm::StringRef(name).starts_with("std::chrono::") &&
        llvm::StringRef(name).drop_front(13).find("::") == llvm::StringRef::npos)
      return name;
    t = alias->desugar();
  }
  return std::nullopt;
}

void collect_fields(const CXXRecordDecl* rd, std::vector<const FieldDecl*>& out) {
  for (const auto& base : rd->bases())
    if (const auto* b = base.getType()->getAsCXXRecordDecl()) collect_fields(b, out);
  for (const auto* f : rd->fields()) out.push_back(f);
}

bool is_local(const Decl* d) { return d->getParentFunctionOrMethod() != nullptr; }

std::string enum_name(const EnumDecl* ed, bool global) {
  if (ed->getIdentifier()) return qualified_name(ed, global);
  return qualified_name(ed->getTypedefNameForAnonDecl(), global);
}

std::string doc_of(const Decl* decl, const Reporter& reporter) {
  const RawComment* raw = reporter.doc_comment(decl);
  return raw ? collapse_whitespace(reporter.comment_text(raw)) : std::string();
}

}  // namespace

std::optional<std::string> not_a_plain_struct(const CXXRecordDecl* rd) {
  if (!rd->isAggregate()) {
    for (const auto* f : rd->fields())
      if (f->getAccess() != AS_public) return "it has a non-public field '" + f->getNameAsString() + "'";
    if (rd->hasUserDeclaredConstructor()) return std::string("it declares a constructor");
    if (rd->isPolymorphic()) return std::string("it has virtual functions");
    for (const auto& base : rd->bases())
      if (base.isVirtual() || base.getAccessSpecifier() != AS_public)
        return std::string("it has a virtual or non-public base class");
    return std::string("it is not an aggregate");
  }
  for (const auto& base : rd->bases()) {
    const auto* b = base.getType()->getAsCXXRecordDecl();
    if (!b) return std::string("it has a dependent base class");
    if (auto why = not_a_plain_struct(b)) return "its base '" + qualified_name(b) + "' is not plain: " + *why;
  }
  for (const auto* f : rd->fields()) {
    if (f->isAnonymousStructOrUnion()) return std::string("it has an anonymous struct or union member");
  }
  return std::nullopt;
}

namespace {

/// A specialization of a std, ptc or nlohmann template, instantiated or not: ptc knows these by name.
const ClassTemplateSpecializationDecl* library_specialization(const CXXRecordDecl* rd) {
  const auto* spec = llvm::dyn_cast<ClassTemplateSpecializationDecl>(rd);
  if (!spec) return nullptr;
  const std::string name = qualified_name(spec->getSpecializedTemplate());
  const llvm::StringRef ns = llvm::StringRef(name).split("::").first;
  return ns == "std" || ns == "ptc" || ns == "nlohmann" ? spec : nullptr;
}

}  // namespace

TypeMapper::TypeMapper(Reporter& reporter, model::HeaderModel& header, unsigned max_depth)
    : reporter_(reporter), header_(header), max_depth_(max_depth) {}

bool TypeMapper::is_record(QualType type, llvm::StringRef qualified) {
  const auto* rd = type.getCanonicalType()->getAsCXXRecordDecl();
  if (!rd) return false;
  if (const auto* spec = llvm::dyn_cast<ClassTemplateSpecializationDecl>(rd))
    return qualified_name(spec->getSpecializedTemplate()) == qualified;
  return qualified_name(rd) == qualified;
}

// --- pass 1 --------------------------------------------------------------------------------------

void TypeMapper::reach(QualType type, SourceLocation loc) { reach_type(type, loc, 1); }

void TypeMapper::reach_type(QualType type, SourceLocation loc, unsigned depth) {
  QualType t = type.getNonReferenceType().getCanonicalType().getUnqualifiedType();
  const auto* rd = t->getAsCXXRecordDecl();
  if (!rd) return;
  if (const auto* spec = library_specialization(rd)) {
    for (const auto& a : flat_arguments(spec->getTemplateArgs().asArray()))
      if (is_type(a)) reach_type(a.getAsType(), loc, depth);
    return;
  }
  if (!reporter_.complete(t, loc) || !rd->hasDefinition() || rd->isUnion() || rd->isLambda()) return;
  rd = rd->getDefinition();
  if (llvm::StringRef(qualified_name(rd)).starts_with("std::") || not_a_plain_struct(rd)) return;
  StructState& state = structs_[rd];
  if (state.min_depth != 0 && state.min_depth <= depth) return;
  state.min_depth = depth;
  std::vector<const FieldDecl*> fields;
  collect_fields(rd, fields);
  for (const auto* f : fields) reach_type(f->getType(), f->getLocation(), depth + 1);
}

// --- pass 2 --------------------------------------------------------------------------------------

std::optional<model::Type> TypeMapper::map(QualType type, const Subject& subject, bool parameter) {
  return map_type(type, Frame{&subject, 1, parameter, false, false});
}

std::string TypeMapper::describe(const Frame& f, QualType offending, llvm::StringRef reason) const {
  const Subject& s = *f.subject;
  std::string out = s.what;
  if (!s.field_path.empty()) out += ": field '" + s.field_path + "'";
  out += " has type " + reporter_.quote(s.declared);
  const auto strip = [](QualType q) { return q.getNonReferenceType().getCanonicalType().getUnqualifiedType(); };
  if (strip(offending) != strip(s.declared)) out += ", which holds " + reporter_.quote(offending);
  return out + ": " + reason.str();
}

void TypeMapper::fail(const Frame& f, QualType offending, llvm::StringRef reason, llvm::StringRef recommendation) {
  reporter_.error(f.subject->loc, describe(f, offending, reason), recommendation);
}

void TypeMapper::warn(const Frame& f, QualType offending, llvm::StringRef reason, llvm::StringRef recommendation) {
  reporter_.warning(f.subject->loc, describe(f, offending, reason), recommendation);
}

std::optional<model::Type> TypeMapper::map_type(QualType type, const Frame& f) {
  const QualType t = type.getCanonicalType().getUnqualifiedType();
  if (t->isReferenceType()) {
    fail(f, type, "references cannot hold decoded values", "store the value itself");
    return std::nullopt;
  }
  if (const auto* pt = t->getAs<PointerType>()) {
    const QualType pointee = pt->getPointeeType();
    if (pointee->isFunctionType()) {
      fail(f, type, "function pointers cannot be sent as JSON",
           "take a std::string or an enum naming the action, or a struct describing it, instead");
    } else if (pointee->isCharType()) {
      fail(f, type, "raw pointers cannot cross a tool boundary",
           f.parameter ? "take std::string or std::string_view instead" : "use std::string instead");
    } else {
      fail(f, type, "raw pointers cannot cross a tool boundary",
           "use the value itself, std::optional<T>, or std::unique_ptr<T> instead");
    }
    return std::nullopt;
  }
  if (t->isMemberPointerType()) {
    fail(f, type, "member pointers cannot be sent as JSON", "use the value itself instead");
    return std::nullopt;
  }
  if (t->isArrayType()) {
    fail(f, type, "C arrays cannot be decoded", "use std::array<T, N> or std::vector<T> instead");
    return std::nullopt;
  }
  if (t->getAs<BuiltinType>()) return map_builtin(type, f);
  if (t->getAs<EnumType>()) return map_enum(type, f);
  if (t->isRecordType()) return map_record(type, f);
  fail(f, type, "ptc has no mapping for this type", kSupported);
  return std::nullopt;
}

std::optional<model::Type> TypeMapper::map_builtin(QualType type, const Frame& f) {
  const ASTContext& ast = reporter_.ast();
  const auto* bt = type.getCanonicalType()->getAs<BuiltinType>();
  const std::string cpp = bt->getName(ast.getPrintingPolicy()).str();
  switch (bt->getKind()) {
    case BuiltinType::Bool: return make(model::TypeKind::Bool, "bool");
    case BuiltinType::SChar:
    case BuiltinType::UChar:
    case BuiltinType::Short:
    case BuiltinType::UShort:
    case BuiltinType::Int:
    case BuiltinType::UInt:
    case BuiltinType::Long:
    case BuiltinType::ULong:
    case BuiltinType::LongLong:
    case BuiltinType::ULongLong: {
      model::Type out = make(model::TypeKind::Integer, cpp);
      out.bits = static_cast<unsigned>(ast.getTypeSize(bt));
      out.is_signed = bt->isSignedInteger();
      return out;
    }
    case BuiltinType::Float:
    case BuiltinType::Double:
    case BuiltinType::LongDouble: return make(model::TypeKind::Float, cpp);
    case BuiltinType::Char_S:
    case BuiltinType::Char_U:
    case BuiltinType::WChar_S:
    case BuiltinType::WChar_U:
    case BuiltinType::Char8:
    case BuiltinType::Char16:
    case BuiltinType::Char32:
      fail(f, type, "a character is neither text nor a number in JSON",
           "use std::string for text, or an integer type such as std::int8_t for a number");
      return std::nullopt;
    case BuiltinType::Int128:
    case BuiltinType::UInt128:
      fail(f, type, "128-bit integers do not fit JSON numbers", "use std::int64_t, or a std::string of digits");
      return std::nullopt;
    case BuiltinType::Void:
      if (f.expected_value) return make(model::TypeKind::Void, "void");
      fail(f, type, "void is only a return type", "remove it");
      return std::nullopt;
    default:
      fail(f, type, "ptc has no mapping for this type", kSupported);
      return std::nullopt;
  }
}

std::optional<model::Type> TypeMapper::map_enum(QualType type, const Frame& f) {
  const EnumDecl* ed = type.getCanonicalType()->getAs<EnumType>()->getDecl();
  if (const EnumDecl* def = ed->getDefinition()) ed = def;
  if (!ed->getIdentifier() && !ed->getTypedefNameForAnonDecl()) {
    fail(f, type, "an anonymous enum has no name generated code can use", "give the enum a name");
    return std::nullopt;
  }
  if (is_local(ed)) {
    fail(f, type, "an enum declared inside a function cannot be named by generated code",
         "declare it at namespace or class scope");
    return std::nullopt;
  }
  if (ed->enumerators().empty()) {
    fail(f, type, "the enum has no enumerators (or only an opaque declaration is visible)",
         "include the enum's definition, with at least one enumerator");
    return std::nullopt;
  }
  model::Type out = make(model::TypeKind::Enum, enum_name(ed, true));
  out.name = enum_name(ed, false);
  if (enums_.insert(ed).second) {
    model::Enum e;
    e.name = out.name;
    e.cpp = out.cpp;
    for (const auto* c : ed->enumerators()) e.enumerators.push_back({c->getNameAsString(), out.cpp + "::" + c->getNameAsString()});
    e.location = reporter_.location(ed->getLocation());
    header_.enums.push_back(std::move(e));
  }
  return out;
}

std::optional<model::Type> TypeMapper::map_record(QualType type, const Frame& f) {
  const QualType canonical = type.getCanonicalType().getUnqualifiedType();
  const CXXRecordDecl* rd = canonical->getAsCXXRecordDecl();
  if (!rd) {
    fail(f, type, "ptc has no mapping for this type", kSupported);
    return std::nullopt;
  }
  if (rd->isUnion()) {
    fail(f, type, "unions cannot be decoded from JSON (nothing says which member is active)",
         "use std::variant<A, B> instead");
    return std::nullopt;
  }
  if (rd->isLambda()) {
    fail(f, type, "a lambda cannot be sent as JSON", "take a std::string or a struct describing the action instead");
    return std::nullopt;
  }
  // Library templates map by name and arguments: instantiating them (std::vector<Input> for each tool)
  // would cost more than parsing the header.
  if (!library_specialization(rd)) {
    if (!reporter_.complete(canonical, f.subject->loc) || !rd->hasDefinition()) {
      fail(f, type, "the type is incomplete here", "include the header that defines it");
      return std::nullopt;
    }
    rd = rd->getDefinition();
  }

  const auto* spec = llvm::dyn_cast<ClassTemplateSpecializationDecl>(rd);
  const std::string name = spec ? qualified_name(spec->getSpecializedTemplate()) : qualified_name(rd);
  const std::vector<TemplateArgument> args = spec ? type_arguments(type, spec) : std::vector<TemplateArgument>{};
  const auto arg_type = [&](std::size_t i) { return args.at(i).getAsType(); };
  // Extra template arguments (allocators, comparators, hashers) must be the defaults: generated code
  // spells the container from its element types alone.
  const auto defaults_from = [&](std::size_t first, QualType element) {
    for (std::size_t i = first; i < args.size(); ++i)
      if (!is_default_argument(args[i], element)) return false;
    return true;
  };
  const auto custom = [&](llvm::StringRef plain) {
    fail(f, type, "custom allocators, comparators and hashers are not supported",
         ("use " + plain + " with its default template arguments").str());
    return std::nullopt;
  };
  const auto element = [&](std::size_t i, const Frame& inner) { return map_type(arg_type(i), inner); };
  Frame inner = f;
  inner.parameter = false;
  inner.in_variant = false;
  inner.expected_value = false;

  if (name == "std::basic_string" || name == "std::basic_string_view") {
    const bool view = name == "std::basic_string_view";
    const QualType ch = arg_type(0).getCanonicalType();
    if (!ch->isSpecificBuiltinType(BuiltinType::Char_S) && !ch->isSpecificBuiltinType(BuiltinType::Char_U)) {
      fail(f, type, "only UTF-8 text in char strings maps to :string", "use std::string");
      return std::nullopt;
    }
    if (!defaults_from(1, ch)) return custom(view ? "std::string_view" : "std::string");
    if (view && !f.parameter) {
      fail(f, type, "std::string_view would point into the decoded arguments, which the value outlives",
           "use std::string (std::string_view is fine as a parameter's own type)");
      return std::nullopt;
    }
    return view ? make(model::TypeKind::StringView, "std::string_view") : make(model::TypeKind::String, "std::string");
  }
  if (name == "std::vector" || name == "std::list" || name == "std::deque") {
    if (!defaults_from(1, arg_type(0))) return custom(name);
    auto e = element(0, inner);
    if (!e) return std::nullopt;
    model::Type out = make(model::TypeKind::Sequence, name + "<" + e->cpp + ">");
    out.args.push_back(std::move(*e));
    return out;
  }
  if (name == "std::span") {
    const QualType e_type = arg_type(0);
    if (!f.parameter) {
      fail(f, type, "std::span would point into the decoded arguments, which the value outlives",
           "use std::vector<T> (std::span<const T> is fine as a parameter's own type)");
      return std::nullopt;
    }
    if (!e_type.isConstQualified()) {
      fail(f, type, "a tool cannot write through a span into its caller", "take std::span<const T>");
      return std::nullopt;
    }
    const llvm::APSInt extent = args.at(1).getAsIntegral();
    if (!extent.isMaxValue()) {
      fail(f, type, "a fixed-extent span cannot be filled from a JSON list of any length",
           "take std::span<const T> (dynamic extent) or std::array<T, N>");
      return std::nullopt;
    }
    auto e = map_type(e_type.getUnqualifiedType(), inner);
    if (!e) return std::nullopt;
    model::Type out = make(model::TypeKind::Sequence, "std::span<const " + e->cpp + ">");
    out.args.push_back(std::move(*e));
    return out;
  }
  if (name == "std::array") {
    auto e = element(0, inner);
    if (!e) return std::nullopt;
    const std::uint64_t n = args.at(1).getAsIntegral().getZExtValue();
    model::Type out = make(model::TypeKind::Array, "std::array<" + e->cpp + ", " + std::to_string(n) + ">");
    out.array_size = static_cast<std::size_t>(n);
    out.args.push_back(std::move(*e));
    return out;
  }
  if (name == "std::set" || name == "std::unordered_set") {
    if (!defaults_from(1, arg_type(0))) return custom(name);
    auto e = element(0, inner);
    if (!e) return std::nullopt;
    model::Type out = make(model::TypeKind::Set, name + "<" + e->cpp + ">");
    out.args.push_back(std::move(*e));
    return out;
  }
  if (name == "std::map" || name == "std::unordered_map") {
    if (!defaults_from(2, arg_type(0))) return custom(name);
    const QualType key = arg_type(0);
    if (!is_record(key, "std::basic_string") || spell(key, reporter_.ast(), false) != "std::string") {
      fail(f, type, "map keys must be std::string: JSON object keys are strings",
           "use std::map<std::string, T>, or a std::vector<T> of structs that hold the key");
      return std::nullopt;
    }
    auto v = element(1, inner);
    if (!v) return std::nullopt;
    model::Type out = make(model::TypeKind::Map, name + "<std::string, " + v->cpp + ">");
    out.args.push_back(std::move(*v));
    return out;
  }
  if (name == "std::optional" || name == "std::unique_ptr" || name == "std::shared_ptr") {
    if (arg_type(0)->isArrayType()) {
      fail(f, type, "a pointer to an array has no length to encode", "use std::vector<T> instead");
      return std::nullopt;
    }
    if (name == "std::unique_ptr" && !defaults_from(1, arg_type(0))) return custom(name);
    auto e = element(0, inner);
    if (!e) return std::nullopt;
    model::Type out = make(model::TypeKind::Optional, name + "<" + e->cpp + ">");
    out.wrapper = name;
    out.args.push_back(std::move(*e));
    return out;
  }
  if (name == "std::variant") {
    model::Type out = make(model::TypeKind::Variant, "");
    Frame alt = inner;
    alt.in_variant = true;
    std::string cpp = "std::variant<";
    for (std::size_t i = 0; i < args.size(); ++i) {
      auto e = map_type(arg_type(i), alt);
      if (!e) return std::nullopt;
      cpp += (i ? ", " : "") + e->cpp;
      out.args.push_back(std::move(*e));
    }
    out.cpp = cpp + ">";
    return out;
  }
  if (name == "std::monostate") {
    if (f.in_variant) return make(model::TypeKind::Monostate, "std::monostate");
    fail(f, type, "std::monostate carries no value outside a std::variant", "remove it, or use std::optional<T>");
    return std::nullopt;
  }
  if (name == "std::pair" || name == "std::tuple") {
    model::Type out = make(model::TypeKind::Tuple, "");
    std::string cpp = name + "<";
    for (std::size_t i = 0; i < args.size(); ++i) {
      auto e = element(i, inner);
      if (!e) return std::nullopt;
      cpp += (i ? ", " : "") + e->cpp;
      out.args.push_back(std::move(*e));
    }
    out.cpp = cpp + ">";
    return out;
  }
  if (name == "std::chrono::time_point") {
    const auto* clock = arg_type(0)->getAsCXXRecordDecl();
    if (!clock || qualified_name(clock) != "std::chrono::system_clock") {
      fail(f, type, "only system_clock time points have a calendar time to print",
           "use std::chrono::system_clock::time_point");
      return std::nullopt;
    }
    // system_clock::time_point is spelled so when its duration is the clock's own.
    QualType own;
    for (const auto* d : clock->lookup(&reporter_.ast().Idents.get("duration")))
      if (const auto* td = llvm::dyn_cast<TypedefNameDecl>(d)) own = td->getUnderlyingType();
    if (!own.isNull() && own.getCanonicalType() == arg_type(1).getCanonicalType())
      return make(model::TypeKind::TimePoint, "std::chrono::system_clock::time_point");
    const std::string dur = chrono_alias(arg_type(1)).value_or(spell(arg_type(1), reporter_.ast(), false));
    return make(model::TypeKind::TimePoint, "std::chrono::time_point<std::chrono::system_clock, " + dur + ">");
  }
  if (name == "std::chrono::year_month_day") return make(model::TypeKind::Date, "std::chrono::year_month_day");
  if (name == "std::chrono::duration") {
    const QualType rep = arg_type(0).getCanonicalType();
    if (!rep->isIntegerType() || rep->isBooleanType() || rep->isAnyCharacterType()) {
      fail(f, type, "a duration maps to an integer count, and this one counts in floating point",
           "use an integer duration such as std::chrono::milliseconds");
      return std::nullopt;
    }
    return make(model::TypeKind::Duration, chrono_alias(type).value_or(spell(type, reporter_.ast(), false)));
  }
  if (name == "std::expected") {
    Frame value = inner;
    value.expected_value = true;
    auto v = map_type(arg_type(0), value);
    auto e = element(1, inner);
    if (!v || !e) return std::nullopt;
    model::Type out = make(model::TypeKind::Expected, "std::expected<" + v->cpp + ", " + e->cpp + ">");
    out.args.push_back(std::move(*v));
    out.args.push_back(std::move(*e));
    return out;
  }
  if (name == "nlohmann::basic_json") {
    // nlohmann::json keeps objects in a std::map; ordered_json and other variants spell differently.
    const auto* objects = args.empty() || args[0].getKind() != TemplateArgument::Template
                              ? nullptr
                              : args[0].getAsTemplate().getAsTemplateDecl();
    if (objects && qualified_name(objects) == "std::map") return make(model::TypeKind::Json, "nlohmann::json");
    fail(f, type, "only nlohmann::json itself maps to :any", "use nlohmann::json");
    return std::nullopt;
  }
  if (name == "ptc::ToolContext") {
    fail(f, type, "ptc::ToolContext is injected, not sent as JSON",
         "take it as a parameter of the tool function of type ptc::ToolContext&");
    return std::nullopt;
  }
  if (name == "ptc::ToolResult") {
    fail(f, type, "ptc::ToolResult<T> is only a tool's return type", "use T here");
    return std::nullopt;
  }
  if (name == "std::function" || name == "std::move_only_function" || name == "std::copyable_function" ||
      name == "std::function_ref") {
    fail(f, type, "a callback cannot be sent as JSON",
         "take a std::string or an enum naming the action, or a struct describing it, instead");
    return std::nullopt;
  }
  if (name == "std::thread" || name == "std::jthread") {
    fail(f, type, "a thread cannot be sent as JSON", "start the thread inside the tool, or take an identifier");
    return std::nullopt;
  }
  if (llvm::StringRef(name).starts_with("std::")) {
    if (name == "std::forward_list" || name == "std::multiset" || name == "std::multimap" ||
        name == "std::unordered_multiset" || name == "std::unordered_multimap") {
      fail(f, type, "ptc has no mapping for this standard container", "use std::vector<T>");
    } else if (name == "std::weak_ptr") {
      fail(f, type, "a weak pointer may dangle by the time it is encoded", "use std::shared_ptr<T>");
    } else if (name == "std::any") {
      fail(f, type, "std::any has no type to decode into", "use nlohmann::json for arbitrary JSON");
    } else {
      fail(f, type, "ptc has no mapping for this standard library type", kSupported);
    }
    return std::nullopt;
  }
  return map_struct(type, rd, f);
}

std::optional<model::Type> TypeMapper::map_struct(QualType type, const CXXRecordDecl* rd, const Frame& f) {
  if (is_local(rd)) {
    fail(f, type, "a class declared inside a function cannot be named by generated code",
         "declare it at namespace or class scope");
    return std::nullopt;
  }
  if (auto why = not_a_plain_struct(rd)) {
    fail(f, type, "ptc cannot see inside this class: " + *why,
         "make it an aggregate (public fields, no constructors, no virtual functions), or give the tool a "
         "plain struct that holds what it needs");
    return std::nullopt;
  }
  const ASTContext& ast = reporter_.ast();
  model::Type out = make(model::TypeKind::Struct, spell(QualType(rd->getTypeForDecl(), 0), ast, true));
  out.name = spell(QualType(rd->getTypeForDecl(), 0), ast, false);

  StructState& state = structs_[rd];
  if (state.status == Status::Failed) return std::nullopt;
  if (state.status == Status::Building) {
    warn(f, type, "'" + out.name + "' contains itself, so this is typed :any",
         "signatures cannot express recursive types; the value is still encoded in full");
    out.kind = model::TypeKind::Recursive;
    return out;
  }
  // Recorded even beyond the depth limit: the limit shortens the schema, but generated code still
  // decodes and encodes the value in full.
  if (state.status != Status::Done && !build_struct(rd, out.name, out.cpp, f)) return std::nullopt;
  if (f.depth > max_depth_) {
    // Said once, where the limit cuts; what lies deeper is inside that :map.
    if (f.depth == max_depth_ + 1)
      warn(f, type,
           "structs nested deeper than --max-depth=" + std::to_string(max_depth_) + " are typed :map",
           "raise --max-depth (ptc_generate's MAX_DEPTH) or flatten the struct");
    out.kind = model::TypeKind::DepthLimit;
  }
  return out;
}

bool TypeMapper::build_struct(const CXXRecordDecl* rd, const std::string& name, const std::string& cpp,
                              const Frame& f) {
  StructState& state = structs_[rd];
  state.status = Status::Building;
  // Built once, as seen from the shallowest place any tool reaches it.
  const unsigned depth = state.min_depth != 0 ? std::min(state.min_depth, f.depth) : f.depth;

  model::Struct s;
  s.name = name;
  s.cpp = cpp;
  s.doc = doc_of(rd, reporter_);
  s.location = reporter_.location(rd->getLocation());

  std::vector<const FieldDecl*> fields;
  collect_fields(rd, fields);
  bool ok = true;
  for (const FieldDecl* field : fields) {
    Subject sub;
    sub.what = f.subject->what;
    sub.field_path = (f.subject->field_path.empty() ? "" : f.subject->field_path + ".") + field->getNameAsString();
    sub.loc = field->getLocation();
    sub.declared = field->getType();
    auto type = map_type(field->getType(), Frame{&sub, depth + 1, false, false, false});
    if (!type) {
      ok = false;
      continue;
    }
    const std::string where = sub.what + ": field '" + sub.field_path + "'";
    ValueAnnotations notes = value_annotations(field, *type, where, /*is_field=*/true, reporter_);
    if (!notes.ok) {
      ok = false;
      continue;
    }
    model::Field out;
    out.cpp_name = field->getNameAsString();
    out.json_name = notes.firewall ? "_" + out.cpp_name : out.cpp_name;
    out.type = std::move(*type);
    out.doc = notes.doc ? *notes.doc : doc_of(field, reporter_);
    out.constraints = std::move(notes.constraints);
    out.location = reporter_.location(field->getLocation());
    s.fields.push_back(std::move(out));
  }
  structs_[rd].status = ok ? Status::Done : Status::Failed;
  if (ok) header_.structs.push_back(std::move(s));
  return ok;
}

}  // namespace ptcgen::extract::detail
