#pragma once
// Model -> the files ptc-gen writes for one header. No clang here: emitters are tested from
// hand-built models.

#include <string>
#include <vector>

#include <ptc/json_schema.hpp>

#include "diagnostics/rules.hpp"
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
  diagnostics::RuleId rule;  ///< the kind of problem (docs/ptc-gen.md, "Diagnostics for CI")
  std::string tool;          ///< the tool it concerns, if any
};

struct EmitOptions {
  /// Provider profiles every tool must be expressible in. `tools.json` is the portable profile, which
  /// must always succeed; every other profile is tried too, because the runtime renders them on demand
  /// (`schema --profile P`) and a construct one cannot express fails there. A failure in a profile
  /// listed here is an error; in the others a warning, so that, say, a `std::map` parameter (which
  /// OpenAI's strict mode cannot express) does not stop a program that never talks to OpenAI. Either
  /// way nothing is dropped silently.
  std::vector<ptc::Profile> required_profiles;
};

struct Emitted {
  std::vector<OutputFile> files;
  std::vector<EmitError> errors;    ///< when not empty, `files` must not be written
  std::vector<EmitError> warnings;  ///< reported; the files are still written
  /// Reported, and never a failure: each tool that states no behaviour hints, which MCP lists as
  /// destructive and open-world.
  std::vector<EmitError> notes;
};

Emitted emit_header(const model::HeaderModel& header, const EmitOptions& options = {});

}  // namespace ptcgen::emit
