#pragma once
// What the clang-facing parts of extract/ share: diagnostics, model locations, C++ spellings of
// declarations, and reading the PTC_* annotations. Internal to extract/.

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <clang/AST/ASTContext.h>
#include <clang/AST/Attr.h>
#include <clang/AST/Decl.h>
#include <clang/AST/DeclTemplate.h>
#include <clang/Basic/SourceLocation.h>
#include <llvm/ADT/StringRef.h>

#include <nlohmann/json.hpp>

#include "diagnostics/rules.hpp"
#include "model/model.hpp"

namespace clang {
class RawComment;
class Sema;
}  // namespace clang

namespace ptcgen::extract::detail {

class RecordingConsumer;
using diagnostics::RuleId;

/// Reports through clang's DiagnosticsEngine, so problems print like compiler errors (source line,
/// caret) and count as errors of the run.
class Reporter {
 public:
  /// `main_file` is the header as given on the command line: locations in it use that spelling. With a
  /// recorder, each error and warning is recorded under the rule it is reported with.
  Reporter(clang::ASTContext& ast, clang::Sema& sema, std::string main_file, RecordingConsumer* recorder = nullptr);

  /// A recommendation follows as a location-less note, so the source line is not printed twice.
  void error(RuleId rule, clang::SourceLocation loc, llvm::StringRef message, llvm::StringRef recommendation = {});
  void warning(RuleId rule, clang::SourceLocation loc, llvm::StringRef message, llvm::StringRef recommendation = {});
  /// A note of the error or warning just reported.
  void note(clang::SourceLocation loc, llvm::StringRef message);
  /// The tool (or resource, prompt) the diagnostics that follow concern; empty: none.
  void set_tool(std::string tool) { tool_ = std::move(tool); }

  model::Location location(clang::SourceLocation loc) const;
  /// Whether `loc` (after macro expansion) is in the header being processed.
  bool in_main_file(clang::SourceLocation loc) const;
  /// The source text of a range, for messages.
  std::string text(clang::SourceRange range) const;
  /// 'T' as written, with the canonical type when they differ: 'UserPtr' (aka 'shop::User *'). A type
  /// over kMaxTypeNodes is named by its template only ('S<...>'): printing it could take forever. So is
  /// a name longer than kMaxQuotedType characters (255 nested vectors): it would bury the message.
  std::string quote(clang::QualType type) const;
  /// How many types the canonical type is made of, its written_arguments() included, counted as a tree
  /// (`pair<T, T>` counts T twice), up to kMaxTypeNodes + 1. Memoized, so linear in the distinct types
  /// even when the tree is exponentially larger.
  std::uint64_t type_nodes(clang::QualType type) const;

  /// Whether `type` is complete, instantiating a class template specialization that only a
  /// declaration names (`std::map<K, V> f();` does not instantiate the map).
  bool complete(clang::QualType type, clang::SourceLocation loc) const;

  /// The doc comment of a declaration, also when attributes written before it (PTC_TOOL() on its own
  /// line) keep clang from attaching it: then the doc comment right before the first attribute.
  const clang::RawComment* doc_comment(const clang::Decl* decl) const;
  /// Its text without comment markers.
  std::string comment_text(const clang::RawComment* comment) const;

  clang::ASTContext& ast() const { return ast_; }
  const std::string& main_file() const { return main_file_; }

 private:
  clang::ASTContext& ast_;
  clang::Sema& sema_;
  std::string main_file_;
  RecordingConsumer* recorder_;
  std::string tool_;
  unsigned error_id_;
  unsigned warning_id_;
  unsigned note_id_;
  mutable std::map<const clang::Type*, std::uint64_t> nodes_;

  void report(RuleId rule, unsigned id, clang::SourceLocation loc, llvm::StringRef message,
              llvm::StringRef recommendation);
};

/// Types a parameter's or result's type may nest, counting every struct, container, optional,
/// variant... as one level (the parameter's own type is level 1). The runtime reads schemas and
/// values no deeper than this, and the recursion over a type's structure stays bounded (a chain of
/// thousands of nested structs, or a template whose fields instantiate ever longer versions of it).
inline constexpr unsigned kMaxTypeDepth = 256;
/// The longest type name a message quotes in full; a longer one is 'std::vector<...>'.
inline constexpr std::size_t kMaxQuotedType = 200;
/// Types one type may be made of, counted as type_nodes() does. Bounds the work (and the length of
/// its name) for templates whose arguments double at each level (`S<std::pair<T, T>>`).
inline constexpr std::uint64_t kMaxTypeNodes = 10000;

/// Qualified name without inline and anonymous namespaces, which generated code does not need to
/// spell: "shop::Item", "std::vector", "std::chrono::system_clock". With `global`, a leading "::".
/// Classes in the scope are spelled with their template arguments ("shop::Outer<int>::Inner").
std::string qualified_name(const clang::NamedDecl* decl, bool global = false);

/// A type spelled so that it names the same type from any scope; `global` puts "::" before user
/// names. Used where the model has no kind to build a spelling from (template arguments of user
/// templates, uncommon chrono types).
std::string spell(clang::QualType type, const clang::ASTContext& ast, bool global);

/// Whether a standard container's trailing template argument is the default one: any std::allocator,
/// or std::less / std::hash / std::equal_to / std::default_delete / std::char_traits of `element`.
bool is_default_argument(const clang::TemplateArgument& arg, clang::QualType element);

/// Template arguments with parameter packs expanded, as the canonical specialization holds them.
std::vector<clang::TemplateArgument> flat_arguments(llvm::ArrayRef<clang::TemplateArgument> args);

/// A specialization's flat arguments without a standard template's trailing default ones (is_default_argument):
/// `std::vector<T>` is {T}, not {T, std::allocator<T>}. What a type is made of, as its name shows it: the
/// allocator repeats the element, so counting it would double a container's size at each level of nesting.
std::vector<clang::TemplateArgument> written_arguments(const clang::ClassTemplateSpecializationDecl* spec);

/// One PTC_* annotation spelled on a declaration (inherited copies on redeclarations are skipped).
struct Annotation {
  std::string key;  ///< "ptc.tool", "ptc.range", ...
  const clang::AnnotateAttr* attr;
  clang::SourceLocation loc;  ///< where the macro is written
  std::vector<const clang::Expr*> args() const { return {attr->args_begin(), attr->args_end()}; }
};
std::vector<Annotation> annotations(const clang::Decl* decl, const clang::SourceManager& sm);

/// The name an enumerator has in JSON: its `PTC_NAME("...")` or its C++ name (`kLow` can reach the
/// model as "low"). With a reporter, misuse on the enumerator is an error: any other PTC_* macro (it
/// would have no effect) or a PTC_NAME that is not a non-empty string literal.
std::string enumerator_json_name(const clang::EnumConstantDecl* enumerator, Reporter* reporter);

/// The macro a key comes from, for messages: "ptc.range" -> "PTC_RANGE".
std::string macro_name(llvm::StringRef key);

/// A string-literal argument of an annotation.
std::optional<std::string> string_argument(const clang::Expr* arg);
/// A numeric argument (an integer stays an integer).
std::optional<nlohmann::json> number_argument(const clang::Expr* arg, const clang::ASTContext& ast);

}  // namespace ptcgen::extract::detail
