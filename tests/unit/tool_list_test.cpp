#include <gtest/gtest.h>

#include <ptc/tool_list.hpp>

namespace {

ptc::ToolDescription tool(std::string name, const char* sig, std::string description) {
  return {std::move(name), std::move(description), ptc::Signature::parse(sig).value()};
}

TEST(Prompt, ToolListMatchesTheSpecExample) {
  std::vector<ptc::ToolDescription> tools = {
      tool("search", "(query :string, limit :int) -> [{id :int, title :string}]", "Search for items matching query."),
      tool("get_user", "(id :int) -> {name :string, email :string?}", "Fetch user by ID. Email may be null."),
  };
  EXPECT_EQ(ptc::render_tool_list(tools),
            "## Tools you can call\n"
            "\n"
            "search(query :string, limit :int) -> [{id :int, title :string}]\n"
            "  Search for items matching query.\n"
            "\n"
            "get_user(id :int) -> {name :string, email :string?}\n"
            "  Fetch user by ID. Email may be null.\n");
}

TEST(Prompt, RegistrationOrderIsKept) {
  std::vector<ptc::ToolDescription> tools = {tool("zeta", ":int", "Z."), tool("alpha", ":int", "A.")};
  auto text = ptc::render_tool_list(tools);
  EXPECT_LT(text.find("zeta"), text.find("alpha"));
}

TEST(Prompt, NoInputToolsRenderEmptyParens) {
  EXPECT_EQ(ptc::render_tool_entry(tool("now", "{time :string}", "Current time.")),
            "now() -> {time :string}\n  Current time.\n");
}

TEST(Prompt, MultiLineDescriptionsAreIndented) {
  EXPECT_EQ(ptc::render_tool_entry(tool("t", ":int", "First line.\nSecond line.")),
            "t() -> :int\n  First line.\n  Second line.\n");
}

TEST(Prompt, ConstructsTheShorthandLacksRenderAsMalli) {
  EXPECT_EQ(ptc::render_tool_entry(tool("tag", "(tags [:set :string], code [:and :string [:re \"^[A-Z]+$\"]]) -> :nil", "Tags.")),
            "tag(tags [:set :string], code [:and :string [:re \"^[A-Z]+$\"]]) -> :nil\n  Tags.\n");
}

TEST(Prompt, EmptyListStillHasTheHeading) { EXPECT_EQ(ptc::render_tool_list({}), "## Tools you can call\n"); }

}  // namespace
