// ptc::Tool (name, description and example rules, make_tool, with_description) and ptc::ToolResult
// (factories, render, firewall). The dispatch pipeline is covered by dispatch_test.cpp.
#include <cmath>
#include <functional>
#include <map>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <ptc/error.hpp>
#include <ptc/firewall.hpp>
#include <ptc/registry.hpp>
#include <ptc/session.hpp>
#include <ptc/signature.hpp>
#include <ptc/tool.hpp>
#include <ptc/tool_context.hpp>
#include <ptc/tool_errors.hpp>
#include <ptc/tool_example.hpp>
#include <ptc/tool_result.hpp>
#include <ptc/validate.hpp>

namespace {

using nlohmann::json;
using ptc::DefinitionError;
using ptc::ToolResult;

constexpr const char* kNameRule = "Tool name must match ^[a-z0-9_-]{1,64}$.";
constexpr const char* kNameWhitespace = "Tool name must not contain surrounding whitespace.";
constexpr const char* kDescriptionLength = "Tool description must be 1-200 ASCII characters.";
constexpr const char* kDescriptionAscii = "Tool description must be ASCII.";

/// Runs `build` and returns the DefinitionError it threw, or nullopt if it threw nothing.
std::optional<DefinitionError> error_of(const std::function<void()>& build) {
  try {
    build();
  } catch (const DefinitionError& e) {
    return e;
  }
  return std::nullopt;
}

ptc::Tool tool_named(const std::string& name) { return ptc::make_tool(name, "A tool.", "(a :int) -> :int"); }
ptc::Tool tool_described(const std::string& description) {
  return ptc::make_tool("t", description, "(a :int) -> :int");
}
ptc::Tool tool_with_examples(std::vector<ptc::ToolExample> examples, const char* signature = "(a :int) -> :int") {
  return ptc::make_tool("t", "A tool.", signature, {}, ptc::ToolOptions{false, std::move(examples)});
}

ptc::JsonHandler echo_handler() {
  return [](const json& args, ptc::ToolContext&) { return ToolResult<json>::ok(args); };
}

// ---- names ---------------------------------------------------------------------------------------

struct NameRow {
  const char* label;
  std::string name;
  const char* expected_error;  ///< nullptr: accepted
};

void PrintTo(const NameRow& row, std::ostream* os) { *os << row.label; }

class ToolName : public ::testing::TestWithParam<NameRow> {};

TEST_P(ToolName, FollowsTheNameRule) {
  const NameRow& row = GetParam();
  auto error = error_of([&] { tool_named(row.name); });
  if (row.expected_error == nullptr) {
    EXPECT_FALSE(error.has_value()) << "rejected: " << error->message();
    EXPECT_EQ(tool_named(row.name).name(), row.name);
    return;
  }
  ASSERT_TRUE(error.has_value()) << "accepted '" << row.name << "'";
  EXPECT_EQ(error->message(), row.expected_error);
  EXPECT_STREQ(error->what(), row.expected_error);
  EXPECT_EQ(error->field(), "name");
  EXPECT_TRUE(error->section_path().empty());
}

INSTANTIATE_TEST_SUITE_P(
    Rows, ToolName,
    ::testing::Values(
        NameRow{"single_letter", "a", nullptr}, NameRow{"lowercase_word", "search", nullptr},
        NameRow{"digits_only", "0123456789", nullptr}, NameRow{"underscore", "read_file", nullptr},
        NameRow{"dash", "read-file", nullptr}, NameRow{"mixed", "a0_b-9", nullptr},
        NameRow{"only_punctuation", "_-", nullptr}, NameRow{"sixty_four", std::string(64, 'x'), nullptr},
        NameRow{"empty", "", kNameRule}, NameRow{"sixty_five", std::string(65, 'x'), kNameRule},
        NameRow{"uppercase", "Search", kNameRule}, NameRow{"all_upper", "ABC", kNameRule},
        NameRow{"dot", "web.search", kNameRule}, NameRow{"space_inside", "web search", kNameRule},
        NameRow{"tab_inside", "web\tsearch", kNameRule}, NameRow{"slash", "a/b", kNameRule},
        NameRow{"non_ascii", "caf\xc3\xa9", kNameRule}, NameRow{"leading_space", " search", kNameWhitespace},
        NameRow{"trailing_space", "search ", kNameWhitespace}, NameRow{"leading_tab", "\tsearch", kNameWhitespace},
        NameRow{"trailing_tab", "search\t", kNameWhitespace}, NameRow{"leading_newline", "\nsearch", kNameWhitespace},
        NameRow{"trailing_newline", "search\n", kNameWhitespace}, NameRow{"only_space", " ", kNameWhitespace},
        NameRow{"long_with_trailing_space", std::string(70, 'x') + " ", kNameWhitespace}),
    [](const ::testing::TestParamInfo<NameRow>& row) { return std::string(row.param.label); });

// ---- descriptions --------------------------------------------------------------------------------

struct DescriptionRow {
  const char* label;
  std::string description;
  const char* expected_error;  ///< nullptr: accepted
  std::string stored;          ///< what description() returns when accepted
};

void PrintTo(const DescriptionRow& row, std::ostream* os) { *os << row.label; }

class ToolDescription : public ::testing::TestWithParam<DescriptionRow> {};

TEST_P(ToolDescription, FollowsTheDescriptionRule) {
  const DescriptionRow& row = GetParam();
  auto error = error_of([&] { tool_described(row.description); });
  if (row.expected_error == nullptr) {
    ASSERT_FALSE(error.has_value()) << "rejected: " << error->message();
    EXPECT_EQ(tool_described(row.description).description(), row.stored);
    return;
  }
  ASSERT_TRUE(error.has_value()) << "accepted '" << row.description << "'";
  EXPECT_EQ(error->message(), row.expected_error);
  EXPECT_EQ(error->field(), "description");
  EXPECT_TRUE(error->section_path().empty());
}

INSTANTIATE_TEST_SUITE_P(
    Rows, ToolDescription,
    ::testing::Values(
        DescriptionRow{"plain", "Search the web.", nullptr, "Search the web."},
        DescriptionRow{"one_char", "x", nullptr, "x"},
        DescriptionRow{"two_hundred", std::string(200, 'd'), nullptr, std::string(200, 'd')},
        DescriptionRow{"trimmed_when_stored", "  \t Search.\n ", nullptr, "Search."},
        DescriptionRow{"two_hundred_after_trim", "  " + std::string(200, 'd') + "\n", nullptr, std::string(200, 'd')},
        DescriptionRow{"inner_whitespace_kept", "a  b\tc", nullptr, "a  b\tc"},
        DescriptionRow{"empty", "", kDescriptionLength, ""},
        DescriptionRow{"spaces_only", "   ", kDescriptionLength, ""},
        DescriptionRow{"whitespace_only", " \t\r\n\f\v", kDescriptionLength, ""},
        DescriptionRow{"two_hundred_one", std::string(201, 'd'), kDescriptionLength, ""},
        DescriptionRow{"non_ascii", "caf\xc3\xa9", kDescriptionAscii, ""},
        DescriptionRow{"non_ascii_and_too_long", std::string(250, 'd') + "\xc3\xa9", kDescriptionAscii, ""}),
    [](const ::testing::TestParamInfo<DescriptionRow>& row) { return std::string(row.param.label); });

// ---- examples ------------------------------------------------------------------------------------

TEST(ToolExamples, AValidExampleIsAcceptedAndKept) {
  auto tool = tool_with_examples({{"Doubles 2.", json{{"a", 2}}, 4}});
  ASSERT_EQ(tool.examples().size(), 1u);
  EXPECT_EQ(tool.examples()[0].description, "Doubles 2.");
  EXPECT_EQ(tool.examples()[0].input, (json{{"a", 2}}));
  EXPECT_EQ(tool.examples()[0].output, json(4));
}

TEST(ToolExamples, OptionalParametersMayBeLeftOutAndEmptyDescriptionsAreAllowed) {
  auto tool = tool_with_examples({{"", json::object(), json::array({"x"})}}, "(a :int?) -> [:string]");
  ASSERT_EQ(tool.examples().size(), 1u);
  EXPECT_EQ(tool.examples()[0].description, "");
}

TEST(ToolExamples, InputThatNeedsCoercionIsRejected) {
  auto error = error_of([] { tool_with_examples({{"coerce", json{{"a", "2"}}, 2}}); });
  ASSERT_TRUE(error.has_value());
  EXPECT_EQ(error->message(),
            "Tool example 0 ('coerce') input does not match the parameters: a: expected int, got string \"2\"");
  EXPECT_EQ(error->field(), "examples[0].input");
  EXPECT_TRUE(error->section_path().empty());
}

TEST(ToolExamples, ExtraInputFieldIsRejected) {
  auto error = error_of([] { tool_with_examples({{"extra", json{{"a", 2}, {"b", 1}}, 2}}); });
  ASSERT_TRUE(error.has_value());
  EXPECT_EQ(error->message(), "Tool example 0 ('extra') input does not match the parameters: b: unexpected field");
  EXPECT_EQ(error->field(), "examples[0].input");
}

TEST(ToolExamples, MissingInputFieldIsRejected) {
  auto error = error_of([] { tool_with_examples({{"missing", json::object(), 2}}); });
  ASSERT_TRUE(error.has_value());
  EXPECT_EQ(error->message(),
            "Tool example 0 ('missing') input does not match the parameters: a: missing required field");
  EXPECT_EQ(error->field(), "examples[0].input");
}

TEST(ToolExamples, SeveralInputErrorsAreJoinedWithSemicolons) {
  auto error = error_of([] { tool_with_examples({{"x", json{{"a", "2"}, {"b", 1}}, 2}}); });
  ASSERT_TRUE(error.has_value());
  EXPECT_EQ(error->message(),
            "Tool example 0 ('x') input does not match the parameters: a: expected int, got string \"2\"; "
            "b: unexpected field");
}

TEST(ToolExamples, InputThatIsNotAnObjectIsRejected) {
  auto error = error_of([] { tool_with_examples({{"x", json::array(), 2}}); });
  ASSERT_TRUE(error.has_value());
  EXPECT_EQ(error->message(),
            "Tool example 0 ('x') input does not match the parameters: (root): expected map, got list");
  EXPECT_EQ(error->field(), "examples[0].input");
}

TEST(ToolExamples, OutputMismatchIsRejected) {
  auto error = error_of([] { tool_with_examples({{"out", json{{"a", 2}}, "x"}}); });
  ASSERT_TRUE(error.has_value());
  EXPECT_EQ(error->message(),
            "Tool example 0 ('out') output does not match the result: (root): expected int, got string \"x\"");
  EXPECT_EQ(error->field(), "examples[0].output");
}

TEST(ToolExamples, OutputIsStrictToo) {
  // A string "1" would be coerced in lenient input; outputs are never coerced, and extra fields count.
  auto coerced = error_of([] { tool_with_examples({{"out", json{{"a", 2}}, "1"}}); });
  ASSERT_TRUE(coerced.has_value());
  EXPECT_EQ(coerced->field(), "examples[0].output");
  auto extra = error_of([] {
    tool_with_examples({{"out", json{{"a", 2}}, json{{"id", 1}, {"z", 2}}}}, "(a :int) -> {id :int}");
  });
  ASSERT_TRUE(extra.has_value());
  EXPECT_EQ(extra->message(), "Tool example 0 ('out') output does not match the result: z: unexpected field");
  EXPECT_EQ(extra->field(), "examples[0].output");
}

TEST(ToolExamples, TheIndexNamesTheOffendingExample) {
  auto input = error_of([] { tool_with_examples({{"ok", json{{"a", 1}}, 1}, {"second", json{{"a", 1.5}}, 1}}); });
  ASSERT_TRUE(input.has_value());
  EXPECT_EQ(input->message(),
            "Tool example 1 ('second') input does not match the parameters: a: expected int, got float 1.5");
  EXPECT_EQ(input->field(), "examples[1].input");

  auto output = error_of([] { tool_with_examples({{"ok", json{{"a", 1}}, 1}, {"second", json{{"a", 1}}, "1"}}); });
  ASSERT_TRUE(output.has_value());
  EXPECT_EQ(output->message(),
            "Tool example 1 ('second') output does not match the result: (root): expected int, got string \"1\"");
  EXPECT_EQ(output->field(), "examples[1].output");
}

TEST(ToolExamples, DescriptionOfTwoHundredCharactersIsAccepted) {
  auto tool = tool_with_examples({{std::string(200, 'e'), json{{"a", 1}}, 1}});
  EXPECT_EQ(tool.examples()[0].description, std::string(200, 'e'));
}

TEST(ToolExamples, DescriptionLongerThanTwoHundredIsRejected) {
  auto error = error_of([] {
    tool_with_examples({{"ok", json{{"a", 1}}, 1}, {std::string(201, 'e'), json{{"a", 1}}, 1}});
  });
  ASSERT_TRUE(error.has_value());
  EXPECT_EQ(error->message(), "Tool example description must be at most 200 ASCII characters.");
  EXPECT_EQ(error->field(), "examples[1].description");
  EXPECT_TRUE(error->section_path().empty());
}

TEST(ToolExamples, NonAsciiDescriptionIsRejected) {
  auto error = error_of([] { tool_with_examples({{"caf\xc3\xa9", json{{"a", 1}}, 1}}); });
  ASSERT_TRUE(error.has_value());
  EXPECT_EQ(error->message(), "Tool example description must be ASCII.");
  EXPECT_EQ(error->field(), "examples[0].description");
}

TEST(ToolExamples, DescriptionIsCheckedBeforeInputAndOutput) {
  auto error = error_of([] { tool_with_examples({{std::string(201, 'e'), json::array(), "x"}}); });
  ASSERT_TRUE(error.has_value());
  EXPECT_EQ(error->field(), "examples[0].description");
}

// ---- the rest of Tool ----------------------------------------------------------------------------

TEST(Tool, NameIsCheckedBeforeDescriptionAndExamples) {
  auto error = error_of([] {
    ptc::make_tool("Bad", "", "(a :int) -> :int", {}, ptc::ToolOptions{false, {{"x", json::array(), "x"}}});
  });
  ASSERT_TRUE(error.has_value());
  EXPECT_EQ(error->field(), "name");
  auto description = error_of([] {
    ptc::make_tool("good", "", "(a :int) -> :int", {}, ptc::ToolOptions{false, {{"x", json::array(), "x"}}});
  });
  ASSERT_TRUE(description.has_value());
  EXPECT_EQ(description->field(), "description");
}

TEST(Tool, BadSignatureIsReportedWithTheParserError) {
  for (const char* text : {"(a :int -> :int", "(a :int) ->", "(a :foo) -> :int", "(a :int, a :int) -> :int"}) {
    SCOPED_TRACE(text);
    auto parsed = ptc::Signature::parse(text);
    ASSERT_FALSE(parsed.ok());
    auto error = error_of([&] { ptc::make_tool("t", "A tool.", text); });
    ASSERT_TRUE(error.has_value());
    EXPECT_EQ(error->message(), "Tool signature does not parse: " + parsed.error().to_string());
    EXPECT_EQ(error->field(), "signature");
    EXPECT_TRUE(error->section_path().empty());
  }
}

TEST(Tool, BadSignatureMessageLiteral) {
  auto error = error_of([] { ptc::make_tool("t", "A tool.", "(a :int -> :int"); });
  ASSERT_TRUE(error.has_value());
  EXPECT_EQ(error->message(),
            "Tool signature does not parse: column 9: parameter names start with a letter or '_', got '-'");
  auto dup = error_of([] { ptc::make_tool("t", "A tool.", "(a :int, a :int) -> :int"); });
  ASSERT_TRUE(dup.has_value());
  EXPECT_EQ(dup->message(), "Tool signature does not parse: column 10: duplicate parameter name 'a'");
}

TEST(Tool, MakeToolKeepsItsParts) {
  auto tool = ptc::make_tool("lookup", "Look up an id.", "(id :int, verbose :bool?) -> {name :string}", echo_handler(),
                             ptc::ToolOptions{true, {{"One.", json{{"id", 1}}, json{{"name", "a"}}}}});
  EXPECT_EQ(tool.name(), "lookup");
  EXPECT_EQ(tool.description(), "Look up an id.");
  EXPECT_EQ(tool.signature(), *ptc::Signature::parse("(id :int, verbose :bool?) -> {name :string}"));
  EXPECT_EQ(tool.signature().render(), "(id :int, verbose :bool?) -> {name :string}");
  EXPECT_TRUE(tool.has_handler());
  EXPECT_NE(tool.invoker(), nullptr);
  EXPECT_TRUE(tool.accepts_overrides());
  ASSERT_EQ(tool.examples().size(), 1u);
  EXPECT_EQ(tool.examples()[0].description, "One.");
}

TEST(Tool, MakeToolFromASignatureObject) {
  auto sig = *ptc::Signature::parse("(q :string) -> [:string]");
  auto tool = ptc::make_tool("search", "Search.", sig);
  EXPECT_EQ(tool.signature(), sig);
  EXPECT_FALSE(tool.has_handler());
  EXPECT_FALSE(tool.accepts_overrides());
  EXPECT_TRUE(tool.examples().empty());
}

TEST(Tool, NoHandlerMeansHasHandlerFalse) {
  auto tool = ptc::make_tool("t", "A tool.", "() -> :any");
  EXPECT_FALSE(tool.has_handler());
  EXPECT_EQ(tool.invoker(), nullptr);
  auto empty = ptc::make_tool("t", "A tool.", "() -> :any", ptc::JsonHandler{});
  EXPECT_FALSE(empty.has_handler());
  EXPECT_EQ(empty.invoker(), nullptr);
}

TEST(Tool, ToolSpecConstructorChecksToo) {
  ptc::ToolSpec spec;
  spec.name = "spec_tool";
  spec.description = " Built from a spec. ";
  ptc::Tool tool(spec);
  EXPECT_EQ(tool.name(), "spec_tool");
  EXPECT_EQ(tool.description(), "Built from a spec.");
  EXPECT_EQ(tool.signature(), ptc::Signature());
  EXPECT_FALSE(tool.has_handler());

  spec.name = "Spec";
  auto error = error_of([&] { ptc::Tool bad(spec); });
  ASSERT_TRUE(error.has_value());
  EXPECT_EQ(error->message(), kNameRule);
}

TEST(Tool, HintsUnstatedAreTheWorstCase) {
  auto tool = ptc::make_tool("t", "A tool.", "() -> :any");
  EXPECT_EQ(tool.title(), "");
  EXPECT_EQ(tool.hints(), (ptc::ToolHints{.destructive = true, .open_world = true}));
  EXPECT_EQ(tool.hints(), ptc::ToolHints::unstated());
}

TEST(Tool, TitleAndHintsAreKeptTrimmedAndChecked) {
  ptc::ToolOptions options;
  options.title = "  Look it up ";
  options.hints = ptc::ToolHints{.read_only = true};
  auto tool = ptc::make_tool("t", "A tool.", "() -> :any", {}, options);
  EXPECT_EQ(tool.title(), "Look it up");
  EXPECT_EQ(tool.hints(), ptc::ToolHints{.read_only = true});

  struct Case {
    std::string title;
    std::optional<ptc::ToolHints> hints;
    std::string field, message;
  };
  const Case bad[] = {
      {std::string(101, 'x'), std::nullopt, "title", "Tool title must be 1-100 printable ASCII characters."},
      {"Line\nbreak", std::nullopt, "title", "Tool title must be 1-100 printable ASCII characters."},
      {"Caf\xc3\xa9", std::nullopt, "title", "Tool title must be 1-100 printable ASCII characters."},
      {"", ptc::ToolHints{.read_only = true, .destructive = true}, "hints", "A read-only tool cannot be destructive."},
  };
  for (const auto& c : bad) {
    options.title = c.title;
    options.hints = c.hints;
    auto error = error_of([&] { ptc::make_tool("t", "A tool.", "() -> :any", {}, options); });
    ASSERT_TRUE(error.has_value()) << c.title;
    EXPECT_EQ(error->message(), c.message);
    EXPECT_EQ(error->field(), c.field);
  }
  options.title = std::string(100, 'x');
  options.hints = std::nullopt;
  EXPECT_EQ(ptc::make_tool("t", "A tool.", "() -> :any", {}, options).title().size(), 100u);
}

TEST(Tool, InputAndOutputAreTheSignaturesInputAndOutput) {
  auto tool = ptc::make_tool("t", "A tool.", "(a :int, b :string?) -> [{id :int}]");
  EXPECT_EQ(&tool.input(), &tool.signature().input());
  EXPECT_EQ(&tool.output(), &tool.signature().output());
  EXPECT_EQ(tool.output(), *ptc::parse_type("[{id :int}]"));
  EXPECT_EQ(ptc::render(tool.input()), "{a :int, b :string?}");
}

// The name DefinitionError had before, kept for a release: catching by it still catches.
TEST(Tool, DeprecatedPromptValidationErrorNamesDefinitionError) {
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
  EXPECT_THROW(ptc::make_tool("bad name!", "A tool.", "() -> :any"), ptc::PromptValidationError);
#pragma GCC diagnostic pop
}

// The names before input()/output(), kept for a release: the same schemas.
TEST(Tool, DeprecatedParamsAndResultStillAnswer) {
  auto tool = ptc::make_tool("t", "A tool.", "(a :int) -> :string");
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
  EXPECT_EQ(&tool.params(), &tool.input());
  EXPECT_EQ(&tool.result(), &tool.output());
#pragma GCC diagnostic pop
}

TEST(Tool, CopiesShareOneDefinition) {
  auto tool = ptc::make_tool("t", "A tool.", "(a :int) -> :int", echo_handler());
  ptc::Tool copy = tool;
  EXPECT_EQ(&copy.name(), &tool.name());
  EXPECT_EQ(&copy.description(), &tool.description());
  EXPECT_EQ(&copy.signature(), &tool.signature());
  EXPECT_EQ(&copy.examples(), &tool.examples());
  EXPECT_EQ(copy.invoker(), tool.invoker());
  ptc::Tool assigned = ptc::make_tool("other", "Other.", "() -> :any");
  assigned = tool;
  EXPECT_EQ(&assigned.name(), &tool.name());
  EXPECT_EQ(assigned.name(), "t");
}

TEST(Tool, WithDescriptionIsRefusedWithoutAcceptsOverrides) {
  auto tool = ptc::make_tool("fixed", "Fixed text.", "() -> :any");
  auto error = error_of([&] { (void)tool.with_description("New text."); });
  ASSERT_TRUE(error.has_value());
  EXPECT_EQ(error->message(), "Tool 'fixed' does not accept description overrides.");
  EXPECT_EQ(error->field(), "description");
  EXPECT_TRUE(error->section_path().empty());
  EXPECT_EQ(tool.description(), "Fixed text.");
}

TEST(Tool, WithDescriptionChangesOnlyTheDescription) {
  auto tool = ptc::make_tool("tunable", "Original.", "(a :int) -> :int", echo_handler(),
                             ptc::ToolOptions{true, {{"Ex.", json{{"a", 1}}, 1}}});
  auto tuned = tool.with_description("  Tuned for a provider.  ");
  EXPECT_EQ(tuned.description(), "Tuned for a provider.");
  EXPECT_EQ(tuned.name(), "tunable");
  EXPECT_EQ(tuned.signature(), tool.signature());
  EXPECT_EQ(tuned.invoker(), tool.invoker());
  EXPECT_TRUE(tuned.has_handler());
  EXPECT_TRUE(tuned.accepts_overrides());
  ASSERT_EQ(tuned.examples().size(), 1u);
  EXPECT_EQ(tuned.examples()[0].description, "Ex.");
  EXPECT_EQ(tuned.examples()[0].input, (json{{"a", 1}}));
  // A separate definition: the original is unchanged.
  EXPECT_NE(&tuned.description(), &tool.description());
  EXPECT_EQ(tool.description(), "Original.");
}

TEST(Tool, WithDescriptionChecksTheNewDescription) {
  auto tool = ptc::make_tool("tunable", "Original.", "() -> :any", {}, ptc::ToolOptions{true, {}});
  auto empty = error_of([&] { (void)tool.with_description("   "); });
  ASSERT_TRUE(empty.has_value());
  EXPECT_EQ(empty->message(), kDescriptionLength);
  EXPECT_EQ(empty->field(), "description");
  auto long_one = error_of([&] { (void)tool.with_description(std::string(201, 'x')); });
  ASSERT_TRUE(long_one.has_value());
  EXPECT_EQ(long_one->message(), kDescriptionLength);
  auto non_ascii = error_of([&] { (void)tool.with_description("caf\xc3\xa9"); });
  ASSERT_TRUE(non_ascii.has_value());
  EXPECT_EQ(non_ascii->message(), kDescriptionAscii);
  EXPECT_EQ(tool.description(), "Original.");
}

TEST(Tool, DefinitionErrorDefaults) {
  DefinitionError e("Something is wrong.");
  EXPECT_EQ(e.message(), "Something is wrong.");
  EXPECT_STREQ(e.what(), "Something is wrong.");
  EXPECT_TRUE(e.section_path().empty());
  EXPECT_EQ(e.field(), "");
  DefinitionError full("Bad.", {"root", "child"}, "template");
  EXPECT_THAT(full.section_path(), ::testing::ElementsAre("root", "child"));
  EXPECT_EQ(full.field(), "template");
}

// ---- ToolResult ----------------------------------------------------------------------------------

TEST(ToolResult, OkHasTheDefaultMessage) {
  auto r = ToolResult<json>::ok(json{{"a", 1}});
  EXPECT_EQ(r.message, "OK");
  ASSERT_TRUE(r.value.has_value());
  EXPECT_EQ(*r.value, (json{{"a", 1}}));
  EXPECT_TRUE(r.success);
  EXPECT_FALSE(r.exclude_value_from_context);
}

TEST(ToolResult, OkWithAMessage) {
  auto r = ToolResult<json>::ok(3, "Found 3.");
  EXPECT_EQ(r.message, "Found 3.");
  EXPECT_EQ(r.value, json(3));
  EXPECT_TRUE(r.success);
}

TEST(ToolResult, ErrorHasNoValue) {
  auto r = ToolResult<json>::error("It broke.");
  EXPECT_EQ(r.message, "It broke.");
  EXPECT_FALSE(r.value.has_value());
  EXPECT_FALSE(r.success);
  EXPECT_FALSE(r.exclude_value_from_context);
  EXPECT_EQ(r.render(), "It broke.");
}

TEST(ToolResult, ErrorWithAPayload) {
  auto r = ToolResult<json>::error("Partial.", json::array({1, 2}));
  EXPECT_EQ(r.message, "Partial.");
  ASSERT_TRUE(r.value.has_value());
  EXPECT_EQ(*r.value, json::array({1, 2}));
  EXPECT_FALSE(r.success);
  EXPECT_EQ(r.render(), "Partial.\n\n[1,2]");
}

TEST(ToolResult, DefaultConstructedIsAnEmptySuccess) {
  ToolResult<json> r;
  EXPECT_EQ(r.message, "");
  EXPECT_FALSE(r.value.has_value());
  EXPECT_TRUE(r.success);
  EXPECT_EQ(r.render(), "");
}

TEST(ToolResult, RenderShowsValuesAsCompactJson) {
  EXPECT_EQ(ToolResult<json>::ok(json{{"b", 1}, {"a", json::array({1, 2.5, "x", nullptr, true})}}).render(),
            R"({"a":[1,2.5,"x",null,true],"b":1})");
  EXPECT_EQ(ToolResult<json>::ok(json{{"z", json{{"y", 1}, {"x", 2}}}, {"m", false}}).render(),
            R"({"m":false,"z":{"x":2,"y":1}})");
  EXPECT_EQ(ToolResult<json>::ok(42).render(), "42");
  EXPECT_EQ(ToolResult<json>::ok(-7).render(), "-7");
  EXPECT_EQ(ToolResult<json>::ok(1.0).render(), "1.0");
  EXPECT_EQ(ToolResult<json>::ok(0.1).render(), "0.1");
  EXPECT_EQ(ToolResult<json>::ok("pong").render(), "\"pong\"");
  EXPECT_EQ(ToolResult<json>::ok("say \"hi\"\n").render(), R"("say \"hi\"\n")");
  EXPECT_EQ(ToolResult<json>::ok(nullptr).render(), "null");
  EXPECT_EQ(ToolResult<json>::ok(json::object()).render(), "{}");
  EXPECT_EQ(ToolResult<json>::ok(json::array()).render(), "[]");
}

TEST(ToolResult, RenderIgnoresTheMessageWhenThereIsAValue) {
  EXPECT_EQ(ToolResult<json>::ok(5, "Five things.").render(), "5");
}

TEST(ToolResult, RenderShowsTheMessageWhenTheValueIsExcluded) {
  auto r = ToolResult<json>::ok(json{{"secret", "s"}}, "Stored.");
  r.exclude_value_from_context = true;
  EXPECT_EQ(r.render(), "Stored.");
  auto schema = *ptc::parse_type("{secret :string}");
  EXPECT_EQ(r.render(schema), "Stored.");
  // The value is still there for C++ callers.
  EXPECT_EQ(r.value, (json{{"secret", "s"}}));
}

TEST(ToolResult, RenderWithASchemaFirewallsUnderscoreFields) {
  auto schema = *ptc::parse_type("{id :int, _secret :string, items [{name :string, _tok :string}]}");
  auto r = ToolResult<json>::ok(json{
      {"id", 1},
      {"_secret", "s"},
      {"items", json::array({json{{"name", "a"}, {"_tok", "t1"}}, json{{"name", "b"}, {"_tok", "t2"}}})}});
  EXPECT_EQ(
      r.render(schema),
      R"({"_secret":"<Firewalled>","id":1,"items":[{"_tok":"<Firewalled>","name":"a"},{"_tok":"<Firewalled>","name":"b"}]})");
  // Without the schema nothing is hidden, and the value itself is not changed.
  EXPECT_EQ(r.render(), R"({"_secret":"s","id":1,"items":[{"_tok":"t1","name":"a"},{"_tok":"t2","name":"b"}]})");
  EXPECT_EQ((*r.value)["_secret"], "s");
}

TEST(ToolResult, RenderWithASchemaWithoutFirewalledFieldsIsThePlainRendering) {
  auto schema = *ptc::parse_type("{id :int}");
  EXPECT_EQ(ToolResult<json>::ok(json{{"id", 3}}).render(schema), R"({"id":3})");
  EXPECT_EQ(ToolResult<json>::error("Nope.").render(schema), "Nope.");
}

TEST(ToolResult, TypedInt) {
  auto r = ToolResult<int>::ok(7);
  static_assert(std::is_same_v<decltype(r.value), std::optional<int>>);
  EXPECT_EQ(r.value, 7);
  EXPECT_EQ(r.message, "OK");
  EXPECT_EQ(r.render(), "7");
  EXPECT_EQ(ToolResult<int>::error("no int").render(), "no int");
  auto payload = ToolResult<int>::error("partial", 3);
  EXPECT_FALSE(payload.success);
  EXPECT_EQ(payload.render(), "partial\n\n3");
}

TEST(ToolResult, TypedVectorOfStrings) {
  auto r = ToolResult<std::vector<std::string>>::ok({"b", "a"}, "Two.");
  EXPECT_EQ(r.message, "Two.");
  EXPECT_THAT(*r.value, ::testing::ElementsAre("b", "a"));
  EXPECT_EQ(r.render(), R"(["b","a"])");
  r.exclude_value_from_context = true;
  EXPECT_EQ(r.render(), "Two.");
}

TEST(ToolResult, TypedMapOfInts) {
  auto r = ToolResult<std::map<std::string, int>>::ok({{"z", 1}, {"a", 2}});
  EXPECT_EQ(r.render(), R"({"a":2,"z":1})");
  auto schema = *ptc::parse_type("{a :int, _z :int}");
  auto hidden = ToolResult<std::map<std::string, int>>::ok({{"_z", 1}, {"a", 2}});
  EXPECT_EQ(hidden.render(schema), R"({"_z":"<Firewalled>","a":2})");
  EXPECT_EQ(hidden.value->at("_z"), 1);
}

TEST(ToolResult, InvalidUtf8RendersWithReplacementCharacter) {
  auto r =
      ToolResult<json>::ok(std::string("a\xff"
                                       "b"));
  std::string rendered;
  ASSERT_NO_THROW(rendered = r.render());
  EXPECT_EQ(rendered,
            "\"a\xef\xbf\xbd"
            "b\"");
  auto nested = ToolResult<json>::ok(json{{"k", std::string("\xc3")}});
  EXPECT_EQ(nested.render(), "{\"k\":\"\xef\xbf\xbd\"}");
  auto typed = ToolResult<std::string>::ok(std::string("x\xfe"));
  EXPECT_EQ(typed.render(), "\"x\xef\xbf\xbd\"");
}

TEST(ToolResult, InvalidUtf8InAFirewalledRenderingDoesNotThrow) {
  auto schema = *ptc::parse_type("{name :string, _raw :string}");
  auto r = ToolResult<json>::ok(json{{"name", std::string("n\xff")}, {"_raw", std::string("\xff")}});
  EXPECT_EQ(r.render(schema), "{\"_raw\":\"<Firewalled>\",\"name\":\"n\xef\xbf\xbd\"}");
}

TEST(ToolResult, MessagesAreNotEscaped) {
  // The message is plain text for the model, not JSON.
  EXPECT_EQ(ToolResult<json>::error("Bad \"quote\"\n").render(), "Bad \"quote\"\n");
}

}  // namespace

