#include "diagnostics/rules.hpp"

#include <array>
#include <cctype>
#include <string>

namespace ptcgen::diagnostics {

namespace {

using enum Severity;

// Help texts end with where ptc's documentation says more: SARIF's helpUri must be an absolute URI,
// and ptc's docs live in the repository the results are about (docs/ptc-gen.md), which has no one URL.
constexpr std::array kRules{
    Rule{RuleId::UnsupportedType, "ptc/unsupported-type", "UnsupportedType",
         "A parameter, result or field has a type ptc cannot map to JSON.",
         "ptc maps each C++ type of a tool to one signature type. Raw and function pointers, references inside "
         "types, unions, C arrays, plain char, 128-bit integers, non-string map keys, incomplete types, classes "
         "ptc cannot see inside and standard library types without a mapping cannot cross a tool boundary.",
         "Use one of the supported types (strings, numbers, bool, enums, plain structs, std containers, optionals, "
         "variants, chrono types, nlohmann::json); the note under the message suggests one. See docs/codecs.md, "
         "'Types', and docs/ptc-gen.md, 'What the front end reads'.",
         Error},
    Rule{RuleId::TypeLimit, "ptc/type-limit", "TypeLimit",
         "A type nests deeper, or is made of more types, than ptc walks.",
         "A parameter's or result's type nests at most 256 levels and is made of at most 10000 types counted as a "
         "tree; base classes nest at most 256 deep. Beyond that the runtime could not read the schema back.",
         "Flatten the type, or hold the deep part as nlohmann::json. See docs/ptc-gen.md, 'What the front end "
         "reads' (limits on the shape of a type).",
         Error},
    Rule{RuleId::RecursiveType, "ptc/recursive-type", "RecursiveType",
         "A struct contains itself, so the inner occurrence is typed :any.",
         "A struct reached again inside itself cannot be spelled as a finite schema; the model sees :any there, "
         "while generated code still decodes and encodes the full value.",
         "Accept the :any, or break the cycle (an id instead of the nested struct). See docs/ptc-gen.md, 'What the "
         "front end reads' (recursion).",
         Warning},
    Rule{RuleId::DepthLimit, "ptc/depth-limit", "DepthLimit", "A struct nested deeper than --max-depth is typed :map.",
         "Structs count levels inside a tool's types; beyond --max-depth (default 3) a struct's schema is :map, so "
         "the model is not told its fields.",
         "Raise --max-depth (ptc_generate's MAX_DEPTH), or flatten the type. See docs/ptc-gen.md, 'What the front "
         "end reads' (depth).",
         Warning},
    Rule{RuleId::UnsupportedFunction, "ptc/unsupported-function", "UnsupportedFunction",
         "A function marked as a tool cannot be called by generated code.",
         "Templates, static member functions, local functions and members of local classes, deleted and C-variadic "
         "functions, operators, constructors and members of unions cannot be tools.",
         "Declare a named free function or non-static member function with concrete types that does the work. See "
         "docs/ptc-gen.md, 'What the front end reads'.",
         Error},
    Rule{RuleId::AmbiguousOverload, "ptc/ambiguous-overload", "AmbiguousOverload",
         "Overloads marked PTC_TOOL leave no one overload to expose.",
         "Overloads of one name in one scope make one tool: the one with PTC_SIGNATURE, else the one taking the "
         "most parameters. Two with PTC_SIGNATURE, or a tie, leave the choice open.",
         "Put PTC_SIGNATURE on exactly the overload the tool exposes. See docs/ptc-gen.md, 'What the front end "
         "reads' (overloads).",
         Error},
    Rule{RuleId::InvalidName, "ptc/invalid-name", "InvalidName",
         "A tool, field or enumerator name breaks the runtime's naming rules.",
         "Tool names are 1-64 characters of a-z, 0-9, '_' and '-'; field names are letters, digits, '_' and '-' "
         "starting with a letter or '_'; enumerator names are not empty; a name is given once (PTC_TOOL(\"n\") and a "
         "different PTC_NAME conflict); a parameter's JSON name is its C++ name.",
         "Rename with PTC_TOOL(\"snake_case\") or PTC_NAME(\"...\"). See docs/ptc-gen.md, 'What the front end reads' "
         "(name, enumerators, fields).",
         Error},
    Rule{RuleId::MissingDescription, "ptc/missing-description", "MissingDescription",
         "A tool, resource or prompt has no description.",
         "The description is what the model reads to decide when to call a tool: PTC_DESCRIPTION, else the doc "
         "comment. A tool without one is refused.",
         "Document the function with a /// comment, or give it PTC_DESCRIPTION(\"...\"). See docs/ptc-gen.md, "
         "'What the front end reads' (description).",
         Error},
    Rule{RuleId::InvalidDescription, "ptc/invalid-description", "InvalidDescription",
         "A description is longer than 200 characters, not ASCII, or not a string literal.",
         "The runtime takes descriptions of 1-200 ASCII characters after whitespace is collapsed; PTC_DESCRIPTION "
         "takes one string literal.",
         "Shorten the doc comment, or give the model a shorter text with PTC_DESCRIPTION(\"...\"). See "
         "docs/ptc-gen.md, 'What the front end reads' (description).",
         Error},
    Rule{RuleId::InvalidAnnotation, "ptc/invalid-annotation", "InvalidAnnotation",
         "A PTC_* macro has arguments it cannot take, or is not one of ptc's.",
         "Each PTC_* macro takes fixed arguments (PTC_DOC a string literal, PTC_RANGE two numbers, PTC_TITLE 1-100 "
         "printable ASCII characters...); an annotation ptc does not know is refused rather than ignored.",
         "Write the macro as <ptc/annotate.hpp> documents it. See docs/ptc-gen.md, 'What the front end reads'.", Error},
    Rule{RuleId::MisplacedAnnotation, "ptc/misplaced-annotation", "MisplacedAnnotation",
         "A PTC_* macro stands where it has no effect.",
         "Macros apply to functions, parameters, fields or enumerators only as documented: PTC_DOC on a tool, a hint "
         "on a parameter, PTC_EXAMPLE on a resource, PTC_MIME_TYPE on a tool, any macro on a struct declaration, or "
         "macros on a function that is not marked PTC_TOOL (a warning) would be silently ignored.",
         "Move the macro to the declaration it applies to, or remove it. See docs/ptc-gen.md, 'What the front end "
         "reads'.",
         Error},
    Rule{RuleId::InvalidAnswerType, "ptc/invalid-answer-type", "InvalidAnswerType",
         "PTC_ANSWER marks something that is not one named struct or enum.",
         "An answer type is a struct or an enum with a name; PTC_ANSWER on a field, function, parameter, "
         "enumerator, alias, variable, template or unnamed type is refused.",
         "Put PTC_ANSWER on the struct or enum the agent answers with: struct PTC_ANSWER Verdict { ... };. See "
         "docs/ptc-gen.md, 'What the front end reads' (answer types).",
         Error},
    Rule{RuleId::UnlistedHeader, "ptc/unlisted-header", "UnlistedHeader",
         "A tool is declared in an included header that this run does not generate.",
         "Only declarations spelled in a listed header are generated; a PTC_TOOL, PTC_RESOURCE, PTC_PROMPT or "
         "PTC_ANSWER in an included header that is not listed is left out (once per header).",
         "Add the header to ptc_generate's HEADERS, or to ptc-gen's command line. See docs/ptc-gen.md, 'How headers "
         "are parsed'.",
         Warning},
    Rule{RuleId::InvalidParameter, "ptc/invalid-parameter", "InvalidParameter",
         "A parameter cannot be filled from the model's JSON arguments.",
         "Parameters are named and taken by value or const reference; ptc::ToolContext& is taken once, by "
         "non-const reference. A T& or T&& parameter cannot be written back to the model.",
         "Name the parameter and take it by value or const T&; return what the tool produces. See docs/ptc-gen.md, "
         "'What the front end reads' (parameters).",
         Error},
    Rule{RuleId::InvalidResult, "ptc/invalid-result", "InvalidResult",
         "A function's result cannot be sent back to the model.",
         "Results are void, T, const T&, ptc::ToolResult<T> or std::expected<T, E>; a non-const reference cannot be "
         "held, and a resource's reader must return what is read.",
         "Return the value. See docs/ptc-gen.md, 'What the front end reads' (results).", Error},
    Rule{RuleId::UnknownParamDoc, "ptc/unknown-param-doc", "UnknownParamDoc",
         "A \\param in a doc comment names no parameter of the function.",
         "Parameter docs come from \\param lines; one that names no parameter documents nothing, usually after a "
         "rename.",
         "Fix the name, or remove the \\param line. See docs/ptc-gen.md, 'What the front end reads' (parameter "
         "docs).",
         Warning},
    Rule{RuleId::InvalidSignature, "ptc/invalid-signature", "InvalidSignature",
         "A PTC_SIGNATURE does not fit the C++ types, or the signature cannot be built.",
         "PTC_SIGNATURE is checked against the function's C++ types (docs/signatures.md); a signature must also "
         "read back from its Malli text.",
         "Make the shorthand signature agree with the parameters and result, or remove PTC_SIGNATURE. See "
         "docs/ptc-gen.md, 'What the front end reads' (PTC_SIGNATURE).",
         Error},
    Rule{RuleId::InvalidExample, "ptc/invalid-example", "InvalidExample",
         "A PTC_EXAMPLE is not JSON, or its arguments are not a JSON object.",
         "PTC_EXAMPLE(in, out) takes two string literals: the arguments as a JSON object and the result as JSON.",
         "Write both as JSON, e.g. PTC_EXAMPLE(R\"({\"query\": \"x\"})\", R\"([])\"). See docs/ptc-gen.md, 'What the "
         "front end reads'.",
         Error},
    Rule{RuleId::ConflictingMarkers, "ptc/conflicting-markers", "ConflictingMarkers",
         "Two markers on one function contradict each other.",
         "A function is one tool, resource or prompt; PTC_READ_ONLY and PTC_DESTRUCTIVE, PTC_READ_ONLY and "
         "PTC_ADDITIVE, PTC_ADDITIVE and PTC_DESTRUCTIVE exclude each other.",
         "Keep the marker that is true; for a second role declare another function that calls this one. See "
         "docs/ptc-gen.md, 'What the front end reads' (hints, resources and prompts).",
         Error},
    Rule{RuleId::InvalidResource, "ptc/invalid-resource", "InvalidResource",
         "A PTC_RESOURCE's URI, MIME type or parameters do not fit together.",
         "PTC_RESOURCE takes a URI or URI template; without PTC_SIGNATURE each template variable is a parameter and "
         "each parameter a variable, every parameter is given as a string, and PTC_MIME_TYPE is type/subtype.",
         "Name each URI variable after a parameter, e.g. PTC_RESOURCE(\"tracker://issues/{key}\"). See "
         "docs/ptc-gen.md, 'What the front end reads' (resources and prompts).",
         Error},
    Rule{RuleId::InvalidPrompt, "ptc/invalid-prompt", "InvalidPrompt",
         "A PTC_PROMPT's result or parameters cannot become MCP prompt messages.",
         "A prompt returns std::string or a std::vector of {role, text} structs, and clients send its arguments as "
         "strings.",
         "Return the text or the messages, and take parameters a string decodes to. See docs/ptc-gen.md, 'What the "
         "front end reads' (resources and prompts).",
         Error},
    Rule{RuleId::InvalidCompleter, "ptc/invalid-completer", "InvalidCompleter",
         "A PTC_COMPLETE names no parameter, or no function generated code can call.",
         "PTC_COMPLETE(argument, function) names a parameter of the prompt or resource and a function, found as an "
         "unqualified call would find it, that takes the text typed so far and returns std::vector<std::string>.",
         "Declare std::vector<std::string> f(std::string_view typed) beside the function. See docs/ptc-gen.md, 'What "
         "the front end reads' (PTC_COMPLETE).",
         Error},
    Rule{RuleId::NameCollision, "ptc/name-collision", "NameCollision",
         "Two tools, fields, enumerators or headers would share one name.",
         "Tools and prompts are unique by name and resources by URI; fields of a struct by JSON name; enumerators of "
         "an enum by name; headers of one run by stem (they would write the same files).",
         "Rename one of them (PTC_TOOL(\"other\"), PTC_NAME). See docs/ptc-gen.md, 'What the front end reads'.", Error},
    Rule{RuleId::InvalidConstraint, "ptc/invalid-constraint", "InvalidConstraint",
         "A PTC_RANGE or PTC_PATTERN does not fit its type.",
         "PTC_RANGE(lo, hi) applies to numbers with lo <= hi (integer bounds for integers); PTC_PATTERN to strings, "
         "with a pattern RE2 takes; each once.",
         "Fix the bounds or the pattern, or move it to a parameter of the right type. See docs/ptc-gen.md, 'What the "
         "front end reads' (PTC_RANGE).",
         Error},
    Rule{RuleId::RangeExceedsType, "ptc/range-exceeds-type", "RangeExceedsType",
         "A PTC_RANGE allows values its C++ type cannot hold.",
         "The decoder refuses values the type cannot hold, so the part of the range beyond the type only misleads "
         "the model.",
         "Narrow the range to what the type holds. See docs/ptc-gen.md, 'What the front end reads' (PTC_RANGE).",
         Warning},
    Rule{RuleId::InvalidDefault, "ptc/invalid-default", "InvalidDefault",
         "A default argument is not a constant the signature can state.",
         "Defaults are literals, enumerators, std::nullopt or {} and constant expressions of a supported type, and "
         "must fit the parameter's type.",
         "Use a constant of the parameter's type, or take std::optional<T> and apply the default inside the "
         "function. See docs/ptc-gen.md, 'What the front end reads' (defaults).",
         Error},
    Rule{RuleId::UnitsNotDescribed, "ptc/units-not-described", "UnitsNotDescribed",
         "A tool's description has no room to say the units of its durations.",
         "Durations reach the model as bare integers, so ptc appends their units to the description; when that "
         "would pass 200 characters the sentence is left out.",
         "Shorten the description, or say the units in it. See docs/ptc-gen.md, 'What the front end reads' "
         "(units).",
         Warning},
    Rule{RuleId::UnstatedHints, "ptc/unstated-hints", "UnstatedHints",
         "A tool states no behaviour hints, so MCP clients treat it as destructive and open-world.",
         "Without PTC_READ_ONLY, PTC_ADDITIVE, PTC_DESTRUCTIVE, PTC_IDEMPOTENT or PTC_OPEN_WORLD a tool gets MCP's "
         "worst-case hints, and hosts ask before each call or refuse it.",
         "State what the tool does, e.g. PTC_READ_ONLY. See docs/ptc-gen.md, 'Outputs' (notes).", Note},
    Rule{RuleId::ProviderProfile, "ptc/provider-profile", "ProviderProfile",
         "A provider's schema rules cannot express a tool.",
         "Every tool is rendered for each provider profile; a failure in the portable profile is an error, in other "
         "profiles a warning (an error when the profile is required).",
         "Change the type the profile cannot express, or do not serve that provider. See docs/ptc-gen.md, "
         "'Outputs'.",
         Error},
    Rule{RuleId::RuntimeRefusal, "ptc/runtime-refusal", "RuntimeRefusal",
         "The runtime would refuse a generated tool, resource, prompt or schema.",
         "The emitter builds each definition as the runtime will (ptc::Tool, ptc::Resource, ptc::PromptTemplate) "
         "and reads every schema back from its text, so refusals surface at generation time.",
         "Follow the message; it is the runtime's own. See docs/ptc-gen.md, 'Outputs'.", Error},
    Rule{RuleId::UnreadableHeader, "ptc/unreadable-header", "UnreadableHeader",
         "A header named on the command line cannot be read.", "Each header ptc-gen is given must be a readable file.",
         "Fix the path in ptc_generate's HEADERS or on the command line. See docs/ptc-gen.md.", Error},
    Rule{RuleId::Drift, "ptc/drift", "Drift", "The committed generated files differ from what ptc-gen generates now.",
         "ptc-gen --check compares the files committed in a directory with what it would write. A result per "
         "drifted tool is located at its declaration; drift no tool accounts for (a missing file, shared code, a "
         "tool that no longer exists) is located at the header.",
         "Regenerate the committed files (`cmake --build <build> --target <target>_ptc_update`) and commit them. "
         "See docs/ptc-gen.md, 'Diagnostics for CI'.",
         Error},
    Rule{RuleId::TokenBudget, "ptc/token-budget", "TokenBudget",
         "A tool's largest rendering costs more o200k_base tokens than the budget allows.",
         "Each tool is rendered for every provider; the most expensive rendering, counted with OpenAI's o200k_base "
         "encoding, must stay within the budget (ptc_generate's TOKEN_BUDGET or PTC_TOKEN_BUDGET).",
         "Shorten the tool's description, parameter docs or types, or raise the budget. See docs/ptc-gen.md.", Warning},
    Rule{RuleId::ClangLexical, "clang/lexical-or-preprocessor-issue", "ClangLexicalOrPreprocessorIssue",
         "Clang: a lexical or preprocessor problem in the header.",
         "Clang reports it while reading the header as C++ with the build's flags (a missing include, a bad "
         "macro).",
         "Fix the header or the include directories; the build's compiler would report it too.", Error},
    Rule{RuleId::ClangSemantic, "clang/semantic-issue", "ClangSemanticIssue",
         "Clang: a semantic problem in the header.",
         "Clang reports it while reading the header (an unknown type, a failed static_assert).",
         "Fix the header; the build's compiler would report it too.", Error},
    Rule{RuleId::ClangParse, "clang/parse-issue", "ClangParseIssue", "Clang: the header does not parse.",
         "Clang reports a syntax error while reading the header.", "Fix the syntax.", Error},
    Rule{RuleId::ClangLambda, "clang/lambda-issue", "ClangLambdaIssue", "Clang: a problem with a lambda.",
         "Clang reports a problem with a lambda expression in the header.", "Fix the lambda.", Error},
    Rule{RuleId::ClangModules, "clang/modules-issue", "ClangModulesIssue", "Clang: a problem with modules.",
         "Clang reports a problem with C++ or Clang modules while reading the header.",
         "Fix the module setup, or parse the header without modules.", Error},
    Rule{RuleId::ClangConcepts, "clang/concepts-issue", "ClangConceptsIssue",
         "Clang: a problem with concepts or constraints.",
         "Clang reports a problem with a concept or a requires clause in the header.", "Fix the constraint.", Error},
    Rule{RuleId::ClangCoroutines, "clang/coroutines-issue", "ClangCoroutinesIssue",
         "Clang: a problem with a coroutine.", "Clang reports a problem with a coroutine in the header.",
         "Fix the coroutine.", Error},
    Rule{RuleId::ClangUserDefined, "clang/user-defined-issue", "ClangUserDefinedIssue",
         "Clang: a diagnostic the header asks for.",
         "The header produced a diagnostic on purpose (#warning, a diagnose_if attribute).",
         "Read the header's own message.", Warning},
    Rule{RuleId::ClangValueConversion, "clang/value-conversion-issue", "ClangValueConversionIssue",
         "Clang: a value changes in a conversion.", "Clang reports an implicit conversion that changes a value.",
         "Convert explicitly, or use a type that holds the value.", Warning},
    Rule{RuleId::ClangDocumentation, "clang/documentation-issue", "ClangDocumentationIssue",
         "Clang: a problem in a doc comment.", "Clang reports a malformed doc comment (-Wdocumentation).",
         "Fix the doc comment; ptc-gen reads tool descriptions from them.", Warning},
    Rule{RuleId::ClangDeprecations, "clang/deprecations", "ClangDeprecations", "Clang: use of a deprecated entity.",
         "Clang reports the use of something marked deprecated.", "Use its replacement.", Warning},
    Rule{RuleId::ClangFormatString, "clang/format-string-issue", "ClangFormatStringIssue",
         "Clang: a format string does not match its arguments.",
         "Clang reports a printf-style format string that does not match its arguments.",
         "Fix the format string or the arguments.", Warning},
    Rule{RuleId::ClangUnusedEntity, "clang/unused-entity-issue", "ClangUnusedEntityIssue",
         "Clang: something is declared and never used.", "Clang reports an unused variable, function or value.",
         "Remove it, or mark it [[maybe_unused]].", Warning},
    Rule{RuleId::ClangDiagnostic, "clang/diagnostic", "ClangDiagnostic", "Clang: another problem in the header.",
         "A diagnostic of clang's whose category has no rule of its own.",
         "Fix the header; the build's compiler would report it too.", Error},
};

constexpr bool table_in_order() {
  for (std::size_t i = 0; i < kRules.size(); ++i)
    if (static_cast<std::size_t>(kRules[i].rule) != i) return false;
  return true;
}
static_assert(table_in_order(), "one row per RuleId, in the enum's order");
static_assert(kRules.size() == static_cast<std::size_t>(RuleId::ClangDiagnostic) + 1);

}  // namespace

std::span<const Rule> rules() { return kRules; }

const Rule& rule(RuleId id) { return kRules[static_cast<std::size_t>(id)]; }

std::string_view id_of(RuleId id) { return rule(id).id; }

std::size_t rule_index(RuleId id) { return static_cast<std::size_t>(id); }

const Rule* find_rule(std::string_view id) {
  for (const auto& r : kRules)
    if (r.id == id) return &r;
  return nullptr;
}

RuleId clang_rule(std::string_view category) {
  std::string slug = "clang/";
  bool dash = false;
  for (char c : category) {
    if (std::isalnum(static_cast<unsigned char>(c))) {
      if (dash && slug.size() > 6) slug += '-';
      dash = false;
      slug += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    } else {
      dash = true;
    }
  }
  const Rule* found = find_rule(slug);
  return found ? found->rule : RuleId::ClangDiagnostic;
}

std::string_view severity_name(Severity severity) {
  switch (severity) {
    case Severity::Error: return "error";
    case Severity::Warning: return "warning";
    case Severity::Note: return "note";
  }
  return "error";
}

}  // namespace ptcgen::diagnostics
