#include "extract/extract.hpp"

#include <algorithm>
#include <map>
#include <optional>
#include <set>

#include <clang/AST/ASTConsumer.h>
#include <clang/Basic/DiagnosticOptions.h>
#include <clang/Basic/SourceManager.h>
#include <clang/Frontend/CompilerInstance.h>
#include <clang/Frontend/FrontendAction.h>
#include <clang/Frontend/PrecompiledPreamble.h>
#include <clang/Serialization/PCHContainerOperations.h>
#include <clang/Frontend/TextDiagnosticPrinter.h>
#include <clang/Lex/HeaderSearch.h>
#include <clang/Lex/Preprocessor.h>
#include <clang/Tooling/ArgumentsAdjusters.h>
#include <clang/Tooling/CompilationDatabase.h>
#include <clang/Tooling/Tooling.h>
#include <llvm/ADT/SmallString.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/Path.h>
#include <llvm/Support/raw_ostream.h>

#include "extract/clang_support.hpp"
#include "extract/recording.hpp"
#include "extract/tools.hpp"

namespace ptcgen::extract {

using namespace clang;

namespace {

std::string absolute(llvm::StringRef path, llvm::StringRef base = {}) {
  llvm::SmallString<256> p(path);
  if (base.empty())
    llvm::sys::fs::make_absolute(p);
  else
    llvm::sys::fs::make_absolute(base, p);
  llvm::sys::path::remove_dots(p, /*remove_dot_dot=*/true);
  return std::string(p);
}

/// `to` relative to the directory `from`, lexically ("../src/a.hpp"). Both absolute.
std::string relative_path(llvm::StringRef from, llvm::StringRef to) {
  llvm::SmallVector<llvm::StringRef, 16> a(llvm::sys::path::begin(from), llvm::sys::path::end(from));
  llvm::SmallVector<llvm::StringRef, 16> b(llvm::sys::path::begin(to), llvm::sys::path::end(to));
  std::size_t common = 0;
  while (common < a.size() && common < b.size() && a[common] == b[common]) ++common;
  llvm::SmallString<256> out;
  for (std::size_t i = common; i < a.size(); ++i) llvm::sys::path::append(out, llvm::sys::path::Style::posix, "..");
  for (std::size_t i = common; i < b.size(); ++i) llvm::sys::path::append(out, llvm::sys::path::Style::posix, b[i]);
  return std::string(out);
}

/// "tracker" for tracker.hpp; as CMake's string(MAKE_C_IDENTIFIER), so ptc_generate knows the names.
std::string stem_of(llvm::StringRef path) {
  std::string stem = llvm::sys::path::stem(path).str();
  for (char& c : stem)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') c = '_';
  if (stem.empty() || std::isdigit(static_cast<unsigned char>(stem.front()))) stem.insert(stem.begin(), '_');
  return stem;
}

struct Header {
  std::string given;     ///< as on the command line
  std::string absolute;  ///< against the current directory, dots removed
};

struct Run {
  const Options& options;
  std::vector<Header> headers;
  std::vector<std::optional<model::HeaderModel>> models;
  std::set<std::string> files_read;
  std::string out_dir;                            ///< absolute
  std::set<std::string> listed;                   ///< real paths of the headers, for tools declared in included ones
  detail::RecordingConsumer* recorder = nullptr;  ///< the current header's

  const Header* find(llvm::StringRef abs) const {
    for (const auto& h : headers)
      if (h.absolute == abs) return &h;
    return nullptr;
  }
};

/// ClangTool hands the database absolute paths, which would then be what diagnostics print. Where the
/// command runs in the current directory, this names each header as it was given instead, so errors
/// read `include/shop.hpp:3:5: error: ...`, as from the compiler.
class AsGivenDatabase : public tooling::CompilationDatabase {
 public:
  AsGivenDatabase(const tooling::CompilationDatabase& inner, const Run& run) : inner_(inner), run_(run) {
    llvm::SmallString<256> cwd;
    if (!llvm::sys::fs::current_path(cwd)) cwd_ = absolute(cwd);
  }

