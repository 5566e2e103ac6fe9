// The rule table: one row per id, each with what SARIF needs and GitHub shows.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "diagnostics/rules.hpp"

namespace ptcgen::diagnostics {
namespace {

TEST(Rules, EveryRowIsComplete) {
  std::set<std::string_view> ids;
  std::set<std::string_view> names;
  for (const Rule& r : rules()) {
    SCOPED_TRACE(std::string(r.id));
    EXPECT_TRUE(r.id.starts_with("ptc/") || r.id.starts_with("clang/"));
    EXPECT_EQ(r.id.find_first_not_of("abcdefghijklmnopqrstuvwxyz-/"), std::string_view::npos);
    EXPECT_TRUE(ids.insert(r.id).second) << "ids are unique";
    EXPECT_TRUE(names.insert(r.name).second) << "names are unique";
    EXPECT_FALSE(r.short_description.empty());
    EXPECT_FALSE(r.full_description.empty());
    EXPECT_FALSE(r.help.empty());
    EXPECT_TRUE(r.short_description.ends_with("."));
    EXPECT_EQ(&rule(r.rule), &r);
    EXPECT_EQ(find_rule(r.id), &r);
  }
  EXPECT_GE(ids.size(), 15u);
}

TEST(Rules, TheIdsOthersRelyOn) {
  for (const char* id : {"ptc/unsupported-type", "ptc/invalid-annotation", "ptc/invalid-default", "ptc/name-collision",
                         "ptc/drift", "ptc/token-budget", "clang/semantic-issue", "clang/parse-issue",
                         "clang/lexical-or-preprocessor-issue", "clang/diagnostic"})
    EXPECT_NE(find_rule(id), nullptr) << id;
  EXPECT_EQ(rule(RuleId::TokenBudget).default_severity, Severity::Warning);
  EXPECT_NE(rule(RuleId::TokenBudget).short_description.find("o200k_base"), std::string_view::npos);
  EXPECT_EQ(find_rule("ptc/no-such-rule"), nullptr);
}

TEST(Rules, ClangCategoriesMapToTheirRowOrTheFallback) {
  EXPECT_EQ(clang_rule("Semantic Issue"), RuleId::ClangSemantic);
  EXPECT_EQ(clang_rule("Parse Issue"), RuleId::ClangParse);
  EXPECT_EQ(clang_rule("Lexical or Preprocessor Issue"), RuleId::ClangLexical);
  EXPECT_EQ(clang_rule("Unused Entity Issue"), RuleId::ClangUnusedEntity);
  EXPECT_EQ(clang_rule("#pragma message Directive"), RuleId::ClangDiagnostic);
  EXPECT_EQ(clang_rule(""), RuleId::ClangDiagnostic);
}

}  // namespace
}  // namespace ptcgen::diagnostics
