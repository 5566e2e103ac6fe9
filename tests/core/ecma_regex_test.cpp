// RE2 patterns as JSON Schema (ECMA-262) patterns (runtime/core/src/ecma_regex.cpp), through
// to_json_schema: translations, refusals, and the property that the translation matches exactly the
// strings RE2 matches.

#include <regex>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <ptc/json_schema.hpp>
#include <ptc/schema.hpp>

namespace {

using ptc::Profile;
using ptc::Schema;

Schema with_pattern(const std::string& re2) { return Schema::all_of({Schema::string(), Schema::pattern(re2)}); }

/// The `pattern` JSON Schema gets, or the refusal's message.
std::string ecma(const std::string& re2, Profile profile = Profile::Anthropic) {
  auto r = ptc::to_json_schema(with_pattern(re2), profile);
  if (!r) return "refused: " + r.error().message;
  return (*r)["pattern"].get<std::string>();
}

TEST(EcmaRegex, WhatMeansTheSameIsKept) {
  EXPECT_EQ(ecma("^[A-Z]{2}$"), "^[A-Z]{2}$");
  EXPECT_EQ(ecma(R"(^\d+(-\d+)*?$)"), R"(^\d+(-\d+)*?$)");
  EXPECT_EQ(ecma(R"(\bcat\B|(?:dog)+)"), R"(\bcat\B|(?:dog)+)");
  EXPECT_EQ(ecma(R"([a-z0-9_\-\]]+)"), R"([a-z0-9_\-\]]+)");
  EXPECT_EQ(ecma("caf\xc3\xa9"), "caf\xc3\xa9");
}

TEST(EcmaRegex, WhatIsSpelledDifferentlyIsRewritten) {
  EXPECT_EQ(ecma("a.b"), R"(a[^\n]b)");                      // ECMA's . also refuses \r, U+2028, U+2029
  EXPECT_EQ(ecma(R"(\s\S)"), R"([\t\n\f\r ][^\t\n\f\r ])");  // ECMA's \s also takes \v and Unicode spaces
  EXPECT_EQ(ecma(R"([\s,])"), R"([\t\n\f\r ,])");
  EXPECT_EQ(ecma(R"(\Aab\z)"), "^ab$");
  EXPECT_EQ(ecma(R"(\x{41}\x42\x{e9}\x{20AC})"), R"(AB\xE9\u20AC)");
  EXPECT_EQ(ecma(R"(\Q1+1=2?\E!)"), R"(1\+1=2\?!)");
  EXPECT_EQ(ecma("[[:alpha:][:digit:]_]"), "[A-Za-z0-9_]");
  EXPECT_EQ(ecma("[[:^space:]]"), R"([^\t\n\v\f\r ])");
  EXPECT_EQ(ecma("(?P<year>[0-9]{4})-(?P<month>[0-9]{2})"), "([0-9]{4})-([0-9]{2})");
  EXPECT_EQ(ecma("a{,3}}b{x"), R"(a\{,3\}\}b\{x)");  // no repetition: literal braces
  EXPECT_EQ(ecma("[]a]"), R"([\]a])");               // a leading ] is literal in RE2, an empty class in ECMA
  EXPECT_EQ(ecma(R"(\a\:\-)"), R"(\x07:-)");         // the u flag allows escaping syntax characters only
  // ECMA cannot quantify an assertion, but can a group holding one.
  EXPECT_EQ(ecma("^{2}$*"), "(?:^){2}(?:$)*");
  EXPECT_EQ(ecma("a{05}b{1,02}"), R"(a\{05\}b\{1,02\})");  // RE2 counts have no leading zero
  EXPECT_EQ(ecma("^{1234567890}"), R"(^\{1234567890\})");  // nor more than 9 digits
  // After a set, RE2 reads `-` as itself; ECMA would start a range at the set's last character.
  EXPECT_EQ(ecma(R"([[:cntrl:]-u\d-])"), R"([\x00-\x1F\x7F\-u\d\-])");
  // A range ends at one character, even `[`: RE2 reads [#-[:x] as the range #-[ and `:x`.
  EXPECT_EQ(ecma("[#-[:x]"), R"([#-\[:x])");
  EXPECT_EQ(ecma(R"(a\b+?\A?)"), R"(a(?:\b)+?(?:^)?)");
  EXPECT_EQ(ecma(R"(^\Q\E*)"), "(?:^)*");  // \Q\E writes nothing: RE2 reads ^*
}

TEST(EcmaRegex, WhatHasNoExactFormIsRefusedWithThePlace) {
  EXPECT_EQ(ecma("(?i)abc"),
            R"(refused: anthropic cannot express [:re "(?i)abc"] as an ECMA-262 pattern (flags such as (?i) )"
            R"(have no ECMA-262 form at offset 0) at (root))");
  EXPECT_EQ(ecma(R"(x\pLy)"), R"(refused: anthropic cannot express [:re "x\\pLy"] as an ECMA-262 pattern )"
                              R"((Unicode classes (\p) need ECMA's u flag at offset 1) at (root))");
  for (const char* bad :
       {"a(?s:.)", R"(\C)", R"([\S])", "[a[:^digit:]]", R"(\x{1F600})", "\xf0\x9f\x98\x80", R"(a*\Q\E*)"}) {
    EXPECT_EQ(ecma(bad).rfind("refused: ", 0), 0u) << bad;
  }
  // Every profile refuses, with the path of the field.
  auto r = ptc::to_json_schemas(ptc::Signature({ptc::MapEntry("code", with_pattern("(?i)x"))}, Schema::nil()),
                                Profile::OpenAI);
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message.find("openai cannot express"), std::string::npos);
  EXPECT_NE(r.error().message.find(" at code"), std::string::npos);
}