  std::vector<tooling::CompileCommand> getCompileCommands(llvm::StringRef file) const override {
    auto commands = inner_.getCompileCommands(file);
    const Header* h = run_.find(absolute(file));
    if (!h) return commands;
    for (auto& c : commands) {
      if (!llvm::sys::path::is_absolute(h->given) && absolute(c.Directory) != cwd_) continue;
      for (auto it = c.CommandLine.rbegin(); it != c.CommandLine.rend(); ++it) {
        if (*it == c.Filename || *it == file) {
          *it = h->given;
          break;
        }
      }
      c.Filename = h->given;
    }
    return commands;
  }
  std::vector<std::string> getAllFiles() const override { return inner_.getAllFiles(); }
  std::vector<tooling::CompileCommand> getAllCompileCommands() const override { return inner_.getAllCompileCommands(); }

 private:
  const tooling::CompilationDatabase& inner_;
  const Run& run_;
  std::string cwd_;
};

/// How ptc-gen parses a header, whatever the compile command says otherwise: as C++ (C++20 unless the
/// command names a standard), with PTC_GENERATOR defined so the PTC_* macros become attributes.
tooling::ArgumentsAdjuster ptc_arguments(const Options& options) {
  std::string resource_dir = options.resource_dir.empty() ? PTC_CLANG_RESOURCE_DIR : options.resource_dir;
  std::vector<std::string> after = options.fallback_include_dirs;
  after.push_back(PTC_CORE_INCLUDE_DIR);
  after.push_back(PTC_TOOLS_INCLUDE_DIR);
  const bool print = options.print;
  return [resource_dir, after, print](const tooling::CommandLineArguments& args, llvm::StringRef) {
    bool has_language = false, has_standard = false, has_resource_dir = false;
    for (const auto& a : args) {
      const llvm::StringRef s(a);
      has_language = has_language || s == "-x" || (s.starts_with("-x") && s.size() > 2);
      has_standard = has_standard || s.starts_with("-std=") || s.starts_with("--std=") || s == "-std";
      has_resource_dir = has_resource_dir || s.starts_with("-resource-dir");
    }
    tooling::CommandLineArguments added = {"-DPTC_GENERATOR",
                                           // A header parsed as a main file: #pragma once and unused static
                                           // helpers are normal there.
                                           "-Wno-pragma-once-outside-header", "-Wno-unused-function",
                                           "-Wno-unused-const-variable",
                                           // Every problem in one run.
                                           "-ferror-limit=0"};
    if (!has_resource_dir) added.push_back("-resource-dir=" + resource_dir);
    // Without carets the compiler instance does not print "N errors generated.", which would be the one
    // text line amid a JSON or SARIF document on stderr.
    if (!print) added.push_back("-fno-caret-diagnostics");
    // Only directories that hold ptc headers: an installed ptc-gen guesses its prefix's include dir.
    for (const auto& dir : after)
      if (llvm::sys::fs::is_directory(dir + "/ptc")) added.insert(added.end(), {"-idirafter", dir});

    tooling::CommandLineArguments out;
    out.push_back(args.empty() ? "clang-tool" : args.front());
    // Before the input file: `-x` applies to the inputs after it.
    if (!has_language) out.insert(out.end(), {"-x", "c++"});
    if (!has_standard) out.push_back("-std=c++20");
    // After the command's own flags, but before a `--` that ends them (compilation databases write
    // `-- file`).
    auto end_of_flags = args.empty() ? args.end() : std::find(args.begin() + 1, args.end(), "--");
    if (!args.empty()) out.insert(out.end(), args.begin() + 1, end_of_flags);
    out.insert(out.end(), added.begin(), added.end());
    out.insert(out.end(), end_of_flags, args.end());
    return out;
  };
}

/// The absolute paths of the files a compiler instance read.
void add_files_read(const SourceManager& sm, std::set<std::string>& out) {
  FileManager& fm = sm.getFileManager();
  for (auto it = sm.fileinfo_begin(); it != sm.fileinfo_end(); ++it) {
    llvm::SmallString<256> path(it->first.getName());
    fm.makeAbsolutePath(path);
    llvm::sys::path::remove_dots(path, /*remove_dot_dot=*/true);
    out.insert(std::string(path));
  }
}

class HeaderConsumer : public ASTConsumer {
 public:
  HeaderConsumer(CompilerInstance& ci, Run& run, std::size_t index) : ci_(ci), run_(run), index_(index) {}

