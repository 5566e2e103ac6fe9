// cases/served.hpp registered: the tool alone among the tools, the resources and prompts beside it, read
// and rendered through dispatch as an MCP server does (template variables and prompt arguments arrive
// as strings and decode leniently), and the completers PTC_COMPLETE attached.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <ptc/ptc.hpp>

#include "served.ptc.hpp"

namespace {

using json = nlohmann::json;
using ::testing::ElementsAre;

class GoldenServed : public ::testing::Test {
 protected:
  GoldenServed() {
    ptc_gen::served::register_tools(registry);
    ptc_gen::served::register_tools(registry, library);
  }

  /// Reads a resource as `resources/read` does: the URI's variables are the reader's arguments.
  ptc::ToolOutcome read(const std::string& uri) {
    auto match = registry.find_resource(uri);
    EXPECT_TRUE(match.has_value()) << uri;
    if (!match) return {};
    json arguments = json::object();
    for (const auto& [name, value] : match->variables) arguments[name] = value;
    return registry.dispatch_reader(session, match->resource.reader(),
                                    {"", match->resource.reader().name(), arguments});
  }

  ptc::ToolOutcome render(const std::string& name, json arguments) {
    auto prompt = registry.find_prompt(name);
    EXPECT_TRUE(prompt.has_value()) << name;
    if (!prompt) return {};
    return registry.dispatch_reader(session, prompt->renderer(), {"", name, std::move(arguments)});
  }

  std::vector<std::string> complete(const ptc::Completer* completer, std::string_view argument,
                                    std::string_view value) {
    EXPECT_NE(completer, nullptr) << argument;
    if (!completer) return {};
    return (*completer)(ptc::CompletionRequest{argument, value});
  }

  golden::served::Library library;
  ptc::ToolRegistry registry;
  ptc::Session session;
};

TEST_F(GoldenServed, OnlyTheToolIsATool) {
  std::vector<std::string> names;
  for (const auto& tool : registry.tools()) names.push_back(tool.name());
  EXPECT_THAT(names, ElementsAre("define"));
}

TEST_F(GoldenServed, ResourcesKeepTheirUrisNamesAndMimeTypes) {
  std::vector<std::string> uris;
  for (const auto& r : registry.resources()) uris.push_back(r.uri().text());
  EXPECT_THAT(uris, ElementsAre("golden://motto", "golden://weather/{city}", "library://{title}/chapters/{chapter}"));
  const auto resources = registry.resources();
  EXPECT_FALSE(resources[0].is_template());
  EXPECT_EQ(resources[0].name(), "motto");
  EXPECT_EQ(resources[0].description(), "The motto of the house.");
  EXPECT_EQ(resources[1].mime_type(), "text/markdown");
  EXPECT_EQ(resources[2].title(), "Chapter");
  EXPECT_EQ(resources[2].mime_type(), "");
}

TEST_F(GoldenServed, ReadersDecodeTheUrisVariables) {
  EXPECT_EQ(*read("golden://motto").visible_value->json().get_ptr<const std::string*>(), "Measure twice.");
  EXPECT_EQ(read("golden://weather/Oslo").visible_value->json(), "# Oslo\n\nSunny.");
  // "2" from the URI becomes the int parameter, as a tool's lenient decoder makes it.
  const auto chapter = read("library://Dune/chapters/2");
  ASSERT_TRUE(chapter.success()) << chapter.rendered;
  EXPECT_EQ(chapter.visible_value->json(), "Dune, chapter 2");
  const auto refused = read("library://Dune/chapters/0");
  EXPECT_FALSE(refused.success());
  EXPECT_EQ(refused.result.message, "Chapters start at 1.");
  const auto not_a_number = read("library://Dune/chapters/two");
  EXPECT_EQ(not_a_number.status, ptc::CallStatus::InvalidArguments);
}

TEST_F(GoldenServed, PromptsRenderTextMessagesAndAttachments) {
  std::vector<std::string> names;
  for (const auto& p : registry.prompts()) names.push_back(p.name());
  EXPECT_THAT(names, ElementsAre("greet", "city_chat", "review"));
  EXPECT_EQ(render("greet", {{"name", "Ada"}, {"times", "2"}}).visible_value->json(), "Hello, Ada! Hello, Ada! ");
  EXPECT_EQ(
      render("city_chat", {{"city", "Oslo"}}).visible_value->json(),
      json::parse(R"([{"role":"user","text":"Tell me about Oslo."},{"role":"assistant","text":"Oslo is a city."}])"));
  const auto review = render("review", {{"title", "Emma"}});
  ASSERT_TRUE(review.success()) << review.rendered;
  EXPECT_EQ(review.attachments.size(), 1u);
  EXPECT_EQ(review.visible_value->json(), "Review Emma, whose cover is above.");
}

TEST_F(GoldenServed, CompletersAreAttachedByArgument) {
  const auto resources = registry.resources();
  EXPECT_EQ(resources[0].completer("city"), nullptr);
  EXPECT_THAT(complete(resources[1].completer("city"), "city", "P"), ElementsAre("Paris", "Perth"));
  EXPECT_THAT(complete(resources[2].completer("title"), "title", "E"), ElementsAre("Emma"));
  EXPECT_EQ(resources[2].completer("chapter"), nullptr);
  EXPECT_THAT(complete(registry.find_prompt("city_chat")->completer("city"), "city", "O"), ElementsAre("Oslo"));
  EXPECT_THAT(complete(registry.find_prompt("review")->completer("title"), "title", ""), ElementsAre("Dune", "Emma"));
  EXPECT_EQ(registry.find_prompt("greet")->completer("name"), nullptr);
}

}  // namespace
