#include "extract/tools.hpp"

#include <algorithm>
#include <cctype>
#include <map>
#include <set>
#include <utility>

#include <clang/AST/DeclCXX.h>
#include <clang/AST/RawCommentList.h>
#include <clang/AST/RecursiveASTVisitor.h>
#include <clang/Basic/SourceManager.h>

#include <ptc/resource.hpp>
#include <ptc/tool_rules.hpp>

#include "extract/doc_comment.hpp"
#include "extract/types.hpp"
#include "extract/values.hpp"
#include "model/no_throw.hpp"

namespace ptcgen::extract::detail {

using namespace clang;

namespace {

bool is_context_parameter(const ParmVarDecl* p) {
  return TypeMapper::is_record(p->getType().getNonReferenceType(), "ptc::ToolContext");
}

std::size_t arity(const FunctionDecl* fd) {
  std::size_t n = 0;
  for (const auto* p : fd->parameters()) n += is_context_parameter(p) ? 0 : 1;
  return n;
}

const Annotation* find(const std::vector<Annotation>& notes, llvm::StringRef key) {
  for (const auto& a : notes)
    if (a.key == key) return &a;
  return nullptr;
}

bool is_kind_marker(llvm::StringRef key) { return key == "ptc.tool" || key == "ptc.resource" || key == "ptc.prompt"; }

/// The PTC_TOOL, PTC_RESOURCE or PTC_PROMPT that makes the function something generated code registers.
const Annotation* kind_marker(const std::vector<Annotation>& notes) {
  for (const auto& a : notes)
    if (is_kind_marker(a.key)) return &a;
  return nullptr;
}

bool is_identifier(llvm::StringRef name) {
  if (name.empty() || !(std::isalpha(static_cast<unsigned char>(name[0])) || name[0] == '_')) return false;
  return std::all_of(name.begin(), name.end(),
                     [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; });
}

/// std::vector<std::string>: the suggestions a completer returns.
bool returns_strings(QualType type) {
  if (!TypeMapper::is_record(type, "std::vector")) return false;
  const auto* spec = llvm::dyn_cast<ClassTemplateSpecializationDecl>(type.getCanonicalType()->getAsCXXRecordDecl());
  if (!spec || spec->getTemplateArgs().size() == 0) return false;
  const TemplateArgument& element = spec->getTemplateArgs()[0];
  return element.getKind() == TemplateArgument::Type && TypeMapper::is_record(element.getAsType(), "std::basic_string");
}

/// Whether a completer takes the whole `const ptc::CompletionRequest&` (true) or the text typed so far as
/// a string or string_view (false); nullopt when it cannot be called with either.
std::optional<bool> completer_input(const FunctionDecl* f) {
  if (f->getNumParams() != 1 || f->isDeleted() || f->isVariadic() || !returns_strings(f->getReturnType()))
    return std::nullopt;
  QualType type = f->getParamDecl(0)->getType();
  if (const auto* ref = type->getAs<ReferenceType>()) {
    if (llvm::isa<RValueReferenceType>(ref) || !ref->getPointeeType().isConstQualified()) return std::nullopt;
    type = ref->getPointeeType();
  }
  if (TypeMapper::is_record(type, "ptc::CompletionRequest")) return true;
  if (TypeMapper::is_record(type, "std::basic_string") || TypeMapper::is_record(type, "std::basic_string_view"))
    return false;
  return std::nullopt;
}

/// "tool 'search'", "resource 'issue'", "prompt 'triage'".
std::string subject(const model::Tool& tool) {
  return std::string(model::kind_name(tool.kind)) + " '" + tool.name + "'";
}

/// The PTC_TOOL functions spelled in the main file, in declaration order.
class Finder : public RecursiveASTVisitor<Finder> {
 public:
  Finder(Reporter& reporter, const std::set<std::string>& listed) : reporter_(reporter), listed_(listed) {}

  bool TraverseDecl(Decl* d) {
    // Only what this header spells counts; declarations of headers it includes are theirs, and are
    // only looked at to tell about tools no run would generate.
    if (d && !llvm::isa<TranslationUnitDecl>(d) && !reporter_.in_main_file(d->getLocation())) {
      elsewhere(d);
      return true;
    }
    return RecursiveASTVisitor::TraverseDecl(d);
  }

  bool VisitFunctionDecl(FunctionDecl* fd) {
    auto notes = annotations(fd, reporter_.ast().getSourceManager());
    // VisitDecl reports PTC_ANSWER here.
    std::erase_if(notes, [](const Annotation& a) { return a.key == "ptc.answer"; });
    if (notes.empty()) return true;
    if (!kind_marker(notes)) {
      reporter_.warning(RuleId::MisplacedAnnotation, notes.front().loc,
                        macro_name(notes.front().key) + " on '" + fd->getNameAsString() +
                            "' has no effect: the function is not marked PTC_TOOL",
                        "add PTC_TOOL() to make it a tool");
      return true;
    }
    tools.push_back(fd);
    return true;
  }

  // PTC_ANSWER anywhere in the header: kept on a struct or enum, an error on anything else. Fields,
  // parameters and enumerators are reported here, whether or not a tool reaches them (the readers of
  // their annotations leave PTC_ANSWER in this header to this visitor).
  bool VisitDecl(Decl* d) {
    if (d->isImplicit()) return true;
    const auto notes = annotations(d, reporter_.ast().getSourceManager());
    const auto marker =
        std::find_if(notes.begin(), notes.end(), [](const Annotation& a) { return a.key == "ptc.answer"; });
    if (marker == notes.end()) return true;
    if (llvm::isa<CXXRecordDecl, EnumDecl>(d)) {
      answer(llvm::cast<TagDecl>(d), marker->loc);
      return true;
    }
    const auto* named = llvm::dyn_cast<NamedDecl>(d);
    const std::string what = named && !named->getName().empty() ? " '" + named->getNameAsString() + "'" : "";
    reporter_.error(RuleId::InvalidAnswerType, marker->loc,
                    "PTC_ANSWER on " + declaration_kind(d) + what + ": only a struct or an enum is an answer type",
                    "put it on the struct or enum the agent answers with: struct PTC_ANSWER Verdict { ... };");
    return true;
  }

  std::vector<FunctionDecl*> tools;
  /// PTC_ANSWER structs and enums (their definitions where there is one), in declaration order.
  std::vector<const TagDecl*> answers;

 private:
  static std::string declaration_kind(const Decl* d) {
    if (llvm::isa<FieldDecl>(d)) return "field";
    if (llvm::isa<ParmVarDecl>(d)) return "parameter";
    if (llvm::isa<EnumConstantDecl>(d)) return "enumerator";
    if (llvm::isa<FunctionDecl>(d)) return "function";
    if (llvm::isa<VarDecl>(d)) return "variable";
    if (llvm::isa<TypedefNameDecl>(d)) return "alias";
    if (llvm::isa<NamespaceDecl>(d)) return "namespace";
    return "a declaration";
  }

