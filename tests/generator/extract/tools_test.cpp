// PTC_TOOL declarations -> model::Tool: names, descriptions, docs, annotations, overloads, defaults,
// member tools, and the header's include spelling.

#include "extract_fixture.hpp"

namespace ptcgen::test {
namespace {

using model::TypeKind;

class ExtractTools : public ExtractTest {};

TEST_F(ExtractTools, NamesFromPtcToolPtcNameOrTheFunction) {
  auto h = ok(std::string(kPreamble) + R"(namespace shop {
/// Plain.
PTC_TOOL() int plain();
/// Named by PTC_TOOL.
PTC_TOOL("renamed") int first();
/// Named by PTC_NAME.
PTC_TOOL() PTC_NAME("other") int second();
}
)");
  ASSERT_EQ(h.tools.size(), 3u);
  EXPECT_EQ(h.tools[0].name, "plain");
  EXPECT_EQ(h.tools[0].function, "::shop::plain");
  EXPECT_EQ(h.tools[1].name, "renamed");
  EXPECT_EQ(h.tools[1].function, "::shop::first");
  EXPECT_EQ(h.tools[2].name, "other");
  EXPECT_EQ(h.tools[0].location.line, 8u);
  EXPECT_EQ(h.tools[0].location.column, 16u);
  EXPECT_EQ(h.tools[0].location.file, path("t.hpp"));
}

TEST_F(ExtractTools, DescriptionFromTheDocCommentWithoutParamLines) {
  auto h = ok(std::string(kPreamble) + R"(
/**
 * Finds issues
 *   by text.
 * \param query  What to look for,
 *               in any words.
 * @param limit At most this many.
 * \return The issues found.
 */
PTC_TOOL() std::vector<std::string> search(std::string query, int limit);
/// Overridden by PTC_DESCRIPTION.
PTC_TOOL() PTC_DESCRIPTION("  Explicit   text. ") int explicit_text();
/// On the line before the attributes.
PTC_TOOL()
PTC_EXAMPLE("{}", "1")
int spread();
)");
  ASSERT_EQ(h.tools.size(), 3u);
  EXPECT_EQ(h.tools[0].description, "Finds issues by text.");
  EXPECT_EQ(h.tools[0].params[0].doc, "What to look for, in any words.");
  EXPECT_EQ(h.tools[0].params[1].doc, "At most this many.");
  EXPECT_EQ(h.tools[1].description, "Explicit text.");
  EXPECT_EQ(h.tools[2].description, "On the line before the attributes.");
}

TEST_F(ExtractTools, MissingDescriptionIsAnError) {
  EXPECT_EQ(errors(R"(#include <ptc/annotate.hpp>
// A plain comment is not documentation.
PTC_TOOL() int undocumented(int x);
)"),
            "t.hpp:3:16: error: tool 'undocumented' has no description\n"
            "    3 | PTC_TOOL() int undocumented(int x);\n"
            "      |                ^\n"
            "note: document it with a /// comment, or give it PTC_DESCRIPTION(\"...\")\n");
}

TEST_F(ExtractTools, InvalidToolNameIsAnError) {
  EXPECT_EQ(errors(R"(#include <ptc/annotate.hpp>
/// Camel case.
PTC_TOOL() int findIssues();
)"),
            "t.hpp:3:16: error: tool name 'findIssues' must be 1-64 characters of a-z, 0-9, '_' and '-'\n"
            "    3 | PTC_TOOL() int findIssues();\n"
            "      |                ^\n"
            "note: name the tool with PTC_TOOL(\"snake_case_name\")\n");
}

TEST_F(ExtractTools, ParamDocsFromPtcDocWinOverParamLines) {
  auto h = ok(std::string(kPreamble) + R"(
/// Greets.
/// \param name From the comment.
/// \param title From the comment too.
PTC_TOOL() std::string greet(PTC_DOC("From PTC_DOC.") std::string name, std::string title);
)");
  ASSERT_EQ(h.tools.size(), 1u);
  EXPECT_EQ(h.tools[0].params[0].doc, "From PTC_DOC.");
  EXPECT_EQ(h.tools[0].params[1].doc, "From the comment too.");
}

TEST_F(ExtractTools, ParamLineNamingNoParameterIsAWarning) {
  auto result = run(R"(#include <ptc/annotate.hpp>
/// Greets.
/// \param nmae Misspelled.
PTC_TOOL() int greet(int name);
)");
  EXPECT_FALSE(result.failed);
  EXPECT_EQ(diagnostics_,
            "t.hpp:2:1: warning: \\param 'nmae' names no parameter of tool 'greet'\n"
            "    2 | /// Greets.\n"
            "      | ^\n"
            "note: fix the name, or remove the \\param line\n");
}

TEST_F(ExtractTools, FieldAnnotationsAndDocs) {
  auto h = ok(std::string(kPreamble) + R"(
struct Customer {
  PTC_DOC("Tracker-wide id") std::int64_t id;
  PTC_RANGE(0, 150) int age;
  PTC_RANGE(-0.5, 1.5) double score;  ///< Trailing doc.
  PTC_PATTERN("^[A-Z]{2}$") std::string country;
  PTC_FIREWALL std::string tax_number;
};
/// Reads.
PTC_TOOL() Customer read();
)");
  ASSERT_EQ(h.structs.size(), 1u);
  const auto& f = h.structs[0].fields;
  ASSERT_EQ(f.size(), 5u);
  EXPECT_EQ(f[0].doc, "Tracker-wide id");
  EXPECT_EQ(*f[1].constraints.min, nlohmann::json(0));
  EXPECT_TRUE(f[1].constraints.min->is_number_integer());  // ints stay ints
  EXPECT_EQ(*f[1].constraints.max, nlohmann::json(150));
  EXPECT_EQ(*f[2].constraints.min, nlohmann::json(-0.5));
  EXPECT_TRUE(f[2].constraints.max->is_number_float());
  EXPECT_EQ(f[2].doc, "Trailing doc.");
  EXPECT_EQ(*f[3].constraints.pattern, "^[A-Z]{2}$");
  EXPECT_EQ(f[4].cpp_name, "tax_number");
  EXPECT_EQ(f[4].json_name, "_tax_number");
  EXPECT_EQ(f[3].json_name, "country");
}

TEST_F(ExtractTools, ParamAnnotations) {
  auto h = ok(std::string(kPreamble) + R"(#include <optional>
/// Lists.
PTC_TOOL() int list(PTC_RANGE(1, 100) int limit, PTC_PATTERN("^[a-z]+$") std::optional<std::string> tag);
)");
  ASSERT_EQ(h.tools.size(), 1u);
  EXPECT_EQ(*h.tools[0].params[0].constraints.min, nlohmann::json(1));
  EXPECT_EQ(*h.tools[0].params[0].constraints.max, nlohmann::json(100));
  EXPECT_EQ(*h.tools[0].params[1].constraints.pattern, "^[a-z]+$");
}

TEST_F(ExtractTools, MisplacedAndMalformedAnnotationsAreErrors) {
  EXPECT_EQ(errors(R"(#include <string>
#include <ptc/annotate.hpp>
/// Bad.
PTC_TOOL() int bad(PTC_RANGE(1, 2) std::string text, PTC_PATTERN("(") std::string other, PTC_FIREWALL int x,
                   PTC_RANGE(5, 1) int y);
)"),
            "t.hpp:4:20: error: PTC_RANGE on parameter 'text' of tool 'bad': its type 'std::string' is not a number\n"
            "    4 | PTC_TOOL() int bad(PTC_RANGE(1, 2) std::string text, PTC_PATTERN(\"(\") std::string other, "
            "PTC_FIREWALL int x,\n"
            "      |                    ^\n"
            "note: use PTC_PATTERN for strings\n"
            "t.hpp:4:54: error: PTC_PATTERN on parameter 'other' of tool 'bad': \"(\" is not a valid RE2 pattern: "
            "missing ): (\n"
            "    4 | PTC_TOOL() int bad(PTC_RANGE(1, 2) std::string text, PTC_PATTERN(\"(\") std::string other, "
            "PTC_FIREWALL int x,\n"
            "      |                                                      ^\n"
            "t.hpp:4:90: error: PTC_FIREWALL on parameter 'x' of tool 'bad': only struct fields are firewalled; the "
            "model always sees the arguments it sends\n"
            "    4 | PTC_TOOL() int bad(PTC_RANGE(1, 2) std::string text, PTC_PATTERN(\"(\") std::string other, "
            "PTC_FIREWALL int x,\n"
            "      |                                                                                          ^\n"
            "note: firewall fields of the structs the tool returns\n"
            "t.hpp:5:20: error: PTC_RANGE on parameter 'y' of tool 'bad': the lower bound 5 is above the upper "
            "bound 1\n"
            "    5 |                    PTC_RANGE(5, 1) int y);\n"
            "      |                    ^\n");
}

// The JSON name of a field is its PTC_NAME (camelCase keys from snake_case members), firewalled or not.
TEST_F(ExtractTools, PtcNameRenamesFields) {
  auto h = ok(std::string(kPreamble) + R"(
struct User {
  std::string user_name PTC_NAME("userName");
  PTC_FIREWALL PTC_NAME("token") std::string api_token;
  int age;
};
/// Reads.
PTC_TOOL() User read(User user);
)");
  ASSERT_EQ(h.structs.size(), 1u);
  const auto& f = h.structs[0].fields;
  ASSERT_EQ(f.size(), 3u);
  EXPECT_EQ(f[0].cpp_name, "user_name");
  EXPECT_EQ(f[0].json_name, "userName");
  EXPECT_EQ(f[1].cpp_name, "api_token");
  EXPECT_EQ(f[1].json_name, "_token");
  EXPECT_EQ(f[2].json_name, "age");
}

// Where PTC_NAME (or any PTC_* macro) would have no effect, or would make two keys one, it is an error
// at the place it is written.
TEST_F(ExtractTools, PtcNameWithoutEffectOrCollidingIsAnError) {
  EXPECT_EQ(errors(R"(#include <ptc/annotate.hpp>
struct PTC_NAME("item") Base { int a; };
struct Item : Base {
  int b PTC_NAME("a");
  int c PTC_NAME("9c");
};
enum class PTC_DOC("levels") Level { low };
/// Bad.
PTC_TOOL() int bad(Item item, Level level, int n PTC_NAME("m"));
)"),
            "t.hpp:2:8: error: PTC_NAME has no effect on a struct\n"
            "    2 | struct PTC_NAME(\"item\") Base { int a; };\n"
            "      |        ^\n"
            "note: remove it\n"
            "t.hpp:4:7: error: fields 'a' and 'b' of 'Item' both have the JSON name \"a\"\n"
            "    4 |   int b PTC_NAME(\"a\");\n"
            "      |       ^\n"
            "note: give one of them another PTC_NAME\n"
            "t.hpp:5:9: error: PTC_NAME on parameter 'item' of tool 'bad': field 'c': expected the field's JSON name "
            "as a string literal of letters, digits, '_' and '-' that starts with a letter or '_'\n"
            "    5 |   int c PTC_NAME(\"9c\");\n"
            "      |         ^\n"
            "t.hpp:7:12: error: PTC_DOC has no effect on an enum\n"
            "    7 | enum class PTC_DOC(\"levels\") Level { low };\n"
            "      |            ^\n"
            "note: document it with a /// comment\n"
            "t.hpp:9:50: error: PTC_NAME on parameter 'n' of tool 'bad': a parameter's JSON name is its C++ name\n"
            "    9 | PTC_TOOL() int bad(Item item, Level level, int n PTC_NAME(\"m\"));\n"
            "      |                                                  ^\n"
            "note: rename the parameter, or name it in PTC_SIGNATURE\n");
}

// A range the C++ type cannot hold in full is a warning: the decoder refuses the rest anyway, so the
// schema would promise values the tool never gets.
TEST_F(ExtractTools, RangeWiderThanItsTypeIsAWarning) {
  auto result = run(R"(#include <chrono>
#include <cstdint>
#include <optional>
#include <ptc/annotate.hpp>
/// Sets.
PTC_TOOL() int set(PTC_RANGE(0, 1000) std::int8_t a, PTC_RANGE(-1, 10) unsigned b, PTC_RANGE(0, 1e39) float c,
                   PTC_RANGE(0, 100000) std::optional<std::uint16_t> d, PTC_RANGE(0, 70000) std::chrono::duration<short> e,
                   PTC_RANGE(-128, 127) std::int8_t fits, PTC_RANGE(0, 1e300) double wide,
                   PTC_RANGE(0, 18446744073709551615u) std::uint64_t all);
)");
  EXPECT_FALSE(result.failed);
  const std::string note = "note: the decoder refuses what the type cannot hold; narrow the range to fit\n";
  EXPECT_EQ(diagnostics_,
            "t.hpp:6:20: warning: PTC_RANGE on parameter 'a' of tool 'set': [0, 1000] is wider than its type 'signed "
            "char', which holds -128 to 127\n"
            "    6 | PTC_TOOL() int set(PTC_RANGE(0, 1000) std::int8_t a, PTC_RANGE(-1, 10) unsigned b, PTC_RANGE(0, "
            "1e39) float c,\n"
            "      |                    ^\n" +
                note +
                "t.hpp:6:54: warning: PTC_RANGE on parameter 'b' of tool 'set': [-1, 10] is wider than its type "
                "'unsigned int', which holds 0 to 4294967295\n"
                "    6 | PTC_TOOL() int set(PTC_RANGE(0, 1000) std::int8_t a, PTC_RANGE(-1, 10) unsigned b, "
                "PTC_RANGE(0, 1e39) float c,\n"
                "      |                                                      ^\n" +
                note +
                "t.hpp:6:84: warning: PTC_RANGE on parameter 'c' of tool 'set': [0, 1e+39] is wider than its type "
                "'float', which holds -3.4028234663852886e+38 to 3.4028234663852886e+38\n"
                "    6 | PTC_TOOL() int set(PTC_RANGE(0, 1000) std::int8_t a, PTC_RANGE(-1, 10) unsigned b, "
                "PTC_RANGE(0, 1e39) float c,\n"
                "      |                                                                                    ^\n" +
                note +
                "t.hpp:7:20: warning: PTC_RANGE on parameter 'd' of tool 'set': [0, 100000] is wider than its type "
                "'unsigned short', which holds 0 to 65535\n"
                "    7 |                    PTC_RANGE(0, 100000) std::optional<std::uint16_t> d, PTC_RANGE(0, "
                "70000) std::chrono::duration<short> e,\n"
                "      |                    ^\n" +
                note +
                "t.hpp:7:73: warning: PTC_RANGE on parameter 'e' of tool 'set': [0, 70000] is wider than its type "
                "'std::chrono::duration<short, std::ratio<1, 1>>', which holds -32768 to 32767\n"
                "    7 |                    PTC_RANGE(0, 100000) std::optional<std::uint16_t> d, PTC_RANGE(0, "
                "70000) std::chrono::duration<short> e,\n"
                "      |                                                                         ^\n" +
                note);
}

TEST_F(ExtractTools, ExplicitSignatureIsKeptAndChecked) {
  auto h = ok(std::string(kPreamble) + R"(
/// Greets.
PTC_TOOL() PTC_SIGNATURE("(who :string) -> :string") std::string greet(std::string name);
)");
  ASSERT_EQ(h.tools.size(), 1u);
  EXPECT_EQ(h.tools[0].explicit_signature, "(who :string) -> :string");

  EXPECT_EQ(errors(R"(#include <ptc/annotate.hpp>
/// Counts.
PTC_TOOL() PTC_SIGNATURE("(count :string) -> :int") int count(int count);
)"),
            "t.hpp:3:12: error: PTC_SIGNATURE of tool 'count': parameter 'count' is :string there but the C++ type "
            "int maps to :int\n"
            "    3 | PTC_TOOL() PTC_SIGNATURE(\"(count :string) -> :int\") int count(int count);\n"
            "      |            ^\n");
}

TEST_F(ExtractTools, Examples) {
  auto h = ok(std::string(kPreamble) + R"cpp(
    /// Doubles.
    PTC_TOOL() PTC_EXAMPLE(R"({"x": 2})", "4") PTC_EXAMPLE(R"({"x": 3})", "6") int twice(int x);
  )cpp");
  ASSERT_EQ(h.tools.size(), 1u);
  ASSERT_EQ(h.tools[0].examples.size(), 2u);
  EXPECT_EQ(h.tools[0].examples[0].input, R"({"x": 2})");
  EXPECT_EQ(h.tools[0].examples[0].output, "4");
  EXPECT_EQ(h.tools[0].examples[1].output, "6");

  EXPECT_EQ(errors(R"(#include <ptc/annotate.hpp>
/// Doubles.
PTC_TOOL() PTC_EXAMPLE("{x: 1}", "2") PTC_EXAMPLE("{}", "two") int twice(int x);
)"),
            "t.hpp:3:12: error: the arguments of an example of tool 'twice' must be a JSON object, not '{x: 1}'\n"
            "    3 | PTC_TOOL() PTC_EXAMPLE(\"{x: 1}\", \"2\") PTC_EXAMPLE(\"{}\", \"two\") int twice(int x);\n"
            "      |            ^\n"
            "note: write them as JSON, e.g. R\"({\"query\": \"text\"})\"\n"
            "t.hpp:3:39: error: the result of an example of tool 'twice' is not JSON: 'two'\n"
            "    3 | PTC_TOOL() PTC_EXAMPLE(\"{x: 1}\", \"2\") PTC_EXAMPLE(\"{}\", \"two\") int twice(int x);\n"
            "      |                                       ^\n"
            "note: write it as JSON: strings in double quotes, e.g. R\"(\"text\")\"\n");
}

TEST_F(ExtractTools, OverloadsHighestArityWins) {
  auto h = ok(std::string(kPreamble) + R"(
/// Short.
PTC_TOOL() int search(std::string query);
/// Long.
PTC_TOOL() int search(std::string query, int limit);
/// Other.
PTC_TOOL() int other();
)");
  ASSERT_EQ(h.tools.size(), 2u);
  EXPECT_EQ(h.tools[0].name, "search");
  EXPECT_EQ(h.tools[0].description, "Long.");
  EXPECT_EQ(h.tools[0].params.size(), 2u);
  EXPECT_EQ(h.tools[1].name, "other");
}

TEST_F(ExtractTools, OverloadsPtcSignatureChooses) {
  auto h = ok(std::string(kPreamble) + R"(
/// Short.
PTC_TOOL() PTC_SIGNATURE("(query :string) -> :int") int search(std::string query);
/// Long.
PTC_TOOL() int search(std::string query, int limit);
)");
  ASSERT_EQ(h.tools.size(), 1u);
  EXPECT_EQ(h.tools[0].description, "Short.");
  EXPECT_EQ(h.tools[0].params.size(), 1u);
}

TEST_F(ExtractTools, OverloadsOfEqualArityAreAnError) {
  EXPECT_EQ(errors(R"(#include <string>
#include <ptc/annotate.hpp>
/// By id.
PTC_TOOL() int find(int id);
/// By name.
PTC_TOOL() int find(std::string name);
)"),
            "t.hpp:6:16: error: overloads of 'find' marked PTC_TOOL both take 1 parameters, so neither is the most "
            "general\n"
            "    6 | PTC_TOOL() int find(std::string name);\n"
            "      |                ^\n"
            "note: add PTC_SIGNATURE(\"...\") to the overload the tool exposes\n");
}

TEST_F(ExtractTools, DuplicateToolNamesAreAnError) {
  EXPECT_EQ(errors(R"(#include <ptc/annotate.hpp>
/// One.
PTC_TOOL("same") int one();
/// Two.
PTC_TOOL("same") int two();
)"),
            "t.hpp:5:22: error: tool name 'same' is already taken\n"
            "    5 | PTC_TOOL(\"same\") int two();\n"
            "      |                      ^\n"
            "note: name one of them differently with PTC_TOOL(\"other_name\")\n"
            "t.hpp:3:22: note: the other tool 'same' is declared here\n"
            "    3 | PTC_TOOL(\"same\") int one();\n"
            "      |                      ^\n");
}

TEST_F(ExtractTools, LiteralDefaults) {
  auto h = ok(std::string(kPreamble) + R"(#include <optional>
#include <chrono>
#include <map>
namespace shop { enum class Priority { low, medium, high }; }
/// Labels.
PTC_TOOL() std::string label(std::string text = "say \"hi\"\n", bool loud = false, std::int64_t times = -2,
                             double scale = 1.5, float ratio = 0.1f, double whole = 3, unsigned long long big = 9223372036854775807u,
                             shop::Priority priority = shop::Priority::medium,
                             std::optional<std::string> suffix = std::nullopt, std::optional<int> count = {},
                             std::optional<int> five = 5, std::chrono::seconds wait = std::chrono::seconds(30),
                             std::vector<std::string> tags = {}, std::map<std::string, int> counts = {},
                             std::string note = {});
)");
  ASSERT_EQ(h.tools.size(), 1u);
  const auto& p = h.tools[0].params;
  ASSERT_EQ(p.size(), 15u);
  const auto value = [&](std::size_t i) {
    return p[i].default_value ? p[i].default_value->value : nlohmann::json("none");
  };
  const auto cpp = [&](std::size_t i) { return p[i].default_value ? p[i].default_value->cpp : std::string("none"); };
  EXPECT_EQ(value(0), "say \"hi\"\n");
  EXPECT_EQ(cpp(0), R"(std::string("say \"hi\"\n"))");
  EXPECT_EQ(value(1), false);
  EXPECT_EQ(cpp(1), "false");
  EXPECT_EQ(value(2), -2);
  EXPECT_EQ(cpp(2), "-2");
  EXPECT_EQ(value(3), 1.5);
  EXPECT_EQ(cpp(3), "1.5");
  EXPECT_EQ(value(4), 0.1);
  EXPECT_EQ(cpp(4), "0.1f");
  EXPECT_EQ(value(5), 3.0);
  EXPECT_TRUE(value(5).is_number_float());
  EXPECT_EQ(cpp(5), "3.0");
  EXPECT_EQ(value(6), 9223372036854775807);
  EXPECT_EQ(cpp(6), "9223372036854775807");
  EXPECT_EQ(value(7), "medium");
  EXPECT_EQ(cpp(7), "::shop::Priority::medium");
  EXPECT_TRUE(value(8).is_null());
  EXPECT_EQ(cpp(8), "std::nullopt");
  EXPECT_TRUE(value(9).is_null());
  EXPECT_EQ(value(10), 5);
  EXPECT_EQ(cpp(10), "5");
  EXPECT_EQ(value(11), 30);
  EXPECT_EQ(cpp(11), "std::chrono::seconds(30)");
  // `= {}` on a text, list or map is its empty value.
  EXPECT_EQ(value(12), nlohmann::json::array());
  EXPECT_EQ(cpp(12), "{}");
  EXPECT_EQ(value(13), nlohmann::json::object());
  EXPECT_EQ(cpp(13), "{}");
  EXPECT_EQ(value(14), "");
  EXPECT_EQ(cpp(14), "{}");
}

