// cases/names.hpp run: PTC_NAME renames enumerators and fields alike in the schema, the decoder and the
// encoder, and hostile text reaches C++ and the model byte for byte.

#include <fstream>
#include <sstream>
#include <string>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <ptc/ptc.hpp>

#include "names.ptc.hpp"

namespace {

using json = nlohmann::json;

ptc::ToolOutcome call(const std::string& name, const std::string& arguments) {
  ptc::ToolRegistry registry;
  for (auto& t : ptc_gen::names::tools()) registry.add(std::move(t));
  ptc::Session session;
  return registry.dispatch(session, ptc::ToolCall{"call_1", name, json(arguments)}, {});
}

std::vector<std::string> issues(const std::vector<ptc::Issue>& list) {
  std::vector<std::string> out;
  for (const auto& i : list) out.push_back(i.path + ": " + i.message);
  return out;
}

TEST(GoldenNames, RenamedEnumeratorsDecodeEncodeAndDefault) {
  auto low = call("set_level", R"({"level": "low"})");
  ASSERT_EQ(low.status, ptc::CallStatus::Succeeded) << low.rendered;
  EXPECT_EQ(*low.result.value, "low");
  auto by_default = call("set_level", "{}");
  ASSERT_EQ(by_default.status, ptc::CallStatus::Succeeded) << by_default.rendered;
  EXPECT_EQ(*by_default.result.value, "high");
  // The C++ name is not a JSON name.
  auto cpp_name = call("set_level", R"({"level": "kLow"})");
  EXPECT_EQ(cpp_name.status, ptc::CallStatus::InvalidArguments);
}

TEST(GoldenNames, RenamedFieldsDecodeAndEncode) {
  auto out =
      call("rename_user", R"({"user": {"userName": "ada", "accessLevel": "low", "_token": "t-1"}, "name": "bob"})");
  ASSERT_EQ(out.status, ptc::CallStatus::Succeeded) << out.rendered;
  EXPECT_EQ(*out.result.value, (json{{"userName", "bob"}, {"accessLevel", "low"}, {"_token", "t-1"}}));
  EXPECT_THAT(out.rendered, ::testing::HasSubstr("\"_token\":\"<Firewalled>\""));
  // The C++ member names are not JSON names.
  auto cpp_names =
      call("rename_user", R"({"user": {"user_name": "ada", "level": "low", "api_token": "t"}, "name": "b"})");
  EXPECT_EQ(cpp_names.status, ptc::CallStatus::InvalidArguments);
  EXPECT_THAT(issues(cpp_names.validation.errors), ::testing::Contains("user.userName: missing required field"));
}

TEST(GoldenNames, HostileTextTravelsIntact) {
  // Every default as the header spells it.
  auto defaults = call("echo_text", "{}");
  ASSERT_EQ(defaults.status, ptc::CallStatus::Succeeded) << defaults.rendered;
  const json& d = *defaults.result.value;
  EXPECT_EQ(d["text"], std::string(R"x()ptc")ptc0" \n ??= )x"
                                   "caf\u00e9"));
  EXPECT_EQ(d["pattern"], "x)\"");
  EXPECT_EQ(d["closer"], "\")ptc\"");
  EXPECT_EQ(d["nul"], std::string("a\0b", 3));
  // Every enumerator name, the one that took the last free delimiter included.
  for (const std::string closer : {")ptc", ")ptc0", ")ptcz", ")ptc10", ")\"", "\\)ptc2\\\""}) {
    auto out = call("echo_text", json{{"closer", closer}}.dump());
    ASSERT_EQ(out.status, ptc::CallStatus::Succeeded) << out.rendered;
    EXPECT_EQ(out.result.value->json()["closer"], closer);
  }
  // The pattern, with its `)` and `"`, checks what it says.
  EXPECT_EQ(call("echo_text", R"({"pattern": "a)b"})").status, ptc::CallStatus::InvalidArguments);
  EXPECT_EQ(call("echo_text", R"({"pattern": "ab)\""})").status, ptc::CallStatus::Succeeded);
}

std::string read_expected(const std::string& name) {
  std::ifstream in(std::string(PTC_GOLDEN_DIR) + "/expected/names/" + name, std::ios::binary);
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

TEST(GoldenNames, TheSchemaCarriesDocsAndNamesByteForByte) {
  const auto tools = ptc_gen::names::tools();
  auto document = ptc::tools_document(tools);
  ASSERT_TRUE(document) << document.error().message;
  EXPECT_EQ(document->dump(2) + "\n", read_expected("names.tools.json"));
  EXPECT_EQ(ptc::render_tool_list(tools), read_expected("names.tools.md"));
  const json& echo = (*document)["tools"][2];
  EXPECT_EQ(echo["description"],
            R"(Text every way it can travel into generated code: a trigraph-like ??= stays, as do )ptc" and \ .)");
  EXPECT_EQ(echo["input_schema"]["properties"]["text"]["description"],
            std::string(R"doc(ends like a raw string: )ptc" )ptc0" )ptc1" )" \ ??= ??/ )doc") +
                "caf\u00e9 \u65e5\u672c tab \x01 end)ptc");
  EXPECT_EQ(echo["input_schema"]["properties"]["closer"]["anyOf"][0]["enum"][37], ")ptc10");
}

}  // namespace
