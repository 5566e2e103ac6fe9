// ptc::codec::Decoder on its own: what an optimistic decoder records (nothing) and what it notes, and
// where refusals (numbers a type cannot hold) go in each mode.

#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <ptc/codec/decoder.hpp>
#include <ptc/limits.hpp>

namespace {

using ptc::Issue;
using ptc::Mode;
using ptc::Validation;
using ptc::codec::Decoder;

TEST(Decoder, AnOptimisticDecoderRecordsNothingButNotesTheSurprise) {
  for (Mode mode : {Mode::Strict, Mode::Enabled, Mode::WarnOnly, Mode::Disabled}) {
    Decoder d = Decoder::optimistic(mode);
    EXPECT_TRUE(d.is_optimistic());
    EXPECT_FALSE(d.surprised());
    d.push("a");
    d.warn("a warning");
    EXPECT_TRUE(d.surprised());
    Decoder e = Decoder::optimistic(mode);
    e.error("an error");
    EXPECT_TRUE(e.surprised());
    Decoder f = Decoder::optimistic(mode);
    f.adopt_error(Issue{"a", "adopted"});
    f.adopt_warning(Issue{"a", "adopted"});
    EXPECT_TRUE(f.surprised());
    for (const Decoder* x : {&d, &e, &f}) {
      EXPECT_TRUE(x->errors().empty());
      EXPECT_TRUE(x->warnings().empty());
    }
  }
}

// A union tries its alternatives with trial decoders, which must record what they find even under an
// optimistic decoder: the closest alternative is chosen by its issues.
TEST(Decoder, ATrialOfAnOptimisticDecoderRecords) {
  Decoder d = Decoder::optimistic(Mode::Enabled);
  d.push("x");
  Decoder t = d.trial();
  EXPECT_FALSE(t.is_optimistic());
  t.error("no");
  ASSERT_EQ(t.errors().size(), 1u);
  EXPECT_EQ(t.errors()[0], (Issue{"x", "no"}));
  EXPECT_FALSE(d.surprised());
}

TEST(Decoder, AReportingDecoderIsNeverSurprised) {
  Decoder d(Mode::Enabled);
  EXPECT_FALSE(d.is_optimistic());
  d.warn("w");
  d.error("e");
  EXPECT_FALSE(d.surprised());
  EXPECT_EQ(d.errors().size(), 1u);
  EXPECT_EQ(d.warnings().size(), 1u);
}

// A refusal is an error in every mode, warn_only and disabled included; an ordinary error follows the
// mode (a warning in warn_only, nothing in disabled).
TEST(Decoder, ARefusalIsAnErrorInEveryMode) {
  for (Mode mode : {Mode::Strict, Mode::Enabled, Mode::WarnOnly, Mode::Disabled}) {
    SCOPED_TRACE(std::string(ptc::mode_name(mode)));
    Decoder d(mode);
    d.push("n");
    d.error("ordinary");
    EXPECT_FALSE(d.refused());
    d.refuse("beyond the type");
    EXPECT_TRUE(d.refused());
    const Issue ordinary{"n", "ordinary"}, refused{"n", "beyond the type"};
    switch (mode) {
      case Mode::Strict:
      case Mode::Enabled:
        EXPECT_EQ(d.errors(), (std::vector<Issue>{ordinary, refused}));
        EXPECT_EQ(d.refusals(), (std::vector<bool>{false, true}));
        break;
      case Mode::WarnOnly:
        EXPECT_EQ(d.errors(), (std::vector<Issue>{refused}));
        EXPECT_EQ(d.warnings(), (std::vector<Issue>{ordinary}));
        break;
      case Mode::Disabled:
        EXPECT_EQ(d.errors(), (std::vector<Issue>{refused}));
        EXPECT_TRUE(d.warnings().empty());
        break;
    }
    Decoder o = Decoder::optimistic(mode);
    o.refuse("beyond the type");
    EXPECT_TRUE(o.surprised());
    EXPECT_TRUE(o.errors().empty());
  }
}

// A union adopts its closest alternative's errors with their flags: a refusal stays one.
TEST(Decoder, AnAdoptedRefusalStaysARefusal) {
  Decoder d(Mode::Disabled);
  Decoder t = d.trial();
  t.push(std::size_t{0});
  t.error("ordinary");
  t.refuse("beyond the type");
  EXPECT_EQ(t.errors().size(), 2u) << "a trial records everything";
  const std::vector<bool> flags = t.refusals();
  auto errors = t.take_errors();
  EXPECT_TRUE(t.refusals().empty());
  for (std::size_t i = 0; i < errors.size(); ++i) d.adopt_error(std::move(errors[i]), flags[i]);
  EXPECT_EQ(d.errors(), (std::vector<Issue>{{"[0]", "beyond the type"}}));
  EXPECT_TRUE(d.refused());
}

// Objects put their issues in field order: the flags move with their errors.
TEST(Decoder, RefusalsMoveWithTheirErrorsWhenReordered) {
  Decoder d(Mode::Enabled);
  const auto from = d.mark();
  d.push("b");
  d.refuse("b refused");
  d.pop();
  const auto middle = d.mark();
  d.push("a");
  d.error("a ordinary");
  d.pop();
  std::vector<Decoder::Span> spans{{from, middle, 1, "b"}, {middle, d.mark(), 0, "a"}};
  d.reorder(from, spans);
  EXPECT_EQ(d.errors(), (std::vector<Issue>{{"a", "a ordinary"}, {"b", "b refused"}}));
  EXPECT_EQ(d.refusals(), (std::vector<bool>{false, true}));
}

// The issues are capped as a Validation's are: the first limits::kStoredIssues of each kind (errors,
// refusals apart, and warnings) are stored in the order recorded, the rest counted, and the report
// keeps the first of all the errors with an exact count.
TEST(Decoder, StoresTheFirstIssuesOfEachKindAndCountsTheRest) {
  Decoder d(Mode::Enabled);
  std::vector<Issue> errors, warnings;
  for (std::size_t i = 0; i < 250; ++i) {
    d.push(i);
    const std::string at = "[" + std::to_string(i) + "]";
    d.warn("w");
    warnings.push_back({at, "w"});
    d.error("e");
    errors.push_back({at, "e"});
    if (i % 2) {
      d.refuse("r");
      errors.push_back({at, "r"});
    }
    d.pop();
  }
  const std::size_t cap = ptc::limits::kStoredIssues;
  EXPECT_EQ(d.warnings().size(), cap);
  EXPECT_EQ(d.errors().size(), 2 * cap) << "the first of each kind";
  EXPECT_EQ(d.warning_count(), 250u);
  EXPECT_EQ(d.error_count(), 375u);
  EXPECT_TRUE(d.refused());
  Validation v;
  d.take_report(v);
  EXPECT_EQ(v.errors, std::vector<Issue>(errors.begin(), errors.begin() + cap));
  EXPECT_EQ(v.more_errors, 375 - cap);
  EXPECT_EQ(v.warnings, std::vector<Issue>(warnings.begin(), warnings.begin() + cap));
  EXPECT_EQ(v.more_warnings, 250 - cap);
  EXPECT_EQ(d.error_count() + d.warning_count(), 0u);
}

// A tuple's length error is found after its items but belongs before them: stored there, the items'
// issues past the cap counted.
TEST(Decoder, AnErrorThatBelongsBeforeOthersIsStoredWhereItBelongs) {
  Decoder d(Mode::Enabled);
  const auto from = d.mark();
  for (std::size_t i = 0; i < 150; ++i) {
    d.push(i);
    d.error("item");
    d.pop();
  }
  d.error_at(from, "length");
  Validation v;
  d.take_report(v);
  ASSERT_EQ(v.errors.size(), ptc::limits::kStoredIssues);
  EXPECT_EQ(v.errors[0], (Issue{"(root)", "length"}));
  EXPECT_EQ(v.errors[1], (Issue{"[0]", "item"}));
  EXPECT_EQ(v.error_count(), 151u);
}

// A union adopts a trial's issues, stored and counted, as the validator does.
TEST(Decoder, AdoptingATrialKeepsItsCounts) {
  Decoder d(Mode::WarnOnly);
  Decoder t = d.trial();
  for (std::size_t i = 0; i < 130; ++i) {
    t.push(i);
    t.error("plain");
    t.pop();
  }
  for (std::size_t i = 130; i < 260; ++i) {
    t.push(i);
    t.refuse("refused");
    t.pop();
  }
  EXPECT_EQ(t.error_count(), 260u);
  d.adopt_warnings(t);
  d.adopt_errors(t, false);
  Validation v;
  d.take_report(v);
  ASSERT_EQ(v.errors.size(), ptc::limits::kStoredIssues);
  EXPECT_EQ(v.errors.front(), (Issue{"[130]", "refused"}));
  EXPECT_EQ(v.error_count(), 130u);
  ASSERT_EQ(v.warnings.size(), ptc::limits::kStoredIssues);
  EXPECT_EQ(v.warnings.front(), (Issue{"[0]", "plain"}));
  EXPECT_EQ(v.warning_count(), 130u);
}

}  // namespace