TEST_F(ExtractTools, ConstantExpressionDefaults) {
  auto h = ok(std::string(kPreamble) + R"(#include <optional>
#include <chrono>
#include <string_view>
namespace shop {
enum class Priority { low, medium, high };
constexpr Priority kUsual = Priority::medium;
}
constexpr int kLimit = 10;
constexpr long kBase = 4;
constexpr double kRatio = 0.25;
constexpr bool kLoud = true;
constexpr const char* kGreeting = "hello";
constexpr std::string_view kName = "ptc";
constexpr char kWord[] = "word";
constexpr std::chrono::seconds kWait{45};
constexpr int twice(int x) { return 2 * x; }
/// Labels.
PTC_TOOL() std::string label(int limit = kLimit, long scaled = kBase * 3 + 1, double ratio = kRatio,
                             bool loud = kLoud, std::string greeting = kGreeting, std::string_view name = kName,
                             std::string word = kWord, shop::Priority priority = shop::kUsual,
                             std::chrono::seconds wait = kWait, int doubled = twice(kLimit), int negative = -kLimit,
                             std::optional<int> maybe = kLimit, int zero = {}, float third = kRatio + 0.5f);
)");
  ASSERT_EQ(h.tools.size(), 1u);
  const auto& p = h.tools[0].params;
  ASSERT_EQ(p.size(), 14u);
  const auto value = [&](std::size_t i) {
    return p[i].default_value ? p[i].default_value->value : nlohmann::json("none");
  };
  const auto cpp = [&](std::size_t i) { return p[i].default_value ? p[i].default_value->cpp : std::string("none"); };
  EXPECT_EQ(value(0), 10);
  EXPECT_EQ(cpp(0), "10");
  EXPECT_EQ(value(1), 13);
  EXPECT_EQ(value(2), 0.25);
  EXPECT_EQ(cpp(2), "0.25");
  EXPECT_EQ(value(3), true);
  EXPECT_EQ(value(4), "hello");
  EXPECT_EQ(cpp(4), R"(std::string("hello"))");
  EXPECT_EQ(value(5), "ptc");
  EXPECT_EQ(cpp(5), R"(std::string_view("ptc"))");
  EXPECT_EQ(value(6), "word");
  EXPECT_EQ(value(7), "medium");
  EXPECT_EQ(cpp(7), "::shop::Priority::medium");
  EXPECT_EQ(value(8), 45);
  EXPECT_EQ(cpp(8), "std::chrono::seconds(45)");
  EXPECT_EQ(value(9), 20);
  EXPECT_EQ(value(10), -10);
  EXPECT_EQ(cpp(10), "-10");
  EXPECT_EQ(value(11), 10);
  EXPECT_EQ(value(12), 0);
  EXPECT_EQ(value(13), 0.75);
  EXPECT_EQ(cpp(13), "0.75f");
}

