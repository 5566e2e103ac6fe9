// docs/codecs.md, "Types", row by row: C++ types -> model::Type, read by the clang front end.

#include "extract_fixture.hpp"

namespace ptcgen::test {
namespace {

using model::TypeKind;

class ExtractTypes : public ExtractTest {
 protected:
  /// The model of `decls` followed by one tool, `PTC_TOOL() <ret> probe(<params>)`.
  model::HeaderModel tool(const std::string& decls, const std::string& ret, const std::string& params,
                          std::vector<std::string> flags = {"-std=c++20"}) {
    return ok(std::string(kPreamble) + decls + "\n/// Probe.\nPTC_TOOL() " + ret + " probe(" + params + ");\n", {},
              flags);
  }
  /// The type of the probe's only parameter.
  model::Type param(const std::string& decls, const std::string& type) {
    auto h = tool(decls, "void", type + " p");
    if (h.tools.size() != 1 || h.tools[0].params.size() != 1) return {};
    return h.tools[0].params[0].type;
  }
  /// The probe's result type.
  model::Type result(const std::string& decls, const std::string& type,
                     std::vector<std::string> flags = {"-std=c++20"}) {
    auto h = tool(decls, type, "", flags);
    return h.tools.empty() ? model::Type{} : h.tools[0].result;
  }
};

TEST_F(ExtractTypes, StringAndStringView) {
  auto h = tool("#include <string_view>\n", "std::string", "std::string_view text, const std::string& name");
  ASSERT_EQ(h.tools.size(), 1u);
  const auto& t = h.tools[0];
  EXPECT_EQ(t.result.kind, TypeKind::String);
  EXPECT_EQ(t.result.cpp, "std::string");
  EXPECT_EQ(t.params[0].type.kind, TypeKind::StringView);
  EXPECT_EQ(t.params[0].type.cpp, "std::string_view");
  EXPECT_EQ(t.params[1].type.kind, TypeKind::String);  // `const T&` is T
  EXPECT_EQ(t.params[1].type.cpp, "std::string");
}

TEST_F(ExtractTypes, Bool) {
  auto t = param("", "bool");
  EXPECT_EQ(t.kind, TypeKind::Bool);
  EXPECT_EQ(t.cpp, "bool");
}

TEST_F(ExtractTypes, SignedIntegersThroughAliasesKeepTheirBuiltinName) {
  auto h = tool("namespace shop { using UserId = std::int64_t; }\n", "long long",
                "int a, std::int64_t b, shop::UserId c, short d, std::int8_t e");
  ASSERT_EQ(h.tools.size(), 1u);
  const auto& p = h.tools[0].params;
  const std::vector<std::pair<std::string, unsigned>> want = {
      {"int", 32}, {"long", 64}, {"long", 64}, {"short", 16}, {"signed char", 8}};
  for (std::size_t i = 0; i < want.size(); ++i) {
    EXPECT_EQ(p[i].type.kind, TypeKind::Integer);
    EXPECT_EQ(p[i].type.cpp, want[i].first);
    EXPECT_EQ(p[i].type.bits, want[i].second);
    EXPECT_TRUE(p[i].type.is_signed);
  }
  EXPECT_EQ(h.tools[0].result.cpp, "long long");
}

TEST_F(ExtractTypes, UnsignedIntegersAndSizeT) {
  auto h = tool("#include <cstddef>\n", "unsigned", "std::size_t a, std::uint8_t b, unsigned short c");
  ASSERT_EQ(h.tools.size(), 1u);
  const auto& p = h.tools[0].params;
  EXPECT_EQ(p[0].type.cpp, "unsigned long");
  EXPECT_EQ(p[0].type.bits, 64u);
  EXPECT_FALSE(p[0].type.is_signed);
  EXPECT_EQ(p[1].type.cpp, "unsigned char");
  EXPECT_EQ(p[1].type.bits, 8u);
  EXPECT_EQ(p[2].type.cpp, "unsigned short");
  EXPECT_EQ(h.tools[0].result.cpp, "unsigned int");
  EXPECT_FALSE(h.tools[0].result.is_signed);
}

TEST_F(ExtractTypes, FloatAndDouble) {
  auto h = tool("", "double", "float f");
  ASSERT_EQ(h.tools.size(), 1u);
  EXPECT_EQ(h.tools[0].result.kind, TypeKind::Float);
  EXPECT_EQ(h.tools[0].result.cpp, "double");
  EXPECT_EQ(h.tools[0].params[0].type.kind, TypeKind::Float);
  EXPECT_EQ(h.tools[0].params[0].type.cpp, "float");
}

TEST_F(ExtractTypes, EnumsInNamespacesAndClasses) {
  auto h = tool("namespace shop { enum class Status { open, closed }; struct Box { enum Size { small, large }; }; }\n",
                "shop::Status", "shop::Box::Size size");
  ASSERT_EQ(h.tools.size(), 1u);
  EXPECT_EQ(h.tools[0].result.kind, TypeKind::Enum);
  EXPECT_EQ(h.tools[0].result.name, "shop::Status");
  EXPECT_EQ(h.tools[0].result.cpp, "::shop::Status");
  EXPECT_EQ(h.tools[0].params[0].type.cpp, "::shop::Box::Size");
  // Enums in first-reached order: parameters before the result.
  ASSERT_EQ(h.enums.size(), 2u);
  EXPECT_EQ(h.enums[0].name, "shop::Box::Size");
  EXPECT_EQ(h.enums[1].name, "shop::Status");
  ASSERT_EQ(h.enums[1].enumerators.size(), 2u);
  EXPECT_EQ(h.enums[1].enumerators[0].name, "open");
  EXPECT_EQ(h.enums[1].enumerators[0].cpp, "::shop::Status::open");
  EXPECT_EQ(h.enums[0].enumerators[1].cpp, "::shop::Box::Size::large");
  EXPECT_EQ(h.enums[1].location.line, 6u);
}

// Google style (kLow) need not reach the model: PTC_NAME renames an enumerator, for the schema, the
// decoder and defaults alike.
TEST_F(ExtractTypes, PtcNameRenamesAnEnumerator) {
  auto h = tool("namespace shop { enum class Level { kLow PTC_NAME(\"low\"), kHigh PTC_NAME(\"high\") }; }\n", "int",
                "shop::Level level = shop::Level::kHigh");
  ASSERT_EQ(h.enums.size(), 1u);
  ASSERT_EQ(h.enums[0].enumerators.size(), 2u);
  EXPECT_EQ(h.enums[0].enumerators[0].name, "low");
  EXPECT_EQ(h.enums[0].enumerators[0].cpp, "::shop::Level::kLow");
  EXPECT_EQ(h.enums[0].enumerators[1].name, "high");
  ASSERT_TRUE(h.tools[0].params[0].default_value);
  EXPECT_EQ(h.tools[0].params[0].default_value->value, "high");
}

TEST_F(ExtractTypes, AnnotationsWithoutEffectOnAnEnumeratorAreErrors) {
  const std::string text = errors(R"(#include <ptc/annotate.hpp>
enum class Level { kLow PTC_DOC("low"), kHigh PTC_NAME("kLow") , kMid PTC_NAME("") };
/// Sets.
PTC_TOOL() int set(Level level);
)");
  EXPECT_NE(text.find("error: PTC_DOC has no effect on an enumerator"), std::string::npos) << text;
  EXPECT_NE(text.find("error: two enumerators of 'Level' are both named \"kLow\""), std::string::npos) << text;
  EXPECT_NE(text.find("error: PTC_NAME takes the enumerator's JSON name as a non-empty string literal"),
            std::string::npos)
      << text;
}

TEST_F(ExtractTypes, Sequences) {
  auto h = tool("#include <list>\n#include <deque>\n#include <span>\nnamespace shop { struct Item { int id; }; }\n",
                "std::vector<shop::Item>", "std::list<std::string> a, std::deque<double> b, std::span<const int> c");
  ASSERT_EQ(h.tools.size(), 1u);
  const auto& t = h.tools[0];
  EXPECT_EQ(t.result.kind, TypeKind::Sequence);
  EXPECT_EQ(t.result.cpp, "std::vector<::shop::Item>");
  ASSERT_EQ(t.result.args.size(), 1u);
  EXPECT_EQ(t.result.args[0].kind, TypeKind::Struct);
  EXPECT_EQ(t.params[0].type.cpp, "std::list<std::string>");
  EXPECT_EQ(t.params[1].type.cpp, "std::deque<double>");
  EXPECT_EQ(t.params[2].type.kind, TypeKind::Sequence);
  EXPECT_EQ(t.params[2].type.cpp, "std::span<const int>");
  EXPECT_EQ(t.params[2].type.args[0].cpp, "int");
}

TEST_F(ExtractTypes, Array) {
  auto t = param("#include <array>\n", "std::array<int, 3>");
  EXPECT_EQ(t.kind, TypeKind::Array);
  EXPECT_EQ(t.cpp, "std::array<int, 3>");
  EXPECT_EQ(t.array_size, 3u);
  ASSERT_EQ(t.args.size(), 1u);
  EXPECT_EQ(t.args[0].cpp, "int");
}

TEST_F(ExtractTypes, Sets) {
  auto h = tool("#include <set>\n#include <unordered_set>\n", "std::set<std::string>", "std::unordered_set<long> ids");
  ASSERT_EQ(h.tools.size(), 1u);
  EXPECT_EQ(h.tools[0].result.kind, TypeKind::Set);
  EXPECT_EQ(h.tools[0].result.cpp, "std::set<std::string>");
  EXPECT_EQ(h.tools[0].params[0].type.cpp, "std::unordered_set<long>");
}

TEST_F(ExtractTypes, MapsWithStringKeys) {
  auto h = tool("#include <map>\n#include <unordered_map>\n", "std::map<std::string, std::int64_t>",
                "std::unordered_map<std::string, std::vector<std::string>> groups");
  ASSERT_EQ(h.tools.size(), 1u);
  const auto& r = h.tools[0].result;
  EXPECT_EQ(r.kind, TypeKind::Map);
  EXPECT_EQ(r.cpp, "std::map<std::string, long>");
  ASSERT_EQ(r.args.size(), 1u);  // the value; keys are strings
  EXPECT_EQ(r.args[0].cpp, "long");
  EXPECT_EQ(h.tools[0].params[0].type.cpp, "std::unordered_map<std::string, std::vector<std::string>>");
}

TEST_F(ExtractTypes, StructsNestedWithBasesDocsAndDependencyOrder) {
  auto h = tool(R"(namespace shop {
struct Base { std::int64_t id; };
/// An address.
struct Address {
  std::string street;  ///< Street and number.
  /// ISO code.
  std::string country;
};
struct Customer : Base {
  std::string name;
  Address address;
  struct Note { std::string text; } note;
};
}
)",
                "shop::Customer", "const shop::Address& a");
  ASSERT_EQ(h.tools.size(), 1u);
  EXPECT_EQ(h.tools[0].result.kind, TypeKind::Struct);
  EXPECT_EQ(h.tools[0].result.name, "shop::Customer");
  EXPECT_EQ(h.tools[0].result.cpp, "::shop::Customer");
  ASSERT_EQ(h.structs.size(), 3u);
  EXPECT_EQ(h.structs[0].name, "shop::Address");
  EXPECT_EQ(h.structs[0].doc, "An address.");
  EXPECT_EQ(h.structs[0].fields[0].doc, "Street and number.");
  EXPECT_EQ(h.structs[0].fields[1].doc, "ISO code.");
  EXPECT_EQ(h.structs[1].name, "shop::Customer::Note");
  EXPECT_EQ(h.structs[1].cpp, "::shop::Customer::Note");
  const auto& c = h.structs[2];
  EXPECT_EQ(c.name, "shop::Customer");
  ASSERT_EQ(c.fields.size(), 4u);
  EXPECT_EQ(c.fields[0].cpp_name, "id");  // the base's fields first, as aggregate init sees them
  EXPECT_EQ(c.fields[0].type.cpp, "long");
  EXPECT_EQ(c.fields[2].type.cpp, "::shop::Address");
  EXPECT_EQ(c.fields[3].type.name, "shop::Customer::Note");
  EXPECT_EQ(c.location.line, 14u);
  EXPECT_EQ(c.fields[1].location.line, 15u);
}

