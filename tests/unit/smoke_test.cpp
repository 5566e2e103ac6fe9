#include <gtest/gtest.h>
#include <ptc/ptc.hpp>
TEST(Smoke, Parses) { EXPECT_TRUE(ptc::Signature::parse("(a :int) -> :string").ok()); }
