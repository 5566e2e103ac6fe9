// The emitted shop.ptc.cpp, compiled with the project's warnings against compile/shop/shop.hpp: its
// tools register, describe themselves as tools.json says, and dispatch calls into the C++ functions.

#include <fstream>
#include <sstream>

#include <gtest/gtest.h>

#include <ptc/registry.hpp>
#include <ptc/tool_catalog.hpp>

#include "shop.ptc.hpp"

namespace {

std::string read(const std::string& name) {
  std::ifstream in(std::string(PTC_GENERATED_DIR) + "/" + name, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

class GeneratedCode : public ::testing::Test {
 protected:
  GeneratedCode() {
    ptc_gen::shop::register_tools(registry);
    ptc_gen::shop::register_tools(registry, tracker);
  }
  ptc::ToolOutcome call(const std::string& name, nlohmann::json arguments) {
    return registry.dispatch(session, ptc::ToolCall{"1", name, std::move(arguments)});
  }

  shop::Tracker tracker;
  ptc::ToolRegistry registry;
  ptc::Session session;
};

TEST_F(GeneratedCode, RegistersInDeclarationOrder) {
  std::vector<std::string> names;
  for (const auto& t : registry.tools()) names.push_back(t.name());
  EXPECT_EQ(names,
            (std::vector<std::string>{"search", "create", "tally", "describe", "pick", "wait", "count", "reset"}));
}

TEST_F(GeneratedCode, DescribesItselfAsToolsJsonAndToolsMdSay) {
  // The files list the tools in the model's declaration order; the registry got the member tools last.
  const auto doc = nlohmann::ordered_json::parse(read("shop.tools.json"));
  std::vector<ptc::Tool> tools;
  for (const auto& entry : doc["tools"]) tools.push_back(*registry.find(entry["name"].get<std::string>()));
  ASSERT_EQ(tools.size(), registry.size());
  EXPECT_EQ(ptc::tools_document(tools)->dump(2) + "\n", read("shop.tools.json"));
  EXPECT_EQ(ptc::render_tool_list(tools), read("shop.tools.md"));
}

TEST_F(GeneratedCode, DecodesCoercesAndCalls) {
  const auto out = call("search", {{"query", "crash"}, {"limit", "2"}});
  ASSERT_EQ(out.status, ptc::CallStatus::Succeeded) << out.validation.report() << out.rendered;
  ASSERT_EQ(out.validation.warnings.size(), 1u);
  EXPECT_EQ(out.validation.warnings[0].path, "limit");
  ASSERT_TRUE(out.result.value);
  ASSERT_EQ(out.result.value->json().size(), 2u);
  EXPECT_EQ(out.result.value->json()[1]["title"], "Issue 2 crash");
  EXPECT_EQ(out.result.value->json()[1]["_email"], "x@y.z");
}

TEST_F(GeneratedCode, DefaultsFillMissingParameters) {
  const auto out = call("search", {{"query", "x"}});
  ASSERT_EQ(out.status, ptc::CallStatus::Succeeded) << out.validation.report();
  EXPECT_EQ(out.result.value->json().size(), 10u);
}

TEST_F(GeneratedCode, ConstraintsAndEnumsAreChecked) {
  auto out = call("search", {{"query", "x"}, {"limit", 99}});
  EXPECT_EQ(out.status, ptc::CallStatus::InvalidArguments);
  ASSERT_EQ(out.validation.errors.size(), 1u);
  EXPECT_EQ(out.validation.errors[0].path, "limit");

  out = call("create", {{"issue", {{"id", 5}, {"title", "lower"}, {"_email", "e"}}}, {"priority", "urgent"}});
  EXPECT_EQ(out.status, ptc::CallStatus::InvalidArguments);
  ASSERT_EQ(out.validation.errors.size(), 2u) << out.validation.report();
  EXPECT_EQ(out.validation.errors[0].path, "issue.title");
  EXPECT_EQ(out.validation.errors[1].path, "priority");
}

TEST_F(GeneratedCode, ContextMembersAndVoid) {
  auto out = call("create", {{"issue", {{"id", 5}, {"title", "Crash"}, {"_email", "e"}}}, {"priority", "high"}});
  ASSERT_EQ(out.status, ptc::CallStatus::Succeeded) << out.validation.report();
  EXPECT_EQ(out.result.value->json()["id"], 1);

  EXPECT_EQ(*call("count", nlohmann::json::object()).result.value, 3);
  out = call("reset", nlohmann::json::object());
  ASSERT_EQ(out.status, ptc::CallStatus::Succeeded);
  EXPECT_TRUE(out.result.value->json().is_null());
  EXPECT_EQ(*call("count", nlohmann::json::object()).result.value, 0);
}

TEST_F(GeneratedCode, SpansOptionalsToolResultsVariantsAndExplicitSignatures) {
  auto out = call("tally", {{"words", {"a", "b", "a"}}, {"min_count", 2}});
  ASSERT_EQ(out.status, ptc::CallStatus::Succeeded) << out.validation.report();
  EXPECT_EQ(*out.result.value, (nlohmann::json{{"a", 2}}));
  out = call("tally", {{"words", {"a"}}, {"min_count", 0}});
  EXPECT_EQ(out.status, ptc::CallStatus::InvalidArguments);

  out = call("describe", {{"issue", {{"id", 1}, {"title", "Crash"}, {"_email", "e"}}}, {"loud", true}});
  ASSERT_EQ(out.status, ptc::CallStatus::Succeeded) << out.validation.report();
  EXPECT_EQ(*out.result.value, "CRASH");
  EXPECT_EQ(out.result.message, "described");

  out = call("pick", {{"pair", {7, "seven"}}, {"tags", {"text"}}});
  ASSERT_EQ(out.status, ptc::CallStatus::Succeeded) << out.validation.report();
  EXPECT_EQ(*out.result.value, "seven");

  out = call("wait", {{"delay_ms", 10}, {"retries", 2}});
  ASSERT_EQ(out.status, ptc::CallStatus::Succeeded) << out.validation.report();
  EXPECT_EQ(*out.result.value, 30);
  out = call("wait", {{"delay_ms", 10}, {"retries", 6}});
  EXPECT_EQ(out.status, ptc::CallStatus::InvalidArguments);
  ASSERT_EQ(out.validation.errors.size(), 1u);
  EXPECT_EQ(out.validation.errors[0].path, "retries");
}

}  // namespace
