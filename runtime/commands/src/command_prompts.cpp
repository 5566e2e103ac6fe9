#include <ptc/command_prompts.hpp>

#include <ptc/command_run.hpp>
#include <ptc/tool_errors.hpp>

namespace ptc {
namespace {

/// Tools (and so prompt renderers) need a description of 1-200 characters; a command may have none.
std::string prompt_description(const CommandDefinition& command) {
  std::string text = command.description.empty() ? "Runs the " + command.name + " command." : command.description;
  if (text.size() > 200) text = text.substr(0, 197) + "...";
  return text;
}

PromptTemplate command_prompt(std::shared_ptr<const CommandDefinition> command) {
  std::vector<MapEntry> params;
  if (command->params.kind() == Kind::Map) params = command->params.entries();
  // The arguments were checked and coerced against the params by dispatch: rendering is all that is left.
  auto render = [command](const nlohmann::json& args, ToolContext&) {
    return ToolResult<nlohmann::json>::ok(render_command_body(command->body, args));
  };
  return PromptTemplate(make_tool(command->name, prompt_description(*command),
                                  Signature(std::move(params), Schema::string()), std::move(render)));
}

}  // namespace

std::vector<std::string> add_command_prompts(const CommandRegistry& commands, ToolRegistry& registry) {
  std::vector<std::string> skipped;
  for (const auto& name : commands.list_commands()) {
    auto command = commands.find(name);
    if (!command) continue;  // removed meanwhile
    if (registry.find_prompt(name)) {
      skipped.push_back(name + ": a prompt of that name is registered already");
      continue;
    }
    try {
      registry.add_prompt(command_prompt(std::move(command)));
    } catch (const DefinitionError& e) {
      skipped.push_back(name + ": " + e.what());
    }
  }
  return skipped;
}

}  // namespace ptc
