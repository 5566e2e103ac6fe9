#pragma once
// Where ptc-gen's diagnostics go (--diagnostics-format, --diagnostics-file): clang-style text on
// stderr, and/or the run's log written as JSON or SARIF when the run ends (docs/ptc-gen.md,
// "Diagnostics for CI").

#include <optional>
#include <string>

#include "diagnostics/diagnostic.hpp"
#include "diagnostics/sarif.hpp"

namespace llvm {
class raw_ostream;
}

namespace ptcgen::tool {

enum class DiagnosticsFormat { Text, Json, Sarif };

/// "text", "json", "sarif"; nullopt for anything else.
std::optional<DiagnosticsFormat> parse_format(const std::string& name);

class DiagnosticsOutput {
 public:
  /// Without `file`, a JSON or SARIF document replaces the text on stderr; with it, stderr keeps the
  /// text and the file gets the document.
  DiagnosticsOutput(DiagnosticsFormat format, std::string file, diagnostics::SarifOptions sarif);

  diagnostics::Log& log() { return log_; }
  /// Whether diagnostics are printed as text on stderr.
  bool text() const { return format_ == DiagnosticsFormat::Text || !file_.empty(); }
  /// stderr when text() is wanted, else a stream that drops what it is given.
  llvm::raw_ostream& text_stream() const;
  /// Ends a run: writes the document (an empty one too: code scanning then closes old alerts) and
  /// empties the log for the next run. Returns `code`, or 1 when the file cannot be written.
  int finish(int code);

 private:
  DiagnosticsFormat format_;
  std::string file_;
  diagnostics::SarifOptions sarif_;
  diagnostics::Log log_;
};

}  // namespace ptcgen::tool
