#pragma once
// --diagnostics-format=sarif: SARIF 2.1.0 as GitHub code scanning takes it (docs/ptc-gen.md,
// "Diagnostics for CI"): every rule of the table with its descriptions and help, repository-relative
// URIs against SRCROOT, and fingerprints that survive lines added above a result.

#include <string>
#include <string_view>

#include "diagnostics/diagnostic.hpp"

namespace ptcgen::diagnostics {

struct SarifOptions {
  std::string tool_version;  ///< ptc-gen's version
  /// automationDetails.id is "ptc-gen/<category>/": GitHub keeps the results of each category apart.
  std::string category;
  /// SRCROOT: files under it get URIs relative to it. Absolute, or relative to `working_dir`.
  std::string source_root;
  /// Where the files the diagnostics name (as given) are relative to: the current directory.
  std::string working_dir;
};

/// The SARIF log: one run, the same bytes for the same log and options.
std::string to_sarif(const Log& log, const SarifOptions& options);

/// "ptcFingerprint/v1": a hash over the rule, the file (`uri` as the result names it), the tool and the
/// message, and which repetition of those four this is; no line or column, so it does not change when
/// lines are added above the result.
std::string fingerprint(const Diagnostic& diagnostic, std::string_view uri, unsigned repetition);

/// `path` with what a URI path cannot hold percent-encoded ('/' kept).
std::string uri_path(std::string_view path);

}  // namespace ptcgen::diagnostics
