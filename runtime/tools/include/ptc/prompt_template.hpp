#pragma once
// ptc::PromptTemplate — a prompt a server offers to its users (MCP prompts): a name, arguments, and a
// renderer that turns the arguments into messages. Not ptc::Prompt, which composes a system prompt
// from sections. The renderer is a tool-like function run through the same dispatch as a tool call:
// its parameters are the prompt's arguments (clients send them as strings; the lenient codec decodes
// "5" for an int), and what it returns becomes the messages:
//   - a string is one user message;
//   - an array of `{role, text}` objects is those messages, in order (role "user" or "assistant");
//   - blocks the renderer attaches (an image, an embedded resource) come first, each a user message
//     of its own, so that the text after them can refer to them.
//
//   registry.add_prompt(ptc::make_prompt("triage", "Triage an issue.", "(issue :string) -> :string", handler));

#include <memory>
#include <string>
#include <string_view>

#include <ptc/completion.hpp>
#include <ptc/tool.hpp>

namespace ptc {

struct PromptTemplateOptions {
  /// Completers for the arguments (completion.hpp); enums and bools need none.
  Completers completers{};
};

class PromptTemplate {
 public:
  explicit PromptTemplate(Tool renderer, PromptTemplateOptions options = {});

  const std::string& name() const { return data_->renderer.name(); }
  const std::string& title() const { return data_->renderer.title(); }
  const std::string& description() const { return data_->renderer.description(); }
  const Tool& renderer() const { return data_->renderer; }
  /// The completer of an argument, or nullptr.
  const Completer* completer(std::string_view argument) const;

 private:
  struct Data {
    Tool renderer;
    PromptTemplateOptions options;
  };
  std::shared_ptr<const Data> data_;
};

/// A prompt whose renderer is made from a shorthand signature, as make_tool makes a tool.
PromptTemplate make_prompt(std::string name, std::string description, std::string_view signature, JsonHandler handler,
                           PromptTemplateOptions options = {});

}  // namespace ptc
