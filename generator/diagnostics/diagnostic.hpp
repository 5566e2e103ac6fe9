#pragma once
// What ptc-gen reports, as plain data: the front end's and clang's diagnostics, the emitter's, and
// --check's drift, recorded in the order they were reported so that every format (text on stderr, JSON,
// SARIF) tells the same story. No clang here.

#include <string>
#include <vector>

#include "diagnostics/rules.hpp"
#include "model/model.hpp"

namespace ptcgen::diagnostics {

/// More about a diagnostic: a recommendation (no location), or a related place ("declared here").
struct Note {
  std::string message;
  model::Location location;  ///< file empty: none
};

struct Diagnostic {
  std::string rule;  ///< a row of rules(): "ptc/unsupported-type"
  Severity severity = Severity::Error;
  std::string message;
  model::Location location;  ///< file as given (like the text form); empty file: no location; line 0: the file
  std::vector<Note> notes;
  std::string tool;  ///< the tool (or resource, prompt) it concerns, if any
  std::string flag;  ///< a clang warning's option ("-Wdeprecated-declarations"), if any
};

/// The diagnostics of one run, in the order reported.
class Log {
 public:
  /// Appends; `diagnostic.rule` must be a row of the table. An unknown id is a bug in ptc-gen, so it stops
  /// the program (in every build) instead of writing a SARIF rule without descriptions.
  void add(Diagnostic diagnostic);
  void add(RuleId rule, Severity severity, std::string message, model::Location location, std::string tool = {});
  /// Adds a note to the last diagnostic; without one, nothing (as clang drops a note of nothing).
  void note(Note note);

  const std::vector<Diagnostic>& diagnostics() const { return diagnostics_; }
  bool has_errors() const;
  bool empty() const { return diagnostics_.empty(); }
  void clear() { diagnostics_.clear(); }

 private:
  std::vector<Diagnostic> diagnostics_;
};

}  // namespace ptcgen::diagnostics
