#pragma once
// The rules for the JSON forms of the Commands calls: option objects, bus and registry names, and
// permissions objects. Private to the runtime.

#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include <ptc/command_settings.hpp>
#include <ptc/error.hpp>

namespace ptc::commands {

/// The options a call was given, each as found (not yet checked).
struct ApiOptions {
  const nlohmann::json* bus = nullptr;
  const nlohmann::json* registry = nullptr;
  const nlohmann::json* invocation_id = nullptr;
  const nlohmann::json* permissions = nullptr;
};

/// `options` must be an object without conflicting keys and with only `allowed` keys. Errors read
/// `invalid <operation> options: ...`.
Result<ApiOptions> read_options(const nlohmann::json& options, std::initializer_list<std::string_view> allowed,
                                std::string_view operation);

/// A reference to a bus or registry: a non-blank string, trimmed, without a leading ':'. Checks that it
/// names `expected` (the only one there is). Errors: `<where>: must name a <what> (a non-empty string)`,
/// `<where>: unknown <what> 'x'; this runtime's is 'y'`.
std::optional<std::string> check_reference(const nlohmann::json& value, std::string_view expected,
                                           std::string_view what, std::string_view where);

/// A permissions object: only `allow`, `deny` and `ask`, each (when present) a list of strings;
/// conflicting keys rejected at any depth. Errors start with `path`.
Result<Permissions> permissions_from_json(const nlohmann::json& value, const std::string& path);

}  // namespace ptc::commands