TEST_F(ExtractTools, AConstantNoSignatureStatesIsAnError) {
  EXPECT_EQ(errors(R"(#include <ptc/annotate.hpp>
enum class Priority { low, high };
/// Bad default.
PTC_TOOL() int bad(Priority p = static_cast<Priority>(7));
)"),
            "t.hpp:4:33: error: parameter 'p' of tool 'bad' has the default argument 'static_cast<Priority>(7)', a "
            "constant of a kind no signature can state as a default\n"
            "    4 | PTC_TOOL() int bad(Priority p = static_cast<Priority>(7));\n"
            "      |                                 ^\n"
            "note: use a number, a string, a boolean, an enumerator, std::nullopt for an optional, or {} for an "
            "empty string, list or map, or take std::optional<T> and apply the default inside the function\n");
}

TEST_F(ExtractTools, NonConstantDefaultIsAnError) {
  EXPECT_EQ(errors(R"(#include <string>
#include <array>
#include <ptc/annotate.hpp>
std::string make_default();
extern int runtime_limit;
constexpr double kRatio = 0.5;
/// Bad defaults.
PTC_TOOL() int bad(std::string text = make_default(), int limit = runtime_limit, std::array<int, 2> ids = {},
                   unsigned count = -1, unsigned long long big = 9223372036854775808u, int ratio = kRatio);
)"),
            "t.hpp:8:39: error: parameter 'text' of tool 'bad' has the default argument 'make_default()', which is "
            "not a constant expression\n"
            "    8 | PTC_TOOL() int bad(std::string text = make_default(), int limit = runtime_limit, "
            "std::array<int, 2> ids = {},\n"
            "      |                                       ^\n"
            "note: use a constant of the parameter's type (a literal, a constexpr constant or expression, an "
            "enumerator, std::nullopt for an optional, or {} for an empty string, list or map), or take "
            "std::optional<T> and apply the default inside the function\n"
            "t.hpp:8:67: error: parameter 'limit' of tool 'bad' has the default argument 'runtime_limit', which "
            "is not a constant expression\n"
            "    8 | PTC_TOOL() int bad(std::string text = make_default(), int limit = runtime_limit, "
            "std::array<int, 2> ids = {},\n"
            "      |                                                                   ^\n"
            "note: use a constant of the parameter's type (a literal, a constexpr constant or expression, an "
            "enumerator, std::nullopt for an optional, or {} for an empty string, list or map), or take "
            "std::optional<T> and apply the default inside the function\n"
            "t.hpp:8:107: error: parameter 'ids' of tool 'bad' has the default argument '{}': it does not fit the "
            "parameter's type 'std::array<int, 2>'\n"
            "    8 | PTC_TOOL() int bad(std::string text = make_default(), int limit = runtime_limit, "
            "std::array<int, 2> ids = {},\n"
            "      |                                                                                              "
            "             ^\n"
            "note: use a literal of the parameter's type\n"
            "t.hpp:9:37: error: parameter 'count' of tool 'bad' has the default argument '-1': it is out of the "
            "range of 'unsigned int'\n"
            "    9 |                    unsigned count = -1, unsigned long long big = 9223372036854775808u, int "
            "ratio = kRatio);\n"
            "      |                                     ^\n"
            "note: use a literal of the parameter's type\n"
            "t.hpp:9:66: error: parameter 'big' of tool 'bad' has the default argument '9223372036854775808u': "
            "signatures hold integers up to 9223372036854775807\n"
            "    9 |                    unsigned count = -1, unsigned long long big = 9223372036854775808u, int "
            "ratio = kRatio);\n"
            "      |                                                                  ^\n"
            "note: use a literal of the parameter's type\n"
            "t.hpp:9:100: error: parameter 'ratio' of tool 'bad' has the default argument 'kRatio': it does not "
            "fit the parameter's type 'int'\n"
            "    9 |                    unsigned count = -1, unsigned long long big = 9223372036854775808u, int "
            "ratio = kRatio);\n"
            "      |                                                                                              "
            "      ^\n"
            "note: use a literal of the parameter's type\n");
}

