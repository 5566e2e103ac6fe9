// PTC_RESOURCE and PTC_PROMPT declarations -> model::Tool of kind Resource or Prompt: URIs, MIME types,
// completers and how generated code calls them, and the mistakes only resources and prompts can make.

#include "extract_fixture.hpp"

namespace ptcgen::test {
namespace {

using model::ToolKind;

class ExtractServed : public ExtractTest {};

const char* const kServedPreamble =
    "#pragma once\n"
    "#include <string>\n"
    "#include <string_view>\n"
    "#include <vector>\n"
    "#include <ptc/annotate.hpp>\n"
    "#include <ptc/completion.hpp>\n";

TEST_F(ExtractServed, ResourcesAndPromptsAreToolsOfTheirKind) {
  auto h = ok(std::string(kServedPreamble) + R"(namespace shop {
std::vector<std::string> skus(std::string_view typed);
/// An item.
PTC_RESOURCE("shop://items/{sku}") PTC_MIME_TYPE("text/markdown") PTC_COMPLETE(sku, skus)
std::string item(std::string sku);
class Store {
 public:
  /// Names.
  std::vector<std::string> names(const ptc::CompletionRequest& request) const;
  /// Sells.
  PTC_PROMPT("sell") PTC_COMPLETE(name, names) PTC_COMPLETE(note, skus) std::string pitch(std::string name, std::string note);
};
}
)");
  ASSERT_EQ(h.tools.size(), 2u);
  const auto& item = h.tools[0];
  EXPECT_EQ(item.kind, ToolKind::Resource);
  EXPECT_EQ(item.name, "item");
  EXPECT_EQ(item.uri, "shop://items/{sku}");
  EXPECT_EQ(item.mime_type, "text/markdown");
  ASSERT_EQ(item.completers.size(), 1u);
  EXPECT_EQ(item.completers[0].argument, "sku");
  EXPECT_EQ(item.completers[0].function, "::shop::skus");
  EXPECT_FALSE(item.completers[0].on_instance);
  EXPECT_FALSE(item.completers[0].takes_request);
  const auto& pitch = h.tools[1];
  EXPECT_EQ(pitch.kind, ToolKind::Prompt);
  EXPECT_EQ(pitch.name, "sell");
  EXPECT_EQ(pitch.class_name, "shop::Store");
  ASSERT_EQ(pitch.completers.size(), 2u);
  EXPECT_EQ(pitch.completers[0].function, "names");
  EXPECT_TRUE(pitch.completers[0].on_instance);
  EXPECT_TRUE(pitch.completers[0].takes_request);
  // The namespace's function, found from inside the class as an unqualified call finds it.
  EXPECT_EQ(pitch.completers[1].function, "::shop::skus");
  EXPECT_FALSE(pitch.completers[1].on_instance);
  EXPECT_EQ(h.classes, std::vector<std::string>{"shop::Store"});
}

TEST_F(ExtractServed, ATemplateVariableRenamedByPtcSignatureIsLeftToTheEmitter) {
  auto h = ok(std::string(kServedPreamble) + R"(/// An item.
PTC_RESOURCE("shop://items/{id}") PTC_SIGNATURE("(id :string) -> :string") std::string item(std::string sku);
)");
  ASSERT_EQ(h.tools.size(), 1u);
  EXPECT_EQ(h.tools[0].explicit_signature, "(id :string) -> :string");
}

TEST_F(ExtractServed, CompletersMustBeCallableFromGeneratedCode) {
  const std::string diagnostics = errors(std::string(kServedPreamble) + R"(class Store {
 public:
  std::vector<std::string> names(std::string_view typed) const;
  std::vector<std::string> twice(std::string_view typed);
  std::vector<std::string> twice(const std::string& typed);
 private:
  std::vector<std::string> hidden(std::string_view typed);
};
/// Free, with a member to call.
PTC_PROMPT() std::string free_prompt(std::string name);
class Shop {
 public:
  /// Sells.
  PTC_PROMPT() PTC_COMPLETE(name, hidden) std::string sell(std::string name);
  std::vector<std::string> hidden(std::string_view typed);
 private:
  std::vector<std::string> secret(std::string_view typed);
 public:
  /// Buys.
  PTC_PROMPT() PTC_COMPLETE(name, secret) std::string buy(std::string name);
};
namespace outer {
struct Outer {
  std::vector<std::string> names(std::string_view typed);
  struct Inner {
    /// Sings.
    PTC_PROMPT() PTC_COMPLETE(song, names) std::string sing(std::string song);
  };
};
std::vector<std::string> twice(std::string_view typed);
std::vector<std::string> twice(const std::string& typed);
/// Dances.
PTC_PROMPT() PTC_COMPLETE(step, twice) std::string dance(std::string step);
/// Quoted.
PTC_PROMPT() PTC_COMPLETE("step", "twice") std::string quoted(std::string step);
}
)");
  EXPECT_NE(diagnostics.find("error: PTC_COMPLETE on prompt 'buy': 'secret' is not public: generated code calls it "
                             "from outside the class"),
            std::string::npos)
      << diagnostics;
  EXPECT_NE(diagnostics.find("error: PTC_COMPLETE on prompt 'sing': 'names' is a member of 'outer::Outer', which "
                             "prompt 'sing' has no instance of"),
            std::string::npos)
      << diagnostics;
  EXPECT_NE(diagnostics.find("error: PTC_COMPLETE on prompt 'dance': 'twice' has more than one overload that could "
                             "be called"),
            std::string::npos)
      << diagnostics;
  EXPECT_NE(diagnostics.find("error: PTC_COMPLETE takes a parameter's name and a function's name, unquoted"),
            std::string::npos)
      << diagnostics;
  // `sell` finds its class's public `hidden`, not Store's private one.
  EXPECT_EQ(diagnostics.find("prompt 'sell'"), std::string::npos) << diagnostics;
}

