#include "extract/recording.hpp"

#include <clang/Basic/DiagnosticIDs.h>
#include <clang/Basic/SourceManager.h>
#include <llvm/ADT/SmallString.h>

namespace ptcgen::extract::detail {

using namespace clang;

namespace {

/// Where the text form says the diagnostic is: the presumed location of its expansion, the file named
/// as clang was given it.
model::Location location_of(const clang::Diagnostic& info) {
  model::Location out;
  if (!info.getLocation().isValid() || !info.hasSourceManager()) return out;
  const PresumedLoc at = info.getSourceManager().getPresumedLoc(info.getLocation());
  if (at.isInvalid()) return out;
  out.file = at.getFilename();
  out.line = at.getLine();
  out.column = at.getColumn();
  return out;
}

}  // namespace

void RecordingConsumer::BeginSourceFile(const LangOptions& options, const Preprocessor* pp) {
  if (text_) text_->BeginSourceFile(options, pp);
}

void RecordingConsumer::EndSourceFile() {
  if (text_) text_->EndSourceFile();
}

void RecordingConsumer::finish() {
  if (text_) text_->finish();
}

void RecordingConsumer::HandleDiagnostic(DiagnosticsEngine::Level level, const clang::Diagnostic& info) {
  DiagnosticConsumer::HandleDiagnostic(level, info);  // the counts
  if (text_) text_->HandleDiagnostic(level, info);
  if (!log_ || level == DiagnosticsEngine::Ignored || level == DiagnosticsEngine::Remark) return;
  llvm::SmallString<256> message;
  info.FormatDiagnostic(message);
  if (level == DiagnosticsEngine::Note) {
    log_->note({std::string(message), location_of(info)});
    return;
  }
  diagnostics::Diagnostic d;
  d.severity = level == DiagnosticsEngine::Warning ? diagnostics::Severity::Warning : diagnostics::Severity::Error;
  d.message = std::string(message);
  d.location = location_of(info);
  if (expected_) {
    d.rule = std::string(diagnostics::id_of(expected_->rule));
    d.tool = expected_->tool;
  } else {
    const unsigned category = DiagnosticIDs::getCategoryNumberForDiag(info.getID());
    d.rule = std::string(diagnostics::id_of(diagnostics::clang_rule(DiagnosticIDs::getCategoryNameFromID(category))));
    if (const llvm::StringRef option = DiagnosticIDs::getWarningOptionForDiag(info.getID()); !option.empty())
      d.flag = "-W" + option.str();
  }
  log_->add(std::move(d));
}

}  // namespace ptcgen::extract::detail
