#include "diagnostics/diagnostic.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>

namespace ptcgen::diagnostics {

void Log::add(Diagnostic diagnostic) {
  if (!find_rule(diagnostic.rule)) {
    std::fprintf(stderr, "ptc-gen: internal error: diagnostic rule '%s' is not in the rule table\n",
                 diagnostic.rule.c_str());
    std::abort();
  }
  diagnostics_.push_back(std::move(diagnostic));
}

void Log::add(RuleId rule, Severity severity, std::string message, model::Location location, std::string tool) {
  Diagnostic d;
  d.rule = std::string(id_of(rule));
  d.severity = severity;
  d.message = std::move(message);
  d.location = std::move(location);
  d.tool = std::move(tool);
  diagnostics_.push_back(std::move(d));
}

void Log::note(Note note) {
  if (!diagnostics_.empty()) diagnostics_.back().notes.push_back(std::move(note));
}

bool Log::has_errors() const {
  return std::any_of(diagnostics_.begin(), diagnostics_.end(),
                     [](const Diagnostic& d) { return d.severity == Severity::Error; });
}

}  // namespace ptcgen::diagnostics
