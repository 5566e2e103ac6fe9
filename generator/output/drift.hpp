#pragma once
// --check's drift as diagnostics (`ptc/drift`): one per tool whose part of the generated files differs
// from the committed ones, at the tool's declaration, and one per difference no tool accounts for, at
// the header. The unified diff and the "differs" lines stay check_outputs'. No clang here.

#include <string>
#include <vector>

#include "diagnostics/diagnostic.hpp"
#include "emit/emit.hpp"
#include "model/model.hpp"

namespace ptcgen::output {

/// Compares `files` (what ptc-gen generates for `headers`) with those in `dir` and records the drift
/// into `log`; `update` is the command that rewrites them, said in a note of each result. Writes nothing.
void record_drift(const std::vector<emit::OutputFile>& files, const std::string& dir,
                  const std::vector<model::HeaderModel>& headers, const std::string& update, diagnostics::Log& log);

}  // namespace ptcgen::output
