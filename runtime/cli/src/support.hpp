#pragma once
// What the `ptc` command and ptc::cli::run share: reading a JSON argument and the texts of usage
// errors. Private to the runtime (not installed).

#include <string>
#include <string_view>

#include <ptc/error.hpp>

namespace ptc::cli::detail {

/// "-" is standard input and "@path" a regular file, each read up to ptc::limits::kFileBytes; anything
/// else is the JSON text itself. The error names the file and the cause ("<stdin>" for standard input).
Result<std::string> read_json_argument(const std::string& argument);

/// "error: unknown mode 'x'; expected enabled, warn_only, strict or disabled\n"
std::string unknown_mode(std::string_view given);
/// "error: unknown profile 'x'; expected portable, openai, anthropic, gemini or mcp\n"
std::string unknown_profile(std::string_view given);
/// "error: unknown format 'x'; use openai, openai-responses, anthropic, gemini or mcp\n" (definitions)
std::string unknown_format(std::string_view given);
/// "error: cannot read PATH: CAUSE\n" for the error of read_json_argument.
std::string cannot_read(const Error& error);

}  // namespace ptc::cli::detail
