#include <span>
#include <utility>

#include <gtest/gtest.h>

#include <ptc/tool_catalog.hpp>

namespace {

using nlohmann::json;

ptc::Tool search_tool() {
  return ptc::make_tool("search", "Search the knowledge base.",
                        "(query :string, limit :int?) -> [{id :int, title :string}]", {},
                        ptc::ToolOptions{.examples = {{"Find refunds", json::parse(R"({"query": "refund"})"),
                                                       json::parse(R"([{"id": 7, "title": "Refunds"}])")}}});
}

ptc::Tool now_tool() { return ptc::make_tool("now", "Current time, ISO 8601.", "() -> :string"); }

TEST(ToolCatalog, DescribeKeepsEveryPartInOrder) {
  std::vector<ptc::Tool> tools = {search_tool(), now_tool()};
  auto described = ptc::describe_tools(tools);
  ASSERT_EQ(described.size(), 2u);
  EXPECT_EQ(described[0].name, "search");
  EXPECT_EQ(described[0].description, "Search the knowledge base.");
  EXPECT_EQ(described[0].signature,
            ptc::Signature::parse("(query :string, limit :int?) -> [{id :int, title :string}]").value());
  ASSERT_EQ(described[0].examples.size(), 1u);
  EXPECT_EQ(described[0].examples[0].description, "Find refunds");
  EXPECT_EQ(described[0].examples[0].input, json::parse(R"({"query": "refund"})"));
  EXPECT_EQ(described[0].examples[0].output, json::parse(R"([{"id": 7, "title": "Refunds"}])"));
  EXPECT_EQ(described[1].name, "now");
  EXPECT_TRUE(described[1].examples.empty());
}

TEST(ToolCatalog, DescribeToolsOfNothing) { EXPECT_TRUE(ptc::describe_tools(std::span<const ptc::Tool>()).empty()); }

TEST(ToolCatalog, ToolListIncludesExamples) {
  std::vector<ptc::Tool> tools = {search_tool(), now_tool()};
  EXPECT_EQ(ptc::render_tool_list(tools),
            "## Tools you can call\n"
            "\n"
            "search(query :string, limit :int?) -> [{id :int, title :string}]\n"
            "  Search the knowledge base.\n"
            "  Example: Find refunds\n"
            "    input: {\"query\":\"refund\"}\n"
            "    output: [{\"id\":7,\"title\":\"Refunds\"}]\n"
            "\n"
            "now() -> :string\n"
            "  Current time, ISO 8601.\n");
}

TEST(ToolCatalog, ToolListOfToolsEqualsThatOfTheirDescriptions) {
  std::vector<ptc::Tool> tools = {now_tool(), search_tool()};
  auto described = ptc::describe_tools(tools);
  EXPECT_EQ(ptc::render_tool_list(tools), ptc::render_tool_list(std::span<const ptc::ToolDescription>(described)));
}

TEST(ToolCatalog, DocumentExactly) {
  std::vector<ptc::Tool> tools = {search_tool(), now_tool()};
  auto doc = ptc::tools_document(tools);
  ASSERT_TRUE(doc.ok()) << doc.error().to_string();
  EXPECT_EQ(
      doc->dump(),
      R"({"tools":[)"
      R"({"name":"search","description":"Search the knowledge base.",)"
      R"("signature":"(query :string, limit :int?) -> [{id :int, title :string}]",)"
      R"("malli":"[:=> [:cat :string [:maybe :int]] [:vector [:map [:id :int] [:title :string]]]]",)"
      R"("input_schema":{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object",)"
      R"("properties":{"query":{"type":"string"},"limit":{"anyOf":[{"type":"integer"},{"type":"null"}]}},)"
      R"("required":["query"],"additionalProperties":false},)"
      R"("output_schema":{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"array",)"
      R"("items":{"type":"object","properties":{"id":{"type":"integer"},"title":{"type":"string"}},)"
      R"("required":["id","title"],"additionalProperties":false}},)"
      R"("annotations":{"readOnlyHint":false,"destructiveHint":true,"idempotentHint":false,"openWorldHint":true}},)"
      R"({"name":"now","description":"Current time, ISO 8601.","signature":"() -> :string",)"
      R"("malli":"[:=> [:cat] :string]",)"
      R"("input_schema":{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object",)"
      R"("properties":{},"additionalProperties":false},)"
      R"("output_schema":{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"string"},)"
      R"("annotations":{"readOnlyHint":false,"destructiveHint":true,"idempotentHint":false,"openWorldHint":true}})"
      R"(]})");
}

TEST(ToolCatalog, DocumentUsesTheProfile) {
  std::vector<ptc::Tool> tools = {search_tool()};
  auto doc = ptc::tools_document(tools, ptc::Profile::OpenAI);
  ASSERT_TRUE(doc.ok()) << doc.error().to_string();
  EXPECT_EQ((*doc)["tools"][0]["input_schema"].dump(),
            R"({"type":"object","properties":{"query":{"type":"string"},"limit":{"type":["integer","null"]}},)"
            R"("required":["query","limit"],"additionalProperties":false})");
}