// A signature's default is JSON text, which is UTF-8: a default that is not is refused where it is
// written, saying where in its text it stops being UTF-8. A default member initializer is not part of
// any signature, so it is not read.
TEST_F(ExtractTools, ADefaultThatIsNotUtf8IsAnErrorAtTheDefault) {
  EXPECT_EQ(errors(R"(#include <optional>
#include <string>
#include <ptc/annotate.hpp>
struct Options { std::string label = "caf\xe9"; };
/// Greets.
PTC_TOOL() std::string greet(Options options, std::string name = "caf\xe9",
                             std::optional<std::string> title = "ol\xc3");
)"),
            "t.hpp:6:66: error: parameter 'name' of tool 'greet' has the default argument '\"caf\\xe9\"': it is not "
            "valid UTF-8 (byte offset 3, 0xe9, starts an invalid sequence)\n"
            "    6 | PTC_TOOL() std::string greet(Options options, std::string name = \"caf\\xe9\",\n"
            "      |                                                                  ^\n"
            "note: signatures and JSON hold UTF-8 text: write the character itself or a \\u escape (\"caf\\u00e9\")\n"
            "t.hpp:7:65: error: parameter 'title' of tool 'greet' has the default argument '\"ol\\xc3\"': it is not "
            "valid UTF-8 (byte offset 2, 0xc3, starts an invalid sequence)\n"
            "    7 |                              std::optional<std::string> title = \"ol\\xc3\");\n"
            "      |                                                                 ^\n"
            "note: signatures and JSON hold UTF-8 text: write the character itself or a \\u escape (\"caf\\u00e9\")\n");
}

