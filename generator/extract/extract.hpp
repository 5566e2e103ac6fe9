#pragma once
// Clang AST -> model. The only part of ptc-gen that includes clang headers (in its .cpp files); this
// header only forward-declares the two LLVM types its functions take.

#include <memory>
#include <string>
#include <vector>

#include "model/model.hpp"

namespace llvm {
class raw_ostream;
}
namespace clang::tooling {
class CompilationDatabase;
}
namespace ptcgen::diagnostics {
class Log;
}

namespace ptcgen::extract {

/// The precompiled preambles (the leading #include lines, compiled once) of the headers of a series of
/// runs, kept from one run to the next: ptc-gen --watch parses a header again after each save, and the
/// standard library and ptc's own headers it includes are most of that parse. Opaque; make_preambles().
struct Preambles;
std::shared_ptr<Preambles> make_preambles();

struct Options {
  /// How deep structs expand inside a tool's types before they become `:map` (the spec's limit: 3).
  unsigned max_depth = 3;
  /// Where the outputs go: a header no include directory reaches is included relative to it.
  std::string out_dir = ".";
  /// Clang's resource dir (builtin headers). Empty: the one baked in at configure time.
  std::string resource_dir;
  /// Searched after the command's own include directories (-idirafter) so that <ptc/annotate.hpp> is
  /// found without them: an installed ptc-gen passes <prefix>/include. The source tree's
  /// runtime/core/include and runtime/tools/include, baked in at configure time, come last.
  std::vector<std::string> fallback_include_dirs;
  /// Set: each header's preamble is compiled once and reused while neither it nor a file it includes
  /// changes (clang's PrecompiledPreamble, as clangd keeps one per open file). Null: every run parses
  /// everything, as a build step should.
  std::shared_ptr<Preambles> preambles;
  /// Set: every diagnostic, clang's and ptc-gen's, is also recorded here with its rule (the JSON and
  /// SARIF forms).
  diagnostics::Log* log = nullptr;
  /// Whether diagnostics are printed clang-style to the `diagnostics` stream; false: only recorded.
  bool print = true;
};

struct Extraction {
  /// One per header, in the order given; empty when a header could not be parsed.
  std::vector<model::HeaderModel> headers;
  /// Every file clang read (headers, their includes, builtin headers), sorted: the depfile's inputs.
  std::vector<std::string> files_read;
  /// Errors were reported (clang's own or ptc-gen's); `headers` must not be emitted.
  bool failed = false;
};

/// Parses each header as its own main file with the compile command `db` gives it, and builds the
/// model of its PTC_TOOL declarations. Diagnostics (clang's and ptc-gen's, `file:line:col: error: ...`
/// with source line and caret) go to `diagnostics`, in color when `colors` is set.
Extraction extract(const clang::tooling::CompilationDatabase& db, const std::vector<std::string>& headers,
                   const Options& options, llvm::raw_ostream& diagnostics, bool colors = false);

/// The same with one set of compiler flags for every header (`ptc-gen headers... -- flags`).
Extraction extract(const std::vector<std::string>& headers, const std::vector<std::string>& flags,
                   const Options& options, llvm::raw_ostream& diagnostics, bool colors = false);

}  // namespace ptcgen::extract