TEST_F(ExtractTypes, TemplateInstantiatedWithConcreteTypes) {
  auto h = tool(
      "namespace shop {\nstruct Issue { int id; };\ntemplate <class T> struct Page { std::vector<T> items; "
      "std::int64_t total; };\n}\n",
      "shop::Page<shop::Issue>", "");
  ASSERT_EQ(h.tools.size(), 1u);
  EXPECT_EQ(h.tools[0].result.name, "shop::Page<shop::Issue>");
  EXPECT_EQ(h.tools[0].result.cpp, "::shop::Page<::shop::Issue>");
  ASSERT_EQ(h.structs.size(), 2u);
  EXPECT_EQ(h.structs[0].name, "shop::Issue");
  EXPECT_EQ(h.structs[1].name, "shop::Page<shop::Issue>");
  EXPECT_EQ(h.structs[1].fields[0].type.cpp, "std::vector<::shop::Issue>");
}

TEST_F(ExtractTypes, OptionalAndSmartPointers) {
  auto h = tool("#include <optional>\n#include <memory>\n", "std::optional<std::string>",
                "std::unique_ptr<int> a, std::shared_ptr<std::string> b");
  ASSERT_EQ(h.tools.size(), 1u);
  const auto& t = h.tools[0];
  EXPECT_EQ(t.result.kind, TypeKind::Optional);
  EXPECT_EQ(t.result.wrapper, "std::optional");
  EXPECT_EQ(t.result.cpp, "std::optional<std::string>");
  EXPECT_EQ(t.params[0].type.wrapper, "std::unique_ptr");
  EXPECT_EQ(t.params[0].type.cpp, "std::unique_ptr<int>");
  EXPECT_EQ(t.params[1].type.wrapper, "std::shared_ptr");
  EXPECT_EQ(t.params[1].type.args[0].kind, TypeKind::String);
}

