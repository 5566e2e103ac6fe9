#pragma once
// What the `ptc` command and ptc::cli::run share: reading a JSON argument and the texts of usage
// errors. Private to the runtime (not installed).

#include <optional>
#include <string>
#include <string_view>

namespace ptc::cli::detail {

/// "-" is standard input and "@path" a file; anything else is the JSON text itself. nullopt: the file
/// cannot be read.
std::optional<std::string> read_json_argument(const std::string& argument);

/// "error: unknown mode 'x'; expected enabled, warn_only, strict or disabled\n"
std::string unknown_mode(std::string_view given);
/// "error: unknown profile 'x'; expected portable, openai, anthropic, gemini or mcp\n"
std::string unknown_profile(std::string_view given);
/// "error: unknown format 'x'; use openai, openai-responses, anthropic, gemini or mcp\n" (definitions)
std::string unknown_format(std::string_view given);
/// "error: cannot read PATH\n" for an argument "@PATH".
std::string cannot_read(std::string_view argument);

}  // namespace ptc::cli::detail
