#include <gtest/gtest.h>

#include <ptc/signature.hpp>
#include <ptc/tool_list.hpp>

namespace {

ptc::ToolDescription tool(std::string name, const char* sig, std::string description) {
  return {std::move(name), std::move(description), ptc::Signature::parse(sig).value(), {}};
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
  EXPECT_EQ(ptc::render_tool_entry(tool("tag", "(tags [:set :string], code [:and :string [:re \"^[A-Z]+$\"]]) -> :nil",
                                        "Tags.")),
            "tag(tags [:set :string], code [:and :string [:re \"^[A-Z]+$\"]]) -> :nil\n  Tags.\n");
}

// What the JSON Schema carries in "description" and "default" the prompt carries too, a line per
// parameter that has either, after the description.
ptc::ToolDescription from_malli(const char* malli, std::string description) {
  return {"search", std::move(description), ptc::Signature::from_malli(malli).value(), {}};
}

TEST(Prompt, ParametersWithADocOrADefaultGetALine) {
  auto t = from_malli(
      R"([:=> [:catn [:query {:doc "Words to look for."} :string] [:limit {:optional true :default 10} [:maybe :int]]
                  [:sort {:optional true :default "new" :doc "Order of results"} [:maybe :string]] [:page :int]] :int])",
      "Searches.");
  EXPECT_EQ(ptc::render_tool_entry(t),
            "search(query :string, limit :int?, sort :string?, page :int) -> :int\n"
            "  Searches.\n"
            "  query: Words to look for.\n"
            "  limit: default 10\n"
            "  sort: Order of results (default \"new\")\n");
}

TEST(Prompt, ADefaultGoesInsideTheDocsSentenceAndLongDocsAreIndented) {
  auto t =
      from_malli(R"([:=> [:catn [:n {:optional true :default 3 :doc "How many.\nAt most 7."} [:maybe :int]]] :int])",
                 "Counts.");
  EXPECT_EQ(ptc::render_tool_entry(t),
            "search(n :int?) -> :int\n  Counts.\n  n: How many.\n    At most 7 (default 3).\n");
}

TEST(Prompt, EmptyListStillHasTheHeading) { EXPECT_EQ(ptc::render_tool_list({}), "## Tools you can call\n"); }

ptc::ToolDescription with_examples(ptc::ToolDescription t, std::vector<ptc::ToolExample> examples) {
  t.examples = std::move(examples);
  return t;
}

ptc::ToolExample example(std::string description, const char* input, const char* output) {
  return {std::move(description), nlohmann::json::parse(input), nlohmann::json::parse(output)};
}

TEST(Prompt, ExamplesFollowTheDescription) {
  auto t = with_examples(tool("search", "(query :string, limit :int) -> [{id :int, title :string}]", "Search."),
                         {example("Find refunds", R"({"query": "refund", "limit": 2})",
                                  R"([{"title": "Refunds", "id": 7}])")});
  EXPECT_EQ(ptc::render_tool_entry(t),
            "search(query :string, limit :int) -> [{id :int, title :string}]\n"
            "  Search.\n"
            "  Example: Find refunds\n"
            "    input: {\"limit\":2,\"query\":\"refund\"}\n"
            "    output: [{\"id\":7,\"title\":\"Refunds\"}]\n");
}

TEST(Prompt, EveryExampleInOrder) {
  auto t = with_examples(tool("inc", "(n :int) -> :int", "Adds one.\nSaturates."),
                         {example("Small", R"({"n": 1})", "2"), example("Large", R"({"n": 41})", "42")});
  EXPECT_EQ(ptc::render_tool_entry(t),
            "inc(n :int) -> :int\n"
            "  Adds one.\n"
            "  Saturates.\n"
            "  Example: Small\n"
            "    input: {\"n\":1}\n"
            "    output: 2\n"
            "  Example: Large\n"
            "    input: {\"n\":41}\n"
            "    output: 42\n");
}

TEST(Prompt, ExampleJsonIsCompactWithSortedKeysAtEveryLevel) {
  auto t =
      with_examples(tool("f", "(b {z :int, a [:string]}, a :string?) -> {y :nil, x :float}", "F."),
                    {example("Nested", R"({"b": {"z": 1, "a": ["p", "q"]}, "a": null})", R"({"y": null, "x": 1.5})")});
  EXPECT_EQ(ptc::render_tool_entry(t),
            "f(b {z :int, a [:string]}, a :string?) -> {y :nil, x :float}\n"
            "  F.\n"
            "  Example: Nested\n"
            "    input: {\"a\":null,\"b\":{\"a\":[\"p\",\"q\"],\"z\":1}}\n"
            "    output: {\"x\":1.5,\"y\":null}\n");
}

TEST(Prompt, ExampleWithoutDescription) {
  auto t = with_examples(tool("t", ":int", "T."), {example("", "{}", "1")});
  EXPECT_EQ(ptc::render_tool_entry(t), "t() -> :int\n  T.\n  Example:\n    input: {}\n    output: 1\n");
}

TEST(Prompt, MultiLineExampleDescriptionIsIndented) {
  auto t = with_examples(tool("t", ":int", "T."), {example("First.\nSecond.", "{}", "1")});
  EXPECT_EQ(ptc::render_tool_entry(t),
            "t() -> :int\n  T.\n  Example: First.\n    Second.\n    input: {}\n    output: 1\n");
}

TEST(Prompt, ExampleValuesHideFirewalledFields) {
  auto t = with_examples(tool("login", "(user :string, _password :string) -> {ok :bool, _session :string}", "Log in."),
                         {example("Ann", R"({"user": "ann", "_password": "hunter2"})",
                                  R"({"ok": true, "_session": "abc"})")});
  EXPECT_EQ(ptc::render_tool_entry(t),
            "login(user :string, _password :string) -> {ok :bool, _session :string}\n"
            "  Log in.\n"
            "  Example: Ann\n"
            "    input: {\"_password\":\"<Firewalled>\",\"user\":\"ann\"}\n"
            "    output: {\"_session\":\"<Firewalled>\",\"ok\":true}\n");
}

TEST(Prompt, ExamplesInTheListKeepEntriesSeparated) {
  std::vector<ptc::ToolDescription> tools = {with_examples(tool("a", ":int", "A."), {example("One", "{}", "1")}),
                                             tool("b", ":int", "B.")};
  EXPECT_EQ(ptc::render_tool_list(tools),
            "## Tools you can call\n"
            "\n"
            "a() -> :int\n  A.\n  Example: One\n    input: {}\n    output: 1\n"
            "\n"
            "b() -> :int\n  B.\n");
}

}  // namespace
