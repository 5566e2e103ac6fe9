#pragma once
// The one table of ptc-gen's diagnostic rules: a stable id per kind of problem (`ptc/unsupported-type`),
// with the descriptions and help SARIF carries. Call sites name a rule by RuleId, so a typo does not
// compile; rules that arrive as text (clang's categories, another part's `ptc/token-budget`) are looked
// up by id.

#include <cstddef>
#include <span>
#include <string_view>

namespace ptcgen::diagnostics {

enum class Severity { Error, Warning, Note };

/// One per row of the table, in its order (rule_index() is the position).
enum class RuleId {
  UnsupportedType,
  TypeLimit,
  RecursiveType,
  DepthLimit,
  UnsupportedFunction,
  AmbiguousOverload,
  InvalidName,
  MissingDescription,
  InvalidDescription,
  InvalidAnnotation,
  MisplacedAnnotation,
  InvalidAnswerType,
  UnlistedHeader,
  InvalidParameter,
  InvalidResult,
  UnknownParamDoc,
  InvalidSignature,
  InvalidExample,
  ConflictingMarkers,
  InvalidResource,
  InvalidPrompt,
  InvalidCompleter,
  NameCollision,
  InvalidConstraint,
  RangeExceedsType,
  InvalidDefault,
  UnitsNotDescribed,
  UnstatedHints,
  ProviderProfile,
  RuntimeRefusal,
  UnreadableHeader,
  Drift,
  TokenBudget,
  ClangLexical,
  ClangSemantic,
  ClangParse,
  ClangLambda,
  ClangModules,
  ClangConcepts,
  ClangCoroutines,
  ClangUserDefined,
  ClangValueConversion,
  ClangDocumentation,
  ClangDeprecations,
  ClangFormatString,
  ClangUnusedEntity,
  ClangDiagnostic,  ///< any other clang category
};

struct Rule {
  RuleId rule;
  std::string_view id;                 ///< "ptc/unsupported-type"; never changes once published
  std::string_view name;               ///< "UnsupportedType" (SARIF reportingDescriptor.name)
  std::string_view short_description;  ///< one sentence
  std::string_view full_description;   ///< what the rule covers
  std::string_view help;               ///< markdown: what to do, and where the docs say more
  Severity default_severity;
};

std::span<const Rule> rules();
const Rule& rule(RuleId id);
std::string_view id_of(RuleId id);
std::size_t rule_index(RuleId id);
/// The rule with this id, or null.
const Rule* find_rule(std::string_view id);
/// The rule of a clang diagnostic from its category name ("Semantic Issue" -> `clang/semantic-issue`);
/// categories without a row of their own are `clang/diagnostic`.
RuleId clang_rule(std::string_view category);

std::string_view severity_name(Severity severity);  ///< "error", "warning", "note"

}  // namespace ptcgen::diagnostics
