#pragma once
// --diagnostics-format=json: ptc-gen's own simple shape, for scripts (docs/ptc-gen.md, "Diagnostics for
// CI"). Files are named as the text form names them.

#include <string>

#include "diagnostics/diagnostic.hpp"

namespace ptcgen::diagnostics {

/// `{"version":1,"diagnostics":[{"rule","severity","message","file","line","column","tool","flag",
/// "notes":[{"message","file","line","column"}]}]}`, keys in that order, 2-space indent, newline at the
/// end; absent values are null. The same log gives the same bytes.
std::string to_json(const Log& log);

}  // namespace ptcgen::diagnostics
