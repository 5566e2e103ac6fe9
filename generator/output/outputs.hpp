#pragma once
// What ptc-gen does with the models: emit, write only what changed, compare with a directory
// (--check), write the depfile, print signatures. No clang here.

#include <string>
#include <string_view>
#include <vector>

#include "diagnostics/diagnostic.hpp"
#include "emit/emit.hpp"
#include "model/model.hpp"

namespace llvm {
class raw_ostream;
}

namespace ptcgen::output {

/// Runs the emitters over every header. Their errors, warnings and notes print clang-style
/// (`file:line:col: error: ...`) to `err`; errors leave the result empty and `ok` false, warnings and
/// notes change neither. With a log, each is recorded there too (one without a location at its header).
struct Emission {
  std::vector<emit::OutputFile> files;
  bool ok = true;
};
Emission emit_all(const std::vector<model::HeaderModel>& headers, llvm::raw_ostream& err,
                  diagnostics::Log* log = nullptr);

/// `file:line:col: severity: message` (gcc's form, which editors' problem matchers read), or
/// `ptc-gen: severity: message` without a location.
void print_diagnostic(const model::Location& at, std::string_view severity, const std::string& message,
                      llvm::raw_ostream& err);

/// Writes each file into `dir` unless it already holds exactly these bytes (so an unchanged output
/// keeps its timestamp and rebuilds nothing); a changed one is replaced through a temporary file and
/// a rename. Reports failures to `err`.
bool write_outputs(const std::vector<emit::OutputFile>& files, const std::string& dir, llvm::raw_ostream& err);

/// Compares the files with those in `dir`: prints a unified diff to `out` for each that differs or is
/// missing and returns false when any does, saying on `err` which, and the command (`update`) that
/// writes them. Writes nothing.
bool check_outputs(const std::vector<emit::OutputFile>& files, const std::string& dir, const std::string& update,
                   llvm::raw_ostream& out, llvm::raw_ostream& err);

/// A make-style depfile: every output (absolute) depends on every input, spaces and `#` escaped
/// with a backslash, `$` doubled.
std::string depfile_text(const std::vector<std::string>& targets, const std::vector<std::string>& inputs);

/// Writes `content` to `path` unless it is already there; false (reported) when it cannot.
bool write_if_changed(const std::string& path, const std::string& content, llvm::raw_ostream& err);

/// One `name(params) -> R` line per tool (resources and prompts are not tools). Tools without a signature
/// are reported; then false.
bool print_signatures(const std::vector<model::HeaderModel>& headers, llvm::raw_ostream& out, llvm::raw_ostream& err,
                      diagnostics::Log* log = nullptr);

}  // namespace ptcgen::output
