#include <gtest/gtest.h>

#include <ptc/placeholders.hpp>

#include "parse_helpers.hpp"

namespace {

using ptc::test::sig;

std::vector<std::string> messages(std::string_view text, const ptc::Signature& s) {
  std::vector<std::string> out;
  for (const auto& e : ptc::check_placeholders(text, s)) out.push_back(e.to_string());
  return out;
}

const auto kUser =
    sig("(name :string, user {name :string, address {city :string}?, meta :map}, user-name :string, "
        "user_name :string, items [{id :int}]) -> :any");

// The spec's placeholder table, row by row.
TEST(Placeholders, SimpleVariable) { EXPECT_TRUE(messages("Hi {{name}}", kUser).empty()); }
TEST(Placeholders, NestedAccess) { EXPECT_TRUE(messages("{{user.name}}", kUser).empty()); }
TEST(Placeholders, DeepNestingThroughOptionalField) { EXPECT_TRUE(messages("{{user.address.city}}", kUser).empty()); }
TEST(Placeholders, HyphensAllowed) { EXPECT_TRUE(messages("{{user-name}}", kUser).empty()); }
TEST(Placeholders, UnderscoresAllowed) { EXPECT_TRUE(messages("{{user_name}}", kUser).empty()); }
TEST(Placeholders, WhitespaceTrimmed) {
  auto p = ptc::parse_placeholders("a {{ name }} b");
  ASSERT_TRUE(p.ok());
  ASSERT_EQ(p->size(), 1u);
  EXPECT_EQ((*p)[0].path, std::vector<std::string>{"name"});
  EXPECT_EQ((*p)[0].offset, 2u);
  EXPECT_TRUE(messages("{{ user.name }}", kUser).empty());
}
TEST(Placeholders, NamesMustStartWithALetter) {
  EXPECT_EQ(messages("x {{123}}", kUser),
            std::vector<std::string>{"column 3: placeholder {{123}}: names must start with a letter"});
}
TEST(Placeholders, EmptyPlaceholderInvalid) {
  EXPECT_EQ(messages("{{}}", kUser), std::vector<std::string>{"column 1: empty placeholder {{}}"});
  EXPECT_EQ(messages("{{  }}", kUser), std::vector<std::string>{"column 1: empty placeholder {{  }}"});
}

TEST(Placeholders, UnknownParameter) {
  EXPECT_EQ(messages("{{nme}}", kUser),
            std::vector<std::string>{"column 1: placeholder {{nme}}: no parameter named 'nme'"});
}
TEST(Placeholders, UnknownField) {
  EXPECT_EQ(messages("{{user.address.zip}}", kUser),
            std::vector<std::string>{"column 1: placeholder {{user.address.zip}}: user.address has no field 'zip'"});
}
TEST(Placeholders, FieldOfANonMap) {
  EXPECT_EQ(messages("{{name.first}}", kUser),
            std::vector<std::string>{
                "column 1: placeholder {{name.first}}: name is string, not a map with field 'first'"});
  EXPECT_EQ(messages("{{items.id}}", kUser),
            std::vector<std::string>{"column 1: placeholder {{items.id}}: items is list, not a map with field 'id'"});
}
TEST(Placeholders, DynamicMapsAcceptAnyKey) { EXPECT_TRUE(messages("{{user.meta.anything.deeper}}", kUser).empty()); }
TEST(Placeholders, EveryProblemIsReported) { EXPECT_EQ(messages("{{a}} {{name}} {{b}}", kUser).size(), 2u); }
TEST(Placeholders, MalformedSegments) {
  EXPECT_FALSE(ptc::parse_placeholders("{{user..name}}").ok());
  EXPECT_FALSE(ptc::parse_placeholders("{{user.}}").ok());
  EXPECT_FALSE(ptc::parse_placeholders("{{us er}}").ok());
  EXPECT_EQ(ptc::parse_placeholders("ab {{name").error().to_string(), "column 4: unclosed placeholder '{{'");
}
TEST(Placeholders, TextWithoutPlaceholders) {
  auto p = ptc::parse_placeholders("no braces { here }");
  ASSERT_TRUE(p.ok());
  EXPECT_TRUE(p->empty());
}

}  // namespace
