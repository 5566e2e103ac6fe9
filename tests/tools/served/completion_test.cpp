// ptc::complete: values from enums and bools with no code, a completer's own values, the 100-value cap.
#include <gtest/gtest.h>

#include <ptc/completion.hpp>
#include <ptc/signature.hpp>

namespace {

ptc::Schema input(std::string_view signature, std::string_view name) {
  auto parsed = ptc::Signature::parse(signature);
  EXPECT_TRUE(parsed);
  return parsed->input().find(name)->schema;
}

TEST(Complete, AnEnumCompletesFromItsValuesThatStartWithWhatWasTyped) {
  auto schema = input("(priority [:enum \"low\" \"medium\" \"high\" \"urgent\"]) -> :string", "priority");
  auto c = ptc::complete(schema, nullptr, {"priority", "", nullptr});
  EXPECT_EQ(c.values, (std::vector<std::string>{"low", "medium", "high", "urgent"}));
  EXPECT_EQ(c.total, 4u);
  EXPECT_FALSE(c.has_more);
  c = ptc::complete(schema, nullptr, {"priority", "h", nullptr});
  EXPECT_EQ(c.values, std::vector<std::string>{"high"});
  c = ptc::complete(schema, nullptr, {"priority", "x", nullptr});
  EXPECT_TRUE(c.values.empty());
}

TEST(Complete, BoolsAndOptionalsComplete) {
  EXPECT_EQ(ptc::complete(input("(all :bool) -> :string", "all"), nullptr, {"all", "t", nullptr}).values,
            std::vector<std::string>{"true"});
  EXPECT_EQ(ptc::complete(input("(all :bool?) -> :string", "all"), nullptr, {"all", "", nullptr}).values,
            (std::vector<std::string>{"true", "false"}));
  EXPECT_TRUE(ptc::complete(input("(q :string) -> :string", "q"), nullptr, {"q", "", nullptr}).values.empty());
}

TEST(Complete, ACompleterIsAskedWithTheRequestAndCapped) {
  std::map<std::string, std::string, std::less<>> context{{"project", "PTC"}};
  ptc::Completer completer = [](const ptc::CompletionRequest& r) {
    EXPECT_EQ(r.argument, "key");
    std::vector<std::string> out;
    for (int i = 0; i < 150; ++i)
      out.push_back(r.context->at("project") + "-" + std::string(r.value) + std::to_string(i));
    return out;
  };
  auto c = ptc::complete(input("(key :string) -> :string", "key"), &completer, {"key", "1", &context});
  EXPECT_EQ(c.values.size(), 100u);
  EXPECT_EQ(c.values.front(), "PTC-10");
  EXPECT_EQ(c.total, 150u);
  EXPECT_TRUE(c.has_more);
}

}  // namespace
