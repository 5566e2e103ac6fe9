// cases/hints.hpp registered: the markers become the tools' hints, PTC_ADDITIVE alone states every hint
// false, and a tool without markers keeps MCP's worst-case defaults.

#include <gtest/gtest.h>

#include <ptc/ptc.hpp>

#include "hints.ptc.hpp"

namespace {

ptc::ToolHints hints_of(const ptc::ToolRegistry& registry, const char* name) {
  auto tool = registry.find(name);
  EXPECT_TRUE(tool.has_value()) << name;
  return tool ? tool->hints() : ptc::ToolHints{};
}

TEST(GoldenHints, MarkersBecomeTheToolsHints) {
  ptc::ToolRegistry registry;
  golden::hints::Store store;
  ptc_gen::hints::register_tools(registry);
  ptc_gen::hints::register_tools(registry, store);
  EXPECT_EQ(hints_of(registry, "lookup"), (ptc::ToolHints{true, false, false, false}));
  EXPECT_EQ(hints_of(registry, "file_note"), ptc::ToolHints{});
  EXPECT_EQ(hints_of(registry, "set_flag"), (ptc::ToolHints{false, false, true, true}));
  EXPECT_EQ(hints_of(registry, "erase_all"), (ptc::ToolHints{false, true, false, false}));
  EXPECT_EQ(hints_of(registry, "unmarked"), ptc::ToolHints::unstated());
  EXPECT_EQ(hints_of(registry, "count"), ptc::ToolHints::unstated());
  EXPECT_EQ(hints_of(registry, "add"), ptc::ToolHints{});
}

// The committed sources are compiled here without ptc_generate's PTC_GEN_SERVER_* definitions, as
// after running ptc-gen by hand: register_tools then offers no name or version.
TEST(GoldenHints, WithoutPtcGenerateNoServerIdentityIsOffered) {
  ptc::ToolRegistry registry;
  ptc_gen::hints::register_tools(registry);
  EXPECT_EQ(registry.offered_server_identity().name, "");
  EXPECT_EQ(registry.offered_server_identity().version, "");
}

}  // namespace
