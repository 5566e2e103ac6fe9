#include "diagnostics_output.hpp"

#include <llvm/Support/raw_ostream.h>

#include "diagnostics/json.hpp"
#include "output/outputs.hpp"

namespace ptcgen::tool {

std::optional<DiagnosticsFormat> parse_format(const std::string& name) {
  if (name == "text") return DiagnosticsFormat::Text;
  if (name == "json") return DiagnosticsFormat::Json;
  if (name == "sarif") return DiagnosticsFormat::Sarif;
  return std::nullopt;
}

DiagnosticsOutput::DiagnosticsOutput(DiagnosticsFormat format, std::string file, diagnostics::SarifOptions sarif)
    : format_(format), file_(std::move(file)), sarif_(std::move(sarif)) {}

llvm::raw_ostream& DiagnosticsOutput::text_stream() const { return text() ? llvm::errs() : llvm::nulls(); }

int DiagnosticsOutput::finish(int code) {
  if (format_ == DiagnosticsFormat::Text) return code;
  const std::string document =
      format_ == DiagnosticsFormat::Json ? diagnostics::to_json(log_) : diagnostics::to_sarif(log_, sarif_);
  log_.clear();
  if (file_.empty()) {
    llvm::errs() << document;
    llvm::errs().flush();
    return code;
  }
  return output::write_if_changed(file_, document, llvm::errs()) ? code : 1;
}

}  // namespace ptcgen::tool