// The translation matches exactly what RE2 matches: RE2 (Schema::matches) against std::regex's
// ECMAScript grammar, on texts that reach each rule's edges.
TEST(EcmaRegex, TranslationsMatchWhatRe2Matches) {
  const std::vector<std::string> patterns = {
      "^[A-Z]{2}$",
      "a.b",
      R"(^\s+$)",
      R"(\S+)",
      R"(\Aab\z)",
      R"(\x{41}+)",
      R"(\Q.*\E)",
      "[[:alpha:]]+",
      "^[[:punct:]]$",
      "[[:^digit:]]",
      "[[:space:]]",
      "[[:xdigit:]]{2}",
      "[[:word:]]+$",
      "^[[:print:]]*$",
      "^[[:graph:]]+$",
      "[[:cntrl:]]",
      "[[:blank:]]",
      "[[:upper:][:lower:]]",
      "(?P<n>ab)+c",
      "a{2,}",
      "a{,2}",
      "x{1,2}?y",
      "}",
      "]",
      "[]]",
      R"([\]\-x])",
      R"(\bfoo\b)",
      R"(\Bo)",
      R"(\d\D\w\W)",
      "^$",
      "a|b|",
      "(a|)+$",
      R"([^\n]x)",
      R"(\t\r\n)",
      R"(\a)",
      "[^a-c]",
      "[-a]",
      "[a-]",
      R"(\.\*\+\?)",
      "(?:ab)*?c",
      "^.{3}$",
      R"(\v)",
      "[\\^]",
      "[a^]",
      "[.]",
      R"(\{\})",
      "^{2}$",
      R"(a\b*b)",
      "x$?y",
      "[[:cntrl:]-u]+",
      R"([\s-a])",
      R"([\w-])",
      "[#-[:x]+",
      "[--/]",
      "[]-a]",
      "a{02}",
      "^{0}x",
  };
  const std::vector<std::string> texts = {
      "",      "ab",  "AB",     "a b", "a\nb", "a\rb", "a\vb", " \t",  "\f",  "xyz", "AAA",   "a",    "aa",   "aaa",
      "xxy",   "xy",  "}",      "]",   "-",    "x-",   "foo",  "foo.", "a.b", "1+1", ".*",    "\x07", "\x01", "abab c",
      "ababc", "abc", "\t\r\n", "A1",  "ff",   "_w",   "cat",  "^",    "a^",  "{}",  "a{02}", "[",    "\x7f",
  };
  for (const auto& p : patterns) {
    const std::string translated = ecma(p);
    ASSERT_EQ(translated.rfind("refused: ", 0), std::string::npos) << p << ": " << translated;
    const std::regex ecma_regex(translated, std::regex::ECMAScript);
    const Schema re2 = Schema::pattern(p);
    for (const auto& t : texts)
      EXPECT_EQ(std::regex_search(t, ecma_regex), re2.matches(t))
          << "RE2 " << p << " / ECMA " << translated << " on \"" << t << "\"";
  }
}

}  // namespace
