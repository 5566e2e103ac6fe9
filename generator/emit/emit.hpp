#pragma once
// Model -> the files ptc-gen writes for one header. No clang here: emitters are tested from
// hand-built models.

#include <string>
#include <vector>

#include "model/model.hpp"

namespace ptcgen::emit {

struct OutputFile {
  std::string name;     ///< "<stem>.ptc.hpp", "<stem>.ptc.cpp", "<stem>.tools.json", "<stem>.tools.md"
  std::string content;  ///< deterministic bytes
};

/// A problem found while emitting (a profile cannot express a type, an example does not match...).
struct EmitError {
  std::string message;
  model::Location location;
};

struct Emitted {
  std::vector<OutputFile> files;
  std::vector<EmitError> errors;  ///< when not empty, `files` must not be written
};

Emitted emit_header(const model::HeaderModel& header);

}  // namespace ptcgen::emit