TEST_F(ExtractServed, PromptsAndToolsShareNoNamesWithOtherKindsButTheirOwn) {
  EXPECT_EQ(errors(std::string(kServedPreamble) + R"(/// A tool.
PTC_TOOL("same") int tool();
/// A prompt of the tool's name: they are listed apart.
PTC_PROMPT("same") std::string prompt();
/// A second prompt of that name.
PTC_PROMPT("same") std::string again();
)"),
            "t.hpp:12:32: error: prompt name 'same' is already taken\n"
            "   12 | PTC_PROMPT(\"same\") std::string again();\n"
            "      |                                ^\n"
            "note: name one of them differently with PTC_PROMPT(\"other_name\")\n"
            "t.hpp:10:32: note: the other prompt 'same' is declared here\n"
            "   10 | PTC_PROMPT(\"same\") std::string prompt();\n"
            "      |                                ^\n");
}

TEST_F(ExtractServed, MarkersOnParametersAreErrors) {
  const std::string diagnostics = errors(std::string(kServedPreamble) + R"(/// A tool.
PTC_TOOL() int tool(PTC_MIME_TYPE("text/plain") int x);
)");
  EXPECT_NE(
      diagnostics.find("error: PTC_MIME_TYPE on parameter 'x' of tool 'tool': PTC_MIME_TYPE applies to functions"),
      std::string::npos)
      << diagnostics;
}

TEST_F(ExtractServed, AResourceInAnUnlistedHeaderIsAWarning) {
  write("other.hpp", std::string(kServedPreamble) + R"(/// Included.
PTC_RESOURCE("x://y") std::string included();
)");
  auto result = run(R"(#pragma once
#include "other.hpp"
)");
  EXPECT_FALSE(result.failed);
  EXPECT_NE(diagnostics_.find("warning: PTC_RESOURCE on 'included' is not generated: its header is not listed"),
            std::string::npos)
      << diagnostics_;
}

}  // namespace
}  // namespace ptcgen::test
