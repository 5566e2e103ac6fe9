#pragma once
// ptc::CommandDefinition — a command read from a markdown file: YAML frontmatter between `---` lines,
// then the body, a prompt template with `{{param}}` placeholders. docs/commands.md has the format.

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include <ptc/error.hpp>
#include <ptc/schema.hpp>

namespace ptc {

/// Which hook signals (`jido.hooks.pre`, `jido.hooks.after`) a command emits.
struct CommandHooks {
  bool pre = false;
  bool after = false;
  friend bool operator==(const CommandHooks&, const CommandHooks&) = default;
};

struct CommandDefinition {
  std::string name;
  std::string description;
  std::optional<std::string> model;
  /// Trimmed, without empty entries or repeats; empty when the file declares none (no restriction).
  std::vector<std::string> allowed_tools;
  /// `jido.command_module`: the name of a registered executor; nullopt runs the default executor.
  std::optional<std::string> command_module;
  CommandHooks hooks;
  /// The params object built from `jido.schema` (`[:map]` with no fields when there is none).
  Schema params = Schema::map({});
  std::string body;
  /// Where the command was read from (absolute for files; what the caller gave for text).
  std::filesystem::path path;
};

/// Reads a command file. Errors name the file, the key and the rule:
/// `/repo/.jido_code/commands/review.md: allowed-tools: must not be an empty list`.
Result<CommandDefinition> parse_command_file(const std::filesystem::path& path);

/// Parses command text; `source` stands for the file in messages and becomes `path`.
Result<CommandDefinition> parse_command(std::string_view text, const std::filesystem::path& source);

/// Parses JSON text as the command runtime reads params and options: like ptc::parse_json, and an object
/// that repeats a key (or holds both `name` and `:name`), which nlohmann would silently collapse, is an
/// error naming its place: `a.b: duplicate key "x"`.
Result<nlohmann::json> parse_command_json(std::string_view text);

}  // namespace ptc
