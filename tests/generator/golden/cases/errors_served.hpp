#pragma once
// Mistakes in resource and prompt declarations: URI templates UriTemplate::parse refuses, variables and
// parameters that do not match, results a resource or prompt cannot have, misplaced markers, and
// PTC_COMPLETE naming what is not there.

#include <string>
#include <string_view>
#include <vector>

#include <ptc/annotate.hpp>

namespace golden::errors_served {

std::vector<std::string> suggestions(std::string_view typed);
int not_a_completer(int x);

struct Note {
  std::string role;
  std::string text;
  int weight;
};

/// An unclosed brace.
PTC_RESOURCE("golden://items/{id") std::string unclosed(std::string id);

/// Two variables with nothing between them cannot be told apart.
PTC_RESOURCE("golden://{a}{b}") std::string adjacent(std::string a, std::string b);

/// The template's variable is not the parameter's name.
PTC_RESOURCE("golden://items/{id}") std::string misnamed(std::string key);

/// A static resource whose reader takes a parameter.
PTC_RESOURCE("golden://all") std::string static_with_parameter(int limit);

/// A resource that returns nothing.
PTC_RESOURCE("golden://nothing") void nothing();

/// Not a MIME type.
PTC_RESOURCE("golden://text") PTC_MIME_TYPE("markdown") std::string bad_mime();

/// A MIME type on a prompt.
PTC_PROMPT() PTC_MIME_TYPE("text/plain") std::string mime_on_prompt();

/// A prompt that returns a number.
PTC_PROMPT() int counted();

/// Messages with a field MCP has no place for.
PTC_PROMPT() std::vector<Note> weighed();

/// Completes a parameter the prompt does not have.
PTC_PROMPT() PTC_COMPLETE(topic, suggestions) std::string unknown_argument(std::string subject);

/// Completes with a function that does not return suggestions.
PTC_PROMPT() PTC_COMPLETE(subject, not_a_completer) std::string wrong_completer(std::string subject);

/// Completes with a function nobody declared.
PTC_PROMPT() PTC_COMPLETE(subject, nowhere) std::string missing_completer(std::string subject);

/// A prompt argument no client can send: arguments arrive as strings.
PTC_PROMPT() std::string noted(Note note);

/// A template variable no URI can give.
PTC_RESOURCE("golden://tagged/{tags}") std::string tagged(std::vector<std::string> tags);

/// Completion is for prompts and resource templates.
PTC_TOOL() PTC_READ_ONLY PTC_COMPLETE(subject, suggestions) std::string completed_tool(std::string subject);

/// Hints describe what tools do.
PTC_PROMPT() PTC_READ_ONLY std::string hinted_prompt();

/// Both a tool and a resource.
PTC_TOOL() PTC_RESOURCE("golden://both") PTC_READ_ONLY std::string both();

/// The motto.
PTC_RESOURCE("golden://motto") std::string motto();

/// The motto again, at the same URI.
PTC_RESOURCE("golden://motto") std::string motto_again();

}  // namespace golden::errors_served
