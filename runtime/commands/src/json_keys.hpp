#pragma once
// Keys of JSON objects as the command runtime compares them: `name` and `:name` are one key (the
// Elixir original accepted atom and string keys alike), so an object holding both is ambiguous.
// Private to the runtime.

#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include <ptc/coercion.hpp>
#include <ptc/error.hpp>

namespace ptc::commands {

/// `key` without one leading ':'.
std::string_view normalized_key(std::string_view key);

/// Paths are written as validation writes them: "a.b", `a["x y"]`, "a[2]".
using coercion::index_path;
using coercion::key_path;
/// `path + ": " + rule`, or just the rule when the path is empty.
std::string at_path(std::string_view path, std::string_view rule);

/// The first object in `value` (searched depth first, arrays included) holding two keys that are equal
/// once normalized, as `<path>: conflicting keys ":name" and "name"`; `path` names `value` itself.
std::optional<std::string> find_conflicting_keys(const nlohmann::json& value, std::string_view path);

/// The member of `object` whose normalized key is `key`, or nullptr. Call after find_conflicting_keys.
const nlohmann::json* find_key(const nlohmann::json& object, std::string_view key);

/// A copy with every object key normalized, recursively. Call after find_conflicting_keys.
nlohmann::json with_normalized_keys(const nlohmann::json& value);

/// Parses JSON text with ptc::parse_json (which refuses a repeated key), and also rejects an object
/// holding both `name` and `:name`: `a.b: conflicting keys ":x" and "x"`.
Result<nlohmann::json> parse_json_checking_keys(std::string_view text);

/// The trimmed string when `value` points to a string that is not blank.
std::optional<std::string> non_blank_string(const nlohmann::json* value);

/// The JSON type's name for command messages, in the vocabulary of command schemas (`type: integer`):
/// "string", "list", "object", "integer", "boolean", "null". Validation messages use the signature
/// language instead (coercion::type_name: "map", "int", "nil"), the one the model reads.
std::string json_type_name(const nlohmann::json& value);

}  // namespace ptc::commands