TEST_F(ExtractTypes, VariantAndMonostate) {
  auto t = param("#include <variant>\n", "std::variant<std::monostate, std::int64_t, std::string>");
  EXPECT_EQ(t.kind, TypeKind::Variant);
  EXPECT_EQ(t.cpp, "std::variant<std::monostate, long, std::string>");
  ASSERT_EQ(t.args.size(), 3u);
  EXPECT_EQ(t.args[0].kind, TypeKind::Monostate);
}

TEST_F(ExtractTypes, PairAndTuple) {
  auto h = tool("#include <tuple>\n#include <utility>\n", "std::pair<std::string, int>", "std::tuple<int, bool> t");
  ASSERT_EQ(h.tools.size(), 1u);
  EXPECT_EQ(h.tools[0].result.kind, TypeKind::Tuple);
  EXPECT_EQ(h.tools[0].result.cpp, "std::pair<std::string, int>");
  EXPECT_EQ(h.tools[0].params[0].type.cpp, "std::tuple<int, bool>");
  EXPECT_EQ(h.tools[0].params[0].type.args.size(), 2u);
}

TEST_F(ExtractTypes, SystemClockTimePoint) {
  auto t = result("#include <chrono>\n", "std::chrono::system_clock::time_point");
  EXPECT_EQ(t.kind, TypeKind::TimePoint);
  EXPECT_EQ(t.cpp, "std::chrono::system_clock::time_point");
  auto seconds = result("#include <chrono>\n", "std::chrono::sys_seconds");
  EXPECT_EQ(seconds.kind, TypeKind::TimePoint);
  // Another duration than the clock's own: spelled in full (an alias template's argument loses its name).
  EXPECT_EQ(seconds.cpp,
            "std::chrono::time_point<std::chrono::system_clock, std::chrono::duration<long, std::ratio<1, 1>>>");
}

TEST_F(ExtractTypes, YearMonthDay) {
  auto t = param("#include <chrono>\n", "std::chrono::year_month_day");
  EXPECT_EQ(t.kind, TypeKind::Date);
  EXPECT_EQ(t.cpp, "std::chrono::year_month_day");
}

TEST_F(ExtractTypes, DurationsKeepTheirAlias) {
  auto h = tool("#include <chrono>\n", "std::chrono::seconds",
                "std::chrono::milliseconds timeout, std::chrono::duration<int, std::ratio<60>> minutes");
  ASSERT_EQ(h.tools.size(), 1u);
  EXPECT_EQ(h.tools[0].result.kind, TypeKind::Duration);
  EXPECT_EQ(h.tools[0].result.cpp, "std::chrono::seconds");
  EXPECT_EQ(h.tools[0].params[0].type.cpp, "std::chrono::milliseconds");
  EXPECT_EQ(h.tools[0].params[1].type.cpp, "std::chrono::duration<int, std::ratio<60, 1>>");
}