TEST_F(ExtractTools, ADefaultWrittenInAnotherEncodingIsShownEscaped) {
  // A Latin-1 header: the byte 0xe9 itself inside the literal. Clang warns of it; the error quotes the
  // default with the byte escaped, so the message itself stays valid UTF-8.
  EXPECT_EQ(errors(std::string(kPreamble) + "/// Greets.\nPTC_TOOL() int greet(std::string name = \"caf\xe9\");\n"),
            "t.hpp:7:45: warning: illegal character encoding in string literal\n"
            "    7 | PTC_TOOL() int greet(std::string name = \"caf<E9>\");\n"
            "      |                                             ^~~~\n"
            "t.hpp:7:41: error: parameter 'name' of tool 'greet' has the default argument '\"caf\\xe9\"': it is not "
            "valid UTF-8 (byte offset 3, 0xe9, starts an invalid sequence)\n"
            "    7 | PTC_TOOL() int greet(std::string name = \"caf<E9>\");\n"
            "      |                                         ^\n"
            "note: signatures and JSON hold UTF-8 text: write the character itself or a \\u escape (\"caf\\u00e9\")\n");
}

TEST_F(ExtractTools, UnicodeDefaultsInUtf8AreKept) {
  auto h = ok(std::string(kPreamble) +
              "/// Greets.\nPTC_TOOL() int greet(std::string a = \"caf\\u00e9\", std::string b = \"caf\xc3\xa9\", "
              "std::string c = \"\\xf0\\x9f\\x98\\x80\");\n");
  ASSERT_EQ(h.tools.size(), 1u);
  const auto& p = h.tools[0].params;
  ASSERT_EQ(p.size(), 3u);
  for (const auto& param : p) ASSERT_TRUE(param.default_value) << param.name;
  EXPECT_EQ(p[0].default_value->value, "caf\xc3\xa9");
  EXPECT_EQ(p[1].default_value->value, "caf\xc3\xa9");
  EXPECT_EQ(p[2].default_value->value, "\xf0\x9f\x98\x80");
}

