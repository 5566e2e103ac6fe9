#pragma once
// Unified diffs for --check. No clang here.

#include <string>

namespace llvm {
class raw_ostream;
}

namespace ptcgen::output {

/// Prints a unified diff from `before` (labelled `before_label`) to `after` to `out`, through the
/// system's `diff -u` when there is one, else as one hunk that replaces every line.
void unified_diff(const std::string& before, const std::string& before_label, const std::string& after,
                  const std::string& after_label, llvm::raw_ostream& out);

}  // namespace ptcgen::output