// The model sees a bare :int: the unit goes into the docs (JSON Schema) and the description (prompt).
TEST_F(ExtractTypes, DurationsSayTheirUnit) {
  auto h = ok(R"(#include <chrono>
#include <optional>
#include <vector>
#include <ptc/annotate.hpp>
struct Retry {
  /// Pause between tries.
  std::chrono::seconds pause;
  std::vector<std::chrono::duration<long, std::ratio<2, 200>>> steps;
};
/// Waits.
/// \param timeout How long to wait.
PTC_TOOL() std::chrono::minutes wait(std::chrono::milliseconds timeout, std::optional<std::chrono::hours> cap,
                                     Retry retry, int tries);
)");
  ASSERT_EQ(h.tools.size(), 1u);
  const auto& t = h.tools[0];
  EXPECT_EQ(t.description, "Waits. Units: timeout in milliseconds, cap in hours, the result in minutes.");
  EXPECT_EQ(t.params[0].doc, "How long to wait. Unit: milliseconds.");
  EXPECT_EQ(t.params[1].doc, "Unit: hours.");
  EXPECT_EQ(t.params[3].doc, "");
  ASSERT_EQ(h.structs.size(), 1u);
  EXPECT_EQ(h.structs[0].fields[0].doc, "Pause between tries. Unit: seconds.");
  EXPECT_EQ(h.structs[0].fields[1].doc, "Unit: 1/100 seconds.");
}

TEST_F(ExtractTypes, UnitsThatDoNotFitTheDescriptionAreAWarning) {
  const std::string long_text(190, 'x');
  auto result = run("#include <chrono>\n#include <ptc/annotate.hpp>\n/// " + long_text +
                    "\nPTC_TOOL() int wait(std::chrono::milliseconds timeout);\n");
  EXPECT_FALSE(result.failed);
  EXPECT_EQ(diagnostics_.substr(0, diagnostics_.find('\n')),
            "t.hpp:4:16: warning: the description of tool 'wait' has no room for \"Units: timeout in "
            "milliseconds.\" (descriptions are at most 200 characters)");
}

TEST_F(ExtractTypes, ExpectedIsAReturnStyle) {
  auto h = tool("#include <expected>\n", "std::expected<std::int64_t, std::string>", "", {"-std=c++23"});
  ASSERT_EQ(h.tools.size(), 1u);
  EXPECT_EQ(h.tools[0].return_style, model::ReturnStyle::Expected);
  EXPECT_EQ(h.tools[0].result.kind, TypeKind::Expected);
  EXPECT_EQ(h.tools[0].result.cpp, "std::expected<long, std::string>");
  ASSERT_EQ(h.tools[0].result.args.size(), 2u);
  EXPECT_EQ(h.tools[0].result.args[1].kind, TypeKind::String);
}

TEST_F(ExtractTypes, NlohmannJson) {
  auto t = param("#include <nlohmann/json.hpp>\n", "const nlohmann::json&");
  EXPECT_EQ(t.kind, TypeKind::Json);
  EXPECT_EQ(t.cpp, "nlohmann::json");
}

TEST_F(ExtractTypes, ToolContextIsInjectedNotAParameter) {
  auto h = tool("#include <ptc/tool_context.hpp>\n", "int", "int a, ptc::ToolContext& context, int b");
  ASSERT_EQ(h.tools.size(), 1u);
  EXPECT_EQ(h.tools[0].params.size(), 2u);
  EXPECT_EQ(h.tools[0].params[1].name, "b");
  EXPECT_EQ(h.tools[0].context_index, 1u);
}

TEST_F(ExtractTypes, VoidReturnAndToolResult) {
  auto h = ok(std::string(kPreamble) + R"(#include <ptc/tool_result.hpp>
/// Nothing back.
PTC_TOOL() void quiet();
/// A result with a message.
PTC_TOOL() ptc::ToolResult<std::vector<std::string>> listed();
/// The default ToolResult carries JSON.
PTC_TOOL() ptc::ToolResult<> any();
)");
  ASSERT_EQ(h.tools.size(), 3u);
  EXPECT_EQ(h.tools[0].return_style, model::ReturnStyle::Void);
  EXPECT_EQ(h.tools[0].result.kind, TypeKind::Void);
  EXPECT_EQ(h.tools[1].return_style, model::ReturnStyle::ToolResult);
  EXPECT_EQ(h.tools[1].result.cpp, "std::vector<std::string>");
  EXPECT_EQ(h.tools[2].result.kind, TypeKind::Json);
}

TEST_F(ExtractTypes, RecursionBecomesAnyWithAWarning) {
  auto result = run(R"(#include <vector>
#include <string>
#include <ptc/annotate.hpp>
struct Category {
  std::string name;
  std::vector<Category> children;
};
/// The tree.
PTC_TOOL() Category tree();
)");
  EXPECT_FALSE(result.failed);
  EXPECT_EQ(diagnostics_,
            "t.hpp:6:25: warning: result of tool 'tree': field 'children' has type 'std::vector<Category>', which "
            "holds 'Category': 'Category' contains itself, so this is typed :any\n"
            "    6 |   std::vector<Category> children;\n"
            "      |                         ^\n"
            "note: signatures cannot express recursive types; the value is still encoded in full\n");
  ASSERT_EQ(result.headers.size(), 1u);
  const auto& s = result.headers[0].structs;
  ASSERT_EQ(s.size(), 1u);
  EXPECT_EQ(s[0].fields[1].type.args[0].kind, TypeKind::Recursive);
  EXPECT_EQ(s[0].fields[1].type.args[0].name, "Category");
}

