// Literals, raw strings, identifiers and the CodeWriter's indentation.

#include <gtest/gtest.h>

#include "emit/code_writer.hpp"
#include "emit/cpp_text.hpp"

namespace ptcgen::emit {
namespace {

TEST(CppText, StringLiteralsEscapeEverythingButPrintableAscii) {
  EXPECT_EQ(string_literal("plain"), "\"plain\"");
  EXPECT_EQ(string_literal("a \"q\" \\ b"), "\"a \\\"q\\\" \\\\ b\"");
  EXPECT_EQ(string_literal("line\nnext\ttab"), "\"line\\nnext\\ttab\"");
  EXPECT_EQ(string_literal("\x01"
                           "7"),
            "\"\\0017\"");
  EXPECT_EQ(string_literal("caf\xc3\xa9"), "\"caf\\303\\251\"");
}

TEST(CppText, RawStringsPickADelimiterTheTextLacks) {
  EXPECT_EQ(raw_string("[:map]"), "R\"ptc([:map])ptc\"");
  EXPECT_EQ(raw_string("x)ptc\" y"), "R\"ptc0(x)ptc\" y)ptc0\"");
}

// C++ allows at most 16 delimiter characters; a text made to exhaust the obvious choices must still get
// a delimiter it does not contain (ptc-gen used to grow "ptc_____..." past the limit).
TEST(CppText, RawStringDelimitersStayWithinSixteenCharacters) {
  std::string hostile;
  for (int n = 0; n < 40; ++n) hostile += ")ptc" + std::string(static_cast<std::size_t>(n), '_') + "\"";
  for (int n = 0; n < 5000; ++n)
    hostile +=
        ")ptc" + std::to_string(n) + "\")ptc" + std::string(1, "0123456789abcdefghijklmnopqrstuvwxyz"[n % 36]) + "\"";
  const std::string literal = raw_string(hostile);
  ASSERT_EQ(literal.rfind("R\"", 0), 0u);
  const auto open = literal.find('(');
  const std::string delimiter = literal.substr(2, open - 2);
  EXPECT_LE(delimiter.size(), 16u) << delimiter;
  EXPECT_EQ(hostile.find(")" + delimiter + "\""), std::string::npos) << delimiter;
  EXPECT_EQ(literal, "R\"" + delimiter + "(" + hostile + ")" + delimiter + "\"");
}

TEST(CppText, IdentifiersAreSanitizedAndUnique) {
  IdentifierNamer names;
  EXPECT_EQ(names.make("search-issues"), "search_issues");
  EXPECT_EQ(names.make("search_issues"), "search_issues_2");
  EXPECT_EQ(names.make("a--b"), "a_b");
  EXPECT_EQ(names.make("_x_"), "x");
  EXPECT_EQ(names.make("3d"), "t_3d");
  EXPECT_EQ(names.make("-"), "t_");
}

TEST(CodeWriter, OwnsIndentation) {
  CodeWriter w;
  w.open("struct A").line("int x;").blank().open("void f()").line("return;").close().close("};");
  EXPECT_EQ(w.str(), "struct A {\n  int x;\n\n  void f() {\n    return;\n  }\n};\n");
  CodeWriter nested(1);
  nested.open("switch (i)").outdented("default:").close();
  EXPECT_EQ(nested.str(), "  switch (i) {\n  default:\n  }\n");
}

}  // namespace
}  // namespace ptcgen::emit
