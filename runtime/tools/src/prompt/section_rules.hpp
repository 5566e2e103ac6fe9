#pragma once
// The key syntax that Section and Prompt share.

#include <string_view>

namespace ptc::detail {

inline constexpr std::string_view kSectionKeyRule = "^[a-z0-9][a-z0-9._-]{0,63}$";

/// Whether `key` matches kSectionKeyRule.
bool is_section_key(std::string_view key);

}  // namespace ptc::detail