TEST_F(ExtractTypes, DepthLimitBecomesMapWithAWarningNamingTheOption) {
  const std::string header = R"(#include <ptc/annotate.hpp>
struct L3 { int value; };
struct L2 { L3 three; };
struct L1 { L2 two; };
/// Deep.
PTC_TOOL() L1 deep();
)";
  extract::Options options;
  options.max_depth = 2;
  auto result = run(header, options);
  EXPECT_FALSE(result.failed);
  EXPECT_EQ(diagnostics_,
            "t.hpp:3:16: warning: result of tool 'deep': field 'two.three' has type 'L3': structs nested deeper than "
            "--max-depth=2 are typed :map\n"
            "    3 | struct L2 { L3 three; };\n"
            "      |                ^\n"
            "note: raise --max-depth (ptc_generate's MAX_DEPTH) or flatten the struct\n");
  ASSERT_EQ(result.headers.size(), 1u);
  const auto& s = result.headers[0].structs;
  // Still recorded: generated code decodes the value in full.
  ASSERT_EQ(s.size(), 3u);
  EXPECT_EQ(s[0].name, "L3");
  EXPECT_EQ(s[1].fields[0].type.kind, TypeKind::DepthLimit);
  EXPECT_EQ(s[1].fields[0].type.name, "L3");
  EXPECT_EQ(s[2].fields[0].type.kind, TypeKind::Struct);

  // The default limit of 3 takes all three.
  auto deeper = run(header);
  EXPECT_EQ(diagnostics_, "");
  ASSERT_EQ(deeper.headers.size(), 1u);
  EXPECT_EQ(deeper.headers[0].structs[1].fields[0].type.kind, TypeKind::Struct);
}

TEST_F(ExtractTypes, SharedStructsExpandAsDeepAsTheirShallowestUse) {
  auto h = ok(R"(#include <ptc/annotate.hpp>
struct C { int value; };
struct B { C c; };
struct A { B b; };
/// Reaches C at depth 3.
PTC_TOOL() A outer();
/// Reaches C at depth 1.
PTC_TOOL() C inner();
)",
              [] {
                extract::Options o;
                o.max_depth = 3;
                return o;
              }());
  ASSERT_EQ(h.structs.size(), 3u);
  EXPECT_EQ(h.structs[0].name, "C");
  EXPECT_EQ(h.structs[1].fields[0].type.kind, TypeKind::Struct);
}

// --- unsupported types: one diagnostic each, at the declaration, with a recommendation -------------

TEST_F(ExtractTypes, RawPointerIsAnError) {
  EXPECT_EQ(errors(R"(#include <ptc/annotate.hpp>
struct User { int id; };
struct Filter { User* owner; };
/// Searches.
PTC_TOOL() int search(Filter filter, const char* text);
)"),
            "t.hpp:3:23: error: parameter 'filter' of tool 'search': field 'owner' has type 'User *': raw pointers "
            "cannot cross a tool boundary\n"
            "    3 | struct Filter { User* owner; };\n"
            "      |                       ^\n"
            "note: use the value itself, std::optional<T>, or std::unique_ptr<T> instead\n"
            "t.hpp:5:50: error: parameter 'text' of tool 'search' has type 'const char *': raw pointers cannot cross "
            "a tool boundary\n"
            "    5 | PTC_TOOL() int search(Filter filter, const char* text);\n"
            "      |                                                  ^\n"
            "note: take std::string or std::string_view instead\n");
}

TEST_F(ExtractTypes, NonConstReferenceIsAnError) {
  EXPECT_EQ(errors(R"(#include <string>
#include <ptc/annotate.hpp>
/// Appends.
PTC_TOOL() int append(std::string& text);
)"),
            "t.hpp:4:36: error: parameter 'text' of tool 'append' has type 'std::string &': a tool's arguments are "
            "decoded from JSON, so nothing can be written back through a reference\n"
            "    4 | PTC_TOOL() int append(std::string& text);\n"
            "      |                                    ^\n"
            "note: take the value or a const reference, and return what the tool produces\n");
}

TEST_F(ExtractTypes, StdFunctionIsAnError) {
  EXPECT_EQ(errors(R"(#include <functional>
#include <ptc/annotate.hpp>
/// Calls back.
PTC_TOOL() int later(std::function<void(int)> done);
)"),
            "t.hpp:4:47: error: parameter 'done' of tool 'later' has type 'std::function<void (int)>': a callback "
            "cannot be sent as JSON\n"
            "    4 | PTC_TOOL() int later(std::function<void(int)> done);\n"
            "      |                                               ^\n"
            "note: take a std::string or an enum naming the action, or a struct describing it, instead\n");
}

TEST_F(ExtractTypes, FunctionPointerIsAnError) {
  EXPECT_EQ(errors(R"(#include <ptc/annotate.hpp>
/// Calls back.
PTC_TOOL() int later(void (*done)(int));
)"),
            "t.hpp:3:29: error: parameter 'done' of tool 'later' has type 'void (*)(int)': function pointers cannot "
            "be sent as JSON\n"
            "    3 | PTC_TOOL() int later(void (*done)(int));\n"
            "      |                             ^\n"
            "note: take a std::string or an enum naming the action, or a struct describing it, instead\n");
}

