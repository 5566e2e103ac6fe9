#pragma once
// The rules a tool's name, description, title and hints must meet: the names and texts every provider
// accepts, and hints that do not contradict each other. The one home of these rules: Tool checks them
// when it is built, ptc-gen when it reads PTC_TOOL. No dependencies, so code built without exceptions
// (ptc-gen's clang front end) can include it.

#include <cstddef>
#include <string_view>

namespace ptc {

/// The longest tool name and description providers accept.
inline constexpr std::size_t kMaxToolName = 64;
inline constexpr std::size_t kMaxToolDescription = 200;
/// The longest display title (MCP `title`); hosts show it in a menu, not to the model.
inline constexpr std::size_t kMaxToolTitle = 100;

/// Whether `name` matches `^[a-z0-9_-]{1,64}$`.
bool is_valid_tool_name(std::string_view name) noexcept;
/// Whether `description` is 1-200 ASCII characters (callers trim it first).
bool is_valid_tool_description(std::string_view description) noexcept;
/// Whether `title` is 1-100 printable ASCII characters (callers trim it first).
bool is_valid_tool_title(std::string_view title) noexcept;
/// Whether a tool's stated hints contradict each other: a read-only tool changes nothing, so it
/// cannot be destructive.
constexpr bool hints_contradict(bool read_only, bool destructive) noexcept { return read_only && destructive; }

}  // namespace ptc
