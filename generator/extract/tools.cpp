#include "extract/tools.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <utility>

#include <clang/AST/DeclCXX.h>
#include <clang/AST/RawCommentList.h>
#include <clang/AST/RecursiveASTVisitor.h>
#include <clang/Basic/SourceManager.h>

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
    if (!find(notes, "ptc.tool")) {
      reporter_.warning(notes.front().loc,
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
    reporter_.error(marker->loc,
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
      reporter_.error(loc, name + ": a template is no one type to answer with",
                      "mark a struct that holds the instance the agent answers with, e.g. "
                      "struct PTC_ANSWER Answer { Page<Item> page; };");
      return;
    }
    if (!tag->getIdentifier() && !tag->getTypedefNameForAnonDecl()) {
      reporter_.error(
          loc, "PTC_ANSWER on an unnamed " + std::string(tag->getKindName()) + ": generated code has no name to use",
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
    if (fd && find(annotations(fd, sm), "ptc.tool")) unlisted(loc, "PTC_TOOL on '" + fd->getNameAsString() + "'");
  }

  // Once per header.
  void unlisted(SourceLocation loc, const std::string& what) {
    const SourceManager& sm = reporter_.ast().getSourceManager();
    const auto entry = sm.getFileEntryRefForID(sm.getFileID(loc));
    if (!entry) return;
    const std::string file = entry->getFileEntry().tryGetRealPathName().str();
    if (file.empty() || listed_.count(file) || !warned_.insert(file).second) return;
    reporter_.warning(loc, what + " is not generated: its header is not listed",
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
  void describe_units(const FunctionDecl* fd, model::Tool& tool);
  void answer(const TagDecl* tag);

  Reporter& reporter_;
  model::HeaderModel& header_;
  TypeMapper types_;
  /// Where the PTC_SIGNATURE of the tool being built is written.
  SourceLocation signature_loc_;
};

bool ToolBuilder::usable(const FunctionDecl* fd) {
  const std::string fn = "'" + fd->getQualifiedNameAsString() + "'";
  const auto reject = [&](const std::string& why, llvm::StringRef recommendation) {
    reporter_.error(fd->getLocation(), "PTC_TOOL on " + fn + ": " + why, recommendation);
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
        reporter_.error(fd->getLocation(),
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
        reporter_.error(fd->getLocation(),
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
  const Annotation* tool_note = find(notes, "ptc.tool");
  const auto tool_args = tool_note->args();
  tool.name = fd->getNameAsString();
  std::optional<std::string> given;
  if (!tool_args.empty()) {
    given = tool_args.size() == 1 ? string_argument(tool_args[0]) : std::nullopt;
    if (!given) {
      reporter_.error(tool_note->loc, "PTC_TOOL takes at most one argument, the tool's name as a string literal");
      return false;
    }
  }
  if (const Annotation* name_note = find(notes, "ptc.name")) {
    const auto args = name_note->args();
    auto name = args.size() == 1 ? string_argument(args[0]) : std::nullopt;
    if (!name) {
      reporter_.error(name_note->loc, "PTC_NAME takes the tool's name as a string literal");
      return false;
    }
    if (given && *given != *name) {
      reporter_.error(name_note->loc,
                      "the tool is named twice, \"" + *given + "\" by PTC_TOOL and \"" + *name + "\" by PTC_NAME",
                      "name it once");
      return false;
    }
    given = name;
  }
  if (given) tool.name = *given;
  if (!ptc::is_valid_tool_name(tool.name)) {
    reporter_.error(given ? tool_note->loc : fd->getLocation(),
                    "tool name '" + tool.name + "' must be 1-64 characters of a-z, 0-9, '_' and '-'",
                    "name the tool with PTC_TOOL(\"snake_case_name\")");
    ok = false;
  }

  if (const RawComment* raw = reporter_.doc_comment(fd)) doc = parse_doc_comment(reporter_.comment_text(raw));
  if (const Annotation* d = find(notes, "ptc.description")) {
    const auto args = d->args();
    auto text = args.size() == 1 ? string_argument(args[0]) : std::nullopt;
    if (!text) {
      reporter_.error(d->loc, "PTC_DESCRIPTION takes the description as a string literal");
      return false;
    }
    tool.description = collapse_whitespace(*text);
  } else {
    tool.description = doc.description;
  }
  if (tool.description.empty()) {
    reporter_.error(fd->getLocation(), "tool '" + tool.name + "' has no description",
                    "document it with a /// comment, or give it PTC_DESCRIPTION(\"...\")");
    ok = false;
  } else if (!ptc::is_valid_tool_description(tool.description)) {
    const bool ascii = std::all_of(tool.description.begin(), tool.description.end(),
                                   [](char c) { return static_cast<unsigned char>(c) < 0x80; });
    reporter_.error(fd->getLocation(),
                    "the description of tool '" + tool.name + "' must be 1-200 ASCII characters (it has " +
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
    const std::string where = "parameter '" + p->getNameAsString() + "' of tool '" + tool.name + "'";
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
    reporter_.error(p->getLocation(),
                    where + " has type " + reporter_.quote(type) + ": the context is injected by reference",
                    "take ptc::ToolContext&");
    return false;
  }
  if (tool.context_index) {
    reporter_.error(p->getLocation(), "tool '" + tool.name + "' takes ptc::ToolContext& twice", "take it once");
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
    reporter_.error(p->getLocation(),
                    "parameter " + std::to_string(index + 1) + " of tool '" + tool.name + "' has no name",
                    "name it: the name is the key of the argument in the model's JSON");
    return std::nullopt;
  }
  QualType type = p->getType();
  if (const auto* ref = type->getAs<ReferenceType>()) {
    if (llvm::isa<RValueReferenceType>(ref) || !ref->getPointeeType().isConstQualified()) {
      reporter_.error(p->getLocation(),
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
    reporter_.warning(raw ? raw->getBeginLoc() : fd->getLocation(),
                      "\\param '" + name + "' names no parameter of tool '" + tool.name + "'",
                      "fix the name, or remove the \\param line");
  }
}

bool ToolBuilder::result(const FunctionDecl* fd, model::Tool& tool) {
  const std::string where = "result of tool '" + tool.name + "'";
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
      reporter_.error(loc, where + " has type " + reporter_.quote(type) + ": the model cannot hold a reference",
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
    // The visitor reports PTC_ANSWER on a function.
    if (a.key == "ptc.tool" || a.key == "ptc.name" || a.key == "ptc.description" || a.key == "ptc.answer") continue;
    if (a.key == "ptc.signature") {
      const auto args = a.args();
      auto text = args.size() == 1 ? string_argument(args[0]) : std::nullopt;
      if (!text) {
        reporter_.error(a.loc, "PTC_SIGNATURE takes the signature as a string literal");
        ok = false;
        continue;
      }
      tool.explicit_signature = *text;
      signature_loc_ = a.loc;
    } else if (a.key == "ptc.example") {
      ok = example(a, tool) && ok;
    } else if (a.key == "ptc.title") {
      ok = title(a, tool) && ok;
    } else if (a.key == "ptc.read_only" || a.key == "ptc.destructive" || a.key == "ptc.idempotent" ||
               a.key == "ptc.open_world") {
      ok = hint(a, tool) && ok;
    } else if (a.key == "ptc.doc" || a.key == "ptc.range" || a.key == "ptc.pattern" || a.key == "ptc.firewall") {
      reporter_.error(a.loc, macro_name(a.key) + " on tool '" + tool.name + "' applies to parameters and fields",
                      "put it before the parameter it describes");
      ok = false;
    } else {
      reporter_.error(a.loc, "unknown annotation \"" + a.key + "\"", "use the PTC_* macros of <ptc/annotate.hpp>");
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
    reporter_.error(a.loc, "PTC_EXAMPLE takes two string literals, the arguments and the result as JSON");
    return false;
  }
  const auto in = nlohmann::json::parse(*input, nullptr, /*allow_exceptions=*/false);
  const auto out = nlohmann::json::parse(*output, nullptr, /*allow_exceptions=*/false);
  if (in.is_discarded() || !in.is_object()) {
    reporter_.error(
        a.loc, "the arguments of an example of tool '" + tool.name + "' must be a JSON object, not '" + *input + "'",
        "write them as JSON, e.g. R\"({\"query\": \"text\"})\"");
    return false;
  }
  if (out.is_discarded()) {
    reporter_.error(a.loc, "the result of an example of tool '" + tool.name + "' is not JSON: '" + *output + "'",
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
    reporter_.error(a.loc, "PTC_TITLE takes the tool's display title as a string literal");
    return false;
  }
  tool.title = collapse_whitespace(*text);
  if (!ptc::is_valid_tool_title(tool.title)) {
    reporter_.error(a.loc,
                    "the title of tool '" + tool.name + "' must be 1-" + std::to_string(ptc::kMaxToolTitle) +
                        " printable ASCII characters",
                    "give people a short display name, e.g. PTC_TITLE(\"Search issues\")");
    return false;
  }
  return true;
}

/// PTC_READ_ONLY, PTC_DESTRUCTIVE, PTC_IDEMPOTENT, PTC_OPEN_WORLD: what the tool's effects are.
bool ToolBuilder::hint(const Annotation& a, model::Tool& tool) {
  auto& h = tool.hints;
  h.stated = true;
  (a.key == "ptc.read_only"     ? h.read_only
   : a.key == "ptc.destructive" ? h.destructive
   : a.key == "ptc.idempotent"  ? h.idempotent
                                : h.open_world) = true;
  if (ptc::hints_contradict(h.read_only, h.destructive)) {
    reporter_.error(a.loc, "tool '" + tool.name + "' is marked both PTC_READ_ONLY and PTC_DESTRUCTIVE",
                    "a tool that changes nothing destroys nothing: keep one");
    return false;
  }
  return true;
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
  reporter_.warning(fd->getLocation(),
                    "the description of tool '" + tool.name + "' has no room for \"" + units +
                        "\" (descriptions are at most " + std::to_string(ptc::kMaxToolDescription) + " characters)",
                    "say the units in a shorter description");
}

std::optional<model::Tool> ToolBuilder::build(const FunctionDecl* fd) {
  model::Tool tool;
  const auto notes = annotations(fd, reporter_.ast().getSourceManager());
  DocComment doc;
  bool ok = name_and_description(fd, notes, tool, doc);
  ok = function_annotations(notes, tool) && ok;
  if (const auto* md = llvm::dyn_cast<CXXMethodDecl>(fd)) {
    tool.function = md->getNameAsString();
    tool.class_name = qualified_name(md->getParent());
    tool.class_cpp = qualified_name(md->getParent(), true);
    tool.const_member = md->isConst();
  } else {
    tool.function = qualified_name(fd, true);
  }
  ok = parameters(fd, doc, tool) && ok;
  ok = result(fd, tool) && ok;
  if (ok) describe_units(fd, tool);
  tool.location = reporter_.location(fd->getLocation());
  if (!ok) return std::nullopt;
  return tool;
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
    reporter_.error(tag->getLocation(), subject.what + ": " + *e);
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
    if (!usable(fd)) continue;
    auto tool = build(fd);
    if (!tool) continue;
    auto [it, added] = names.emplace(tool->name, fd);
    if (!added) {
      reporter_.error(fd->getLocation(), "tool name '" + tool->name + "' is already taken",
                      "name one of them differently with PTC_TOOL(\"other_name\")");
      reporter_.note(it->second->getLocation(), "the other tool '" + tool->name + "' is declared here");
      continue;
    }
    // Every struct and enum the tool reaches is in the model now, so its signature can be built and
    // PTC_SIGNATURE checked, and the messages come in declaration order.
    const auto errors = model::no_throw::explicit_signature_errors(*tool, header_);
    for (const auto& e : errors) reporter_.error(signature_loc_, e);
    if (errors.empty()) {
      if (auto e = model::no_throw::signature_error(*tool, header_)) reporter_.error(fd->getLocation(), *e);
    }
    if (!tool->class_name.empty() &&
        std::find(header_.classes.begin(), header_.classes.end(), tool->class_name) == header_.classes.end())
      header_.classes.push_back(tool->class_name);
    header_.tools.push_back(std::move(*tool));
  }
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
