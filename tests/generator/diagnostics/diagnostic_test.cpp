// The log: order as reported, notes on the last diagnostic, unknown rules refused.
#include <gtest/gtest.h>

#include "diagnostics/diagnostic.hpp"

namespace ptcgen::diagnostics {
namespace {

TEST(Log, KeepsTheOrderAndAttachesNotes) {
  Log log;
  log.note({"dropped: nothing to attach to", {}});
  log.add(RuleId::UnstatedHints, Severity::Note, "first", {"a.hpp", 3, 1}, "f");
  log.add(RuleId::UnsupportedType, Severity::Warning, "second", {"a.hpp", 1, 1});
  log.note({"use std::string", {}});
  log.note({"declared here", {"b.hpp", 2, 5}});
  ASSERT_EQ(log.diagnostics().size(), 2u);
  EXPECT_EQ(log.diagnostics()[0].message, "first");
  EXPECT_EQ(log.diagnostics()[0].rule, "ptc/unstated-hints");
  EXPECT_TRUE(log.diagnostics()[0].notes.empty());
  EXPECT_EQ(log.diagnostics()[1].notes.size(), 2u);
  EXPECT_FALSE(log.has_errors());
  Diagnostic d;
  d.rule = "ptc/token-budget";  // as another part adds it, by id
  d.message = "over";
  log.add(d);
  EXPECT_TRUE(log.has_errors());
  log.clear();
  EXPECT_TRUE(log.empty());
}

TEST(LogDeathTest, AnUnknownRuleStopsTheProgram) {
  Log log;
  Diagnostic d;
  d.rule = "ptc/not-in-the-table";
  EXPECT_DEATH(log.add(d), "not in the rule table");
}

}  // namespace
}  // namespace ptcgen::diagnostics
