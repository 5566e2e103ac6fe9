// cases/answers.hpp run: the answer types' codecs and schemas are public in answers.ptc.hpp, so this
// file decodes and encodes them itself (as an agent does with its answer); each schema is the one a
// tool's signature holds for the type, and the standard types' schemas (ptc::codec::schema_of) are
// those ptc-gen writes for them.

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <ptc/codec.hpp>
#include <ptc/signature.hpp>
#include <ptc/tool_catalog.hpp>
#include <ptc/validate.hpp>

#include "answers.ptc.hpp"

namespace {

using json = nlohmann::json;
using ptc::codec::schema_of;
namespace answers = golden::answers;

std::string read_expected(const std::string& name) {
  std::ifstream in(std::string(PTC_GOLDEN_DIR) + "/expected/answers/" + name, std::ios::binary);
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

std::vector<std::string> issues(const std::vector<ptc::Issue>& list) {
  std::vector<std::string> out;
  for (const auto& i : list) out.push_back(i.path + ": " + i.message);
  return out;
}

const ptc::Tool& tool(const std::vector<ptc::Tool>& tools, const std::string& name) {
  for (const auto& t : tools)
    if (t.name() == name) return t;
  throw std::runtime_error("no tool " + name);
}

// What the validator says of `text` against the answer type's schema, as generated decoders promise to
// say it (docs/codecs.md, "The promise").
template <class T>
void expect_decodes_as_validated(const std::string& text) {
  T value;
  const ptc::Validation decoded = ptc::codec::decode_text(text, value);
  const ptc::Validation validated =
      ptc::validate_and_coerce(schema_of<T>(), json::parse(text),
                               {ptc::Direction::Input, ptc::Mode::Enabled, /*drop_undeclared=*/true});
  EXPECT_EQ(decoded.ok, validated.ok) << text;
  EXPECT_EQ(issues(decoded.errors), issues(validated.errors)) << text;
  EXPECT_EQ(issues(decoded.warnings), issues(validated.warnings)) << text;
}

TEST(GoldenAnswers, RenderingsAreWhatTheRuntimeRenders) {
  const auto tools = ptc_gen::answers::tools();
  EXPECT_EQ(ptc::render_tool_list(tools), read_expected("answers.tools.md"));
  auto document = ptc::tools_document(tools);
  ASSERT_TRUE(document) << document.error().message;
  EXPECT_EQ(document->dump(2) + "\n", read_expected("answers.tools.json"));
}

// The answer type no tool uses gets its schema, refinements and docs included.
TEST(GoldenAnswers, AnAnswerTypeNoToolUsesHasItsSchema) {
  EXPECT_EQ(ptc::render(schema_of<answers::Verdict>()),
            "{upheld :bool, score :int[0..100], confidence :enum[\"low\" \"medium\" \"high\"], "
            "evidence [{url :string, published [:and :string [:re \"^[0-9]{4}-[0-9]{2}-[0-9]{2}$\"]]?, "
            "severity :enum[\"minor\" \"major\"]}], note :string?, priority :int[1..5]?, took :int}");
  const ptc::MapEntry* score = schema_of<answers::Verdict>().find("score");
  ASSERT_NE(score, nullptr);
  EXPECT_EQ(score->doc, "0 to 100");
  EXPECT_EQ(schema_of<answers::Verdict>().find("took")->doc, "Unit: seconds.");
  EXPECT_EQ(ptc::render(schema_of<answers::Confidence>()), ":enum[\"low\" \"medium\" \"high\"]");
  // The recursion is :any, as in a signature.
  EXPECT_EQ(ptc::render(schema_of<answers::Thread>()), "{title :string, replies [:any]}");
}

// A type reached by an answer type and by tools has one schema: the one in the tools' signatures.
TEST(GoldenAnswers, SchemasAreThoseOfTheToolSignatures) {
  const auto tools = ptc_gen::answers::tools();
  const ptc::Signature& search = tool(tools, "search").signature();
  ASSERT_EQ(search.output().kind(), ptc::Kind::Vector);
  EXPECT_TRUE(search.output().item() == schema_of<answers::Evidence>())
      << ptc::render(search.output().item()) << " vs " << ptc::render(schema_of<answers::Evidence>());
  const ptc::Signature& rate = tool(tools, "rate").signature();
  ASSERT_EQ(rate.params().size(), 1u);
  EXPECT_TRUE(rate.params()[0].schema == schema_of<answers::Evidence>());
  EXPECT_TRUE(rate.output() == schema_of<answers::Confidence>());
  // Held inside another answer type, the same schema again.
  EXPECT_TRUE(schema_of<answers::Verdict>().find("evidence")->schema.item() == schema_of<answers::Evidence>());
}

template <class M>
void expect_field_schema(const char* name, M answers::Kinds::*) {
  const ptc::MapEntry* entry = schema_of<answers::Kinds>().find(name);
  ASSERT_NE(entry, nullptr) << name;
  EXPECT_TRUE(entry->schema == schema_of<M>()) << name << ": ptc-gen wrote " << ptc::to_malli(entry->schema)
                                               << ", schema_of says " << ptc::to_malli(schema_of<M>());
}

// ptc-gen's schema of each field, read by clang from the declaration, against the runtime's of the
// field's C++ type.
TEST(GoldenAnswers, StandardTypesHaveTheSchemasPtcGenWrites) {
  using K = answers::Kinds;
  expect_field_schema("text", &K::text);
  expect_field_schema("flag", &K::flag);
  expect_field_schema("tiny", &K::tiny);
  expect_field_schema("small", &K::small);
  expect_field_schema("number", &K::number);
  expect_field_schema("big_unsigned", &K::big_unsigned);
  expect_field_schema("wide", &K::wide);
  expect_field_schema("ratio", &K::ratio);
  expect_field_schema("precise", &K::precise);
  expect_field_schema("maybe_ints", &K::maybe_ints);
  expect_field_schema("names", &K::names);
  expect_field_schema("flags", &K::flags);
  expect_field_schema("triple", &K::triple);
  expect_field_schema("tags", &K::tags);
  expect_field_schema("ids", &K::ids);
  expect_field_schema("scores", &K::scores);
  expect_field_schema("groups", &K::groups);
  expect_field_schema("owned", &K::owned);
  expect_field_schema("shared", &K::shared);
  expect_field_schema("either", &K::either);
  expect_field_schema("two", &K::two);
  expect_field_schema("three", &K::three);
  expect_field_schema("at", &K::at);
  expect_field_schema("day", &K::day);
  expect_field_schema("timeout", &K::timeout);
  expect_field_schema("extra", &K::extra);
  EXPECT_EQ(schema_of<K>().entries().size(), 26u);
}

TEST(GoldenAnswers, AnAnswerDecodesAndEncodesOutsideTheGeneratedSource) {
  answers::Verdict verdict;
  const auto decoded = ptc::codec::decode_text(R"({"upheld": "true", "score": 87, "confidence": "high",
      "evidence": [{"url": "https://example.com/a", "published": "2025-01-02", "severity": "minor"}],
      "priority": 2, "took": 12, "reasoning": "not asked for"})",
                                               verdict);
  ASSERT_TRUE(decoded.ok) << decoded.report();
  EXPECT_THAT(issues(decoded.warnings), ::testing::ElementsAre("upheld: coerced string \"true\" to bool",
                                                               "reasoning: unexpected field (ignored)"));
  EXPECT_TRUE(verdict.upheld);
  EXPECT_EQ(verdict.score, 87);
  EXPECT_EQ(verdict.confidence, answers::Confidence::kHigh);
  ASSERT_EQ(verdict.evidence.size(), 1u);
  EXPECT_EQ(verdict.evidence[0].published, "2025-01-02");
  EXPECT_EQ(verdict.evidence[0].severity, answers::Severity::minor);
  EXPECT_EQ(verdict.note, std::nullopt);
  EXPECT_EQ(verdict.priority, 2);
  EXPECT_EQ(verdict.took, std::chrono::seconds(12));

