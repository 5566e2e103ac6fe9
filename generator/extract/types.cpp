#include "extract/types.hpp"

#include <algorithm>
#include <map>
#include <numeric>
#include <set>
#include <string>
#include <vector>

#include <clang/AST/DeclCXX.h>
#include <clang/AST/DeclTemplate.h>
#include <clang/AST/RawCommentList.h>
#include <clang/Basic/SourceManager.h>

#include "extract/doc_comment.hpp"
#include "extract/values.hpp"

namespace ptcgen::extract::detail {

using namespace clang;

namespace {

constexpr std::string_view kSupported =
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
    if (QualType(tst, 0).getCanonicalType().getUnqualifiedType() != sugared.getCanonicalType().getUnqualifiedType())
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

/// A std::ratio period in words: the standard units by name, any other as a fraction of a second.
std::string period_unit(QualType period) {
  const auto* spec =
      llvm::dyn_cast_or_null<ClassTemplateSpecializationDecl>(period.getCanonicalType()->getAsCXXRecordDecl());
  if (!spec || spec->getTemplateArgs().size() < 1) return "";
  const auto value = [&](unsigned i) -> std::int64_t {
    if (i >= spec->getTemplateArgs().size()) return 1;
    const TemplateArgument& a = spec->getTemplateArgs()[i];
    return a.getKind() == TemplateArgument::Integral ? a.getAsIntegral().getExtValue() : 0;
  };
  std::int64_t num = value(0), den = value(1);
  if (num <= 0 || den <= 0) return "";
  const std::int64_t g = std::gcd(num, den);
  num /= g;
  den /= g;
  static const std::map<std::pair<std::int64_t, std::int64_t>, std::string> kNamed = {{{1, 1000000000}, "nanoseconds"},
                                                                                      {{1, 1000000}, "microseconds"},
                                                                                      {{1, 1000}, "milliseconds"},
                                                                                      {{1, 1}, "seconds"},
                                                                                      {{60, 1}, "minutes"},
                                                                                      {{3600, 1}, "hours"},
                                                                                      {{86400, 1}, "days"},
                                                                                      {{604800, 1}, "weeks"},
                                                                                      {{2629746, 1}, "months"},
                                                                                      {{31556952, 1}, "years"}};
  if (auto it = kNamed.find({num, den}); it != kNamed.end()) return it->second;
  return den == 1 ? std::to_string(num) + " seconds" : std::to_string(num) + "/" + std::to_string(den) + " seconds";
}

void collect_fields(const CXXRecordDecl* rd, std::vector<const FieldDecl*>& out) {
  for (const auto& base : rd->bases())
    if (const auto* b = base.getType()->getAsCXXRecordDecl()) collect_fields(b, out);
  for (const auto* f : rd->fields()) out.push_back(f);
}

/// A field path of up to 8 names as is, a longer one by its first and last three ("a.b.c...x.y.z"):
/// paths grow up to kMaxTypeDepth names.
std::string abbreviated_path(const std::string& path) {
  std::vector<std::size_t> dots;
  for (std::size_t i = path.find('.'); i != std::string::npos; i = path.find('.', i + 1)) dots.push_back(i);
  if (dots.size() < 8) return path;
  return path.substr(0, dots[2]) + "..." + path.substr(dots[dots.size() - 3] + 1);
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

std::optional<std::string> not_a_plain_struct(const CXXRecordDecl* rd, unsigned depth) {
  static const std::string kTooDeep = "its base classes nest deeper than " + std::to_string(kMaxTypeDepth) + " levels";
  if (depth > kMaxTypeDepth) return kTooDeep;
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
    if (auto why = not_a_plain_struct(b, depth + 1))
      return *why == kTooDeep ? *why : "its base '" + qualified_name(b) + "' is not plain: " + *why;
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
  // map() reports what lies beyond these limits.
  if (!rd || depth > kMaxTypeDepth || reporter_.type_nodes(t) > kMaxTypeNodes) return;
  if (const auto* spec = library_specialization(rd)) {
    // Written arguments only: a default allocator holds the element again, and walking it too would
    // double the walk at each level of nesting.
    for (const auto& a : written_arguments(spec))
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
  return map_type(type, Frame{&subject, 1, 1, parameter, false, false});
}

std::string TypeMapper::describe(const Frame& f, QualType offending, llvm::StringRef reason) const {
  const Subject& s = *f.subject;
  std::string out = s.what;
  if (s.is_type && s.field_path.empty()) return out + ": " + reason.str();
  if (!s.field_path.empty()) out += ": field '" + abbreviated_path(s.field_path) + "'";
  out += " has type " + reporter_.quote(s.declared);
  const auto strip = [](QualType q) { return q.getNonReferenceType().getCanonicalType().getUnqualifiedType(); };
  if (strip(offending) != strip(s.declared)) out += ", which holds " + reporter_.quote(offending);
  return out + ": " + reason.str();
}

void TypeMapper::fail(const Frame& f, QualType offending, llvm::StringRef reason, llvm::StringRef recommendation,
                      RuleId rule) {
  reporter_.error(rule, f.subject->loc, describe(f, offending, reason), recommendation);
}

void TypeMapper::warn(RuleId rule, const Frame& f, QualType offending, llvm::StringRef reason,
                      llvm::StringRef recommendation) {
  reporter_.warning(rule, f.subject->loc, describe(f, offending, reason), recommendation);
}

void TypeMapper::too_deep(const Frame& f, QualType offending) {
  fail(f, offending, "types nest deeper than " + std::to_string(kMaxTypeDepth) + " levels here",
       "each struct, container, optional, variant or tuple is one level; flatten the type, or hold the deeper "
       "part as nlohmann::json",
       RuleId::TypeLimit);
}

unsigned TypeMapper::height(const model::Type& type) const {
  if (type.kind == model::TypeKind::Struct || type.kind == model::TypeKind::DepthLimit) {
    auto it = heights_.find(type.name);
    return it == heights_.end() ? 1 : it->second;
  }
  unsigned below = 0;
  for (const auto& a : type.args) below = std::max(below, height(a));
  return 1 + below;
}

void TypeMapper::reject_annotations(const Decl* d, llvm::StringRef what) {
  if (!rejected_.insert(d).second) return;
  for (const auto& a : annotations(d, reporter_.ast().getSourceManager()))
    if (a.key != "ptc.answer")  // the one marker of structs and enums
      reporter_.error(RuleId::MisplacedAnnotation, a.loc, macro_name(a.key) + " has no effect on " + what.str(),
                      a.key == "ptc.doc" ? "document it with a /// comment" : "remove it");
  // Bases lend their fields, never their annotations.
  if (const auto* rd = llvm::dyn_cast<CXXRecordDecl>(d)) {
    for (const auto& base : rd->bases())
      if (const auto* b = base.getType()->getAsCXXRecordDecl()) reject_annotations(b, what);
  }
}

std::optional<model::Type> TypeMapper::map_type(QualType type, const Frame& f) {
  const QualType t = type.getCanonicalType().getUnqualifiedType();
  if (f.level > kMaxTypeDepth) {
    too_deep(f, type);
    return std::nullopt;
  }
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
    default: fail(f, type, "ptc has no mapping for this type", kSupported); return std::nullopt;
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
    reject_annotations(ed, "an enum");
    model::Enum e;
    e.name = out.name;
    e.cpp = out.cpp;
    std::set<std::string> names;
    for (const auto* c : ed->enumerators()) {
      std::string name = enumerator_json_name(c, &reporter_);
      if (!names.insert(name).second)
        reporter_.error(RuleId::NameCollision, c->getLocation(),
                        "two enumerators of '" + out.name + "' are both named \"" + name + "\"",
                        "give each a distinct PTC_NAME");
      e.enumerators.push_back({std::move(name), out.cpp + "::" + c->getNameAsString()});
    }
    e.location = reporter_.location(ed->getLocation());
    header_.enums.push_back(std::move(e));
  }
  return out;
}

// --- classes -------------------------------------------------------------------------------------

/// A class as map_record() sees it: its name and template arguments, with what a handler needs to map
/// it or to say why it cannot.
struct TypeMapper::Record {
  Record(QualType written, const Frame& outer, std::string qualified, std::vector<TemplateArgument> arguments)
      : type(written), f(outer), name(std::move(qualified)), args(std::move(arguments)), inner(outer) {
    inner.level = outer.level + 1;
    inner.parameter = false;
    inner.in_variant = false;
    inner.expected_value = false;
  }

  QualType arg(std::size_t i) const { return args.at(i).getAsType(); }

  /// Extra template arguments (allocators, comparators, hashers) must be the defaults: generated code
  /// spells the container from its element types alone.
  bool defaults_from(std::size_t first, QualType element) const {
    for (std::size_t i = first; i < args.size(); ++i)
      if (!is_default_argument(args[i], element)) return false;
    return true;
  }

  QualType type;                       ///< as written, for messages
  Frame f;                             ///< the frame the class itself is mapped in
  std::string name;                    ///< the class or its template: "std::vector", "ptc::ToolContext"
  std::vector<TemplateArgument> args;  ///< type_arguments(); empty for a class that is no specialization
  Frame inner;                         ///< for its elements: no longer a parameter's own type
};

namespace {

/// A class ptc refuses by name: the error's reason and the recommendation note after it.
struct Rejection {
  std::string_view name;
  std::string_view reason;
  std::string_view recommendation;
};

constexpr std::string_view kCallback = "a callback cannot be sent as JSON";
constexpr std::string_view kNameTheAction =
    "take a std::string or an enum naming the action, or a struct describing it, instead";
constexpr std::string_view kThread = "a thread cannot be sent as JSON";
constexpr std::string_view kThreadNote = "start the thread inside the tool, or take an identifier";
constexpr std::string_view kContainer = "ptc has no mapping for this standard container";
constexpr std::string_view kUseVector = "use std::vector<T>";

/// Classes ptc refuses by name, whatever their template arguments.
constexpr Rejection kRejected[] = {
    {"ptc::ToolContext", "ptc::ToolContext is injected, not sent as JSON",
     "take it as a parameter of the tool function of type ptc::ToolContext&"},
    {"ptc::ToolResult", "ptc::ToolResult<T> is only a tool's return type", "use T here"},
    {"std::function", kCallback, kNameTheAction},
    {"std::move_only_function", kCallback, kNameTheAction},
    {"std::copyable_function", kCallback, kNameTheAction},
    {"std::function_ref", kCallback, kNameTheAction},
    {"std::thread", kThread, kThreadNote},
    {"std::jthread", kThread, kThreadNote},
    {"std::forward_list", kContainer, kUseVector},
    {"std::multiset", kContainer, kUseVector},
    {"std::multimap", kContainer, kUseVector},
    {"std::unordered_multiset", kContainer, kUseVector},
    {"std::unordered_multimap", kContainer, kUseVector},
    {"std::weak_ptr", "a weak pointer may dangle by the time it is encoded", "use std::shared_ptr<T>"},
    {"std::any", "std::any has no type to decode into", "use nlohmann::json for arbitrary JSON"},
};

/// Why ptc refuses a class it has no handler for: a named one from kRejected, any other std class
/// generically; nullptr for the rest, which are mapped as structs.
const Rejection* rejection(std::string_view name) {
  static constexpr Rejection kOtherStd{"std::", "ptc has no mapping for this standard library type", kSupported};
  for (const Rejection& r : kRejected)
    if (r.name == name) return &r;
  return name.starts_with("std::") ? &kOtherStd : nullptr;
}

/// Whether every name occurs once in the two tables together, so that the order in which
/// map_record() consults them cannot matter.
template <class Handlers, class Rejections>
constexpr bool names_unique(const Handlers& handlers, const Rejections& rejections) {
  const auto count = [](const auto& table, std::string_view name) {
    std::size_t n = 0;
    for (const auto& e : table) n += e.name == name ? 1 : 0;
    return n;
  };
  for (const auto& e : handlers)
    if (count(handlers, e.name) + count(rejections, e.name) != 1) return false;
  for (const auto& e : rejections)
    if (count(handlers, e.name) + count(rejections, e.name) != 1) return false;
  return true;
}

}  // namespace

TypeMapper::Handler TypeMapper::handler(std::string_view name) {
  struct Entry {
    std::string_view name;
    Handler map;
  };
  static constexpr Entry kHandlers[] = {
      {"std::basic_string", &TypeMapper::map_string},
      {"std::basic_string_view", &TypeMapper::map_string},
      {"std::vector", &TypeMapper::map_sequence},
      {"std::list", &TypeMapper::map_sequence},
      {"std::deque", &TypeMapper::map_sequence},
      {"std::span", &TypeMapper::map_span},
      {"std::array", &TypeMapper::map_array},
      {"std::set", &TypeMapper::map_set},
      {"std::unordered_set", &TypeMapper::map_set},
      {"std::map", &TypeMapper::map_map},
      {"std::unordered_map", &TypeMapper::map_map},
      {"std::optional", &TypeMapper::map_nullable},
      {"std::unique_ptr", &TypeMapper::map_nullable},
      {"std::shared_ptr", &TypeMapper::map_nullable},
      {"std::variant", &TypeMapper::map_variant},
      {"std::monostate", &TypeMapper::map_monostate},
      {"std::pair", &TypeMapper::map_tuple},
      {"std::tuple", &TypeMapper::map_tuple},
      {"std::chrono::time_point", &TypeMapper::map_time_point},
      {"std::chrono::year_month_day", &TypeMapper::map_date},
      {"std::chrono::duration", &TypeMapper::map_duration},
      {"std::expected", &TypeMapper::map_expected},
      {"nlohmann::basic_json", &TypeMapper::map_json},
  };
  static_assert(names_unique(kHandlers, kRejected), "a class is named twice in the type tables");
  for (const Entry& e : kHandlers)
    if (e.name == name) return e.map;
  return nullptr;
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
  if (reporter_.type_nodes(canonical) > kMaxTypeNodes) {
    fail(f, type, "the type is made of more than " + std::to_string(kMaxTypeNodes) + " types",
         "a template whose arguments grow at each level cannot be described; break the chain with "
         "nlohmann::json or a plain struct",
         RuleId::TypeLimit);
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
  const Record r(type, f, spec ? qualified_name(spec->getSpecializedTemplate()) : qualified_name(rd),
                 spec ? type_arguments(type, spec) : std::vector<TemplateArgument>{});
  // No name is in both tables (names_unique), so which is consulted first does not matter.
  if (const Handler mapper = handler(r.name)) return (this->*mapper)(r);
  if (const Rejection* no = rejection(r.name)) {
    fail(f, type, no->reason, no->recommendation);
    return std::nullopt;
  }
  return map_struct(type, rd, f);
}

std::nullopt_t TypeMapper::custom_arguments(const Record& r, llvm::StringRef plain) {
  fail(r.f, r.type, "custom allocators, comparators and hashers are not supported",
       ("use " + plain + " with its default template arguments").str());
  return std::nullopt;
}

std::optional<model::Type> TypeMapper::map_string(const Record& r) {
  const bool view = r.name == "std::basic_string_view";
  const QualType ch = r.arg(0).getCanonicalType();
  if (!ch->isSpecificBuiltinType(BuiltinType::Char_S) && !ch->isSpecificBuiltinType(BuiltinType::Char_U)) {
    fail(r.f, r.type, "only UTF-8 text in char strings maps to :string", "use std::string");
    return std::nullopt;
  }
  if (!r.defaults_from(1, ch)) return custom_arguments(r, view ? "std::string_view" : "std::string");
  if (view && !r.f.parameter) {
    fail(r.f, r.type, "std::string_view would point into the decoded arguments, which the value outlives",
         "use std::string (std::string_view is fine as a parameter's own type)");
    return std::nullopt;
  }
  return view ? make(model::TypeKind::StringView, "std::string_view") : make(model::TypeKind::String, "std::string");
}

std::optional<model::Type> TypeMapper::map_container(const Record& r, model::TypeKind kind) {
  if (!r.defaults_from(1, r.arg(0))) return custom_arguments(r, r.name);
  auto e = map_type(r.arg(0), r.inner);
  if (!e) return std::nullopt;
  model::Type out = make(kind, r.name + "<" + e->cpp + ">");
  out.args.push_back(std::move(*e));
  return out;
}

std::optional<model::Type> TypeMapper::map_sequence(const Record& r) {
  return map_container(r, model::TypeKind::Sequence);
}

std::optional<model::Type> TypeMapper::map_set(const Record& r) { return map_container(r, model::TypeKind::Set); }

std::optional<model::Type> TypeMapper::map_span(const Record& r) {
  const QualType e_type = r.arg(0);
  if (!r.f.parameter) {
    fail(r.f, r.type, "std::span would point into the decoded arguments, which the value outlives",
         "use std::vector<T> (std::span<const T> is fine as a parameter's own type)");
    return std::nullopt;
  }
  if (!e_type.isConstQualified()) {
    fail(r.f, r.type, "a tool cannot write through a span into its caller", "take std::span<const T>");
    return std::nullopt;
  }
  const llvm::APSInt extent = r.args.at(1).getAsIntegral();
  if (!extent.isMaxValue()) {
    fail(r.f, r.type, "a fixed-extent span cannot be filled from a JSON list of any length",
         "take std::span<const T> (dynamic extent) or std::array<T, N>");
    return std::nullopt;
  }
  auto e = map_type(e_type.getUnqualifiedType(), r.inner);
  if (!e) return std::nullopt;
  model::Type out = make(model::TypeKind::Sequence, "std::span<const " + e->cpp + ">");
  out.args.push_back(std::move(*e));
  return out;
}

std::optional<model::Type> TypeMapper::map_array(const Record& r) {
  auto e = map_type(r.arg(0), r.inner);
  if (!e) return std::nullopt;
  const std::uint64_t n = r.args.at(1).getAsIntegral().getZExtValue();
  model::Type out = make(model::TypeKind::Array, "std::array<" + e->cpp + ", " + std::to_string(n) + ">");
  out.array_size = static_cast<std::size_t>(n);
  out.args.push_back(std::move(*e));
  return out;
}

std::optional<model::Type> TypeMapper::map_map(const Record& r) {
  if (!r.defaults_from(2, r.arg(0))) return custom_arguments(r, r.name);
  const QualType key = r.arg(0);
  if (!is_record(key, "std::basic_string") || spell(key, reporter_.ast(), false) != "std::string") {
    fail(r.f, r.type, "map keys must be std::string: JSON object keys are strings",
         "use std::map<std::string, T>, or a std::vector<T> of structs that hold the key");
    return std::nullopt;
  }
  auto v = map_type(r.arg(1), r.inner);
  if (!v) return std::nullopt;
  model::Type out = make(model::TypeKind::Map, r.name + "<std::string, " + v->cpp + ">");
  out.args.push_back(std::move(*v));
  return out;
}

/// std::optional, std::unique_ptr and std::shared_ptr: null or a value.
std::optional<model::Type> TypeMapper::map_nullable(const Record& r) {
  if (r.arg(0)->isArrayType()) {
    fail(r.f, r.type, "a pointer to an array has no length to encode", "use std::vector<T> instead");
    return std::nullopt;
  }
  if (r.name == "std::unique_ptr" && !r.defaults_from(1, r.arg(0))) return custom_arguments(r, r.name);
  auto e = map_type(r.arg(0), r.inner);
  if (!e) return std::nullopt;
  model::Type out = make(model::TypeKind::Optional, r.name + "<" + e->cpp + ">");
  out.wrapper = r.name;
  out.args.push_back(std::move(*e));
  return out;
}

std::optional<model::Type> TypeMapper::map_variant(const Record& r) {
  model::Type out = make(model::TypeKind::Variant, "");
  Frame alt = r.inner;
  alt.in_variant = true;
  std::string cpp = "std::variant<";
  for (std::size_t i = 0; i < r.args.size(); ++i) {
    auto e = map_type(r.arg(i), alt);
    if (!e) return std::nullopt;
    cpp += (i ? ", " : "") + e->cpp;
    out.args.push_back(std::move(*e));
  }
  out.cpp = cpp + ">";
  return out;
}

std::optional<model::Type> TypeMapper::map_monostate(const Record& r) {
  if (r.f.in_variant) return make(model::TypeKind::Monostate, "std::monostate");
  fail(r.f, r.type, "std::monostate carries no value outside a std::variant", "remove it, or use std::optional<T>");
  return std::nullopt;
}

/// std::pair and std::tuple.
std::optional<model::Type> TypeMapper::map_tuple(const Record& r) {
  model::Type out = make(model::TypeKind::Tuple, "");
  std::string cpp = r.name + "<";
  for (std::size_t i = 0; i < r.args.size(); ++i) {
    auto e = map_type(r.arg(i), r.inner);
    if (!e) return std::nullopt;
    cpp += (i ? ", " : "") + e->cpp;
    out.args.push_back(std::move(*e));
  }
  out.cpp = cpp + ">";
  return out;
}

std::optional<model::Type> TypeMapper::map_time_point(const Record& r) {
  const auto* clock = r.arg(0)->getAsCXXRecordDecl();
  if (!clock || qualified_name(clock) != "std::chrono::system_clock") {
    fail(r.f, r.type, "only system_clock time points have a calendar time to print",
         "use std::chrono::system_clock::time_point");
    return std::nullopt;
  }
  // system_clock::time_point is spelled so when its duration is the clock's own.
  QualType own;
  for (const auto* d : clock->lookup(&reporter_.ast().Idents.get("duration")))
    if (const auto* td = llvm::dyn_cast<TypedefNameDecl>(d)) own = td->getUnderlyingType();
  if (!own.isNull() && own.getCanonicalType() == r.arg(1).getCanonicalType())
    return make(model::TypeKind::TimePoint, "std::chrono::system_clock::time_point");
  const std::string dur = chrono_alias(r.arg(1)).value_or(spell(r.arg(1), reporter_.ast(), false));
  return make(model::TypeKind::TimePoint, "std::chrono::time_point<std::chrono::system_clock, " + dur + ">");
}

std::optional<model::Type> TypeMapper::map_date(const Record&) {
  return make(model::TypeKind::Date, "std::chrono::year_month_day");
}

std::optional<model::Type> TypeMapper::map_duration(const Record& r) {
  const QualType rep = r.arg(0).getCanonicalType();
  if (!rep->isIntegerType() || rep->isBooleanType() || rep->isAnyCharacterType()) {
    fail(r.f, r.type, "a duration maps to an integer count, and this one counts in floating point",
         "use an integer duration such as std::chrono::milliseconds");
    return std::nullopt;
  }
  model::Type out =
      make(model::TypeKind::Duration, chrono_alias(r.type).value_or(spell(r.type, reporter_.ast(), false)));
  // The count's width, as an Integer's: what PTC_RANGE is checked against.
  out.bits = static_cast<unsigned>(reporter_.ast().getTypeSize(rep));
  out.is_signed = rep->isSignedIntegerType();
  out.unit = period_unit(r.arg(1));
  return out;
}

std::optional<model::Type> TypeMapper::map_expected(const Record& r) {
  Frame value = r.inner;
  value.expected_value = true;
  // Both are mapped before either is checked, so the problems of both are reported.
  auto v = map_type(r.arg(0), value);
  auto e = map_type(r.arg(1), r.inner);
  if (!v || !e) return std::nullopt;
  model::Type out = make(model::TypeKind::Expected, "std::expected<" + v->cpp + ", " + e->cpp + ">");
  out.args.push_back(std::move(*v));
  out.args.push_back(std::move(*e));
  return out;
}

std::optional<model::Type> TypeMapper::map_json(const Record& r) {
  // nlohmann::json keeps objects in a std::map; ordered_json and other variants spell differently.
  const auto* objects = r.args.empty() || r.args[0].getKind() != TemplateArgument::Template
                            ? nullptr
                            : r.args[0].getAsTemplate().getAsTemplateDecl();
  if (objects && qualified_name(objects) == "std::map") return make(model::TypeKind::Json, "nlohmann::json");
  fail(r.f, r.type, "only nlohmann::json itself maps to :any", "use nlohmann::json");
  return std::nullopt;
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
         "plain struct that holds what it needs",
         llvm::StringRef(*why).contains("base classes nest deeper") ? RuleId::TypeLimit : RuleId::UnsupportedType);
    return std::nullopt;
  }
  const ASTContext& ast = reporter_.ast();
  model::Type out = make(model::TypeKind::Struct, spell(QualType(rd->getTypeForDecl(), 0), ast, true));
  out.name = spell(QualType(rd->getTypeForDecl(), 0), ast, false);

  StructState& state = structs_[rd];
  if (state.status == Status::Failed) return std::nullopt;
  if (state.status == Status::Building) {
    warn(RuleId::RecursiveType, f, type, "'" + out.name + "' contains itself, so this is typed :any",
         "signatures cannot express recursive types; the value is still encoded in full");
    out.kind = model::TypeKind::Recursive;
    return out;
  }
  // Recorded even beyond the depth limit: the limit shortens the schema, but generated code still
  // decodes and encodes the value in full.
  if (state.status != Status::Done && !build_struct(rd, out.name, out.cpp, f)) return std::nullopt;
  // Built elsewhere, from a shallower place: its levels still count here.
  if (f.level - 1 + structs_[rd].height > kMaxTypeDepth) {
    too_deep(f, type);
    return std::nullopt;
  }
  if (f.depth > max_depth_) {
    // Said once, where the limit cuts; what lies deeper is inside that :map.
    if (f.depth == max_depth_ + 1)
      warn(RuleId::DepthLimit, f, type,
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

  reject_annotations(rd, "a struct");
  std::vector<const FieldDecl*> fields;
  collect_fields(rd, fields);
  bool ok = true;
  std::map<std::string, std::string> json_names;  ///< JSON name -> C++ name
  for (const FieldDecl* field : fields) {
    Subject sub;
    sub.what = f.subject->what;
    sub.field_path = (f.subject->field_path.empty() ? "" : f.subject->field_path + ".") + field->getNameAsString();
    sub.loc = field->getLocation();
    sub.declared = field->getType();
    auto type = map_type(field->getType(), Frame{&sub, depth + 1, f.level + 1, false, false, false});
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
    const std::string& renamed = notes.name ? *notes.name : out.cpp_name;
    out.json_name = notes.firewall ? "_" + renamed : renamed;
    // Renamed and firewalled fields, and bases' fields, can meet on one JSON name.
    if (auto [at, added] = json_names.emplace(out.json_name, out.cpp_name); !added) {
      reporter_.error(RuleId::NameCollision, field->getLocation(),
                      "fields '" + at->second + "' and '" + out.cpp_name + "' of '" + s.name +
                          "' both have the JSON name \"" + out.json_name + "\"",
                      "give one of them another PTC_NAME");
      ok = false;
      continue;
    }
    out.type = std::move(*type);
    out.doc = model::with_unit(notes.doc ? *notes.doc : doc_of(field, reporter_), model::duration_unit(out.type));
    out.constraints = std::move(notes.constraints);
    out.location = reporter_.location(field->getLocation());
    s.fields.push_back(std::move(out));
  }
  unsigned below = 0;
  for (const auto& field : s.fields) below = std::max(below, height(field.type));
  structs_[rd].status = ok ? Status::Done : Status::Failed;
  structs_[rd].height = 1 + below;
  heights_[s.name] = 1 + below;
  if (ok) header_.structs.push_back(std::move(s));
  return ok;
}

}  // namespace ptcgen::extract::detail
