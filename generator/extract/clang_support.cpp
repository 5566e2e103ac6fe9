#include "extract/clang_support.hpp"

#include "extract/recording.hpp"

#include <algorithm>

#include <clang/AST/DeclCXX.h>
#include <clang/AST/DeclTemplate.h>
#include <clang/AST/QualTypeNames.h>
#include <clang/AST/RawCommentList.h>
#include <clang/Basic/Diagnostic.h>
#include <clang/Basic/SourceManager.h>
#include <clang/Lex/Lexer.h>
#include <clang/Sema/Sema.h>
#include <llvm/ADT/SmallString.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/Path.h>
#include <llvm/Support/raw_ostream.h>

namespace ptcgen::extract::detail {

using namespace clang;

namespace {

/// `path` relative to the current directory, lexically ("../lib/x.hpp"): the model holds no absolute
/// paths, so it is the same on every machine that lays the tree out the same way.
std::string relative_to_cwd(llvm::StringRef path) {
  llvm::SmallString<256> cwd;
  if (llvm::sys::fs::current_path(cwd)) return path.str();
  llvm::SmallString<256> abs(path);
  llvm::sys::fs::make_absolute(cwd, abs);
  llvm::sys::path::remove_dots(abs, /*remove_dot_dot=*/true);
  llvm::SmallVector<llvm::StringRef, 16> from(llvm::sys::path::begin(cwd), llvm::sys::path::end(cwd));
  llvm::SmallVector<llvm::StringRef, 16> to(llvm::sys::path::begin(abs), llvm::sys::path::end(abs));
  std::size_t common = 0;
  while (common < from.size() && common < to.size() && from[common] == to[common]) ++common;
  llvm::SmallString<256> out;
  for (std::size_t i = common; i < from.size(); ++i) llvm::sys::path::append(out, "..");
  for (std::size_t i = common; i < to.size(); ++i) llvm::sys::path::append(out, to[i]);
  return out.empty() ? std::string(".") : std::string(out);
}

}  // namespace

bool is_default_argument(const TemplateArgument& arg, QualType element) {
  if (arg.getKind() != TemplateArgument::Type) return false;
  const auto* rd = arg.getAsType()->getAsCXXRecordDecl();
  const auto* spec = llvm::dyn_cast_or_null<ClassTemplateSpecializationDecl>(rd);
  if (!spec) return false;
  const std::string name = qualified_name(spec->getSpecializedTemplate());
  // Containers require their allocator's value type to match, so any std::allocator is the default.
  if (name == "std::allocator") return true;
  if (name != "std::less" && name != "std::hash" && name != "std::equal_to" && name != "std::default_delete" &&
      name != "std::char_traits")
    return false;
  const auto& args = spec->getTemplateArgs();
  return args.size() == 1 && args[0].getKind() == TemplateArgument::Type &&
         args[0].getAsType().getCanonicalType() == element.getCanonicalType();
}

namespace {

std::string spell_argument(const TemplateArgument& arg, const ASTContext& ast, bool global);

std::string spell_arguments(llvm::ArrayRef<TemplateArgument> args, const ASTContext& ast, bool global) {
  std::string out = "<";
  bool first = true;
  for (const auto& a : flat_arguments(args)) {
    if (!first) out += ", ";
    first = false;
    out += spell_argument(a, ast, global);
  }
  return out + ">";
}

std::string spell_argument(const TemplateArgument& arg, const ASTContext& ast, bool global) {
  switch (arg.getKind()) {
    case TemplateArgument::Type: return spell(arg.getAsType(), ast, global);
    case TemplateArgument::Integral: {
      if (arg.getIntegralType()->isBooleanType()) return arg.getAsIntegral().getBoolValue() ? "true" : "false";
      llvm::SmallString<32> digits;
      arg.getAsIntegral().toString(digits, 10);
      return std::string(digits);
    }
    case TemplateArgument::Template:
      if (const auto* td = arg.getAsTemplate().getAsTemplateDecl()) return qualified_name(td, global);
      break;
    case TemplateArgument::NullPtr: return "nullptr";
    default: break;
  }
  std::string text;
  llvm::raw_string_ostream os(text);
  arg.print(ast.getPrintingPolicy(), os, /*IncludeType=*/true);
  return text;
}

/// A record as a type: qualified name plus template arguments, with the standard library's default
/// allocators, comparators and hashers left out (`std::vector<int>`, not `std::vector<int,
/// std::allocator<int>>`).
std::string spell_record(const CXXRecordDecl* rd, const ASTContext& ast, bool global) {
  const auto* spec = llvm::dyn_cast<ClassTemplateSpecializationDecl>(rd);
  if (!spec) return qualified_name(rd, global);
  const std::string name = qualified_name(spec->getSpecializedTemplate(), global);
  const std::vector<TemplateArgument> args = written_arguments(spec);
  const std::string plain = qualified_name(spec->getSpecializedTemplate());
  if (plain == "std::basic_string" || plain == "std::basic_string_view") {
    if (args.size() == 1 && args[0].getKind() == TemplateArgument::Type && args[0].getAsType()->isCharType() &&
        !args[0].getAsType()->isWideCharType())
      return plain == "std::basic_string" ? "std::string" : "std::string_view";
  }
  if (plain == "nlohmann::basic_json") return "nlohmann::json";
  return name + spell_arguments(args, ast, global);
}

}  // namespace

Reporter::Reporter(ASTContext& ast, Sema& sema, std::string main_file, RecordingConsumer* recorder)
    : ast_(ast),
      sema_(sema),
      main_file_(std::move(main_file)),
      recorder_(recorder),
      error_id_(ast.getDiagnostics().getCustomDiagID(DiagnosticsEngine::Error, "%0")),
      warning_id_(ast.getDiagnostics().getCustomDiagID(DiagnosticsEngine::Warning, "%0")),
      note_id_(ast.getDiagnostics().getCustomDiagID(DiagnosticsEngine::Note, "%0")) {}

void Reporter::report(RuleId rule, unsigned id, SourceLocation loc, llvm::StringRef message,
                      llvm::StringRef recommendation) {
  // The engine hands the diagnostic to the consumer before Report's statement ends.
  if (recorder_) recorder_->expect(rule, tool_);
  ast_.getDiagnostics().Report(ast_.getSourceManager().getExpansionLoc(loc), id) << message;
  if (recorder_) recorder_->expect_none();
  if (!recommendation.empty()) note(SourceLocation(), recommendation);
}

void Reporter::error(RuleId rule, SourceLocation loc, llvm::StringRef message, llvm::StringRef recommendation) {
  report(rule, error_id_, loc, message, recommendation);
}

void Reporter::warning(RuleId rule, SourceLocation loc, llvm::StringRef message, llvm::StringRef recommendation) {
  report(rule, warning_id_, loc, message, recommendation);
}

void Reporter::note(SourceLocation loc, llvm::StringRef message) {
  const SourceLocation at = loc.isValid() ? ast_.getSourceManager().getExpansionLoc(loc) : loc;
  ast_.getDiagnostics().Report(at, note_id_) << message;
}

model::Location Reporter::location(SourceLocation loc) const {
  const SourceManager& sm = ast_.getSourceManager();
  model::Location out;
  if (loc.isInvalid()) return out;
  const SourceLocation at = sm.getExpansionLoc(loc);
  out.line = sm.getExpansionLineNumber(at);
  out.column = sm.getExpansionColumnNumber(at);
  const FileID fid = sm.getFileID(at);
  if (fid == sm.getMainFileID()) {
    out.file = main_file_;
  } else if (auto entry = sm.getFileEntryRefForID(fid)) {
    llvm::SmallString<256> path(entry->getName());
    sm.getFileManager().makeAbsolutePath(path);
    out.file = relative_to_cwd(path);
  }
  return out;
}

bool Reporter::in_main_file(SourceLocation loc) const {
  return loc.isValid() && ast_.getSourceManager().isInMainFile(ast_.getSourceManager().getExpansionLoc(loc));
}

std::string Reporter::text(SourceRange range) const {
  const SourceManager& sm = ast_.getSourceManager();
  const CharSourceRange chars =
      CharSourceRange::getTokenRange(sm.getExpansionLoc(range.getBegin()), sm.getExpansionLoc(range.getEnd()));
  return Lexer::getSourceText(chars, sm, ast_.getLangOpts()).str();
}

bool Reporter::complete(QualType type, SourceLocation loc) const {
  return sema_.isCompleteType(loc, type.getCanonicalType().getUnqualifiedType());
}

const RawComment* Reporter::doc_comment(const Decl* decl) const {
  if (const RawComment* attached = ast_.getRawCommentForAnyRedecl(decl)) return attached;
  const SourceManager& sm = ast_.getSourceManager();
  SourceLocation start = sm.getExpansionLoc(decl->getBeginLoc());
  for (const auto* attr : decl->attrs()) {
    const SourceLocation at = sm.getExpansionLoc(attr->getLocation());
    if (at.isValid() && sm.isBeforeInTranslationUnit(at, start)) start = at;
  }
  const auto [file, offset] = sm.getDecomposedLoc(start);
  const auto* comments = ast_.Comments.getCommentsInFile(file);
  if (!comments) return nullptr;
  auto it = comments->lower_bound(offset);
  if (it == comments->begin()) return nullptr;
  const RawComment* before = std::prev(it)->second;
  if (!before->isDocumentation() || before->isTrailingComment()) return nullptr;
  // As clang attaches comments: nothing but the declaration's own tokens in between (an attribute's
  // `[[`), no other declaration.
  const unsigned end = sm.getFileOffset(sm.getExpansionLoc(before->getEndLoc()));
  const llvm::StringRef between = sm.getBufferData(file).slice(end, offset);
  if (between.find_first_of(";{}#@") != llvm::StringRef::npos) return nullptr;
  return before;
}

std::string Reporter::comment_text(const RawComment* comment) const {
  return comment->getFormattedText(ast_.getSourceManager(), ast_.getDiagnostics());
}

std::uint64_t Reporter::type_nodes(QualType type) const {
  const Type* t = type.getCanonicalType().getTypePtrOrNull();
  if (!t) return 1;
  if (auto it = nodes_.find(t); it != nodes_.end()) return it->second;
  std::uint64_t n = 1;
  const auto add = [&](QualType inner) { n = std::min(n + type_nodes(inner), kMaxTypeNodes + 1); };
  if (t->isPointerType() || t->isReferenceType() || t->isMemberPointerType()) {
    add(t->getPointeeType());
  } else if (const auto* at = llvm::dyn_cast<ArrayType>(t)) {
    add(at->getElementType());
  } else if (const auto* ft = llvm::dyn_cast<FunctionProtoType>(t)) {
    add(ft->getReturnType());
    for (QualType p : ft->getParamTypes()) add(p);
  } else if (const auto* spec = llvm::dyn_cast_or_null<ClassTemplateSpecializationDecl>(t->getAsCXXRecordDecl())) {
    for (const auto& a : written_arguments(spec)) {
      if (a.getKind() == TemplateArgument::Type)
        add(a.getAsType());
      else
        n = std::min(n + 1, kMaxTypeNodes + 1);
    }
  }
  nodes_.emplace(t, n);
  return n;
}

namespace {

/// 'std::vector<...>' for a type whose name is too long to print or to read in a message.
std::string abbreviated_name(QualType type) {
  const auto* rd = type.getNonReferenceType().getCanonicalType()->getAsCXXRecordDecl();
  const auto* spec = llvm::dyn_cast_or_null<ClassTemplateSpecializationDecl>(rd);
  if (!spec) return "'(a type too large to print)'";
  std::string out = "'";  // appended, not `literal + string&&`, which trips g++ 12's -Wrestrict
  return out.append(qualified_name(spec->getSpecializedTemplate())).append("<...>'");
}

}  // namespace

std::string Reporter::quote(QualType type) const {
  if (type_nodes(type) > kMaxTypeNodes) return abbreviated_name(type);
  const PrintingPolicy policy = ast_.getPrintingPolicy();
  const std::string written = type.getAsString(policy);
  if (written.size() > kMaxQuotedType) return abbreviated_name(type);
  std::string out = "'" + written + "'";
  // A user's alias hides what it stands for; the standard library's (std::string) do not need it said.
  const auto* alias = type->getAs<TypedefType>();
  if (alias && !ast_.getSourceManager().isInSystemHeader(alias->getDecl()->getLocation())) {
    const std::string canonical = type.getCanonicalType().getAsString(policy);
    if (canonical.size() > kMaxQuotedType)
      out.append(" (aka ").append(abbreviated_name(type)).append(")");
    else if (canonical != written)
      out += " (aka '" + canonical + "')";
  }
  return out;
}

std::string qualified_name(const NamedDecl* decl, bool global) {
  std::string name = decl->getNameAsString();
  for (const DeclContext* dc = decl->getDeclContext(); dc; dc = dc->getParent()) {
    if (const auto* ns = llvm::dyn_cast<NamespaceDecl>(dc)) {
      if (ns->isInline() || ns->isAnonymousNamespace()) continue;
      name = ns->getNameAsString() + "::" + name;
    } else if (const auto* rd = llvm::dyn_cast<CXXRecordDecl>(dc)) {
      return spell_record(rd, rd->getASTContext(), global) + "::" + name;
    } else if (const auto* ed = llvm::dyn_cast<EnumDecl>(dc)) {
      // Enumerators of unscoped enums are named through their enum too: `::ns::E::x` is valid C++11.
      return qualified_name(ed, global) + "::" + name;
    } else if (llvm::isa<TranslationUnitDecl>(dc) || llvm::isa<LinkageSpecDecl>(dc)) {
      continue;
    } else {
      break;  // a function's local scope: callers reject such declarations
    }
  }
  return global ? "::" + name : name;
}

std::vector<TemplateArgument> flat_arguments(llvm::ArrayRef<TemplateArgument> args) {
  std::vector<TemplateArgument> out;
  for (const auto& a : args) {
    if (a.getKind() == TemplateArgument::Pack) {
      auto inner = flat_arguments(a.pack_elements());
      out.insert(out.end(), inner.begin(), inner.end());
    } else {
      out.push_back(a);
    }
  }
  return out;
}

std::vector<TemplateArgument> written_arguments(const ClassTemplateSpecializationDecl* spec) {
  std::vector<TemplateArgument> args = flat_arguments(spec->getTemplateArgs().asArray());
  if (!llvm::StringRef(qualified_name(spec->getSpecializedTemplate())).starts_with("std::") || args.empty() ||
      args[0].getKind() != TemplateArgument::Type)
    return args;
  while (args.size() > 1 && is_default_argument(args.back(), args[0].getAsType())) args.pop_back();
  return args;
}

std::string spell(QualType type, const ASTContext& ast, bool global) {
  const QualType t = type.getCanonicalType();
  std::string prefix;
  if (t.isConstQualified()) prefix += "const ";
  if (t.isVolatileQualified()) prefix += "volatile ";
  const QualType bare = t.getUnqualifiedType();
  if (const auto* bt = bare->getAs<BuiltinType>()) return prefix + bt->getName(ast.getPrintingPolicy()).str();
  if (const auto* et = bare->getAs<EnumType>()) return prefix + qualified_name(et->getDecl(), global);
  if (const auto* rd = bare->getAsCXXRecordDecl()) return prefix + spell_record(rd, ast, global);
  if (const auto* pt = bare->getAs<PointerType>()) return prefix + spell(pt->getPointeeType(), ast, global) + " *";
  if (const auto* lr = bare->getAs<LValueReferenceType>()) return spell(lr->getPointeeType(), ast, global) + " &";
  if (const auto* rr = bare->getAs<RValueReferenceType>()) return spell(rr->getPointeeType(), ast, global) + " &&";
  return TypeName::getFullyQualifiedName(t, ast, ast.getPrintingPolicy(), global);
}

std::vector<Annotation> annotations(const Decl* decl, const SourceManager& sm) {
  std::vector<Annotation> out;
  for (const auto* attr : decl->specific_attrs<AnnotateAttr>()) {
    if (attr->isInherited() || !attr->getAnnotation().starts_with("ptc.")) continue;
    out.push_back({attr->getAnnotation().str(), attr, sm.getExpansionLoc(attr->getLocation())});
  }
  return out;
}

std::string enumerator_json_name(const EnumConstantDecl* enumerator, Reporter* reporter) {
  std::string name = enumerator->getNameAsString();
  const auto& sm = enumerator->getASTContext().getSourceManager();
  for (const auto& a : annotations(enumerator, sm)) {
    if (a.key != "ptc.name") {
      // PTC_ANSWER in the header being generated is reported where the tools are found, reached or not.
      if (reporter && !(a.key == "ptc.answer" && reporter->in_main_file(enumerator->getLocation())))
        reporter->error(RuleId::MisplacedAnnotation, a.loc, macro_name(a.key) + " has no effect on an enumerator",
                        "only PTC_NAME renames it");
      continue;
    }
    const auto args = a.args();
    auto given = args.size() == 1 ? string_argument(args[0]) : std::nullopt;
    if (!given || given->empty()) {
      if (reporter)
        reporter->error(RuleId::InvalidAnnotation, a.loc,
                        "PTC_NAME takes the enumerator's JSON name as a non-empty string literal");
      continue;
    }
    name = *given;
  }
  return name;
}

std::string macro_name(llvm::StringRef key) {
  std::string out = "PTC_";
  for (char c : key.drop_front(4)) out += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return out;
}

std::optional<std::string> string_argument(const Expr* arg) {
  const auto* lit = llvm::dyn_cast<StringLiteral>(arg->IgnoreParenImpCasts());
  if (!lit || !(lit->isOrdinary() || lit->isUTF8())) return std::nullopt;
  return lit->getString().str();
}

std::optional<nlohmann::json> number_argument(const Expr* arg, const ASTContext& ast) {
  Expr::EvalResult result;
  if (!arg->EvaluateAsRValue(result, ast)) return std::nullopt;
  const APValue& v = result.Val;
  if (v.isInt()) {
    const llvm::APSInt& i = v.getInt();
    if (i.isSigned() || i.isNegative()) {
      if (i.getSignificantBits() > 64) return std::nullopt;
      return nlohmann::json(static_cast<std::int64_t>(i.getExtValue()));
    }
    if (i.getActiveBits() > 64) return std::nullopt;
    return nlohmann::json(static_cast<std::uint64_t>(i.getZExtValue()));
  }
  if (v.isFloat()) {
    llvm::APFloat f = v.getFloat();
    bool loses = false;
    f.convert(llvm::APFloat::IEEEdouble(), llvm::APFloat::rmNearestTiesToEven, &loses);
    return nlohmann::json(f.convertToDouble());
  }
  return std::nullopt;
}

}  // namespace ptcgen::extract::detail
