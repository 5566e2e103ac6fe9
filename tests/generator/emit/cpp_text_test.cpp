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
  EXPECT_EQ(raw_string("x)ptc\" y"), "R\"ptc_(x)ptc\" y)ptc_\"");
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