  const std::string text = ptc::codec::to_text(verdict);
  EXPECT_EQ(text, R"({"confidence":"high","evidence":[{"published":"2025-01-02","severity":"minor",)"
                  R"("url":"https://example.com/a"}],"note":null,"priority":2,"score":87,"took":12,"upheld":true})");
  // What the encoder writes is a valid answer, read back as it was.
  EXPECT_TRUE(ptc::validate(schema_of<answers::Verdict>(), json::parse(text)).ok);
  answers::Verdict again;
  ASSERT_TRUE(ptc::codec::decode_text(text, again).ok);
  EXPECT_EQ(ptc::codec::to_text(again), text);
}

TEST(GoldenAnswers, AnswersAreCheckedAsTheValidatorChecksThem) {
  // Refinements (PTC_RANGE on an int and on an optional uint8_t, PTC_PATTERN), a wrong enumerator, a
  // missing field, coercions and an undeclared field.
  expect_decodes_as_validated<answers::Verdict>(
      R"({"upheld": true, "score": 101, "confidence": "sure", "evidence": [{"url": 5, "severity": "minor",
          "published": "yesterday"}], "priority": 9, "extra": 1})");
  expect_decodes_as_validated<answers::Verdict>(
      R"({"upheld": "false", "score": "7", "confidence": "low", "evidence": [], "priority": 300, "took": 1.0})");
  expect_decodes_as_validated<answers::Verdict>(
      R"({"upheld": true, "score": 0, "confidence": "medium", "evidence": [], "note": null, "took": -1})");
  answers::Verdict verdict;
  const auto refused =
      ptc::codec::decode_text(R"({"upheld": true, "score": 101, "confidence": "low", "evidence": [], "took": 1})",
                              verdict);
  EXPECT_FALSE(refused.ok);
  EXPECT_THAT(issues(refused.errors), ::testing::ElementsAre("score: expected value <= 100, got 101"));
}