namespace {

// The documented handler style, `args["x"]` on the const json, must be defined in every mode: the
// handler sees exactly the declared parameters, absent optionals as null or their default.
TEST(JsonHandlerArguments, EveryDeclaredParameterIsThereAndNothingElseInEveryMode) {
  std::vector<nlohmann::json> seen;
  auto tool = ptc::make_tool("book", "Book rooms.", "(city :string, rooms :int?, nights :int?) -> :nil",
                             [&](const nlohmann::json& args, ptc::ToolContext&) {
                               seen.push_back(args);
                               (void)args["rooms"];  // absent from the call: must still be a member
                               (void)args["nights"];
                               return ptc::ToolResult<nlohmann::json>::ok(nullptr);
                             });
  ptc::ToolRegistry registry;
  registry.add(tool);
  for (ptc::Mode mode : {ptc::Mode::Enabled, ptc::Mode::WarnOnly, ptc::Mode::Strict, ptc::Mode::Disabled}) {
    ptc::Session session;
    ptc::DispatchOptions options;
    options.mode = mode;
    nlohmann::json args = {{"city", "Oslo"}};
    if (mode != ptc::Mode::Strict) args["cty"] = "x";
    auto out = registry.dispatch(session, ptc::ToolCall{"c", "book", args}, options);
    ASSERT_EQ(out.status, ptc::CallStatus::Succeeded) << ptc::mode_name(mode) << ": " << out.result.message;
    EXPECT_EQ(seen.back(), (nlohmann::json{{"city", "Oslo"}, {"rooms", nullptr}, {"nights", nullptr}}))
        << ptc::mode_name(mode);
  }
}

TEST(JsonHandlerArguments, AMissingRequiredParameterIsRefusedOrReadsAsNull) {
  std::vector<nlohmann::json> seen;
  auto tool = ptc::make_tool("book", "Book rooms.", "(city :string, rooms :int?) -> :nil",
                             [&](const nlohmann::json& args, ptc::ToolContext&) {
                               seen.push_back(args["city"]);  // defined although the model left it out
                               return ptc::ToolResult<nlohmann::json>::ok(nullptr);
                             });
  ptc::ToolRegistry registry;
  registry.add(tool);
  for (ptc::Mode mode : {ptc::Mode::Enabled, ptc::Mode::WarnOnly, ptc::Mode::Strict, ptc::Mode::Disabled}) {
    ptc::Session session;
    ptc::DispatchOptions options;
    options.mode = mode;
    auto out = registry.dispatch(session, ptc::ToolCall{"c", "book", nlohmann::json{{"rooms", 2}}}, options);
    const bool checked = mode == ptc::Mode::Enabled || mode == ptc::Mode::Strict;
    EXPECT_EQ(out.status, checked ? ptc::CallStatus::InvalidArguments : ptc::CallStatus::Succeeded)
        << ptc::mode_name(mode);
  }
  EXPECT_EQ(seen, (std::vector<nlohmann::json>{nullptr, nullptr}));
}

// The documented handler style reads `args["n"].get<std::int64_t>()`: on 1e300 that is undefined
// behaviour, on 2.9 a truncation. A number the declared type cannot hold therefore fails the call with
// its path in every mode, warn_only and disabled included, and the handler never runs on it; what the
// lenient modes let through otherwise still reaches it.
TEST(JsonHandlerArguments, ANumberTheTypeCannotHoldNeverReachesTheHandler) {
  int runs = 0;
  auto tool = ptc::make_tool("book", "Book rooms.", "(city :string, rooms :int, nights [:int]?, rate :float?) -> :nil",
                             [&](const nlohmann::json& args, ptc::ToolContext&) {
                               ++runs;
                               (void)args["rooms"].get<std::int64_t>();
                               return ptc::ToolResult<nlohmann::json>::ok(nullptr);
                             });
  ptc::ToolRegistry registry;
  registry.add(tool);
  const std::string range = "expected int in range -9223372036854775808..9223372036854775807, got ";
  const std::vector<std::pair<nlohmann::json, std::string>> calls{
      {{{"city", "Oslo"}, {"rooms", 1e300}}, "rooms: " + range + "float 1e+300"},
      {{{"city", "Oslo"}, {"rooms", -1e300}}, "rooms: " + range + "float -1e+300"},
      {{{"city", "Oslo"}, {"rooms", 18446744073709551615ull}}, "rooms: " + range + "int 18446744073709551615"},
      {{{"city", "Oslo"}, {"rooms", 2.9}}, "rooms: expected int, got float 2.9"},
      {{{"city", "Oslo"}, {"rooms", 2}, {"nights", {1, 0.5}}}, "nights[1]: expected int, got float 0.5"},
      {{{"city", "Oslo"}, {"rooms", NAN}}, "rooms: expected int, got float NaN"},
      {{{"city", "Oslo"}, {"rooms", 2}, {"rate", INFINITY}}, "rate: expected finite float, got float Infinity"},
  };
  for (ptc::Mode mode : {ptc::Mode::Enabled, ptc::Mode::WarnOnly, ptc::Mode::Strict, ptc::Mode::Disabled}) {
    for (const auto& [args, issue] : calls) {
      SCOPED_TRACE(std::string(ptc::mode_name(mode)) + " " + args.dump());
      ptc::Session session;
      ptc::DispatchOptions options;
      options.mode = mode;
      auto out = registry.dispatch(session, ptc::ToolCall{"c", "book", args}, options);
      EXPECT_EQ(out.status, ptc::CallStatus::InvalidArguments);
      EXPECT_EQ(out.result.message, "Tool validation errors:\n- " + issue);
      // The same arguments as text, as a model sends them (NaN and infinities have no text).
      if (args.dump().find("null") != std::string::npos) continue;
      auto text = registry.dispatch(session, ptc::ToolCall{"c", "book", args.dump()}, options);
      EXPECT_EQ(text.status, ptc::CallStatus::InvalidArguments);
      EXPECT_EQ(text.result.message, out.result.message);
    }
  }
  EXPECT_EQ(runs, 0);
  // The leniency of warn_only and disabled is otherwise what it was: an integral float, an unknown
  // argument, a type error elsewhere, a missing optional one.
  for (ptc::Mode mode : {ptc::Mode::WarnOnly, ptc::Mode::Disabled}) {
    ptc::Session session;
    ptc::DispatchOptions options;
    options.mode = mode;
    auto out = registry.dispatch(
        session, ptc::ToolCall{"c", "book", nlohmann::json{{"city", 5}, {"rooms", 3.0}, {"extra", 2.9}}}, options);
    EXPECT_EQ(out.status, ptc::CallStatus::Succeeded) << ptc::mode_name(mode) << ": " << out.result.message;
  }
  EXPECT_EQ(runs, 2);
}

TEST(JsonHandlerArguments, AMisspelledArgumentIsIgnoredWithASuggestion) {
  auto tool = ptc::make_tool("forecast", "Weather.", "(city :string, days :int?) -> :nil",
                             [](const nlohmann::json&, ptc::ToolContext&) {
                               return ptc::ToolResult<nlohmann::json>::ok(nullptr);
                             });
  ptc::ToolRegistry registry;
  registry.add(tool);
  ptc::Session session;
  auto out = registry.dispatch(session, ptc::ToolCall{"c", "forecast", nlohmann::json{{"city", "Oslo"}, {"dayz", 1}}});
  ASSERT_EQ(out.status, ptc::CallStatus::Succeeded);
  ASSERT_EQ(out.validation.warnings.size(), 1u);
  EXPECT_EQ(out.validation.warnings[0].path, "dayz");
  EXPECT_EQ(out.validation.warnings[0].message, "unexpected field (ignored); did you mean 'days'?");
  ptc::DispatchOptions strict;
  strict.mode = ptc::Mode::Strict;
  auto refused =
      registry.dispatch(session, ptc::ToolCall{"c", "forecast", nlohmann::json{{"city", "O"}, {"dayz", 1}}}, strict);
  EXPECT_EQ(refused.status, ptc::CallStatus::InvalidArguments);
}

TEST(JsonHandlerArguments, ArgumentTextOverTheLimitIsRefusedBeforeParsing) {
  ptc::ToolRegistry registry;
  registry.add(ptc::make_tool("echo", "Echo.", "(text :string) -> :string",
                              [](const nlohmann::json& a, ptc::ToolContext&) {
                                return ptc::ToolResult<nlohmann::json>::ok(a["text"]);
                              }));
  ptc::Session session;
  ptc::DispatchOptions options;
  options.max_argument_bytes = 32;
  auto out = registry.dispatch(session,
                               ptc::ToolCall{"c", "echo", std::string(R"({"text": ")") + std::string(40, 'x') + "\"}"},
                               options);
  EXPECT_EQ(out.status, ptc::CallStatus::InvalidArguments);
  EXPECT_EQ(out.result.message, "Tool arguments are larger than the limit of 32 bytes.");
  // The outcome (and the ToolInvoked event) keep the size, not copies of the text.
  EXPECT_EQ(out.arguments, "<52 bytes of arguments, over the limit>");
}

}  // namespace