TEST_F(ExtractTools, MemberTools) {
  auto h = ok(std::string(kPreamble) + R"(namespace shop {
class Counter {
 public:
  /// Adds.
  PTC_TOOL() std::int64_t add(std::int64_t amount = 1);
  /// Reads.
  PTC_TOOL() std::int64_t value() const;
 private:
  std::int64_t value_ = 0;
};
}
)");
  ASSERT_EQ(h.tools.size(), 2u);
  EXPECT_EQ(h.tools[0].function, "add");
  EXPECT_EQ(h.tools[0].class_name, "shop::Counter");
  EXPECT_EQ(h.tools[0].class_cpp, "::shop::Counter");
  EXPECT_FALSE(h.tools[0].const_member);
  EXPECT_TRUE(h.tools[1].const_member);
  EXPECT_EQ(h.classes, std::vector<std::string>{"shop::Counter"});
}

TEST_F(ExtractTools, StaticMembersAndTemplatesAreErrors) {
  EXPECT_EQ(errors(R"(#include <ptc/annotate.hpp>
struct Widget {
  /// Makes.
  PTC_TOOL() static int make();
};
/// Generic.
template <class T> PTC_TOOL() int generic(T t);
)"),
            "t.hpp:4:25: error: PTC_TOOL on 'Widget::make': static member functions cannot be tools\n"
            "    4 |   PTC_TOOL() static int make();\n"
            "      |                         ^\n"
            "note: make it a free function, or a non-static member function of the object it works on\n"
            "t.hpp:7:35: error: PTC_TOOL on 'generic': templates cannot be tools (there is no one signature to give "
            "the model)\n"
            "    7 | template <class T> PTC_TOOL() int generic(T t);\n"
            "      |                                   ^\n"
            "note: declare a non-template function that calls the template with concrete types\n");
}