TEST_F(ExtractTypes, ThreadIsAnError) {
  EXPECT_EQ(errors(R"(#include <thread>
#include <ptc/annotate.hpp>
/// Runs.
PTC_TOOL() int run(std::thread worker);
)"),
            "t.hpp:4:32: error: parameter 'worker' of tool 'run' has type 'std::thread': a thread cannot be sent as "
            "JSON\n"
            "    4 | PTC_TOOL() int run(std::thread worker);\n"
            "      |                                ^\n"
            "note: start the thread inside the tool, or take an identifier\n");
}

TEST_F(ExtractTypes, UnionIsAnError) {
  EXPECT_EQ(errors(R"(#include <ptc/annotate.hpp>
union Number { int i; float f; };
/// Adds.
PTC_TOOL() int add(Number n);
)"),
            "t.hpp:4:27: error: parameter 'n' of tool 'add' has type 'Number': unions cannot be decoded from JSON "
            "(nothing says which member is active)\n"
            "    4 | PTC_TOOL() int add(Number n);\n"
            "      |                           ^\n"
            "note: use std::variant<A, B> instead\n");
}

TEST_F(ExtractTypes, NonStringMapKeyIsAnError) {
  EXPECT_EQ(errors(R"(#include <map>
#include <string>
#include <ptc/annotate.hpp>
/// Names by number.
PTC_TOOL() std::map<int, std::string> names();
)"),
            "t.hpp:5:12: error: result of tool 'names' has type 'std::map<int, std::string>': map keys must be "
            "std::string: JSON object keys are strings\n"
            "    5 | PTC_TOOL() std::map<int, std::string> names();\n"
            "      |            ^\n"
            "note: use std::map<std::string, T>, or a std::vector<T> of structs that hold the key\n");
}

TEST_F(ExtractTypes, OpaqueClassIsAnError) {
  EXPECT_EQ(errors(R"(#include <ptc/annotate.hpp>
class Account {
 public:
  int balance() const;
 private:
  int balance_ = 0;
};
/// Opens.
PTC_TOOL() Account open();
)"),
            "t.hpp:9:12: error: result of tool 'open' has type 'Account': ptc cannot see inside this class: it has a "
            "non-public field 'balance_'\n"
            "    9 | PTC_TOOL() Account open();\n"
            "      |            ^\n"
            "note: make it an aggregate (public fields, no constructors, no virtual functions), or give the tool a "
            "plain struct that holds what it needs\n");
}

TEST_F(ExtractTypes, IncompleteTypesInsideLibraryTemplatesAreErrors) {
  // Library templates are mapped without being instantiated; their arguments are still checked.
  EXPECT_EQ(errors(R"(#include <optional>
#include <ptc/annotate.hpp>
struct Later;
/// Waits.
PTC_TOOL() int wait(std::optional<Later> later);
)"),
            "t.hpp:5:42: error: parameter 'later' of tool 'wait' has type 'std::optional<Later>', which holds "
            "'Later': the type is incomplete here\n"
            "    5 | PTC_TOOL() int wait(std::optional<Later> later);\n"
            "      |                                          ^\n"
            "note: include the header that defines it\n");
}

TEST_F(ExtractTypes, UnknownAndIncompleteTypesAreErrors) {
  EXPECT_EQ(errors(R"(#include <vector>
#include <mutex>
#include <ptc/annotate.hpp>
struct Later;
/// Locks.
PTC_TOOL() int lock(const std::vector<std::mutex*>& locks, const Later& later, char c);
)"),
            "t.hpp:6:53: error: parameter 'locks' of tool 'lock' has type 'const std::vector<std::mutex *> &', which "
            "holds 'std::mutex *': raw pointers cannot cross a tool boundary\n"
            "    6 | PTC_TOOL() int lock(const std::vector<std::mutex*>& locks, const Later& later, char c);\n"
            "      |                                                     ^\n"
            "note: use the value itself, std::optional<T>, or std::unique_ptr<T> instead\n"
            "t.hpp:6:73: error: parameter 'later' of tool 'lock' has type 'const Later &': the type is incomplete "
            "here\n"
            "    6 | PTC_TOOL() int lock(const std::vector<std::mutex*>& locks, const Later& later, char c);\n"
            "      |                                                                         ^\n"
            "note: include the header that defines it\n"
            "t.hpp:6:85: error: parameter 'c' of tool 'lock' has type 'char': a character is neither text nor a "
            "number in JSON\n"
            "    6 | PTC_TOOL() int lock(const std::vector<std::mutex*>& locks, const Later& later, char c);\n"
            "      |                                                                                     ^\n"
            "note: use std::string for text, or an integer type such as std::int8_t for a number\n");
}

TEST_F(ExtractTypes, StringViewOutsideAParameterIsAnError) {
  EXPECT_EQ(errors(R"(#include <string_view>
#include <ptc/annotate.hpp>
/// Names.
PTC_TOOL() std::string_view name();
)"),
            "t.hpp:4:12: error: result of tool 'name' has type 'std::string_view': std::string_view would point into "
            "the decoded arguments, which the value outlives\n"
            "    4 | PTC_TOOL() std::string_view name();\n"
            "      |            ^\n"
            "note: use std::string (std::string_view is fine as a parameter's own type)\n");
}

// --- bounded work on hostile types ----------------------------------------------------------------
// Every walk over a type's structure stops at kMaxTypeDepth levels or kMaxTypeNodes types with an
// error at the place it stops; the inputs are generated, far beyond the limits.

/// `struct S0 { int x; };` and `struct S<i> { S<i-1> next; };` up to S<n-1>.
std::string struct_chain(const std::string& prefix, int n, const std::string& bottom = "int x;") {
  std::string out = "struct " + prefix + "0 { " + bottom + " };\n";
  for (int i = 1; i < n; ++i)
    out += "struct " + prefix + std::to_string(i) + " { " + prefix + std::to_string(i - 1) + " next; };\n";
  return out;
}

