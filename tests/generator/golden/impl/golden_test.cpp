// The committed golden outputs, compiled and exercised: registration, decoding with the validator's
// coercions and messages, encoding, and renderings byte-identical to what the runtime renders.

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <ptc/ptc.hpp>

#include "containers.ptc.hpp"
#include "scalars.ptc.hpp"
#include "structs.ptc.hpp"
#include "tools.ptc.hpp"

namespace {

using json = nlohmann::json;

std::string read_expected(const std::string& name) {
  const std::string stem = name.substr(0, name.find('.'));
  std::ifstream in(std::string(PTC_GOLDEN_DIR) + "/expected/" + stem + "/" + name, std::ios::binary);
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

class Calls {
 public:
  explicit Calls(std::vector<ptc::Tool> tools) {
    for (auto& t : tools) registry_.add(std::move(t));
  }
  /// Arguments as JSON text, the way OpenAI sends them.
  ptc::ToolOutcome call(const std::string& name, const std::string& arguments, ptc::Mode mode = ptc::Mode::Enabled) {
    ptc::DispatchOptions options;
    options.mode = mode;
    return registry_.dispatch(session_, ptc::ToolCall{"call_1", name, json(arguments)}, options);
  }
  const ptc::ToolRegistry& registry() const { return registry_; }

 private:
  ptc::ToolRegistry registry_;
  ptc::Session session_;
};

std::vector<std::string> issues(const std::vector<ptc::Issue>& list) {
  std::vector<std::string> out;
  for (const auto& i : list) out.push_back(i.path + ": " + i.message);
  return out;
}

void expect_renderings_match(const std::string& stem, const std::vector<ptc::Tool>& tools) {
  // What ptc-gen rendered into the listing is what the runtime renders from the signature, read from
  // its Malli text.
  for (const auto& tool : tools) {
    SCOPED_TRACE(tool.name());
    ASSERT_NE(tool.listing(), nullptr);
    auto texts = ptc::render_tool_listing(tool);
    ASSERT_TRUE(texts) << texts.error().message;
    EXPECT_EQ(tool.listing()->signature, texts->signature);
    EXPECT_EQ(tool.listing()->mcp_input, texts->mcp_input);
    EXPECT_EQ(tool.listing()->mcp_output, texts->mcp_output);
    EXPECT_EQ(tool.listing()->mcp_result, texts->mcp_result);
  }
  EXPECT_EQ(ptc::render_tool_list(tools), read_expected(stem + ".tools.md"));
  auto document = ptc::tools_document(tools);
  ASSERT_TRUE(document) << document.error().message;
  EXPECT_EQ(document->dump(2) + "\n", read_expected(stem + ".tools.json"));
}

TEST(GoldenRenderings, PromptTextAndSchemasAreWhatTheRuntimeRenders) {
  golden::tools::Counter counter;
  expect_renderings_match("scalars", ptc_gen::scalars::tools());
  expect_renderings_match("containers", ptc_gen::containers::tools());
  expect_renderings_match("structs", ptc_gen::structs::tools());
  auto tools = ptc_gen::tools::tools();
  for (auto& t : ptc_gen::tools::tools(counter)) tools.push_back(t);
  expect_renderings_match("tools", tools);
}

TEST(GoldenScalars, QuirkyArgumentsAreCoercedWithWarnings) {
  Calls calls(ptc_gen::scalars::tools());
  auto out = calls.call("echo", R"({"size": "large", "color": "blue", "user": "42", "percent": 50, "ratio": "0.5",
      "huge": 7, "count": 3, "byte": "255", "big_int": -9007199254740993, "small_int": "-7",
      "flag": "true", "text": "hi"})");
  ASSERT_EQ(out.status, ptc::CallStatus::Succeeded) << out.rendered;
  EXPECT_THAT(issues(out.validation.warnings),
              ::testing::ElementsAre("flag: coerced string \"true\" to bool", "small_int: coerced string \"-7\" to int",
                                     "byte: coerced string \"255\" to int", "ratio: coerced string \"0.5\" to float",
                                     "user: coerced string \"42\" to int"));
  const json& v = *out.result.value;
  EXPECT_EQ(v["text"], "hi");
  EXPECT_EQ(v["flag"], true);
  EXPECT_EQ(v["small_int"], -7);
  EXPECT_EQ(v["big_int"], -9007199254740993);
  EXPECT_EQ(v["byte"], 255);
  EXPECT_EQ(v["percent"], 50.0);
  EXPECT_EQ(v["user"], 42);
  EXPECT_EQ(v["color"], "blue");
  EXPECT_EQ(v["size"], "large");
}

TEST(GoldenScalars, BrokenArgumentsAreReportedWithPathsInParameterOrder) {
  Calls calls(ptc_gen::scalars::tools());
  auto out = calls.call("echo", R"({"byte": 300, "flag": "yes", "small_int": 42.0, "count": -1, "color": "pink",
      "text": 5, "big_int": 1, "huge": 1, "ratio": 1, "percent": 1, "user": 1, "size": "small"})");
  ASSERT_EQ(out.status, ptc::CallStatus::InvalidArguments);
  EXPECT_THAT(issues(out.validation.errors),
              ::testing::ElementsAre("text: expected string, got int 5", "flag: expected bool, got string \"yes\"",
                                     "small_int: expected int, got float 42.0", "byte: expected value <= 255, got 300",
                                     "count: expected value >= 0, got -1",
                                     "color: expected one of [\"red\", \"green\", \"blue\"], got \"pink\""));
}