// A tool in an included header belongs to that header's run; when that header is not listed, no run
// generates it, and the warning says so.
TEST_F(ExtractTools, OnlyDeclarationsSpelledInTheHeaderCount) {
  write("other.hpp", R"(#pragma once
#include <ptc/annotate.hpp>
/// Included.
PTC_TOOL() int included();
)");
  auto result = run(R"(#pragma once
#include "other.hpp"
/// Own.
PTC_TOOL() int own();
)");
  EXPECT_FALSE(result.failed);
  EXPECT_EQ(diagnostics_,
            "In file included from t.hpp:2:\n"
            "other.hpp:4:16: warning: PTC_TOOL on 'included' is not generated: its header is not listed\n"
            "    4 | PTC_TOOL() int included();\n"
            "      |                ^\n"
            "note: add it to ptc_generate's HEADERS (or to ptc-gen's command line)\n");
  ASSERT_EQ(result.headers.size(), 1u);
  ASSERT_EQ(result.headers[0].tools.size(), 1u);
  EXPECT_EQ(result.headers[0].tools[0].name, "own");
}

TEST_F(ExtractTools, AnnotationWithoutPtcToolIsAWarning) {
  auto result = run(R"(#include <ptc/annotate.hpp>
PTC_DESCRIPTION("Forgotten.") int forgotten();
)");
  EXPECT_FALSE(result.failed);
  EXPECT_EQ(diagnostics_,
            "t.hpp:2:1: warning: PTC_DESCRIPTION on 'forgotten' has no effect: the function is not marked PTC_TOOL\n"
            "    2 | PTC_DESCRIPTION(\"Forgotten.\") int forgotten();\n"
            "      | ^\n"
            "note: add PTC_TOOL() to make it a tool\n");
}

