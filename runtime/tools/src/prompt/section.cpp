// ptc::Section: every rule about a section's own parts is checked here, once, when it is built; the
// prompt only adds the rules that need the whole tree (sibling keys, tool names across sections).

#include <ptc/section.hpp>

#include <set>

#include <ptc/placeholders.hpp>
#include <ptc/tool_errors.hpp>

#include "section_rules.hpp"
#include "text.hpp"

namespace ptc {
namespace detail {

// Written out rather than through RE2: a key is short, and the rule is simple enough to read as code.
bool is_section_key(std::string_view key) {
  auto lower_or_digit = [](char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'); };
  if (key.empty() || key.size() > 64 || !lower_or_digit(key.front())) return false;
  for (char c : key.substr(1))
    if (!lower_or_digit(c) && c != '.' && c != '_' && c != '-') return false;
  return true;
}

}  // namespace detail

namespace {

using text::trim;

void check_key(const SectionSpec& spec) {
  if (!detail::is_section_key(spec.key))
    throw DefinitionError("Section key must match " + std::string(detail::kSectionKeyRule) + ".", {spec.key}, "key");
}

// The title becomes a markdown heading, so it must be one line with something on it. Surrounding
// whitespace is dropped rather than refused: it would only show up as stray spaces in the heading.
std::string checked_title(const SectionSpec& spec) {
  std::string_view title = trim(spec.title);
  if (title.empty() || title.find_first_of("\r\n") != std::string_view::npos)
    throw DefinitionError("Section title must be a non-empty single line.", {spec.key}, "title");
  return std::string(title);
}

// Only the parameter list matters: a section has no result, so whatever `-> T` says is ignored. The
// usual form is a bare list, "(user {name :string})" or "()", which the signature grammar completes
// with a result; blank text means no parameters.
Signature parsed_params(const SectionSpec& spec) {
  if (trim(spec.params).empty()) return Signature(std::vector<MapEntry>{}, Schema::any());
  auto parsed = Signature::parse(spec.params);
  if (parsed) return std::move(parsed).value();
  // If only the result was missing, the completed text parses. Otherwise the error reported is the one
  // for the text as written: that is the text (and the columns) the author sees.
  if (auto completed = Signature::parse(spec.params + " -> :any")) return std::move(completed).value();
  throw DefinitionError("Section params do not parse: " + parsed.error().to_string(), {spec.key}, "params");
}

void check_template(const SectionSpec& spec, const Signature& params) {
  auto problems = check_placeholders(spec.template_text, params);
  // The message names the placeholder itself ("placeholder {{x}}: ..."), which says more than a column.
  if (!problems.empty()) throw DefinitionError(problems.front().message, {spec.key}, "template");
}

void check_tools(const SectionSpec& spec) {
  std::set<std::string_view> seen;
  for (const auto& t : spec.tools)
    if (!seen.insert(t.name()).second)
      throw DefinitionError("Duplicate tool name registered for prompt.", {spec.key}, t.name());
}

}  // namespace

Section::Section(SectionSpec spec) {
  check_key(spec);
  spec.title = checked_title(spec);
  params_ = parsed_params(spec);
  check_template(spec, params_);
  check_tools(spec);
  spec_ = std::make_shared<const SectionSpec>(std::move(spec));
}

}  // namespace ptc
