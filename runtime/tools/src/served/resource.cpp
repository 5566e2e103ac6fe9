// ptc::Resource and ptc::PromptTemplate: what a server serves besides tools, each read by a tool-like
// reader (resource.hpp, prompt_template.hpp).

#include <ptc/prompt_template.hpp>
#include <ptc/resource.hpp>
#include <ptc/tool_errors.hpp>

namespace ptc {
namespace {

const Completer* find_completer(const Completers& completers, std::string_view name) {
  auto it = completers.find(name);
  return it == completers.end() ? nullptr : &it->second;
}

/// The reader's parameters must be the template's variables, in any order: a variable nobody reads, or a
/// parameter no URI can fill, is a mistake in the declaration.
void check_variables(const UriTemplate& uri, const Tool& reader) {
  const Schema& input = reader.input();
  const auto& variables = uri.variables();
  for (const auto& variable : variables)
    if (!input.find(variable))
      throw DefinitionError("The URI template's variable '" + variable + "' is not a parameter of the reader '" +
                                reader.name() + "'.",
                            {}, "uri");
  if (input.kind() != Kind::Map) return;
  for (const auto& entry : input.entries()) {
    bool named = false;
    for (const auto& variable : variables) named = named || variable == entry.name;
    if (!named)
      throw DefinitionError("The reader '" + reader.name() + "' has the parameter '" + entry.name +
                                "', which the URI " +
                                (uri.is_static() ? "'" + uri.text() + "' has no variables to fill."
                                                 : "template '" + uri.text() + "' does not name."),
                            {}, "uri");
  }
}

}  // namespace

Resource::Resource(std::string_view uri, Tool reader, ResourceOptions options) {
  auto parsed = UriTemplate::parse(uri);
  if (!parsed)
    throw DefinitionError("Invalid resource URI '" + std::string(uri) + "': " + parsed.error().to_string(), {}, "uri");
  check_variables(*parsed, reader);
  if (options.name.empty()) options.name = reader.name();
  if (options.title.empty()) options.title = reader.title();
  if (options.description.empty()) options.description = reader.description();
  data_ = std::make_shared<const Data>(Data{std::move(*parsed), std::move(reader), std::move(options)});
}

const Completer* Resource::completer(std::string_view variable) const {
  return find_completer(data_->options.completers, variable);
}

Resource make_resource(std::string_view uri, std::string name, std::string description, std::string_view signature,
                       JsonHandler handler, ResourceOptions options) {
  return Resource(uri, make_tool(std::move(name), std::move(description), signature, std::move(handler)),
                  std::move(options));
}

PromptTemplate::PromptTemplate(Tool renderer, PromptTemplateOptions options)
    : data_(std::make_shared<const Data>(Data{std::move(renderer), std::move(options)})) {}

const Completer* PromptTemplate::completer(std::string_view argument) const {
  return find_completer(data_->options.completers, argument);
}

PromptTemplate make_prompt(std::string name, std::string description, std::string_view signature, JsonHandler handler,
                           PromptTemplateOptions options) {
  return PromptTemplate(make_tool(std::move(name), std::move(description), signature, std::move(handler)),
                        std::move(options));
}

}  // namespace ptc
