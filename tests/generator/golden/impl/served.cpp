// Definitions of the functions declared in cases/served.hpp, so its generated code links and runs.
#include "cases/served.hpp"

#include <array>

namespace golden::served {
namespace {

constexpr std::array<std::string_view, 3> kCities{"Paris", "Perth", "Oslo"};
constexpr std::array<std::string_view, 2> kTitles{"Dune", "Emma"};

}  // namespace

std::vector<std::string> city_names(std::string_view typed) {
  std::vector<std::string> out;
  for (auto city : kCities)
    if (city.substr(0, typed.size()) == typed) out.emplace_back(city);
  return out;
}

std::string define(std::string word) { return word + ": a word."; }

std::string motto() { return "Measure twice."; }

std::string weather(std::string city) { return "# " + city + "\n\nSunny."; }

std::string greet(std::string name, int times) {
  std::string out;
  for (int i = 0; i < times; ++i) out += "Hello, " + name + "! ";
  return out;
}

std::vector<Message> chat(std::string city) {
  return {{Role::user, "Tell me about " + city + "."}, {Role::assistant, city + " is a city."}};
}

std::vector<std::string> Library::titles(const ptc::CompletionRequest& request) const {
  std::vector<std::string> out;
  for (auto title : kTitles)
    if (title.substr(0, request.value.size()) == request.value) out.emplace_back(title);
  return out;
}

ptc::ToolResult<std::string> Library::chapter(std::string title, int chapter) const {
  if (chapter < 1) return ptc::ToolResult<std::string>::error("Chapters start at 1.");
  return ptc::ToolResult<std::string>::ok(title + ", chapter " + std::to_string(chapter));
}

std::string Library::review(ptc::ToolContext& context, std::string title) {
  context.attach(ptc::Content::image("cover", "image/png"));
  return "Review " + title + ", whose cover is above.";
}

}  // namespace golden::served
