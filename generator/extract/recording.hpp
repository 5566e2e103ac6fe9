#pragma once
// A DiagnosticConsumer that prints as clang prints (when text is wanted) and records every diagnostic
// into a diagnostics::Log with its rule: Reporter's with the rule it names just before reporting,
// clang's own by their category. Internal to extract/.

#include <optional>
#include <string>

#include <clang/Basic/Diagnostic.h>

#include "diagnostics/diagnostic.hpp"

namespace ptcgen::extract::detail {

class RecordingConsumer : public clang::DiagnosticConsumer {
 public:
  /// Either may be null: no text, or nothing recorded.
  RecordingConsumer(clang::DiagnosticConsumer* text, diagnostics::Log* log) : text_(text), log_(log) {}

  void BeginSourceFile(const clang::LangOptions& options, const clang::Preprocessor* pp) override;
  void EndSourceFile() override;
  void finish() override;
  void HandleDiagnostic(clang::DiagnosticsEngine::Level level, const clang::Diagnostic& info) override;

  /// The rule and tool of the diagnostic about to be reported; cleared by expect_none() right after, so
  /// a report clang suppresses (a warning under -w) leaves nothing behind for the next one.
  void expect(diagnostics::RuleId rule, const std::string& tool) { expected_ = Expected{rule, tool}; }
  void expect_none() { expected_.reset(); }

 private:
  struct Expected {
    diagnostics::RuleId rule;
    std::string tool;
  };
  clang::DiagnosticConsumer* text_;
  diagnostics::Log* log_;
  std::optional<Expected> expected_;
};

}  // namespace ptcgen::extract::detail
