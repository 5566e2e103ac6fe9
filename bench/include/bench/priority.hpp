#pragma once
// The small tool of the MCP benchmark (bench/mcp/run.sh): the quickstart's suggest_priority, one
// string in and an enum out, so that a call's cost is the server's protocol work, not the tool's.

#include <string_view>

#include <ptc/annotate.hpp>

namespace bench {

enum class Priority { low, medium, high, urgent };

/// Guesses a priority from a title: "crash" and "data loss" are urgent, "typo" is low.
PTC_TOOL()
PTC_TITLE("Suggest a priority") PTC_READ_ONLY PTC_IDEMPOTENT Priority suggest_priority(std::string_view title);

}  // namespace bench