// ---- listings and signatures read on first use -----------------------------------------------------

namespace listing {

constexpr std::string_view kMalli = R"([:=> [:catn [:query :string]] :int])";

ptc::ToolSpec spec(std::string_view malli, const ptc::ToolListing* listing) {
  ptc::ToolSpec spec;
  spec.name = "count";
  spec.description = "Counts.";
  spec.signature_malli = malli;
  spec.listing = listing;
  return spec;
}

TEST(ToolListing, ASignatureGivenAsMalliIsReadOnFirstUse) {
  // Invalid text builds a tool: nothing reads it until the signature is asked for.
  const ptc::Tool broken(spec("[:=> [:catn", nullptr));
  EXPECT_EQ(broken.name(), "count");
  auto error = error_of([&] { (void)broken.signature(); });
  ASSERT_TRUE(error);
  EXPECT_EQ(error->field(), "signature");
  EXPECT_NE(std::string(error->what()).find("Tool signature does not parse: "), std::string::npos) << error->what();

  const ptc::Tool tool(spec(kMalli, nullptr));
  EXPECT_EQ(tool.signature().render(), "(query :string) -> :int");
  EXPECT_TRUE(tool.result_is_structural());
  const ptc::Tool copy = tool;  // copies share what was read
  EXPECT_EQ(&copy.signature(), &tool.signature());
  const ptc::Tool refined(spec(R"([:=> [:cat] [:and :int [:>= 0]]])", nullptr));
  EXPECT_TRUE(refined.result_has_refinements());
}

TEST(ToolListing, ListingTextsReplaceRenderingOnlyFromThisVersion) {
  static const ptc::ToolListing ours{ptc::ptc_version(), "(query :string) -> :int", "{}", "{}", "{}"};
  const ptc::Tool listed(spec("[:=> [:catn", &ours));
  EXPECT_EQ(listed.listing(), &ours);
  EXPECT_EQ(listed.signature_text(), "(query :string) -> :int");  // the broken Malli is never read

  static const ptc::ToolListing other{"0.0.0-other", "(stale) -> :string", "{}", "{}", "{}"};
  const ptc::Tool stale(spec(kMalli, &other));
  EXPECT_EQ(stale.listing(), nullptr);
  EXPECT_EQ(stale.signature_text(), "(query :string) -> :int");
  EXPECT_FALSE(ptc::ptc_version().empty());
}

TEST(ToolListing, ExamplesAreCheckedSoTheyReadTheSignatureAtOnce) {
  auto with_example = spec("[:=> [:catn", nullptr);
  with_example.examples.push_back(ptc::ToolExample{"One.", json{{"query", "x"}}, json(1)});
  auto error = error_of([&] { ptc::Tool tool(with_example); });
  ASSERT_TRUE(error);
  EXPECT_EQ(error->field(), "signature");
}

}  // namespace listing
