// PTC_ANSWER -> HeaderModel::answers: structs and enums an agent answers with, mapped with the rules,
// limits and diagnostics of a tool's types whether or not a tool uses them; the marker anywhere else is
// an error where it is written.

#include "extract_fixture.hpp"

namespace ptcgen::test {
namespace {

using model::TypeKind;

class ExtractAnswers : public ExtractTest {};

TEST_F(ExtractAnswers, AnswerTypesAreRecordedWithWhatTheyHold) {
  auto h = ok(std::string(kPreamble) + R"(#include <optional>
namespace app {
enum class PTC_ANSWER Mood { calm, upset PTC_NAME("angry") };
enum class Kind { bug, feature };
struct Source { std::string url; Kind kind; };
/// What the agent says.
struct PTC_ANSWER Verdict {
  PTC_RANGE(0, 10) int score;  ///< How bad.
  std::optional<std::vector<Source>> sources;
  Mood mood;
};
}  // namespace app
)");
  EXPECT_TRUE(h.tools.empty());
  ASSERT_EQ(h.answers.size(), 2u);
  EXPECT_EQ(h.answers[0].kind, TypeKind::Enum);
  EXPECT_EQ(h.answers[0].name, "app::Mood");
  EXPECT_EQ(h.answers[0].cpp, "::app::Mood");
  EXPECT_EQ(h.answers[1].kind, TypeKind::Struct);
  EXPECT_EQ(h.answers[1].name, "app::Verdict");
  // Dependencies first, as for tools.
  ASSERT_EQ(h.structs.size(), 2u);
  EXPECT_EQ(h.structs[0].name, "app::Source");
  EXPECT_EQ(h.structs[1].name, "app::Verdict");
  EXPECT_EQ(h.structs[1].doc, "What the agent says.");
  ASSERT_EQ(h.structs[1].fields.size(), 3u);
  EXPECT_EQ(h.structs[1].fields[0].doc, "How bad.");
  EXPECT_EQ(*h.structs[1].fields[0].constraints.max, nlohmann::json(10));
  ASSERT_EQ(h.enums.size(), 2u);
  EXPECT_EQ(h.enums[0].name, "app::Mood");
  EXPECT_EQ(h.enums[0].enumerators[1].name, "angry");
  EXPECT_EQ(h.enums[1].name, "app::Kind");
  EXPECT_EQ(model::reached_from_answers(h),
            (std::set<std::string>{"app::Kind", "app::Mood", "app::Source", "app::Verdict"}));
}

// A struct a tool reaches and an answer type is one record; a marker on a forward declaration and on
// the definition makes one answer type; a marked base is an answer type of its own.
TEST_F(ExtractAnswers, SharedAndRedeclaredTypesAreRecordedOnce) {
  auto h = ok(std::string(kPreamble) + R"(
struct PTC_ANSWER Item;
struct PTC_ANSWER Item { std::string title; };
struct PTC_ANSWER Base { int id; };
struct Derived : Base { std::string name; };
/// Lists items.
PTC_TOOL() std::vector<Item> list(Derived filter);
)");
  ASSERT_EQ(h.tools.size(), 1u);
  ASSERT_EQ(h.answers.size(), 2u);
  EXPECT_EQ(h.answers[0].name, "Item");
  EXPECT_EQ(h.answers[1].name, "Base");
  // The tool's types first, then the answer types'.
  ASSERT_EQ(h.structs.size(), 3u);
  EXPECT_EQ(h.structs[0].name, "Derived");
  EXPECT_EQ(h.structs[1].name, "Item");
  EXPECT_EQ(h.structs[2].name, "Base");
  EXPECT_EQ(model::reached_from_answers(h), (std::set<std::string>{"Base", "Item"}));
}

TEST_F(ExtractAnswers, TheMarkerOnAnythingButAStructOrEnumIsAnError) {
  EXPECT_EQ(errors(std::string(kPreamble) + R"(
struct Item {
  PTC_ANSWER int count;
};
enum class Level { low PTC_ANSWER };
PTC_ANSWER int helper(PTC_ANSWER int x);
/// A tool.
PTC_TOOL() PTC_ANSWER int tool(Item item, Level level);
using Alias PTC_ANSWER = Item;
)"),
            "t.hpp:8:3: error: PTC_ANSWER on field 'count': only a struct or an enum is an answer type\n"
            "    8 |   PTC_ANSWER int count;\n"
            "      |   ^\n"
            "note: put it on the struct or enum the agent answers with: struct PTC_ANSWER Verdict { ... };\n"
            "t.hpp:10:24: error: PTC_ANSWER on enumerator 'low': only a struct or an enum is an answer type\n"
            "   10 | enum class Level { low PTC_ANSWER };\n"
            "      |                        ^\n"
            "note: put it on the struct or enum the agent answers with: struct PTC_ANSWER Verdict { ... };\n"
            "t.hpp:11:1: error: PTC_ANSWER on function 'helper': only a struct or an enum is an answer type\n"
            "   11 | PTC_ANSWER int helper(PTC_ANSWER int x);\n"
            "      | ^\n"
            "note: put it on the struct or enum the agent answers with: struct PTC_ANSWER Verdict { ... };\n"
            "t.hpp:11:23: error: PTC_ANSWER on parameter 'x': only a struct or an enum is an answer type\n"
            "   11 | PTC_ANSWER int helper(PTC_ANSWER int x);\n"
            "      |                       ^\n"
            "note: put it on the struct or enum the agent answers with: struct PTC_ANSWER Verdict { ... };\n"
            "t.hpp:13:12: error: PTC_ANSWER on function 'tool': only a struct or an enum is an answer type\n"
            "   13 | PTC_TOOL() PTC_ANSWER int tool(Item item, Level level);\n"
            "      |            ^\n"
            "note: put it on the struct or enum the agent answers with: struct PTC_ANSWER Verdict { ... };\n"
            "t.hpp:14:13: error: PTC_ANSWER on alias 'Alias': only a struct or an enum is an answer type\n"
            "   14 | using Alias PTC_ANSWER = Item;\n"
            "      |             ^\n"
            "note: put it on the struct or enum the agent answers with: struct PTC_ANSWER Verdict { ... };\n");
}

// The errors of a tool's types, named after the answer type.
TEST_F(ExtractAnswers, AnAnswerTypeThatCannotBeMappedGetsTheUsualErrors) {
  EXPECT_EQ(errors(std::string(kPreamble) + R"(
struct PTC_ANSWER Closed {
  Closed(int v) : value(v) {}
  int value;
};
struct User { std::string name; };
struct PTC_ANSWER Open {
  User* owner;
  std::vector<char> letters;
};
template <class T>
struct PTC_ANSWER Page { std::vector<T> items; };
)"),
            // The marker's misuse is found before any type is mapped.
            "t.hpp:17:8: error: PTC_ANSWER on 'Page': a template is no one type to answer with\n"
            "   17 | struct PTC_ANSWER Page { std::vector<T> items; };\n"
            "      |        ^\n"
            "note: mark a struct that holds the instance the agent answers with, e.g. struct PTC_ANSWER Answer { "
            "Page<Item> page; };\n"
            "t.hpp:7:19: error: answer type 'Closed': ptc cannot see inside this class: it declares a constructor\n"
            "    7 | struct PTC_ANSWER Closed {\n"
            "      |                   ^\n"
            "note: make it an aggregate (public fields, no constructors, no virtual functions), or give the tool a "
            "plain struct that holds what it needs\n"
            "t.hpp:13:9: error: answer type 'Open': field 'owner' has type 'User *': raw pointers cannot cross a "
            "tool boundary\n"
            "   13 |   User* owner;\n"
            "      |         ^\n"
            "note: use the value itself, std::optional<T>, or std::unique_ptr<T> instead\n"
            "t.hpp:14:21: error: answer type 'Open': field 'letters' has type 'std::vector<char>', which holds "
            "'char': a character is neither text nor a number in JSON\n"
            "   14 |   std::vector<char> letters;\n"
            "      |                     ^\n"
            "note: use std::string for text, or an integer type such as std::int8_t for a number\n");
}

TEST_F(ExtractAnswers, DepthAndRecursionAreWarnedAsForTools) {
  extract::Options options;
  options.max_depth = 2;
  auto result = run(std::string(kPreamble) + R"(
struct Node { std::string name; std::vector<Node> children; };
struct C { int c; };
struct B { C c; };
struct PTC_ANSWER A { B b; Node tree; };
)",
                    options);
  EXPECT_FALSE(result.failed) << diagnostics_;
  EXPECT_EQ(diagnostics_,
            "t.hpp:9:14: warning: answer type 'A': field 'b.c' has type 'C': structs nested deeper than "
            "--max-depth=2 are typed :map\n"
            "    9 | struct B { C c; };\n"
            "      |              ^\n"
            "note: raise --max-depth (ptc_generate's MAX_DEPTH) or flatten the struct\n"
            "t.hpp:7:51: warning: answer type 'A': field 'tree.children' has type 'std::vector<Node>', which holds "
            "'Node': 'Node' contains itself, so this is typed :any\n"
            "    7 | struct Node { std::string name; std::vector<Node> children; };\n"
            "      |                                                   ^\n"
            "note: signatures cannot express recursive types; the value is still encoded in full\n");
}

TEST_F(ExtractAnswers, AnAnswerTypeInAnUnlistedHeaderIsAWarning) {
  write("other.hpp", R"(#pragma once
#include <ptc/annotate.hpp>
struct PTC_ANSWER Elsewhere { int x; };
)");
  auto result = run(R"(#pragma once
#include "other.hpp"
struct PTC_ANSWER Here { Elsewhere e; };
)");
  EXPECT_FALSE(result.failed);
  EXPECT_EQ(diagnostics_,
            "In file included from t.hpp:2:\n"
            "other.hpp:3:19: warning: PTC_ANSWER on 'Elsewhere' is not generated: its header is not listed\n"
            "    3 | struct PTC_ANSWER Elsewhere { int x; };\n"
            "      |                   ^\n"
            "note: add it to ptc_generate's HEADERS (or to ptc-gen's command line)\n");
  ASSERT_EQ(result.headers.size(), 1u);
  ASSERT_EQ(result.headers[0].answers.size(), 1u);
  EXPECT_EQ(result.headers[0].answers[0].name, "Here");
}

}  // namespace
}  // namespace ptcgen::test
