#pragma once
// The model's checks for callers built without exceptions (extract/, whose files include clang headers
// and build with -fno-exceptions as LLVM does). The model and ptc::core report some errors by
// exception; these wrappers catch them and return the message. Nothing here throws.

#include <optional>
#include <string>
#include <vector>

#include "model/model.hpp"

namespace ptcgen::model::no_throw {

/// Why RE2 rejects `pattern`, or nullopt.
std::optional<std::string> pattern_error(const std::string& pattern);

/// PTC_SIGNATURE against the C++ declaration (model::check_explicit_signature).
std::vector<std::string> explicit_signature_errors(const model::Tool& tool, const model::HeaderModel& header);

/// Why the tool has no signature (model::signature_of), or nullopt.
std::optional<std::string> signature_error(const model::Tool& tool, const model::HeaderModel& header);

/// Why `type` has no schema (model::schema_of), or nullopt.
std::optional<std::string> schema_error(const model::Type& type, const model::HeaderModel& header);

}  // namespace ptcgen::model::no_throw