const std::string kTooDeepNote =
    "note: each struct, container, optional, variant or tuple is one level; flatten the type, or hold the deeper "
    "part as nlohmann::json\n";

/// `n` wrappers taken in turn from `wrappers` around `inner`: ({"std::vector<"}, 2, "int") is
/// "std::vector<std::vector<int>>".
std::string nested(const std::vector<std::string>& wrappers, int n, const std::string& inner = "int") {
  std::string open, close;
  for (int i = 0; i < n; ++i) {
    open += wrappers[static_cast<std::size_t>(i) % wrappers.size()];
    close += '>';
  }
  return open + inner + close;
}

/// The levels a mapped type takes: itself and the deepest of its arguments.
unsigned levels(const model::Type& type) {
  unsigned below = 0;
  for (const auto& a : type.args) below = std::max(below, levels(a));
  return 1 + below;
}

const std::string kNestedHeader =
    "#include <deque>\n#include <map>\n#include <memory>\n#include <optional>\n#include <set>\n"
    "#include <string>\n#include <variant>\n#include <vector>\n#include <ptc/annotate.hpp>\n";

// Containers, optionals and variants nest as deep as the documented limit, 256 levels with the innermost
// value (255 wrappers around an int). The size limit once counted a std::vector's allocator, which holds
// the element again, so the count doubled with each level and 12 nested vectors were "made of more than
// 10000 types".
TEST_F(ExtractTypes, ContainersNestUpToTheDepthLimit) {
  const std::vector<std::vector<std::string>> shapes = {
      {"std::vector<"},
      {"std::map<std::string, "},
      {"std::optional<"},
      {"std::vector<", "std::optional<", "std::map<std::string, ", "std::deque<", "std::set<", "std::unique_ptr<",
       "std::variant<bool, "},
  };
  for (const auto& shape : shapes) {
    SCOPED_TRACE(shape.front());
    auto h = ok(kNestedHeader + "/// Deep.\nPTC_TOOL() int deep(" + nested(shape, 255) + " v);\n");
    ASSERT_EQ(h.tools.size(), 1u);
    ASSERT_EQ(h.tools[0].params.size(), 1u);
    EXPECT_EQ(levels(h.tools[0].params[0].type), 256u);
  }
}

TEST_F(ExtractTypes, PastTheDepthLimitTheErrorNamesItAndWhere) {
  // One level more than the limit: the int inside is the 257th. A name this long is quoted by its
  // template only.
  const std::string text = errors(kNestedHeader + "using Deep = " + nested({"std::vector<"}, 256) +
                                  ";\n/// Deep.\nPTC_TOOL() int deep(Deep v);\n");
  EXPECT_EQ(text,
            "t.hpp:12:26: error: parameter 'v' of tool 'deep' has type 'Deep' (aka 'std::vector<...>'), which holds "
            "'int': types nest deeper than 256 levels here\n"
            "   12 | PTC_TOOL() int deep(Deep v);\n"
            "      |                          ^\n" +
                kTooDeepNote);
  // The same in a struct's field, with optionals and maps: the field is where the limit is passed.
  const std::string in_field =
      errors(kNestedHeader + "struct Holder {\n  " + nested({"std::optional<", "std::map<std::string, "}, 255) +
             " deep;\n};\n/// Deep.\nPTC_TOOL() int deep(Holder h);\n");
  EXPECT_EQ(in_field.substr(0, in_field.find('\n')),
            "t.hpp:11:" + std::to_string(3 + nested({"std::optional<", "std::map<std::string, "}, 255).size() + 1) +
                ": error: parameter 'h' of tool 'deep': field 'deep' has type 'std::optional<...>', which holds "
                "'int': types nest deeper than 256 levels here");
}

// --max-depth (default 3) counts structs inside structs; the containers between them are not counted.
TEST_F(ExtractTypes, MaxDepthCountsStructsNotContainers) {
  auto result = run(kNestedHeader + "struct D { int value; };\nstruct C { " +
                    nested({"std::vector<", "std::optional<"}, 40, "D") +
                    " d; };\nstruct B { std::map<std::string, std::vector<C>> c; };\nstruct A { " +
                    nested({"std::vector<"}, 100, "B") + " b; };\n/// Deep.\nPTC_TOOL() int deep(A a);\n");
  EXPECT_FALSE(result.failed) << diagnostics_;
  EXPECT_EQ(diagnostics_.substr(0, diagnostics_.find('\n')),
            "t.hpp:11:" + std::to_string(12 + nested({"std::vector<", "std::optional<"}, 40, "D").size() + 1) +
                ": warning: parameter 'a' of tool 'deep': field 'b.c.d' has type 'std::vector<...>', which holds "
                "'D': structs nested deeper than --max-depth=3 are typed :map");
}

TEST_F(ExtractTypes, ThousandsOfNestedStructsStopAtTheDepthLimit) {
  // 5000 levels overflowed the stack. The parameter is level 1, so S4999's field at level 257 is the
  // first one refused: the field of S(5000 - 256).
  const std::string text =
      errors("#include <ptc/annotate.hpp>\n" + struct_chain("S", 5000) + "/// Deep.\nPTC_TOOL() int deep(S4999 s);\n");
  EXPECT_EQ(text,
            "t.hpp:4746:22: error: parameter 's' of tool 'deep': field 'next.next.next...next.next.next' has type "
            "'S4743': types nest deeper than 256 levels here\n"
            " 4746 | struct S4744 { S4743 next; };\n"
            "      |                      ^\n" +
                kTooDeepNote);
}

