#pragma once
// YAML frontmatter as JSON, for the command-file rules to read. Private to the runtime.

#include <string_view>

#include <nlohmann/json.hpp>

#include <ptc/error.hpp>

namespace ptc::commands {

/// Parses YAML text into JSON, keeping map order. Plain scalars resolve by the YAML 1.2 core schema
/// (null, true/false, integers, floats; `yes` stays a string); quoted scalars are strings. A map key
/// becomes its text (a non-scalar key its flow form), so `1` and `"1"` in one map are a conflict:
/// `jido.schema: conflicting keys 1 and "1"`. Text that is not UTF-8 is refused. Errors carry the line
/// and column in `text`.
Result<nlohmann::ordered_json> parse_yaml(std::string_view text);

}  // namespace ptc::commands
