// Every diagnostic the front end reports is recorded under a rule of the table, clang's own by their
// category; the text it prints is the same with or without the log. tests/generator/tool's
// diagnostics_test.cpp covers the rules of the emitter, --check and the command line.
#include <gtest/gtest.h>

#include <map>
#include <set>
#include <string>

#include "diagnostics/diagnostic.hpp"
#include "extract_fixture.hpp"

namespace ptcgen::test {
namespace {

using diagnostics::RuleId;

class ExtractDiagnostics : public ExtractTest {
 protected:
  /// The rules of what extracting `text` (after kPreamble) reports.
  std::set<std::string> rules_of(const std::string& text) {
    diagnostics::Log log;
    extract::Options options;
    options.log = &log;
    run(std::string(kPreamble) + text, options);
    std::set<std::string> out;
    for (const auto& d : log.diagnostics()) out.insert(d.rule);
    last_ = log;
    return out;
  }
  diagnostics::Log last_;
};

/// One header per rule, each reporting (at least) that rule.
const std::map<RuleId, std::string>& cases() {
  static const std::map<RuleId, std::string> kCases{
      {RuleId::UnsupportedType, "/// D.\nPTC_TOOL() int f(char c);\n"},
      {RuleId::TypeLimit,
       "template <int N> struct S { std::vector<S<N + 1>> next; };\n/// D.\nPTC_TOOL() int f(S<0> s);\n"},
      {RuleId::RecursiveType, "struct Node { std::vector<Node> kids; };\n/// D.\nPTC_TOOL() int f(Node n);\n"},
      {RuleId::DepthLimit,
       "struct D { int x; };\nstruct C { D d; };\nstruct B { C c; };\nstruct A { B b; };\n/// D.\n"
       "PTC_TOOL() int f(A a);\n"},
      {RuleId::UnsupportedFunction, "/// D.\nPTC_TOOL() int f(int n, ...);\n"},
      {RuleId::AmbiguousOverload, "/// D.\nPTC_TOOL() int f(int a);\n/// D.\nPTC_TOOL() int f(double a);\n"},
      {RuleId::InvalidName, "/// D.\nPTC_TOOL(\"Bad Name\") int f();\n"},
      {RuleId::MissingDescription, "PTC_TOOL() int f();\n"},
      {RuleId::InvalidDescription, "/// " + std::string(201, 'x') + "\nPTC_TOOL() int f();\n"},
      {RuleId::InvalidAnnotation, "/// D.\nPTC_TOOL() PTC_TITLE(3) int f();\n"},
      {RuleId::MisplacedAnnotation, "/// D.\nPTC_READ_ONLY int f();\n"},
      {RuleId::InvalidAnswerType, "struct S { int x PTC_ANSWER; };\n"},
      {RuleId::UnlistedHeader, "#include \"other.hpp\"\n"},
      {RuleId::InvalidParameter, "/// D.\nPTC_TOOL() int f(int& n);\n"},
      {RuleId::InvalidResult, "int global;\n/// D.\nPTC_TOOL() int& f();\n"},
      {RuleId::UnknownParamDoc, "/// D.\n/// \\param nope gone\nPTC_TOOL() int f();\n"},
      {RuleId::InvalidSignature, "/// D.\nPTC_TOOL() PTC_SIGNATURE(\"(a :string) -> :int\") int f(int a);\n"},
      {RuleId::InvalidExample, "/// D.\nPTC_TOOL() PTC_EXAMPLE(\"[1]\", \"2\") int f(int a);\n"},
      {RuleId::ConflictingMarkers, "/// D.\nPTC_TOOL() PTC_READ_ONLY PTC_DESTRUCTIVE int f();\n"},
      {RuleId::InvalidResource, "/// D.\nPTC_RESOURCE(\"shop://items/{sku}\") std::string item();\n"},
      {RuleId::InvalidPrompt, "/// D.\nPTC_PROMPT() int p();\n"},
      {RuleId::InvalidCompleter, "/// D.\nPTC_PROMPT() PTC_COMPLETE(name, nothing) std::string p(std::string name);\n"},
      {RuleId::NameCollision,
       "namespace a {\n/// D.\nPTC_TOOL() int f();\n}\nnamespace b {\n/// D.\nPTC_TOOL() int f();\n}\n"},
      {RuleId::InvalidConstraint, "/// D.\nPTC_TOOL() int f(PTC_RANGE(0, 5) std::string s);\n"},
      {RuleId::RangeExceedsType, "/// D.\nPTC_TOOL() int f(PTC_RANGE(0, 1000) std::int8_t x);\n"},
      {RuleId::InvalidDefault, "int g();\n/// D.\nPTC_TOOL() int f(int a = g());\n"},
      {RuleId::UnitsNotDescribed,
       "#include <chrono>\n/// " + std::string(190, 'x') + "\nPTC_TOOL() int wait(std::chrono::milliseconds t);\n"},
      {RuleId::ClangSemantic, "static_assert(false, \"no\");\n"},
      {RuleId::ClangParse, "int f( ;\n"},
      {RuleId::ClangLexical, "#include \"missing.hpp\"\n"},
  };
  return kCases;
}

TEST_F(ExtractDiagnostics, EachRuleOfTheFrontEndIsReported) {
  write("other.hpp", "#pragma once\n#include <ptc/annotate.hpp>\n/// D.\nPTC_TOOL() int elsewhere();\n");
  for (const auto& [rule, text] : cases()) {
    SCOPED_TRACE(text);
    const std::string id(diagnostics::id_of(rule));
    EXPECT_EQ(rules_of(text).count(id), 1u) << id << "\n" << diagnostics_;
  }
}

// The rules no header given to the front end reaches: the emitter's, --check's, the command line's, the
// token budget (another part of ptc-gen) and clang categories without a case above.
TEST(ExtractDiagnosticsTable, EveryFrontEndRuleHasACase) {
  const std::set<RuleId> elsewhere{RuleId::UnstatedHints,    RuleId::ProviderProfile, RuleId::RuntimeRefusal,
                                   RuleId::UnreadableHeader, RuleId::Drift,           RuleId::TokenBudget};
  for (const auto& r : diagnostics::rules()) {
    if (elsewhere.count(r.rule) || (r.id.starts_with("clang/") && !cases().count(r.rule))) continue;
    EXPECT_EQ(cases().count(r.rule), 1u) << r.id;
  }
}

TEST_F(ExtractDiagnostics, RecordsWhatTheTextSays) {
  write("other.hpp", "");
  const std::string text = "/// D.\nPTC_TOOL() int f(char c);\n/// D.\n/// \\param nope gone\nPTC_TOOL() int g();\n";
  run(std::string(kPreamble) + text);
  const std::string printed = diagnostics_;
  rules_of(text);
  EXPECT_EQ(diagnostics_, printed) << "the log does not change the text";
  const auto& log = last_.diagnostics();
  ASSERT_EQ(log.size(), 2u);
  EXPECT_EQ(log[0].rule, "ptc/unsupported-type");
  EXPECT_EQ(log[0].severity, diagnostics::Severity::Error);
  EXPECT_EQ(log[0].location.line, 7u);
  EXPECT_EQ(log[0].location.column, 23u);
  EXPECT_EQ(log[0].tool, "f");
  ASSERT_EQ(log[0].notes.size(), 1u);
  EXPECT_TRUE(log[0].notes[0].location.file.empty()) << "the recommendation";
  EXPECT_NE(printed.find("t.hpp:7:23: error: " + log[0].message), std::string::npos);
  EXPECT_EQ(log[1].rule, "ptc/unknown-param-doc");
  EXPECT_EQ(log[1].severity, diagnostics::Severity::Warning);
  EXPECT_EQ(log[1].tool, "g");
}

TEST_F(ExtractDiagnostics, ClangWarningsCarryTheirFlag) {
  rules_of("#warning look here\n/// D.\nPTC_TOOL() PTC_READ_ONLY int f();\n");
  ASSERT_EQ(last_.diagnostics().size(), 1u);
  EXPECT_EQ(last_.diagnostics()[0].flag, "-W#warnings");
  EXPECT_TRUE(last_.diagnostics()[0].rule.starts_with("clang/"));
}

TEST_F(ExtractDiagnostics, WithoutPrintingOnlyTheLogHasThem) {
  diagnostics::Log log;
  extract::Options options;
  options.log = &log;
  options.print = false;
  auto result = run(std::string(kPreamble) + "/// D.\nPTC_TOOL() int f(char c);\nFoo g();\n", options);
  EXPECT_TRUE(result.failed);
  EXPECT_EQ(diagnostics_, "");
  EXPECT_EQ(log.diagnostics().size(), 1u);
  EXPECT_TRUE(log.has_errors());
}

}  // namespace
}  // namespace ptcgen::test