  void HandleTranslationUnit(ASTContext& ast) override {
    add_files_read(ast.getSourceManager(), run_.files_read);
    // A header that does not compile has no model; clang has said why.
    if (ast.getDiagnostics().hasErrorOccurred()) return;

    const Header& h = run_.headers[index_];
    model::HeaderModel header;
    header.stem = stem_of(h.given);
    header.include = include_spelling(h);
    header.source = h.given;
    detail::Reporter reporter(ast, ci_.getSema(), h.given, run_.recorder);
    detail::collect_tools(ast, reporter, run_.options.max_depth, header, run_.listed);
    run_.models[index_] = std::move(header);
  }

 private:
  /// As the include directories of the command reach the header ("shop/tracker.hpp"), else relative
  /// to the output directory, where the generated sources that include it are.
  std::string include_spelling(const Header& h) {
    const HeaderSearch& search = ci_.getPreprocessor().getHeaderSearchInfo();
    std::string working_dir = ci_.getFileManager().getFileSystemOpts().WorkingDir;
    if (working_dir.empty()) {
      if (auto cwd = ci_.getFileManager().getVirtualFileSystem().getCurrentWorkingDirectory()) working_dir = *cwd;
    }
    const std::string suggested = search.suggestPathToFileForDiagnostics(h.absolute, working_dir, /*MainFile=*/"");
    if (!suggested.empty() && !llvm::sys::path::is_absolute(suggested)) return suggested;
    return relative_path(run_.out_dir, h.absolute);
  }

  CompilerInstance& ci_;
  Run& run_;
  std::size_t index_;
};

/// Notes the files a preamble's compile read: a run that reuses the preamble does not read them again,
/// but they are still what its outputs depend on.
class PreambleFiles : public PreambleCallbacks {
 public:
  void AfterExecute(CompilerInstance& ci) override { add_files_read(ci.getSourceManager(), files); }
  std::set<std::string> files;
};

}  // namespace

struct Preambles {
  struct Entry {
    std::optional<PrecompiledPreamble> preamble;
    std::set<std::string> files;
  };
  std::map<std::string, Entry> by_header;  ///< by the header's path as the compiler was given it
};

std::shared_ptr<Preambles> make_preambles() { return std::make_shared<Preambles>(); }

namespace {

/// Makes `ci` parse its main file after the preamble of `preambles` for it, compiling that first when
/// there is none yet or the one there no longer fits; `files_read` gets what the preamble read. A
/// preamble that does not compile cleanly is not used: the parse then reports its errors as usual.
void use_preamble(CompilerInstance& ci, Preambles& preambles, std::set<std::string>& files_read) {
  CompilerInvocation& invocation = ci.getInvocation();
  const auto& inputs = invocation.getFrontendOpts().Inputs;
  if (inputs.size() != 1 || !inputs[0].isFile()) return;
  const std::string main_file = inputs[0].getFile().str();
  llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> vfs = ci.getFileManager().getVirtualFileSystemPtr();
  auto buffer = vfs->getBufferForFile(main_file);
  if (!buffer) return;
  const PreambleBounds bounds = ComputePreambleBounds(invocation.getLangOpts(), (*buffer)->getMemBufferRef(), 0);
  Preambles::Entry& entry = preambles.by_header[main_file];
  if (!entry.preamble || !entry.preamble->CanReuse(invocation, (*buffer)->getMemBufferRef(), bounds, *vfs)) {
    entry.preamble.reset();
    PreambleFiles callbacks;
    // The engine holds its options by reference count: they are allocated for it.
    IgnoringDiagConsumer ignore;
    auto diagnostics = CompilerInstance::createDiagnostics(new DiagnosticOptions(), &ignore, /*ShouldOwnClient=*/false);
    auto built = PrecompiledPreamble::Build(invocation, buffer->get(), bounds, *diagnostics, vfs,
                                            std::make_shared<PCHContainerOperations>(), /*StoreInMemory=*/false,
                                            /*StoragePath=*/"", callbacks);
    if (!built || diagnostics->hasErrorOccurred()) return;
    entry.preamble.emplace(std::move(*built));
    entry.files = std::move(callbacks.files);
  }
  entry.preamble->AddImplicitPreamble(invocation, vfs, buffer->release());
  files_read.insert(entry.files.begin(), entry.files.end());
}

class HeaderAction : public ASTFrontendAction {
 public:
  explicit HeaderAction(Run& run) : run_(run) {}