TEST(GoldenScalars, TimesAndDurationsTravelAsTextAndCounts) {
  Calls calls(ptc_gen::scalars::tools());
  auto clock = calls.call("read_clock", "{}");
  ASSERT_EQ(clock.status, ptc::CallStatus::Succeeded) << clock.rendered;
  EXPECT_EQ(*clock.result.value, (json{{"now", "2025-12-29T10:30:00Z"}, {"today", "2025-12-29"}}));
  auto waited = calls.call("wait", R"({"timeout": 2500})");
  ASSERT_EQ(waited.status, ptc::CallStatus::Succeeded) << waited.rendered;
  EXPECT_EQ(*waited.result.value, 2);
}

TEST(GoldenContainers, EveryContainerRoundTrips) {
  Calls calls(ptc_gen::containers::tools());
  const json bag = {{"numbers", {1, 2}},
                    {"names", {"a", "b"}},
                    {"samples", {0.5}},
                    {"rgb", {1, 2, 3}},
                    {"tags", {"x", "y"}},
                    {"ids", {7}},
                    {"counts", {{"a", 1}}},
                    {"groups", {{"g", {"m"}}}},
                    {"note", nullptr},
                    {"boxed", 4},
                    {"shared", "s"},
                    {"entry", {"k", 1}},
                    {"triple", {1, "two", true}},
                    {"id_or_key", "PTC-1"},
                    {"maybe_number", nullptr},
                    {"extra", {{"any", {1, "thing"}}}}};
  auto out = calls.call("store", json{{"bag", bag}}.dump());
  ASSERT_EQ(out.status, ptc::CallStatus::Succeeded) << out.rendered;
  EXPECT_EQ(*out.result.value, bag);
  EXPECT_EQ(*calls.call("sum", R"({"values": [1, "2", 3]})").result.value, 6);
  EXPECT_EQ(*calls.call("count_words", R"({"words": ["a", "b", "a"]})").result.value, (json{{"a", 2}, {"b", 1}}));
}

TEST(GoldenContainers, ArraysNeedTheirExactLengthAndSetsUniqueItems) {
  Calls calls(ptc_gen::containers::tools());
  auto out =
      calls.call("store", R"({"bag": {"numbers": [], "names": [], "samples": [], "rgb": [1, 2], "tags": ["x", "x"],
      "ids": [], "counts": {}, "groups": {}, "boxed": null, "shared": null, "entry": ["k", 1], "triple": [1, "t", false],
      "id_or_key": 1, "maybe_number": 2, "extra": null}})");
  ASSERT_EQ(out.status, ptc::CallStatus::InvalidArguments);
  EXPECT_THAT(issues(out.validation.errors), ::testing::ElementsAre("bag.rgb: expected list of 3 items, got 2",
                                                                    "bag.tags[1]: duplicate item (same as [0])"));
}

