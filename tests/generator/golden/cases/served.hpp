#pragma once
// Resources and prompts (MCP) beside a tool: a static resource, URI templates with a string and an int
// variable, a MIME type, completers (a free function taking the typed text, a member taking the whole
// request), prompts that return text or messages, and one that takes ptc::ToolContext& to attach a
// block. Their readers and renderers are generated as tools are and registered with add_resource and
// add_prompt; served.tools.json lists the tool alone.

#include <string>
#include <string_view>
#include <vector>

#include <ptc/annotate.hpp>
#include <ptc/completion.hpp>
#include <ptc/tool_context.hpp>
#include <ptc/tool_result.hpp>

namespace golden::served {

enum class Role { user, assistant };

struct Message {
  Role role = Role::user;
  std::string text;
};

/// The cities whose names start with what was typed.
std::vector<std::string> city_names(std::string_view typed);

/// Defines a word.
PTC_TOOL() PTC_READ_ONLY std::string define(std::string word);

/// The motto of the house.
PTC_RESOURCE("golden://motto") std::string motto();

/// The weather in a city, in Markdown.
/// \param city Its name.
PTC_RESOURCE("golden://weather/{city}")
PTC_MIME_TYPE("text/markdown") PTC_COMPLETE(city, city_names) std::string weather(std::string city);

/// Greets someone, as many times as asked.
PTC_PROMPT() std::string greet(std::string name, int times = 1);

/// A short conversation about a city, to go on from.
PTC_PROMPT("city_chat") PTC_COMPLETE(city, city_names) std::vector<Message> chat(std::string city);

class Library {
 public:
  /// The titles that start with what was typed; the request names the argument too.
  std::vector<std::string> titles(const ptc::CompletionRequest& request) const;

  /// A chapter of a book.
  /// \param title The book's title.
  /// \param chapter From 1.
  PTC_RESOURCE("library://{title}/chapters/{chapter}")
  PTC_TITLE("Chapter")
  PTC_COMPLETE(title, titles) ptc::ToolResult<std::string> chapter(std::string title, int chapter) const;

  /// Asks for a review of a book, its cover attached.
  PTC_PROMPT() PTC_COMPLETE(title, titles) std::string review(ptc::ToolContext& context, std::string title);
};

}  // namespace golden::served
