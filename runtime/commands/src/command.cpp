#include <ptc/command.hpp>

#include <ptc/file_input.hpp>
#include <ptc/limits.hpp>

#include <algorithm>
#include <fstream>
#include <iterator>

#include <ptc/command_executor.hpp>

#include "text.hpp"
#include "command_schema.hpp"
#include "json_keys.hpp"
#include "yaml_json.hpp"

namespace ptc {

using commands::at_path;
using commands::index_path;
using commands::key_path;
using nlohmann::ordered_json;

namespace {

struct Split {
  std::string_view frontmatter;
  std::string_view body;
};

// The first line is `---`; the frontmatter runs to the next `---` line; the body is the rest.
std::optional<Split> split_frontmatter(std::string_view content) {
  if (content.starts_with("\xEF\xBB\xBF")) content.remove_prefix(3);
  auto is_fence = [](std::string_view line) {
    while (!line.empty() && (line.back() == ' ' || line.back() == '\t' || line.back() == '\r')) line.remove_suffix(1);
    return line == "---";
  };
  auto first_end = content.find('\n');
  if (first_end == std::string_view::npos || !is_fence(content.substr(0, first_end))) return std::nullopt;
  std::size_t start = first_end + 1;
  for (std::size_t line = start; line <= content.size();) {
    auto end = content.find('\n', line);
    std::string_view current =
        content.substr(line, end == std::string_view::npos ? std::string_view::npos : end - line);
    if (is_fence(current)) {
      std::string_view body = end == std::string_view::npos ? std::string_view{} : content.substr(end + 1);
      return Split{content.substr(start, line - start), body};
    }
    if (end == std::string_view::npos) break;
    line = end + 1;
  }
  return std::nullopt;
}

std::optional<std::string> non_blank(const ordered_json& v) {
  if (!v.is_string()) return std::nullopt;
  auto trimmed = text::trim(v.get_ref<const std::string&>());
  if (trimmed.empty()) return std::nullopt;
  return std::string(trimmed);
}

Result<std::vector<std::string>> allowed_tools(const ordered_json& value, const std::string& key) {
  std::vector<std::string> entries;
  if (value.is_null()) return Error{at_path(key, "must not be null")};
  if (value.is_string()) {
    const auto& s = value.get_ref<const std::string&>();
    if (text::trim(s).empty()) return Error{at_path(key, "must not be blank")};
    std::size_t start = 0;
    for (auto comma = s.find(',');; comma = s.find(',', start)) {
      entries.push_back(s.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
      if (comma == std::string::npos) break;
      start = comma + 1;
    }
  } else if (value.is_array()) {
    if (value.empty()) return Error{at_path(key, "must not be an empty list")};
    for (std::size_t i = 0; i < value.size(); ++i) {
      if (!value[i].is_string()) return Error{at_path(index_path(key, i), "must be a string")};
      entries.push_back(value[i].get<std::string>());
    }
  } else {
    return Error{at_path(key, "must be a comma-separated string or a list of strings")};
  }
  std::vector<std::string> tools;
  for (const auto& entry : entries) {
    std::string trimmed(text::trim(entry));
    if (!trimmed.empty() && std::find(tools.begin(), tools.end(), trimmed) == tools.end()) tools.push_back(trimmed);
  }
  if (tools.empty()) return Error{at_path(key, "must name at least one tool")};
  return tools;
}

// Errors are "key path: rule"; the caller puts the file in front.
Result<CommandDefinition> from_frontmatter(const ordered_json& fm) {
  if (!fm.is_object()) return Error{"the frontmatter must be a YAML map"};
  for (const auto& [key, _] : fm.items())
    if (key != "name" && key != "description" && key != "model" && key != "allowed-tools" && key != "allowed_tools" &&
        key != "jido")
      return Error{at_path(text::printable(key),
                           "unknown key; expected name, description, model, allowed-tools (or allowed_tools) or jido")};

  CommandDefinition def;
  for (auto [key, slot] : {std::pair{"name", &def.name}, {"description", &def.description}}) {
    if (!fm.contains(key)) return Error{at_path(key, "is required")};
    auto value = non_blank(fm[key]);
    if (!value) return Error{at_path(key, "must be a non-empty string")};
    *slot = *value;
  }
  // One line per command in `ptc command list` and in signals: a newline in a name would forge a line.
  if (std::any_of(def.name.begin(), def.name.end(), text::is_control))
    return Error{at_path("name", "must not contain control characters such as newlines or tabs")};
  if (fm.contains("model")) {
    def.model = non_blank(fm["model"]);
    if (!def.model) return Error{at_path("model", "must be a non-empty string")};
  }
  if (fm.contains("allowed-tools") && fm.contains("allowed_tools"))
    return Error{"allowed-tools and allowed_tools are the same key; give only one"};
  for (const char* key : {"allowed-tools", "allowed_tools"}) {
    if (!fm.contains(key)) continue;
    auto tools = allowed_tools(fm[key], key);
    if (!tools) return tools.error();
    def.allowed_tools = std::move(*tools);
  }
  if (!fm.contains("jido")) return def;

  const auto& jido = fm["jido"];
  if (!jido.is_object()) return Error{at_path("jido", "must be a map")};
  for (const auto& [key, _] : jido.items())
    if (key != "command_module" && key != "hooks" && key != "schema")
      return Error{at_path(key_path("jido", key), "unknown key; expected command_module, hooks or schema")};
  if (jido.contains("command_module")) {
    auto module = non_blank(jido["command_module"]);
    if (!module || !is_module_name(*module))
      return Error{at_path("jido.command_module", "must be a module name such as MyApp.Commands.Run")};
    def.command_module = *module;
  }
  if (jido.contains("hooks")) {
    const auto& hooks = jido["hooks"];
    if (!hooks.is_object()) return Error{at_path("jido.hooks", "must be a map")};
    for (const auto& [key, value] : hooks.items()) {
      std::string path = key_path("jido.hooks", key);
      if (key != "pre" && key != "after") return Error{at_path(path, "unknown key; expected pre or after")};
      if (!value.is_boolean()) return Error{at_path(path, "must be true or false")};
      (key == "pre" ? def.hooks.pre : def.hooks.after) = value.get<bool>();
    }
  }
  if (jido.contains("schema")) {
    auto params = commands::params_schema(jido["schema"]);
    if (!params) return params.error();
    def.params = std::move(*params);
  }
  return def;
}

}  // namespace

Result<CommandDefinition> parse_command(std::string_view content, const std::filesystem::path& source) {
  std::string file = source.string();
  auto parts = split_frontmatter(content);
  if (!parts) return Error{file + ": must start with YAML frontmatter between two '---' lines"};
  // Checked before parsing: yaml-cpp's tree costs far more than the text.
  if (parts->frontmatter.size() > limits::kFrontmatterBytes)
    return Error{file + ": the frontmatter is larger than the limit of " + std::to_string(limits::kFrontmatterBytes) +
                 " bytes"};
  auto yaml = commands::parse_yaml(parts->frontmatter);
  if (!yaml) {
    const Error& e = yaml.error();
    // The frontmatter starts on the file's second line.
    if (e.line == 0) return Error{file + ": " + e.message};
    return Error{file + ": line " + std::to_string(e.line + 1) + ", column " + std::to_string(e.column) + ": " +
                 e.message};
  }
  auto def = from_frontmatter(*yaml);
  if (!def) return Error{file + ": " + def.error().message};
  def->body = std::string(parts->body);
  def->path = source;
  return def;
}

Result<CommandDefinition> parse_command_file(const std::filesystem::path& path) {
  std::error_code ec;
  auto absolute = std::filesystem::absolute(path, ec);
  if (ec) absolute = path;
  // A cloned repository can carry a command file that is a FIFO or a symlink to /dev/zero.
  auto content = read_regular_file(absolute);
  if (!content) return Error{content.error().message};
  return parse_command(*content, absolute);
}

Result<nlohmann::json> parse_command_json(std::string_view text) { return commands::parse_json_checking_keys(text); }

}  // namespace ptc
