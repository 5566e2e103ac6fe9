#pragma once
// Checks that need ptc::runtime (which reports errors by exception) kept out of the files that include
// clang headers, which build without exceptions as LLVM does. Nothing here throws. Internal to extract/.

#include <optional>
#include <string>
#include <vector>

#include "model/model.hpp"

namespace ptcgen::extract::detail {

/// Why RE2 rejects `pattern`, or nullopt.
std::optional<std::string> pattern_error(const std::string& pattern);

/// PTC_SIGNATURE against the C++ declaration (model::check_explicit_signature).
std::vector<std::string> explicit_signature_errors(const model::Tool& tool, const model::HeaderModel& header);

/// Why the tool has no signature (model::signature_of), or nullopt.
std::optional<std::string> signature_error(const model::Tool& tool, const model::HeaderModel& header);

}  // namespace ptcgen::extract::detail