TEST(ToolCatalog, EmptyDocument) {
  auto doc = ptc::tools_document(std::span<const ptc::Tool>());
  ASSERT_TRUE(doc.ok());
  EXPECT_EQ(doc->dump(), R"({"tools":[]})");
}

TEST(ToolCatalog, DocumentErrorNamesTheTool) {
  std::vector<ptc::Tool> tools = {now_tool(), ptc::make_tool("tag", "Tags things.", "(meta :map) -> :string")};
  auto doc = ptc::tools_document(tools, ptc::Profile::OpenAI);
  ASSERT_FALSE(doc.ok());
  EXPECT_EQ(doc.error().to_string(),
            "tool 'tag': openai cannot express a map with dynamic keys (:map / [:map-of K V]); use a map with named "
            "fields at meta");
  EXPECT_TRUE(ptc::tools_document(tools, ptc::Profile::Portable).ok());
}

TEST(ToolCatalog, DocumentChecksToolNamesPerProfile) {
  std::vector<ptc::Tool> tools = {ptc::make_tool("1st", "First.", "() -> :int")};
  auto doc = ptc::tools_document(tools, ptc::Profile::Gemini);
  ASSERT_FALSE(doc.ok());
  EXPECT_EQ(doc.error().to_string(),
            "tool '1st': gemini: tool name \"1st\" must match ^[a-zA-Z_][a-zA-Z0-9_.-]{0,63}$");
  EXPECT_TRUE(ptc::tools_document(tools, ptc::Profile::OpenAI).ok());
}

TEST(ToolCatalog, ToolSchemasAreTheDocumentsAndFailLikeIt) {
  // What ptc-gen checks each tool against each profile with: the entry's schemas, the same errors.
  const ptc::Tool search = search_tool();
  for (auto profile : {ptc::Profile::Portable, ptc::Profile::OpenAI, ptc::Profile::Gemini}) {
    auto schemas = ptc::tool_schemas(search, profile);
    ASSERT_TRUE(schemas.ok()) << schemas.error().to_string();
    auto doc = ptc::tools_document(std::span<const ptc::Tool>(&search, 1), profile);
    ASSERT_TRUE(doc.ok());
    EXPECT_EQ(schemas->input, (*doc)["tools"][0]["input_schema"]);
    EXPECT_EQ(schemas->output, (*doc)["tools"][0]["output_schema"]);
  }
  for (const auto& [tool, profile] :
       {std::pair{ptc::make_tool("tag", "Tags things.", "(meta :map) -> :string"), ptc::Profile::OpenAI},
        std::pair{ptc::make_tool("1st", "First.", "() -> :int"), ptc::Profile::Gemini}}) {
    auto schemas = ptc::tool_schemas(tool, profile);
    auto doc = ptc::tools_document(std::span<const ptc::Tool>(&tool, 1), profile);
    ASSERT_FALSE(schemas.ok());
    ASSERT_FALSE(doc.ok());
    EXPECT_EQ(schemas.error().to_string(), doc.error().to_string());
  }
}

TEST(ToolCatalog, CheckToolParametersIsToolSchemasWithoutTheResult) {
  // Refused for its parameters or its name: the same error as tool_schemas.
  for (const auto& [tool, profile] :
       {std::pair{ptc::make_tool("tag", "Tags things.", "(meta :map) -> :string"), ptc::Profile::OpenAI},
        std::pair{ptc::make_tool("1st", "First.", "() -> :int"), ptc::Profile::Gemini}}) {
    auto refused = ptc::check_tool_parameters(tool, profile);
    ASSERT_TRUE(refused.has_value());
    EXPECT_EQ(refused->to_string(), ptc::tool_schemas(tool, profile).error().to_string());
    EXPECT_FALSE(ptc::check_tool_parameters(tool, ptc::Profile::Portable).has_value());
  }
  // Refused for its result only: under the portable rules, which the chat profiles render results with.
  auto signature = ptc::Signature::from_malli(R"([:=> [:cat :string] [:and :string [:re "(?i)x"]]])");
  ASSERT_TRUE(signature.ok()) << signature.error().to_string();
  const ptc::Tool find(ptc::ToolSpec{"find", "Finds.", *signature});
  for (auto profile : {ptc::Profile::OpenAI, ptc::Profile::Anthropic, ptc::Profile::Gemini}) {
    EXPECT_EQ(ptc::result_rules(profile), ptc::Profile::Portable);
    EXPECT_FALSE(ptc::check_tool_parameters(find, profile).has_value());
    ASSERT_FALSE(ptc::tool_schemas(find, profile).ok());
  }
  auto portable = ptc::tool_schemas(find, ptc::Profile::Portable);
  ASSERT_FALSE(portable.ok());
  EXPECT_EQ(portable.error().to_string().rfind("tool 'find': portable cannot express [:re \"(?i)x\"]", 0), 0u)
      << portable.error().to_string();
  EXPECT_EQ(ptc::result_rules(ptc::Profile::Mcp), ptc::Profile::Mcp);
  EXPECT_EQ(ptc::result_rules(ptc::Profile::Portable), ptc::Profile::Portable);
}

}  // namespace
