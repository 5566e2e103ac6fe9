// ptc::UriTemplate: which templates parse (errors name the column), and which URIs match with what values.
#include <gtest/gtest.h>

#include <ptc/resource.hpp>

namespace {

using Values = std::vector<std::pair<std::string, std::string>>;

ptc::UriTemplate parse(std::string_view text) {
  auto parsed = ptc::UriTemplate::parse(text);
  EXPECT_TRUE(parsed) << text << ": " << (parsed ? "" : parsed.error().to_string());
  return *parsed;
}

TEST(UriTemplate, AStaticUriMatchesItselfOnly) {
  auto t = parse("tracker://labels");
  EXPECT_TRUE(t.is_static());
  EXPECT_EQ(t.match("tracker://labels"), Values{});
  EXPECT_FALSE(t.match("tracker://labels/"));
  EXPECT_FALSE(t.match("tracker://label"));
}

TEST(UriTemplate, ASimpleVariableMatchesOneSegment) {
  auto t = parse("tracker://issues/{key}");
  EXPECT_EQ(t.variables(), std::vector<std::string>{"key"});
  EXPECT_EQ(t.match("tracker://issues/PTC-1"), (Values{{"key", "PTC-1"}}));
  EXPECT_FALSE(t.match("tracker://issues/"));                                    // empty
  EXPECT_FALSE(t.match("tracker://issues/a/b"));                                 // a separator inside
  EXPECT_FALSE(t.match("tracker://issues/a?x=1"));                               // a query
  EXPECT_FALSE(t.match("tracker://issue/PTC-1"));                                // another prefix
  EXPECT_EQ(t.match("tracker://issues/a%20b%2Fc"), (Values{{"key", "a b/c"}}));  // decoded after matching
  EXPECT_EQ(t.match("tracker://issues/100%"), (Values{{"key", "100%"}}));        // a lone % stays
}

TEST(UriTemplate, VariablesBetweenLiterals) {
  auto t = parse("test://template/{id}/data");
  EXPECT_EQ(t.match("test://template/123/data"), (Values{{"id", "123"}}));
  EXPECT_FALSE(t.match("test://template/123/datum"));
  auto two = parse("db://{table}/rows/{row}");
  EXPECT_EQ(two.match("db://users/rows/7"), (Values{{"table", "users"}, {"row", "7"}}));
  EXPECT_FALSE(two.match("db://users/rows/"));
}

TEST(UriTemplate, AReservedVariableMatchesSeparatorsToo) {
  auto t = parse("file:///{+path}");
  EXPECT_EQ(t.match("file:///src/main.cpp"), (Values{{"path", "src/main.cpp"}}));
  auto tail = parse("repo://{+path}/blame");
  EXPECT_EQ(tail.match("repo://a/b/blame"), (Values{{"path", "a/b"}}));
}

TEST(UriTemplate, ErrorsNameTheColumn) {
  struct Case {
    std::string_view text;
    std::string error;
  };
  const Case cases[] = {
      {"", "a resource URI must not be empty"},
      {"x://{a", "column 5: '{' is not closed"},
      {"x://a}", "column 6: '}' without a '{' before it"},
      {"x://{}", "column 5: '{}' names no variable"},
      {"x://{?q}",
       "column 6: '?q' is not a variable this server expands (a name of letters, digits and '_', "
       "optionally after '+')"},
      {"x://{a}/{a}", "column 10: variable 'a' appears twice"},
      {"x://{a}{b}", "column 8: two variables with nothing between them cannot be told apart"},
  };
  for (const auto& c : cases) {
    auto parsed = ptc::UriTemplate::parse(c.text);
    ASSERT_FALSE(parsed) << c.text;
    EXPECT_EQ(parsed.error().to_string(), c.error) << c.text;
  }
  EXPECT_FALSE(ptc::UriTemplate::parse(std::string(3000, 'a')));
}

TEST(UriTemplate, HostileUrisAreRefusedQuickly) {
  auto t = parse("x://{a}/y/{b}/z");
  const std::string uri = "x://" + std::string(100000, '/') + "y";
  EXPECT_FALSE(t.match(uri));
}

}  // namespace