  void answer(const TagDecl* tag, SourceLocation loc) {
    const std::string name = "PTC_ANSWER on '" + qualified_name(tag) + "'";
    if (tag->isTemplated() || llvm::isa<ClassTemplatePartialSpecializationDecl>(tag)) {
      reporter_.error(RuleId::InvalidAnswerType, loc, name + ": a template is no one type to answer with",
                      "mark a struct that holds the instance the agent answers with, e.g. "
                      "struct PTC_ANSWER Answer { Page<Item> page; };");
      return;
    }
    if (!tag->getIdentifier() && !tag->getTypedefNameForAnonDecl()) {
      reporter_.error(RuleId::InvalidAnswerType, loc,
                      "PTC_ANSWER on an unnamed " + std::string(tag->getKindName()) +
                          ": generated code has no name to use",
                      "give it a name");
      return;
    }
    // Once per type, when the marker is on a forward declaration and on the definition too.
    const TagDecl* canonical = tag->getCanonicalDecl();
    if (std::any_of(answers.begin(), answers.end(),
                    [&](const TagDecl* a) { return a->getCanonicalDecl() == canonical; }))
      return;
    const TagDecl* definition = tag->getDefinition();
    answers.push_back(definition ? definition : tag);
  }

  // A declaration of an included header: a PTC_TOOL or PTC_ANSWER there is generated only if that header
  // is listed too.
  void elsewhere(Decl* d) {
    const SourceManager& sm = reporter_.ast().getSourceManager();
    const SourceLocation loc = sm.getExpansionLoc(d->getLocation());
    if (loc.isInvalid() || sm.isInSystemHeader(loc)) return;
    if (const auto* tag = llvm::dyn_cast<TagDecl>(d); tag && find(annotations(tag, sm), "ptc.answer"))
      unlisted(loc, "PTC_ANSWER on '" + qualified_name(tag) + "'");
    if (llvm::isa<NamespaceDecl, LinkageSpecDecl, CXXRecordDecl>(d)) {
      for (Decl* child : llvm::cast<DeclContext>(d)->decls()) elsewhere(child);
      return;
    }
    const auto* fd = llvm::dyn_cast<FunctionDecl>(d);
    if (!fd) return;
    const auto notes = annotations(fd, sm);
    if (const Annotation* marker = kind_marker(notes))
      unlisted(loc, macro_name(marker->key) + " on '" + fd->getNameAsString() + "'");
  }

  // Once per header.
  void unlisted(SourceLocation loc, const std::string& what) {
    const SourceManager& sm = reporter_.ast().getSourceManager();
    const auto entry = sm.getFileEntryRefForID(sm.getFileID(loc));
    if (!entry) return;
    const std::string file = entry->getFileEntry().tryGetRealPathName().str();
    if (file.empty() || listed_.count(file) || !warned_.insert(file).second) return;
    reporter_.warning(RuleId::UnlistedHeader, loc, what + " is not generated: its header is not listed",
                      "add it to ptc_generate's HEADERS (or to ptc-gen's command line)");
  }

  Reporter& reporter_;
  const std::set<std::string>& listed_;
  std::set<std::string> warned_;
};

class ToolBuilder {
 public:
  ToolBuilder(Reporter& reporter, model::HeaderModel& header, unsigned max_depth)
      : reporter_(reporter), header_(header), types_(reporter, header, max_depth) {}

  void run(const std::vector<FunctionDecl*>& found, const std::vector<const TagDecl*>& answers);

 private:
  bool usable(const FunctionDecl* fd);
  std::vector<const FunctionDecl*> choose_overloads(const std::vector<FunctionDecl*>& found);
  std::optional<model::Tool> build(const FunctionDecl* fd);
  bool kind(const FunctionDecl* fd, const std::vector<Annotation>& notes, model::Tool& tool);
  bool resource_uri(const Annotation& a, const FunctionDecl* fd, model::Tool& tool);
  bool name_and_description(const FunctionDecl* fd, const std::vector<Annotation>& notes, model::Tool& tool,
                            DocComment& doc);
  bool parameters(const FunctionDecl* fd, const DocComment& doc, model::Tool& tool);
  bool context_parameter(const ParmVarDecl* p, unsigned index, const std::string& where, model::Tool& tool);
  std::optional<model::Param> parameter(const ParmVarDecl* p, unsigned index, const std::string& where,
                                        const DocComment& doc, const model::Tool& tool);
  void warn_unknown_params(const FunctionDecl* fd, const DocComment& doc, const std::set<std::string>& documented,
                           const model::Tool& tool);
  bool result(const FunctionDecl* fd, model::Tool& tool);
  bool function_annotations(const std::vector<Annotation>& notes, model::Tool& tool);
  bool example(const Annotation& a, model::Tool& tool);
  bool title(const Annotation& a, model::Tool& tool);
  bool hint(const Annotation& a, model::Tool& tool);
  bool mime_type(const Annotation& a, model::Tool& tool);
  bool served(const FunctionDecl* fd, const std::vector<Annotation>& notes, model::Tool& tool);
  bool string_sent_parameters(const FunctionDecl* fd, const model::Tool& tool);
  bool uri_variables(const FunctionDecl* fd, const model::Tool& tool);
  bool prompt_result(const FunctionDecl* fd, const model::Tool& tool);
  bool is_message(const model::Type& type) const;
  bool completer(const Annotation& a, const FunctionDecl* fd, model::Tool& tool);
  std::optional<model::Completer> completion_function(const std::string& name, const FunctionDecl* fd,
                                                      SourceLocation loc, const model::Tool& tool);
  void describe_units(const FunctionDecl* fd, model::Tool& tool);
  void taken(const model::Tool& tool, const FunctionDecl* fd, const FunctionDecl* other);
  void answer(const TagDecl* tag);

