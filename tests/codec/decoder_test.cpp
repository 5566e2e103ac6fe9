// ptc::codec::Decoder on its own: what an optimistic decoder records (nothing) and what it notes.

#include <gtest/gtest.h>

#include <ptc/codec/decoder.hpp>

namespace {

using ptc::Issue;
using ptc::Mode;
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

}  // namespace