TEST_F(ExtractTypes, TheDepthLimitCountsStructsBuiltForAnotherTool) {
  // C199 is built for `shallow` (200 levels); below `deep`'s 100 levels of D it would reach 300.
  const std::string shallow_warning =
      "t.hpp:199:20: warning: parameter 'c' of tool 'shallow': field 'next.next.next' has type 'C196': structs "
      "nested deeper than --max-depth=3 are typed :map\n"
      "  199 | struct C197 { C196 next; };\n"
      "      |                    ^\n"
      "note: raise --max-depth (ptc_generate's MAX_DEPTH) or flatten the struct\n";
  const std::string text =
      errors("#include <ptc/annotate.hpp>\n" + struct_chain("C", 200) + struct_chain("D", 100, "C199 c;") +
             "/// Shallow.\nPTC_TOOL() int shallow(C199 c);\n/// Deep.\nPTC_TOOL() int deep(D99 d);\n");
  EXPECT_EQ(text, shallow_warning +
                      "t.hpp:202:18: error: parameter 'd' of tool 'deep': field 'next.next.next...next.next.c' has "
                      "type 'C199': types nest deeper than 256 levels here\n"
                      "  202 | struct D0 { C199 c; };\n"
                      "      |                  ^\n" +
                      kTooDeepNote);
  // Within the limit, the same struct is fine from both.
  auto within = run("#include <ptc/annotate.hpp>\n" + struct_chain("C", 200) + struct_chain("D", 50, "C199 c;") +
                    "/// Shallow.\nPTC_TOOL() int shallow(C199 c);\n/// Deep.\nPTC_TOOL() int deep(D49 d);\n");
  EXPECT_FALSE(within.failed) << diagnostics_;
}

TEST_F(ExtractTypes, ATemplateThatInstantiatesDeeperVersionsOfItselfStopsAtTheDepthLimit) {
  // A std::vector of an incomplete type needs no instantiation, so clang never nests these: each S<N>
  // was instantiated by ptc-gen itself, without end.
  const std::string text = errors(R"(#include <vector>
#include <ptc/annotate.hpp>
template <int N> struct S { int x; std::vector<S<N + 1>> next; };
/// Deep.
PTC_TOOL() int deep(S<0> s);
)");
  EXPECT_EQ(text,
            "t.hpp:3:58: error: parameter 's' of tool 'deep': field 'next.next.next...next.next.next' has type "
            "'std::vector<S<127 + 1>>', which holds 'S<127 + 1>': types nest deeper than 256 levels here\n"
            "    3 | template <int N> struct S { int x; std::vector<S<N + 1>> next; };\n"
            "      |                                                          ^\n" +
                kTooDeepNote);
}

TEST_F(ExtractTypes, ATemplateWhoseArgumentsDoubleAtEachLevelStopsAtTheSizeLimit) {
  // S<pair<T, T>> doubles its name at each level: mapping it, or printing it in a message, took
  // minutes before any depth limit was reached.
  const std::string text = errors(R"(#include <utility>
#include <vector>
#include <ptc/annotate.hpp>
template <class T> struct S { T value; std::vector<S<std::pair<T, T>>> next; };
/// Deep.
PTC_TOOL() int deep(S<int> s);
)");
  EXPECT_EQ(text,
            "t.hpp:4:72: error: parameter 's' of tool 'deep': field 'next.next.next...next.next.next' has type "
            "'std::vector<...>': the type is made of more than 10000 types\n"
            "    4 | template <class T> struct S { T value; std::vector<S<std::pair<T, T>>> next; };\n"
            "      |                                                                        ^\n"
            "note: a template whose arguments grow at each level cannot be described; break the chain with "
            "nlohmann::json or a plain struct\n");
}

TEST_F(ExtractTypes, ClangsTemplateInstantiationDepthApplies) {
  // A field held by value is instantiated by clang itself, nested, so -ftemplate-depth (1024) stops it.
  const std::string text = errors(R"(#include <ptc/annotate.hpp>
template <int N> struct S { S<N + 1> next; };
/// Deep.
PTC_TOOL() int deep(S<0> s);
)");
  EXPECT_EQ(text.substr(0, text.find('\n')),
            "t.hpp:2:38: fatal error: recursive template instantiation exceeded maximum depth of 1024");
  // A smaller limit given in the flags is the one in effect.
  run("#include <ptc/annotate.hpp>\ntemplate <int N> struct S { S<N + 1> next; };\n/// Deep.\n"
      "PTC_TOOL() int deep(S<0> s);\n",
      {}, {"-std=c++20", "-ftemplate-depth=50"});
  EXPECT_EQ(diagnostics_.substr(0, diagnostics_.find('\n')),
            "t.hpp:2:38: fatal error: recursive template instantiation exceeded maximum depth of 50");
}

TEST_F(ExtractTypes, ThousandsOfBaseClassesAreRefused) {
  std::string chain = "struct B0 { int x; };\n";
  for (int i = 1; i < 5000; ++i) chain += "struct B" + std::to_string(i) + " : B" + std::to_string(i - 1) + " {};\n";
  const std::string text =
      errors("#include <ptc/annotate.hpp>\n" + chain + "/// Deep.\nPTC_TOOL() int deep(B4999 b);\n");
  EXPECT_EQ(text,
            "t.hpp:5003:27: error: parameter 'b' of tool 'deep' has type 'B4999': ptc cannot see inside this class: "
            "its base classes nest deeper than 256 levels\n"
            " 5003 | PTC_TOOL() int deep(B4999 b);\n"
            "      |                           ^\n"
            "note: make it an aggregate (public fields, no constructors, no virtual functions), or give the tool a "
            "plain struct that holds what it needs\n");
}

}  // namespace
}  // namespace ptcgen::test