  Reporter& reporter_;
  model::HeaderModel& header_;
  TypeMapper types_;
  /// Where the PTC_SIGNATURE of the tool being built is written.
  SourceLocation signature_loc_;
  /// Where its PTC_TOOL, PTC_RESOURCE or PTC_PROMPT is written.
  SourceLocation marker_loc_;
};

bool ToolBuilder::usable(const FunctionDecl* fd) {
  const std::string fn = "'" + fd->getQualifiedNameAsString() + "'";
  const auto reject = [&](const std::string& why, llvm::StringRef recommendation) {
    reporter_.error(RuleId::UnsupportedFunction, fd->getLocation(), "PTC_TOOL on " + fn + ": " + why, recommendation);
    return false;
  };
  if (fd->isTemplated())
    return reject("templates cannot be tools (there is no one signature to give the model)",
                  "declare a non-template function that calls the template with concrete types");
  if (fd->getParentFunctionOrMethod())
    return reject("a local function cannot be called by generated code", "declare it at namespace or class scope");
  if (fd->isDeleted()) return reject("the function is deleted", "remove PTC_TOOL");
  if (fd->isVariadic())
    return reject("C variadic arguments cannot be described to the model", "take a std::vector<T> instead");
  if (fd->isOverloadedOperator() || llvm::isa<CXXConstructorDecl>(fd) || llvm::isa<CXXDestructorDecl>(fd) ||
      llvm::isa<CXXConversionDecl>(fd))
    return reject("only named functions can be tools", "declare a named function that does the work");
  if (const auto* md = llvm::dyn_cast<CXXMethodDecl>(fd)) {
    if (md->isStatic())
      return reject("static member functions cannot be tools",
                    "make it a free function, or a non-static member function of the object it works on");
    if (md->getParent()->isLambda() || md->getParent()->getParentFunctionOrMethod())
      return reject("members of local classes cannot be called by generated code",
                    "declare the class at namespace scope");
    if (md->getParent()->isUnion()) return reject("members of unions cannot be tools", "use a struct or class");
  }
  return true;
}

std::vector<const FunctionDecl*> ToolBuilder::choose_overloads(const std::vector<FunctionDecl*>& found) {
  // One overload set per scope and name, in order of first declaration; redeclarations count once.
  std::vector<std::vector<const FunctionDecl*>> groups;
  std::map<std::pair<const DeclContext*, std::string>, std::size_t> index;
  std::set<const FunctionDecl*> seen;
  for (const FunctionDecl* fd : found) {
    if (!seen.insert(fd->getCanonicalDecl()).second) continue;
    const auto key =
        std::make_pair(fd->getDeclContext()->getRedeclContext()->getPrimaryContext(), fd->getNameAsString());
    auto [it, added] = index.emplace(key, groups.size());
    if (added) groups.emplace_back();
    groups[it->second].push_back(fd);
  }

  std::vector<const FunctionDecl*> chosen;
  const SourceManager& sm = reporter_.ast().getSourceManager();
  for (const auto& group : groups) {
    const FunctionDecl* with_signature = nullptr;
    bool ambiguous = false;
    for (const FunctionDecl* fd : group) {
      if (!find(annotations(fd, sm), "ptc.signature")) continue;
      if (with_signature) {
        reporter_.error(RuleId::AmbiguousOverload, fd->getLocation(),
                        "more than one overload of '" + fd->getQualifiedNameAsString() + "' has PTC_SIGNATURE",
                        "keep PTC_SIGNATURE on the one overload the tool exposes");
        ambiguous = true;
      }
      with_signature = fd;
    }
    if (ambiguous) continue;
    if (with_signature) {
      chosen.push_back(with_signature);
      continue;
    }
    // As the spec resolves several @spec clauses: the highest arity is the most general.
    const FunctionDecl* best = group.front();
    for (const FunctionDecl* fd : group)
      if (arity(fd) > arity(best)) best = fd;
    for (const FunctionDecl* fd : group) {
      if (fd != best && arity(fd) == arity(best)) {
        reporter_.error(RuleId::AmbiguousOverload, fd->getLocation(),
                        "overloads of '" + fd->getQualifiedNameAsString() + "' marked PTC_TOOL both take " +
                            std::to_string(arity(fd)) + " parameters, so neither is the most general",
                        "add PTC_SIGNATURE(\"...\") to the overload the tool exposes");
        ambiguous = true;
        break;
      }
    }
    if (!ambiguous) chosen.push_back(best);
  }
  return chosen;
}

bool ToolBuilder::name_and_description(const FunctionDecl* fd, const std::vector<Annotation>& notes, model::Tool& tool,
                                       DocComment& doc) {
  bool ok = true;
  const Annotation* tool_note = kind_marker(notes);
  const std::string kind = model::kind_name(tool.kind);
  // PTC_RESOURCE's argument is its URI (kind() reads it); PTC_TOOL's and PTC_PROMPT's is the name.
  const auto tool_args = tool.kind == model::ToolKind::Resource ? std::vector<const Expr*>{} : tool_note->args();
  tool.name = fd->getNameAsString();
  std::optional<std::string> given;
  if (!tool_args.empty()) {
    given = tool_args.size() == 1 ? string_argument(tool_args[0]) : std::nullopt;
    if (!given) {
      reporter_.error(RuleId::InvalidAnnotation, tool_note->loc,
                      macro_name(tool_note->key) + " takes at most one argument, the " + kind +
                          "'s name as a string literal");
      return false;
    }
  }
  if (const Annotation* name_note = find(notes, "ptc.name")) {
    const auto args = name_note->args();
    auto name = args.size() == 1 ? string_argument(args[0]) : std::nullopt;
    if (!name) {
      reporter_.error(RuleId::InvalidAnnotation, name_note->loc,
                      "PTC_NAME takes the " + kind + "'s name as a string literal");
      return false;
    }
    if (given && *given != *name) {
      reporter_.error(RuleId::InvalidName, name_note->loc,
                      "the " + kind + " is named twice, \"" + *given + "\" by " + macro_name(tool_note->key) +
                          " and \"" + *name + "\" by PTC_NAME",
                      "name it once");
      return false;
    }
    given = name;
  }
  if (given) tool.name = *given;
  if (!ptc::is_valid_tool_name(tool.name)) {
    reporter_.error(RuleId::InvalidName, given ? tool_note->loc : fd->getLocation(),
                    kind + " name '" + tool.name + "' must be 1-64 characters of a-z, 0-9, '_' and '-'",
                    "name the " + kind + " with " + (tool.kind == model::ToolKind::Tool ? "PTC_TOOL" : "PTC_NAME") +
                        "(\"snake_case_name\")");
    ok = false;
  }

  if (const RawComment* raw = reporter_.doc_comment(fd)) doc = parse_doc_comment(reporter_.comment_text(raw));
  if (const Annotation* d = find(notes, "ptc.description")) {
    const auto args = d->args();
    auto text = args.size() == 1 ? string_argument(args[0]) : std::nullopt;
    if (!text) {
      reporter_.error(RuleId::InvalidAnnotation, d->loc, "PTC_DESCRIPTION takes the description as a string literal");
      return false;
    }
    tool.description = collapse_whitespace(*text);
  } else {
    tool.description = doc.description;
  }
  if (tool.description.empty()) {
    reporter_.error(RuleId::MissingDescription, fd->getLocation(), subject(tool) + " has no description",
                    "document it with a /// comment, or give it PTC_DESCRIPTION(\"...\")");
    ok = false;
  } else if (!ptc::is_valid_tool_description(tool.description)) {
    const bool ascii = std::all_of(tool.description.begin(), tool.description.end(),
                                   [](char c) { return static_cast<unsigned char>(c) < 0x80; });
    reporter_.error(RuleId::InvalidDescription, fd->getLocation(),
                    "the description of " + subject(tool) + " must be 1-200 ASCII characters (it has " +
                        std::to_string(tool.description.size()) + (ascii ? "" : ", not all ASCII") + ")",
                    "shorten it, or give the model a shorter text with PTC_DESCRIPTION(\"...\")");
    ok = false;
  }
  return ok;
}

bool ToolBuilder::parameters(const FunctionDecl* fd, const DocComment& doc, model::Tool& tool) {
  bool ok = true;
  std::set<std::string> documented;
  for (unsigned i = 0; i < fd->getNumParams(); ++i) {
    const ParmVarDecl* p = fd->getParamDecl(i);
    const std::string where = "parameter '" + p->getNameAsString() + "' of " + subject(tool);
    if (is_context_parameter(p)) {
      ok = context_parameter(p, i, where, tool) && ok;
      continue;
    }
    auto param = parameter(p, i, where, doc, tool);
    if (!param) {
      ok = false;
      continue;
    }
    documented.insert(param->name);
    tool.params.push_back(std::move(*param));
  }
  if (ok) warn_unknown_params(fd, doc, documented, tool);
  return ok;
}

/// The ptc::ToolContext& the generated code passes in: once, by non-const reference.
bool ToolBuilder::context_parameter(const ParmVarDecl* p, unsigned index, const std::string& where, model::Tool& tool) {
  const QualType type = p->getType();
  const auto* ref = type->getAs<LValueReferenceType>();
  if (!ref || ref->getPointeeType().isConstQualified()) {
    reporter_.error(RuleId::InvalidParameter, p->getLocation(),
                    where + " has type " + reporter_.quote(type) + ": the context is injected by reference",
                    "take ptc::ToolContext&");
    return false;
  }
  if (tool.context_index) {
    reporter_.error(RuleId::InvalidParameter, p->getLocation(), subject(tool) + " takes ptc::ToolContext& twice",
                    "take it once");
    return false;
  }
  tool.context_index = index;
  return true;
}

/// A parameter the model sends: named, taken by value or const reference, of a type that maps, with
/// its annotations and default argument.
std::optional<model::Param> ToolBuilder::parameter(const ParmVarDecl* p, unsigned index, const std::string& where,
                                                   const DocComment& doc, const model::Tool& tool) {
  if (p->getName().empty()) {
    reporter_.error(RuleId::InvalidParameter, p->getLocation(),
                    "parameter " + std::to_string(index + 1) + " of " + subject(tool) + " has no name",
                    "name it: the name is the key of the argument in the model's JSON");
    return std::nullopt;
  }
  QualType type = p->getType();
  if (const auto* ref = type->getAs<ReferenceType>()) {
    if (llvm::isa<RValueReferenceType>(ref) || !ref->getPointeeType().isConstQualified()) {
      reporter_.error(RuleId::InvalidParameter, p->getLocation(),
                      where + " has type " + reporter_.quote(type) +
                          ": a tool's arguments are decoded from JSON, so nothing can be written back through a "
                          "reference",
                      "take the value or a const reference, and return what the tool produces");
      return std::nullopt;
    }
    type = ref->getPointeeType();
  }
  Subject subject{where, "", p->getLocation(), p->getType()};
  auto mapped = types_.map(type, subject, /*parameter=*/true);
  if (!mapped) return std::nullopt;
  ValueAnnotations notes = value_annotations(p, *mapped, where, /*is_field=*/false, reporter_);
  DefaultArgument def = default_argument(p, *mapped, where, reporter_);
  if (!notes.ok || !def.ok) return std::nullopt;
  model::Param param;
  param.name = p->getNameAsString();
  param.type = std::move(*mapped);
  for (const auto& [name, text] : doc.params)
    if (name == param.name) param.doc = text;
  if (notes.doc) param.doc = *notes.doc;
  param.doc = model::with_unit(param.doc, model::duration_unit(param.type));
  param.constraints = std::move(notes.constraints);
  param.default_value = std::move(def.value);
  param.location = reporter_.location(p->getLocation());
  return param;
}

void ToolBuilder::warn_unknown_params(const FunctionDecl* fd, const DocComment& doc,
                                      const std::set<std::string>& documented, const model::Tool& tool) {
  for (const auto& [name, text] : doc.params) {
    if (documented.count(name)) continue;
    const RawComment* raw = reporter_.doc_comment(fd);
    reporter_.warning(RuleId::UnknownParamDoc, raw ? raw->getBeginLoc() : fd->getLocation(),
                      "\\param '" + name + "' names no parameter of " + subject(tool),
                      "fix the name, or remove the \\param line");
  }
}

bool ToolBuilder::result(const FunctionDecl* fd, model::Tool& tool) {
  const std::string where = "result of " + subject(tool);
  QualType type = fd->getReturnType();
  const SourceLocation loc =
      fd->getReturnTypeSourceRange().isValid() ? fd->getReturnTypeSourceRange().getBegin() : fd->getLocation();
  if (type->isVoidType()) {
    tool.return_style = model::ReturnStyle::Void;
    tool.result.kind = model::TypeKind::Void;
    tool.result.cpp = "void";
    return true;
  }
  if (const auto* ref = type->getAs<ReferenceType>()) {
    if (llvm::isa<RValueReferenceType>(ref) || !ref->getPointeeType().isConstQualified()) {
      reporter_.error(RuleId::InvalidResult, loc,
                      where + " has type " + reporter_.quote(type) + ": the model cannot hold a reference",
                      "return the value (or a const reference)");
      return false;
    }
    type = ref->getPointeeType();
  }
  Subject subject{where, "", loc, fd->getReturnType()};
  if (TypeMapper::is_record(type, "ptc::ToolResult")) {
    const auto* spec = llvm::cast<ClassTemplateSpecializationDecl>(type.getCanonicalType()->getAsCXXRecordDecl());
    QualType value = spec->getTemplateArgs()[0].getAsType();
    // Keep the written argument's sugar (std::string, std::chrono::seconds) when there is one.
    if (const auto* tst = type->getAs<TemplateSpecializationType>();
        tst && !tst->template_arguments().empty() && tst->template_arguments()[0].getKind() == TemplateArgument::Type)
      value = tst->template_arguments()[0].getAsType();
    subject.declared = value;
    auto mapped = types_.map(value, subject, false);
    if (!mapped) return false;
    tool.return_style = model::ReturnStyle::ToolResult;
    tool.result = std::move(*mapped);
    return true;
  }
  auto mapped = types_.map(type, subject, false);
  if (!mapped) return false;
  tool.return_style =
      mapped->kind == model::TypeKind::Expected ? model::ReturnStyle::Expected : model::ReturnStyle::Value;
  tool.result = std::move(*mapped);
  return true;
}

bool ToolBuilder::function_annotations(const std::vector<Annotation>& notes, model::Tool& tool) {
  bool ok = true;
  for (const Annotation& a : notes) {
    // The visitor reports PTC_ANSWER on a function; kind() reads the kind markers, served() PTC_COMPLETE.
    if (a.key == "ptc.name" || a.key == "ptc.description" || a.key == "ptc.answer" || is_kind_marker(a.key) ||
        a.key == "ptc.complete")
      continue;
    if (tool.kind != model::ToolKind::Tool &&
        (a.key == "ptc.example" || a.key == "ptc.read_only" || a.key == "ptc.destructive" || a.key == "ptc.additive" ||
         a.key == "ptc.idempotent" || a.key == "ptc.open_world")) {
      reporter_.error(RuleId::MisplacedAnnotation, a.loc, macro_name(a.key) + " on " + subject(tool) + " has no effect",
                      a.key == "ptc.example"
                          ? "examples show a model how to call a tool; remove it"
                          : "resources and prompts are read as calls that change nothing; remove it");
      ok = false;
      continue;
    }
    if (a.key == "ptc.mime_type") {
      ok = mime_type(a, tool) && ok;
    } else if (a.key == "ptc.signature") {
      const auto args = a.args();
      auto text = args.size() == 1 ? string_argument(args[0]) : std::nullopt;
      if (!text) {
        reporter_.error(RuleId::InvalidAnnotation, a.loc, "PTC_SIGNATURE takes the signature as a string literal");
        ok = false;
        continue;
      }
      tool.explicit_signature = *text;
      signature_loc_ = a.loc;
    } else if (a.key == "ptc.example") {
      ok = example(a, tool) && ok;
    } else if (a.key == "ptc.title") {
      ok = title(a, tool) && ok;
    } else if (a.key == "ptc.read_only" || a.key == "ptc.destructive" || a.key == "ptc.additive" ||
               a.key == "ptc.idempotent" || a.key == "ptc.open_world") {
      ok = hint(a, tool) && ok;
    } else if (a.key == "ptc.doc" || a.key == "ptc.range" || a.key == "ptc.pattern" || a.key == "ptc.firewall") {
      reporter_.error(RuleId::MisplacedAnnotation, a.loc,
                      macro_name(a.key) + " on tool '" + tool.name + "' applies to parameters and fields",
                      "put it before the parameter it describes");
      ok = false;
    } else {
      reporter_.error(RuleId::InvalidAnnotation, a.loc, "unknown annotation \"" + a.key + "\"",
                      "use the PTC_* macros of <ptc/annotate.hpp>");
      ok = false;
    }
  }
  return ok;
}

/// PTC_EXAMPLE(arguments, result): both JSON, the arguments an object.
bool ToolBuilder::example(const Annotation& a, model::Tool& tool) {
  const auto args = a.args();
  auto input = args.size() == 2 ? string_argument(args[0]) : std::nullopt;
  auto output = args.size() == 2 ? string_argument(args[1]) : std::nullopt;
  if (!input || !output) {
    reporter_.error(RuleId::InvalidExample, a.loc,
                    "PTC_EXAMPLE takes two string literals, the arguments and the result as JSON");
    return false;
  }
  const auto in = nlohmann::json::parse(*input, nullptr, /*allow_exceptions=*/false);
  const auto out = nlohmann::json::parse(*output, nullptr, /*allow_exceptions=*/false);
  if (in.is_discarded() || !in.is_object()) {
    reporter_.error(RuleId::InvalidExample, a.loc,
                    "the arguments of an example of tool '" + tool.name + "' must be a JSON object, not '" + *input +
                        "'",
                    "write them as JSON, e.g. R\"({\"query\": \"text\"})\"");
    return false;
  }
  if (out.is_discarded()) {
    reporter_.error(RuleId::InvalidExample, a.loc,
                    "the result of an example of tool '" + tool.name + "' is not JSON: '" + *output + "'",
                    "write it as JSON: strings in double quotes, e.g. R\"(\"text\")\"");
    return false;
  }
  tool.examples.push_back({*input, *output, reporter_.location(a.loc)});
  return true;
}

bool ToolBuilder::title(const Annotation& a, model::Tool& tool) {
  const auto args = a.args();
  auto text = args.size() == 1 ? string_argument(args[0]) : std::nullopt;
  if (!text) {
    reporter_.error(RuleId::InvalidAnnotation, a.loc, "PTC_TITLE takes the tool's display title as a string literal");
    return false;
  }
  tool.title = collapse_whitespace(*text);
  if (!ptc::is_valid_tool_title(tool.title)) {
    reporter_.error(RuleId::InvalidAnnotation, a.loc,
                    "the title of tool '" + tool.name + "' must be 1-" + std::to_string(ptc::kMaxToolTitle) +
                        " printable ASCII characters",
                    "give people a short display name, e.g. PTC_TITLE(\"Search issues\")");
    return false;
  }
  return true;
}

/// PTC_READ_ONLY, PTC_DESTRUCTIVE, PTC_ADDITIVE, PTC_IDEMPOTENT, PTC_OPEN_WORLD: what the tool's
/// effects are.
bool ToolBuilder::hint(const Annotation& a, model::Tool& tool) {
  auto& h = tool.hints;
  h.stated = true;
  (a.key == "ptc.read_only"     ? h.read_only
   : a.key == "ptc.destructive" ? h.destructive
   : a.key == "ptc.additive"    ? h.additive
   : a.key == "ptc.idempotent"  ? h.idempotent
                                : h.open_world) = true;
  const auto contradiction = [&](const char* first, const char* second, const char* why) {
    reporter_.error(RuleId::ConflictingMarkers, a.loc,
                    "tool '" + tool.name + "' is marked both " + first + " and " + second, why);
    return false;
  };
  if (ptc::hints_contradict(h.read_only, h.destructive))
    return contradiction("PTC_READ_ONLY", "PTC_DESTRUCTIVE", "a tool that changes nothing destroys nothing: keep one");
  if (a.key == "ptc.additive" || a.key == "ptc.read_only" || a.key == "ptc.destructive") {
    if (h.additive && h.read_only)
      return contradiction("PTC_READ_ONLY", "PTC_ADDITIVE", "a tool that changes nothing adds nothing: keep one");
    if (h.additive && h.destructive)
      return contradiction("PTC_ADDITIVE", "PTC_DESTRUCTIVE",
                           "PTC_ADDITIVE says the tool deletes and overwrites nothing: keep one");
  }
  return true;
}

/// PTC_TOOL, PTC_RESOURCE or PTC_PROMPT: which the function is. One function is registered once, so
/// it is one of them; a second role is a second function calling the first.
bool ToolBuilder::kind(const FunctionDecl* fd, const std::vector<Annotation>& notes, model::Tool& tool) {
  const Annotation* marker = kind_marker(notes);
  for (const Annotation& a : notes) {
    if (!is_kind_marker(a.key) || a.key == marker->key) continue;
    reporter_.error(RuleId::ConflictingMarkers, a.loc,
                    "'" + fd->getNameAsString() + "' is marked both " + macro_name(marker->key) + " and " +
                        macro_name(a.key) + ": a function is one tool, resource or prompt",
                    "declare another function that calls this one for the other role");
    return false;
  }
  marker_loc_ = marker->loc;
  tool.kind = marker->key == "ptc.resource" ? model::ToolKind::Resource
              : marker->key == "ptc.prompt" ? model::ToolKind::Prompt
                                            : model::ToolKind::Tool;
  return tool.kind != model::ToolKind::Resource || resource_uri(*marker, fd, tool);
}

/// PTC_RESOURCE("uri"): a URI, or a template the runtime's UriTemplate takes.
bool ToolBuilder::resource_uri(const Annotation& a, const FunctionDecl* fd, model::Tool& tool) {
  const auto args = a.args();
  auto uri = args.size() == 1 ? string_argument(args[0]) : std::nullopt;
  if (!uri) {
    reporter_.error(RuleId::InvalidResource, a.loc,
                    "PTC_RESOURCE takes the resource's URI or URI template as a string literal",
                    "write it as PTC_RESOURCE(\"tracker://issues/{key}\")");
    return false;
  }
  tool.uri = *uri;
  if (auto parsed = ptc::UriTemplate::parse(*uri); !parsed) {
    reporter_.error(RuleId::InvalidResource, a.loc,
                    "PTC_RESOURCE on '" + fd->getNameAsString() + "': '" + *uri +
                        "' is not a URI template: " + parsed.error().to_string(),
                    "write the URI with each variable in braces, e.g. \"tracker://issues/{key}\"");
    return false;
  }
  return true;
}

/// PTC_MIME_TYPE("type/subtype"), on resources only: what clients are told the contents are.
bool ToolBuilder::mime_type(const Annotation& a, model::Tool& tool) {
  if (tool.kind != model::ToolKind::Resource) {
    reporter_.error(RuleId::MisplacedAnnotation, a.loc,
                    "PTC_MIME_TYPE on " + subject(tool) + " has no effect: only resources have contents",
                    "remove it, or make the function a PTC_RESOURCE");
    return false;
  }
  const auto args = a.args();
  auto type = args.size() == 1 ? string_argument(args[0]) : std::nullopt;
  const auto printable = [](char c) { return c > ' ' && c < 0x7f; };
  const std::string essence = type ? type->substr(0, type->find(';')) : "";
  const auto slash = essence.find('/');
  if (!type) {
    reporter_.error(RuleId::InvalidResource, a.loc, "PTC_MIME_TYPE takes a MIME type as a string literal",
                    "e.g. PTC_MIME_TYPE(\"text/markdown\")");
    return false;
  }
  if (slash == 0 || slash == std::string::npos || slash + 1 == essence.size() ||
      !std::all_of(essence.begin(), essence.end(), printable)) {
    reporter_.error(RuleId::InvalidResource, a.loc,
                    "PTC_MIME_TYPE on " + subject(tool) + ": '" + *type + "' is not a MIME type",
                    "write it as type/subtype, e.g. PTC_MIME_TYPE(\"text/markdown\")");
    return false;
  }
  tool.mime_type = *type;
  return true;
}

/// What resources and prompts need beyond a tool's rules, once the parameters and the result are read.
bool ToolBuilder::served(const FunctionDecl* fd, const std::vector<Annotation>& notes, model::Tool& tool) {
  bool ok = true;
  if (tool.kind == model::ToolKind::Resource) ok = uri_variables(fd, tool);
  if (tool.kind == model::ToolKind::Prompt) ok = prompt_result(fd, tool);
  if (tool.kind == model::ToolKind::Resource && tool.return_style == model::ReturnStyle::Void) {
    reporter_.error(RuleId::InvalidResult, fd->getLocation(),
                    subject(tool) + " returns void: a resource's reader returns what is read",
                    "return the contents: a std::string, or a value to read as JSON");
    ok = false;
  }
  if (tool.kind != model::ToolKind::Tool) ok = string_sent_parameters(fd, tool) && ok;
  for (const Annotation& a : notes)
    if (a.key == "ptc.complete") ok = completer(a, fd, tool) && ok;
  return ok;
}

namespace {

/// Whether the lenient decoder reads a value of `type` from a string: a number, a boolean, an
/// enumerator, a time, or the string itself.
bool reads_from_string(const model::Type& type) {
  switch (type.kind) {
    case model::TypeKind::String:
    case model::TypeKind::StringView:
    case model::TypeKind::Bool:
    case model::TypeKind::Integer:
    case model::TypeKind::Float:
    case model::TypeKind::Enum:
    case model::TypeKind::TimePoint:
    case model::TypeKind::Date:
    case model::TypeKind::Duration: return true;
    case model::TypeKind::Optional: return !type.args.empty() && reads_from_string(type.args[0]);
    default: return false;
  }
}

}  // namespace

/// MCP clients send a prompt's arguments, and a URI fills a template's variables, as strings: a
/// parameter that no string decodes to (a struct, a list) could never be given.
bool ToolBuilder::string_sent_parameters(const FunctionDecl* fd, const model::Tool& tool) {
  bool ok = true;
  const char* given = tool.kind == model::ToolKind::Prompt ? "clients send a prompt's arguments as strings"
                                                           : "a URI gives a template's variables as strings";
  for (const auto& param : tool.params) {
    if (reads_from_string(param.type)) continue;
    const ParmVarDecl* decl = nullptr;
    for (unsigned i = 0; i < fd->getNumParams(); ++i)
      if (fd->getParamDecl(i)->getNameAsString() == param.name) decl = fd->getParamDecl(i);
    reporter_.error(tool.kind == model::ToolKind::Prompt ? RuleId::InvalidPrompt : RuleId::InvalidResource,
                    decl ? decl->getLocation() : fd->getLocation(),
                    "parameter '" + param.name + "' of " + subject(tool) + " is " +
                        (decl ? decl->getType().getAsString() : param.type.cpp) + ": " + given +
                        ", and no string decodes to it",
                    "take a string, number, bool or enum, and read anything richer from it in the function");
    ok = false;
  }
  return ok;
}

/// A template's variables are filled from the URI and nothing else fills a reader's parameters, so they
/// must be the same names (ptc::Resource refuses anything else when it is built).
bool ToolBuilder::uri_variables(const FunctionDecl* fd, const model::Tool& tool) {
  // PTC_SIGNATURE may rename parameters: the emitter builds that reader's ptc::Resource, which checks.
  if (tool.explicit_signature) return true;
  auto parsed = ptc::UriTemplate::parse(tool.uri);
  if (!parsed) return false;  // resource_uri() reported it
  // Not value(): it may throw, and this file builds without exceptions.
  const ptc::UriTemplate uri = std::move(parsed).value_or(ptc::UriTemplate());
  const auto& variables = uri.variables();
  bool ok = true;
  for (const auto& variable : variables) {
    if (std::any_of(tool.params.begin(), tool.params.end(), [&](const model::Param& p) { return p.name == variable; }))
      continue;
    reporter_.error(RuleId::InvalidResource, marker_loc_,
                    "the URI template '" + tool.uri + "' of " + subject(tool) + " has the variable '" + variable +
                        "', which is not one of its parameters",
                    "name each variable after a parameter of the function");
    ok = false;
  }
  for (const ParmVarDecl* p : fd->parameters()) {
    if (is_context_parameter(p) || std::find(variables.begin(), variables.end(), p->getName()) != variables.end())
      continue;
    const std::string name = p->getNameAsString();
    reporter_.error(RuleId::InvalidResource, p->getLocation(),
                    "parameter '" + name + "' of " + subject(tool) + " is not a variable of its URI " +
                        (uri.is_static() ? "'" + tool.uri + "', which has none" : "template '" + tool.uri + "'"),
                    "add {" + name + "} to the URI, or remove the parameter: a URI fills every argument");
    ok = false;
  }
  return ok;
}

/// MCP's prompt messages are text with a role: a renderer's value becomes them only as one text or
/// a list of {role, text} (the MCP server's rule, served_wire.cpp).
bool ToolBuilder::prompt_result(const FunctionDecl* fd, const model::Tool& tool) {
  const model::Type& r = tool.result;
  const bool styled =
      tool.return_style == model::ReturnStyle::Value || tool.return_style == model::ReturnStyle::ToolResult;
  const bool messages = r.kind == model::TypeKind::Sequence && !r.args.empty() && is_message(r.args.front());
  if (styled && (r.kind == model::TypeKind::String || messages)) return true;
  const SourceLocation loc =
      fd->getReturnTypeSourceRange().isValid() ? fd->getReturnTypeSourceRange().getBegin() : fd->getLocation();
  reporter_.error(RuleId::InvalidPrompt, loc,
                  "result of " + subject(tool) + " has type " + reporter_.quote(fd->getReturnType()) +
                      ": a prompt returns its text or its messages",
                  "return std::string (or ptc::ToolResult<std::string>), or a std::vector of a struct with two "
                  "fields, std::string role (\"user\" or \"assistant\") and std::string text");
  return false;
}

/// A struct of exactly `role` (a string, or an enum of user and assistant) and `text` (a string).
bool ToolBuilder::is_message(const model::Type& type) const {
  const model::Struct* s = type.kind == model::TypeKind::Struct ? header_.find_struct(type.name) : nullptr;
  if (!s || s->fields.size() != 2) return false;
  const auto role_enum = [&](const model::Type& t) {
    const model::Enum* e = t.kind == model::TypeKind::Enum ? header_.find_enum(t.name) : nullptr;
    return e && std::all_of(e->enumerators.begin(), e->enumerators.end(),
                            [](const model::Enumerator& v) { return v.name == "user" || v.name == "assistant"; });
  };
  return std::all_of(s->fields.begin(), s->fields.end(), [&](const model::Field& f) {
    if (f.json_name == "text") return f.type.kind == model::TypeKind::String;
    return f.json_name == "role" && (f.type.kind == model::TypeKind::String || role_enum(f.type));
  });
}

/// PTC_COMPLETE(argument, function): a parameter of this prompt or resource template, and the function
/// that suggests its values.
bool ToolBuilder::completer(const Annotation& a, const FunctionDecl* fd, model::Tool& tool) {
  const auto args = a.args();
  auto argument = args.size() == 2 ? string_argument(args[0]) : std::nullopt;
  auto function = args.size() == 2 ? string_argument(args[1]) : std::nullopt;
  if (!argument || !function || !is_identifier(*argument) || !is_identifier(*function)) {
    reporter_.error(RuleId::InvalidCompleter, a.loc,
                    "PTC_COMPLETE takes a parameter's name and a function's name, unquoted",
                    "e.g. PTC_COMPLETE(issue, issue_keys)");
    return false;
  }
  if (tool.kind == model::ToolKind::Tool) {
    reporter_.error(RuleId::MisplacedAnnotation, a.loc,
                    "PTC_COMPLETE on " + subject(tool) +
                        " has no effect: MCP completes the arguments of prompts and the variables of resource "
                        "templates, not a tool's",
                    "remove it");
    return false;
  }
  const std::string what = "PTC_COMPLETE on " + subject(tool);
  if (std::none_of(tool.params.begin(), tool.params.end(),
                   [&](const model::Param& p) { return p.name == *argument; })) {
    reporter_.error(RuleId::InvalidCompleter, a.loc,
                    what + " names '" + *argument + "', which is not one of its parameters",
                    "name the parameter whose values the function suggests");
    return false;
  }
  if (std::any_of(tool.completers.begin(), tool.completers.end(),
                  [&](const model::Completer& c) { return c.argument == *argument; })) {
    reporter_.error(RuleId::InvalidCompleter, a.loc, what + " completes '" + *argument + "' twice",
                    "keep one PTC_COMPLETE per parameter");
    return false;
  }
  auto found = completion_function(*function, fd, a.loc, tool);
  if (!found) return false;
  found->argument = *argument;
  found->location = reporter_.location(a.loc);
  tool.completers.push_back(std::move(*found));
  return true;
}

/// The function PTC_COMPLETE names, looked up as an unqualified call in the function's class or
/// namespace would find it (the innermost scope declaring the name wins), and how generated code calls it.
std::optional<model::Completer> ToolBuilder::completion_function(const std::string& name, const FunctionDecl* fd,
                                                                 SourceLocation loc, const model::Tool& tool) {
  const std::string what = "PTC_COMPLETE on " + subject(tool) + ": '" + name + "'";
  const std::string shape = "std::vector<std::string> " + name + "(std::string_view typed)";
  const DeclarationName id(&reporter_.ast().Idents.get(name));
  std::vector<const NamedDecl*> found;
  for (const DeclContext* dc = fd->getDeclContext(); dc && found.empty(); dc = dc->getParent())
    for (const NamedDecl* d : dc->lookup(id)) found.push_back(d);
  if (found.empty()) {
    reporter_.error(RuleId::InvalidCompleter, loc, what + " is not declared in its class or namespace",
                    "declare " + shape + " there");
    return std::nullopt;
  }
  const FunctionDecl* chosen = nullptr;
  bool request = false;
  for (const NamedDecl* d : found) {
    const auto* f = llvm::dyn_cast<FunctionDecl>(d->getUnderlyingDecl());
    const auto takes = f ? completer_input(f) : std::nullopt;
    if (!takes) continue;
    if (chosen) {
      reporter_.error(RuleId::InvalidCompleter, loc, what + " has more than one overload that could be called",
                      "keep one");
      return std::nullopt;
    }
    chosen = f;
    request = *takes;
  }
  if (!chosen) {
    reporter_.error(RuleId::InvalidCompleter, loc,
                    what + " does not take the text typed so far and return the suggestions",
                    "declare it as " + shape + ", or taking const ptc::CompletionRequest&");
    reporter_.note(found.front()->getLocation(), "'" + name + "' is declared here");
    return std::nullopt;
  }
  model::Completer c;
  c.takes_request = request;
  c.function = qualified_name(chosen, true);
  const auto* method = llvm::dyn_cast<CXXMethodDecl>(chosen);
  if (method && method->getAccess() != AS_public) {
    reporter_.error(RuleId::InvalidCompleter, loc,
                    what + " is not public: generated code calls it from outside the class", "make it public");
    return std::nullopt;
  }
  if (method && !method->isStatic()) {
    const auto* own = llvm::dyn_cast<CXXMethodDecl>(fd);
    if (!own || own->getParent()->getCanonicalDecl() != method->getParent()->getCanonicalDecl()) {
      reporter_.error(RuleId::InvalidCompleter, loc,
                      what + " is a member of '" + qualified_name(method->getParent()) + "', which " + subject(tool) +
                          " has no instance of",
                      "make it static, or a member of the same class");
      return std::nullopt;
    }
    c.on_instance = true;
    c.function = method->getNameAsString();
  }
  return c;
}

// The prompt shows a tool's signature and description only, and a duration there is a bare :int: the
// description says the unit (parameter and field docs say it too, for JSON Schema).
void ToolBuilder::describe_units(const FunctionDecl* fd, model::Tool& tool) {
  std::string units;
  const auto add = [&](const std::string& name, const std::string& unit) {
    if (unit.empty()) return;
    units += (units.empty() ? "Units: " : ", ") + name + " in " + unit;
  };
  for (const auto& p : tool.params) add(p.name, model::duration_unit(p.type));
  add("the result", model::duration_unit(tool.result));
  if (units.empty()) return;
  units += ".";
  const std::string& d = tool.description;
  std::string described = d + (d.back() == '.' ? " " : ". ") + units;
  if (ptc::is_valid_tool_description(described)) {
    tool.description = std::move(described);
    return;
  }
  reporter_.warning(RuleId::UnitsNotDescribed, fd->getLocation(),
                    "the description of tool '" + tool.name + "' has no room for \"" + units +
                        "\" (descriptions are at most " + std::to_string(ptc::kMaxToolDescription) + " characters)",
                    "say the units in a shorter description");
}

std::optional<model::Tool> ToolBuilder::build(const FunctionDecl* fd) {
  model::Tool tool;
  const auto notes = annotations(fd, reporter_.ast().getSourceManager());
  if (!kind(fd, notes, tool)) return std::nullopt;
  DocComment doc;
  bool ok = name_and_description(fd, notes, tool, doc);
  reporter_.set_tool(tool.name);
  ok = function_annotations(notes, tool) && ok;
  if (const auto* md = llvm::dyn_cast<CXXMethodDecl>(fd)) {
    tool.function = md->getNameAsString();
    tool.class_name = qualified_name(md->getParent());
    tool.class_cpp = qualified_name(md->getParent(), true);
    tool.const_member = md->isConst();
  } else {
    tool.function = qualified_name(fd, true);
  }
  bool typed = parameters(fd, doc, tool);
  typed = result(fd, tool) && typed;
  ok = typed && ok;
  if (typed) ok = served(fd, notes, tool) && ok;
  if (ok) describe_units(fd, tool);
  tool.location = reporter_.location(fd->getLocation());
  if (!ok) return std::nullopt;
  return tool;
}

/// A second tool or prompt of one name, or resource of one URI: the registry would refuse it.
void ToolBuilder::taken(const model::Tool& tool, const FunctionDecl* fd, const FunctionDecl* other) {
  if (tool.kind == model::ToolKind::Resource) {
    reporter_.error(RuleId::NameCollision, fd->getLocation(), "resource URI '" + tool.uri + "' is already taken",
                    "give each resource its own URI");
    reporter_.note(other->getLocation(), "the other resource of that URI is declared here");
    return;
  }
  const std::string kind = model::kind_name(tool.kind);
  reporter_.error(RuleId::NameCollision, fd->getLocation(), kind + " name '" + tool.name + "' is already taken",
                  "name one of them differently with " +
                      std::string(tool.kind == model::ToolKind::Tool ? "PTC_TOOL" : "PTC_PROMPT") + "(\"other_name\")");
  reporter_.note(other->getLocation(), "the other " + kind + " '" + tool.name + "' is declared here");
}

// An answer type is mapped as a tool's result would be: its own struct at depth 1, with the same rules
// and limits, its structs and enums recorded in the model.
void ToolBuilder::answer(const TagDecl* tag) {
  const QualType type = reporter_.ast().getTypeDeclType(tag);
  Subject subject{"answer type '" + qualified_name(tag) + "'", "", tag->getLocation(), type, /*is_type=*/true};
  auto mapped = types_.map(type, subject, /*parameter=*/false);
  if (!mapped) return;
  // The model's own checks, which a tool's signature runs at this point (PTC_RANGE's bounds).
  if (auto e = model::no_throw::schema_error(*mapped, header_)) {
    reporter_.error(RuleId::InvalidConstraint, tag->getLocation(), subject.what + ": " + *e);
    return;
  }
  header_.answers.push_back(std::move(*mapped));
}

void ToolBuilder::run(const std::vector<FunctionDecl*>& found, const std::vector<const TagDecl*>& answers) {
  const std::vector<const FunctionDecl*> chosen = choose_overloads(found);

  // Pass 1: how shallow each struct is reached by any tool or answer type, so shared struct records
  // are expanded the same whichever reaches them first.
  for (const FunctionDecl* fd : chosen) {
    for (const auto* p : fd->parameters())
      if (!is_context_parameter(p)) types_.reach(p->getType(), p->getLocation());
    types_.reach(fd->getReturnType(), fd->getLocation());
  }
  for (const TagDecl* tag : answers) types_.reach(reporter_.ast().getTypeDeclType(tag), tag->getLocation());

  std::map<std::string, const FunctionDecl*> names;
  for (const FunctionDecl* fd : chosen) {
    reporter_.set_tool(fd->getNameAsString());
    if (!usable(fd)) continue;
    auto tool = build(fd);
    if (!tool) continue;
    auto [it, added] = names.emplace(model::registry_key(*tool), fd);
    if (!added) {
      taken(*tool, fd, it->second);
      continue;
    }
    // Every struct and enum the tool reaches is in the model now, so its signature can be built and
    // PTC_SIGNATURE checked, and the messages come in declaration order.
    const auto errors = model::no_throw::explicit_signature_errors(*tool, header_);
    for (const auto& e : errors) reporter_.error(RuleId::InvalidSignature, signature_loc_, e);
    if (errors.empty()) {
      if (auto e = model::no_throw::signature_error(*tool, header_))
        reporter_.error(RuleId::InvalidSignature, fd->getLocation(), *e);
    }
    if (!tool->class_name.empty() &&
        std::find(header_.classes.begin(), header_.classes.end(), tool->class_name) == header_.classes.end())
      header_.classes.push_back(tool->class_name);
    header_.tools.push_back(std::move(*tool));
  }
  reporter_.set_tool({});
  for (const TagDecl* tag : answers) answer(tag);
}

}  // namespace

void collect_tools(ASTContext& ast, Reporter& reporter, unsigned max_depth, model::HeaderModel& header,
                   const std::set<std::string>& listed) {
  Finder finder(reporter, listed);
  finder.TraverseDecl(ast.getTranslationUnitDecl());
  ToolBuilder builder(reporter, header, max_depth);
  builder.run(finder.tools, finder.answers);
}

}  // namespace ptcgen::extract::detail