TEST(GoldenAnswers, RecursiveAnswersDecodeInFull) {
  answers::Thread thread;
  const std::string text = R"({"replies":[{"replies":[{"replies":[],"title":"c"}],"title":"b"}],"title":"a"})";
  ASSERT_TRUE(ptc::codec::decode_text(text, thread).ok);
  ASSERT_EQ(thread.replies.size(), 1u);
  ASSERT_EQ(thread.replies[0].replies.size(), 1u);
  EXPECT_EQ(thread.replies[0].replies[0].title, "c");
  EXPECT_EQ(ptc::codec::to_text(thread), text);
}

TEST(GoldenAnswers, EveryStandardKindRoundTrips) {
  const json document = json::parse(R"({"text": "t", "flag": true, "tiny": -5, "small": 65535, "number": 3,
      "big_unsigned": 9007199254740993, "wide": -9007199254740993, "ratio": 0.5, "precise": 2.25,
      "maybe_ints": [1, null], "names": ["a"], "flags": [false], "triple": [1, 2, 3], "tags": ["x", "y"],
      "ids": [7], "scores": {"a": 1.5}, "groups": {"g": [1]}, "owned": "o", "shared": null, "either": "s",
      "two": [1, "b"], "three": [true, 1.5, "c"], "at": "2025-12-29T10:30:00Z", "day": "2025-12-29",
      "timeout": 250, "extra": {"any": [1, "thing"]}})");
  answers::Kinds kinds;
  const auto decoded = ptc::codec::decode_text(document.dump(), kinds);
  ASSERT_TRUE(decoded.ok) << decoded.report();
  EXPECT_TRUE(decoded.warnings.empty()) << decoded.report();
  EXPECT_EQ(kinds.timeout, std::chrono::milliseconds(250));
  ASSERT_NE(kinds.owned, nullptr);
  EXPECT_EQ(*kinds.owned, "o");
  EXPECT_EQ(ptc::codec::to_json_value(kinds), document);
  EXPECT_TRUE(ptc::validate(schema_of<answers::Kinds>(), ptc::codec::to_json_value(kinds)).ok);
}

}  // namespace