TEST_F(ExtractTools, IncludeSpellingThroughIncludeDirectories) {
  write("include/shop/tracker.hpp", "#pragma once\n#include <ptc/annotate.hpp>\n/// T.\nPTC_TOOL() int t();\n");
  extract::Options options;
  options.out_dir = path("gen");
  std::string raw;
  llvm::raw_string_ostream os(raw);
  auto result = extract::extract({path("include/shop/tracker.hpp")}, {"-I" + path("include")}, options, os);
  ASSERT_FALSE(result.failed) << raw;
  ASSERT_EQ(result.headers.size(), 1u);
  EXPECT_EQ(result.headers[0].include, "shop/tracker.hpp");
  EXPECT_EQ(result.headers[0].stem, "tracker");

  // No include directory reaches it: relative to the output directory.
  auto unreached = extract::extract({path("include/shop/tracker.hpp")}, {}, options, os);
  ASSERT_EQ(unreached.headers.size(), 1u);
  EXPECT_EQ(unreached.headers[0].include, "../include/shop/tracker.hpp");
}

TEST_F(ExtractTools, StemIsAnIdentifier) {
  auto result = run("/// X.\n#include <ptc/annotate.hpp>\n", {}, {"-std=c++20"}, "2nd-api.v1.hpp");
  ASSERT_EQ(result.headers.size(), 1u);
  EXPECT_EQ(result.headers[0].stem, "_2nd_api_v1");
}

TEST_F(ExtractTools, CompileErrorsInTheHeaderFailWithoutAModel) {
  auto result = run("int broken(;\n");
  EXPECT_TRUE(result.failed);
  EXPECT_TRUE(result.headers.empty());
  EXPECT_NE(diagnostics_.find("t.hpp:1:12: error: "), std::string::npos) << diagnostics_;
}

}  // namespace
}  // namespace ptcgen::test