  // Declarations are all the extraction reads. Clang still parses the bodies it may need: constexpr
  // functions (constant evaluation of defaults) and functions with a deduced return type.
  bool BeginInvocation(CompilerInstance& ci) override {
    ci.getFrontendOpts().SkipFunctionBodies = true;
    if (run_.options.preambles) use_preamble(ci, *run_.options.preambles, run_.files_read);
    return true;
  }

  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance& ci, llvm::StringRef file) override {
    llvm::SmallString<256> path(file);
    ci.getFileManager().makeAbsolutePath(path);
    llvm::sys::path::remove_dots(path, /*remove_dot_dot=*/true);
    for (std::size_t i = 0; i < run_.headers.size(); ++i) {
      // The same header given twice, or a database with two commands for it: the first parse counts.
      if (run_.headers[i].absolute == path && !run_.models[i]) return std::make_unique<HeaderConsumer>(ci, run_, i);
    }
    return std::make_unique<ASTConsumer>();
  }

 private:
  Run& run_;
};

class HeaderActionFactory : public tooling::FrontendActionFactory {
 public:
  explicit HeaderActionFactory(Run& run) : run_(run) {}
  std::unique_ptr<FrontendAction> create() override { return std::make_unique<HeaderAction>(run_); }

 private:
  Run& run_;
};

}  // namespace

Extraction extract(const tooling::CompilationDatabase& db, const std::vector<std::string>& headers,
                   const Options& options, llvm::raw_ostream& diagnostics, bool colors) {
  Run run{options, {}, {}, {}, absolute(options.out_dir.empty() ? "." : options.out_dir), {}, nullptr};
  for (const auto& h : headers) {
    run.headers.push_back({h, absolute(h)});
    llvm::SmallString<256> real;
    if (!llvm::sys::fs::real_path(h, real)) run.listed.insert(std::string(real));
  }
  run.models.resize(headers.size());

  AsGivenDatabase as_given(db, run);
  llvm::IntrusiveRefCntPtr<DiagnosticOptions> diag_options(new DiagnosticOptions());
  diag_options->ShowColors = colors;
  HeaderActionFactory factory(run);
  Extraction out;
  // One ClangTool and printer per header, as the compiler runs once per file: given several files,
  // ClangTool prints "[1/2] Processing file <absolute path>" lines of its own, and a shared printer
  // would count "N errors generated." across headers.
  for (const auto& h : run.headers) {
    TextDiagnosticPrinter printer(diagnostics, diag_options.get());
    detail::RecordingConsumer consumer(options.print ? &printer : nullptr, options.log);
    run.recorder = &consumer;
    tooling::ClangTool tool(as_given, {h.absolute});
    tool.appendArgumentsAdjuster(ptc_arguments(options));
    tool.setPrintErrorMessage(false);
    tool.setDiagnosticConsumer(&consumer);
    out.failed = tool.run(&factory) != 0 || consumer.getNumErrors() != 0 || out.failed;
    run.recorder = nullptr;
  }
  for (auto& m : run.models) {
    if (!m) {
      out.failed = true;
      continue;
    }
    out.headers.push_back(std::move(*m));
  }
  out.files_read.assign(run.files_read.begin(), run.files_read.end());
  return out;
}

Extraction extract(const std::vector<std::string>& headers, const std::vector<std::string>& flags,
                   const Options& options, llvm::raw_ostream& diagnostics, bool colors) {
  tooling::FixedCompilationDatabase db(".", flags);
  return extract(db, headers, options, diagnostics, colors);
}

}  // namespace ptcgen::extract