TEST(GoldenStructs, NestedStructsTemplatesAndFirewalledFields) {
  Calls calls(ptc_gen::structs::tools());
  auto out = calls.call("list_customers", R"({"limit": "1"})");
  ASSERT_EQ(out.status, ptc::CallStatus::Succeeded) << out.rendered;
  const json& page = *out.result.value;
  EXPECT_EQ(page["total"], 2);
  ASSERT_EQ(page["items"].size(), 1u);
  EXPECT_EQ(page["items"][0]["_tax_number"], "GB-123");                                 // C++ and telemetry see it
  EXPECT_THAT(out.rendered, ::testing::HasSubstr("\"_tax_number\":\"<Firewalled>\""));  // the model does not
  EXPECT_THAT(out.rendered, ::testing::Not(::testing::HasSubstr("GB-123")));
}

TEST(GoldenStructs, RangesAndPatternsAreCheckedOnInput) {
  Calls calls(ptc_gen::structs::tools());
  auto out = calls.call("list_customers", R"({"limit": 0, "offset": -1})");
  ASSERT_EQ(out.status, ptc::CallStatus::InvalidArguments);
  EXPECT_THAT(issues(out.validation.errors),
              ::testing::ElementsAre("offset: expected value >= 0, got -1", "limit: expected value >= 1, got 0"));
}

TEST(GoldenStructs, RecursiveStructsStillDecodeAndEncode) {
  Calls calls(ptc_gen::structs::tools());
  auto out = calls.call("categories", "{}");
  ASSERT_EQ(out.status, ptc::CallStatus::Succeeded) << out.rendered;
  EXPECT_EQ(out.result.value->json()["children"][1]["children"][0]["name"], "jazz");
}

TEST(GoldenTools, DefaultsOverloadsAndExplicitSignatures) {
  Calls calls(ptc_gen::tools::tools());
  EXPECT_EQ(*calls.call("convert", R"({"value": 100, "to": "fahrenheit"})").result.value, 212.0);
  EXPECT_EQ(*calls.call("search", R"({"query": "q", "limit": 2})").result.value, (json{"q 1", "q 2"}));
  EXPECT_EQ(*calls.call("shout", R"({"text": "hey"})").result.value, "HEY");
  EXPECT_EQ(*calls.call("greet", R"({"who": "Ada"})").result.value, "Hello, Ada!");
  EXPECT_EQ(*calls.call("label", "{}").result.value, "none x-2 *1.500000");
  // Defaults given by constant expressions are their values.
  EXPECT_EQ(*calls.call("page", "{}").result.value, "40 newest");
  EXPECT_EQ(*calls.call("label", R"({"text": "t", "loud": true, "times": null, "suffix": "s"})").result.value,
            "t! x-2 *1.500000 s");
}

TEST(GoldenTools, ToolResultsVoidAndContext) {
  Calls calls(ptc_gen::tools::tools());
  auto failed = calls.call("divide", R"({"a": 1, "b": 0})");
  EXPECT_EQ(failed.status, ptc::CallStatus::Failed);
  EXPECT_EQ(failed.rendered, "Division by zero.");
  EXPECT_EQ(*calls.call("divide", R"({"a": 1, "b": 4})").result.value, 0.25);
  auto idle = calls.call("idle", R"({"seconds": 2})");
  EXPECT_EQ(idle.status, ptc::CallStatus::Succeeded) << idle.rendered;
  EXPECT_EQ(calls.call("idle", R"({"seconds": 61})").status, ptc::CallStatus::InvalidArguments);
}

TEST(GoldenTools, MemberToolsCallTheInstance) {
  golden::tools::Counter counter;
  Calls calls(ptc_gen::tools::tools(counter));
  calls.call("add", R"({"amount": 5})");
  calls.call("add", "{}");
  EXPECT_EQ(counter.value(), 6);
  EXPECT_EQ(*calls.call("value", "{}").result.value, 6);
}

}  // namespace
