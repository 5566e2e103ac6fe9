// ptc-gen: PTC_TOOL declarations -> registration code, codecs and schemas (generator/README.md).
// Exit codes: 0 ok, 1 errors (diagnostics, drift found by --check), 2 usage.

#include <map>
#include <string>
#include <vector>

#include <optional>
#include <string_view>
#include <clang/Tooling/CommonOptionsParser.h>
#include <llvm/ADT/SmallString.h>
#include <llvm/Config/llvm-config.h>
#include <llvm/Support/CommandLine.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/Path.h>
#include <llvm/Support/raw_ostream.h>

#include <ptc/schema.hpp>

#include "diagnostics_output.hpp"
#include "extract/extract.hpp"
#include "output/drift.hpp"
#include "output/outputs.hpp"
#include "output/token_report.hpp"
#include "watch.hpp"

namespace {

namespace cl = llvm::cl;

cl::OptionCategory category("ptc-gen options");

cl::opt<std::string> out_dir("out-dir",
                             cl::desc("Write <stem>.ptc.hpp, .ptc.cpp, .tools.json, .tools.md here (default: .)"),
                             cl::value_desc("dir"), cl::init("."), cl::cat(category));
cl::opt<std::string> depfile("depfile",
                             cl::desc("Also write a make-style depfile: the outputs depend on every file read"),
                             cl::value_desc("file"), cl::cat(category));
cl::opt<std::string> check_dir("check",
                               cl::desc("Write nothing; compare with what --out-dir <dir> would write, print a "
                                        "unified diff and exit 1 if they differ"),
                               cl::value_desc("dir"), cl::cat(category));
cl::opt<std::string> update_command(
    "update-command",
    cl::desc("With --check: the command to suggest for updating the files (default: this ptc-gen run, writing "
             "them with --out-dir)"),
    cl::value_desc("command"), cl::cat(category));
cl::opt<bool> watch_mode("watch",
                         cl::desc("Generate, then again whenever a header it read changes, until SIGINT or SIGTERM; "
                                  "each run between a `ptc-gen: begin` and a `ptc-gen: end` line"),
                         cl::cat(category));
cl::opt<bool> print_signatures("print-signatures",
                               cl::desc("Write nothing; print one `name(params) -> R` line per tool"),
                               cl::cat(category));
cl::opt<unsigned> max_depth("max-depth",
                            cl::desc("Struct nesting depth beyond which a struct is typed :map (default: 3)"),
                            cl::value_desc("n"), cl::init(3), cl::cat(category));
cl::opt<std::string> resource_dir(
    "resource-dir",
    cl::desc("Clang resource dir (builtin headers) to parse with (default: " PTC_CLANG_RESOURCE_DIR ")"),
    cl::value_desc("dir"), cl::cat(category));

cl::list<std::string> token_report(
    "token-report", cl::ValueOptional,
    cl::desc("Also report what each tool costs in tokens, per rendering: a table on standard output, or with "
             "=<file> the JSON form in that file (may be given twice, for both)"),
    cl::value_desc("file"), cl::cat(category));
cl::opt<std::string> tokenizer_data("tokenizer-data",
                                    cl::desc("The directory holding OpenAI's o200k_base.tiktoken and "
                                             "cl100k_base.tiktoken (default: $PTC_TOKENIZER_DATA)"),
                                    cl::value_desc("dir"), cl::cat(category));
cl::opt<unsigned> token_budget("token-budget",
                               cl::desc("Warn (ptc/token-budget) about each tool whose largest rendering costs more "
                                        "than <n> o200k_base tokens"),
                               cl::value_desc("n"), cl::init(0), cl::cat(category));
cl::opt<bool> token_budget_error("token-budget-error", cl::desc("Make a token budget overrun an error"),
                                 cl::cat(category));

cl::opt<std::string> diagnostics_format(
    "diagnostics-format",
    cl::desc("How diagnostics are written: text (clang-style lines, the default), json or sarif (SARIF 2.1.0); "
             "without --diagnostics-file the document takes the text's place on stderr"),
    cl::value_desc("text|json|sarif"), cl::init("text"), cl::cat(category));
cl::opt<std::string> diagnostics_file(
    "diagnostics-file",
    cl::desc("Write the --diagnostics-format=json|sarif document to this file (every run, also without "
             "diagnostics); stderr keeps the text"),
    cl::value_desc("file"), cl::cat(category));
cl::opt<std::string> diagnostics_category(
    "diagnostics-category",
    cl::desc("SARIF: automationDetails.id is ptc-gen/<name>/, which keeps results of different targets apart "
             "(default: the headers' stems)"),
    cl::value_desc("name"), cl::cat(category));
cl::opt<std::string> source_root("source-root",
                                 cl::desc("SARIF: file URIs are relative to this directory, SRCROOT (default: .)"),
                                 cl::value_desc("dir"), cl::cat(category));

cl::extrahelp more_help(R"(
Headers are parsed one by one as C++ (C++20 unless the flags name a standard) with PTC_GENERATOR
defined; only declarations spelled in a header itself count. Give the flags after `--`, or a build
directory with compile_commands.json through -p. <ptc/annotate.hpp> is found without flags.
Unchanged outputs are not rewritten.
)");

/// `<prefix>/include` of an installed ptc-gen (`<prefix>/bin/ptc-gen`), which holds <ptc/annotate.hpp>.
std::string installed_include_dir(const char* argv0) {
  static int anchor;
  const std::string exe = llvm::sys::fs::getMainExecutable(argv0, &anchor);
  if (exe.empty()) return {};
  llvm::SmallString<256> dir(llvm::sys::path::parent_path(exe));
  llvm::sys::path::append(dir, PTC_INCLUDE_FROM_BIN);
  llvm::sys::path::remove_dots(dir, /*remove_dot_dot=*/true);
  return std::string(dir);
}

std::string absolute(const std::string& path) {
  llvm::SmallString<256> p(path);
  llvm::sys::fs::make_absolute(p);
  llvm::sys::path::remove_dots(p, /*remove_dot_dot=*/true);
  return std::string(p);
}

/// The arguments for LibTooling. Without `--` or `-p`, LibTooling looks for a compilation database
/// next to the headers and prints "Error while trying to load a compilation database ... Running
/// without flags." when there is none, which it then does anyway. Decide that here instead: `-p DIR`
/// needs DIR/compile_commands.json (a silent run without the project's flags would generate from the
/// wrong declarations), and with neither, the headers are read without flags, quietly. Nullopt (after
/// saying why) when -p names a directory without a database.
std::optional<std::vector<const char*>> tooling_arguments(int argc, const char** argv) {
  std::vector<const char*> args(argv, argv + argc);
  bool has_separator = false;
  std::optional<std::string> database_dir;
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (arg == "--") {
      has_separator = true;
      break;
    }
    if ((arg == "-p" || arg == "--p") && i + 1 < argc) database_dir = argv[i + 1];
    if (arg.starts_with("-p=")) database_dir = std::string(arg.substr(3));
  }
  if (database_dir && !has_separator && !llvm::sys::fs::exists(*database_dir + "/compile_commands.json")) {
    llvm::errs()
        << "ptc-gen: error: no compile_commands.json in '" << *database_dir
        << "'; configure that build with -DCMAKE_EXPORT_COMPILE_COMMANDS=ON, or give compiler flags after --\n";
    return std::nullopt;
  }
  if (!database_dir && !has_separator) args.push_back("--");
  return args;
}

/// `arg` as one word of a POSIX shell command: as it is when it holds only characters no shell
/// treats specially, else in single quotes.
std::string shell_word(std::string_view arg) {
  const bool plain = !arg.empty() && arg.find_first_not_of(
                                         "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
                                         "0123456789_@%+=:,./-") == std::string_view::npos;
  if (plain) return std::string(arg);
  std::string out = "'";
  for (char c : arg) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

/// The command that writes what --check compared with: this run, from its working directory, with
/// --out-dir in place of --check (and without an --out-dir of its own, which --check ignored).
std::string rerun_writing(int argc, const char** argv) {
  llvm::SmallString<256> cwd;
  std::string out = llvm::sys::fs::current_path(cwd) ? std::string() : "cd " + shell_word(cwd.str()) + " && ";
  out += shell_word(argv[0]);
  bool flags = false;  // past `--`: the compiler's flags, kept as they are
  for (int i = 1; i < argc; ++i) {
    std::string_view arg = argv[i];
    if (!flags) {
      if (arg == "--") flags = true;
      const std::string_view bare = arg.starts_with("--") ? arg.substr(2) : arg.starts_with("-") ? arg.substr(1) : "";
      if (bare == "out-dir" || bare == "update-command") {
        ++i;
        continue;
      }
      if (bare.starts_with("out-dir=") || bare.starts_with("update-command=")) continue;
      if (bare == "check") {
        arg = "--out-dir";
      } else if (bare.starts_with("check=")) {
        out.append(" ").append(shell_word("--out-dir=" + std::string(bare.substr(6))));
        continue;
      }
    }
    out.append(" ").append(shell_word(arg));
  }
  return out;
}

/// Whether the options make sense together; says why not.
bool options_valid() {
  if (max_depth < 1) {
    llvm::errs() << "ptc-gen: --max-depth must be at least 1\n";
    return false;
  }
  // The runtime refuses schemas deeper than ptc::kMaxSchemaDepth, and a struct level is two schema
  // levels at most: a deeper limit would only move the error from generation to run time.
  if (max_depth > ptc::kMaxSchemaDepth / 2) {
    llvm::errs() << "ptc-gen: --max-depth must be at most " << ptc::kMaxSchemaDepth / 2 << " (types nest at most "
                 << ptc::kMaxSchemaDepth << " schema levels)\n";
    return false;
  }
  const auto format = ptcgen::tool::parse_format(diagnostics_format);
  if (!format) {
    llvm::errs() << "ptc-gen: --diagnostics-format must be text, json or sarif\n";
    return false;
  }
  if (!diagnostics_file.empty() && format == ptcgen::tool::DiagnosticsFormat::Text) {
    llvm::errs() << "ptc-gen: --diagnostics-file needs --diagnostics-format=json or sarif (text goes to stderr)\n";
    return false;
  }
  if (!check_dir.empty() && print_signatures) {
    llvm::errs() << "ptc-gen: --check and --print-signatures cannot be combined\n";
    return false;
  }
  if (watch_mode && (!check_dir.empty() || print_signatures)) {
    llvm::errs() << "ptc-gen: --watch writes files; it cannot be combined with --check or --print-signatures\n";
    return false;
  }
  if ((watch_mode || print_signatures) && (!token_report.empty() || token_budget)) {
    llvm::errs() << "ptc-gen: " << (watch_mode ? "--watch" : "--print-signatures")
                 << " cannot be combined with --token-report or --token-budget\n";
    return false;
  }
  if (token_budget_error && !token_budget) {
    llvm::errs() << "ptc-gen: --token-budget-error needs --token-budget\n";
    return false;
  }
  return true;
}

/// Where this run's diagnostics go: the chosen format and file, SARIF's category (by default the
/// headers' stems) and source root (by default the current directory).
ptcgen::tool::DiagnosticsOutput diagnostics_output(const std::vector<std::string>& headers) {
  ptcgen::diagnostics::SarifOptions sarif;
  sarif.tool_version = PTC_VERSION;
  sarif.category = diagnostics_category;
  for (const auto& header : headers)
    if (diagnostics_category.empty())
      sarif.category += (sarif.category.empty() ? "" : "+") + llvm::sys::path::stem(header).str();
  llvm::SmallString<256> cwd;
  if (!llvm::sys::fs::current_path(cwd)) sarif.working_dir = std::string(cwd);
  sarif.source_root = source_root.empty() ? sarif.working_dir : absolute(source_root);
  return {*ptcgen::tool::parse_format(diagnostics_format), diagnostics_file, std::move(sarif)};
}

/// Whether every header is a readable file: a missing one would otherwise surface as three lines of
/// driver errors.
bool headers_readable(const std::vector<std::string>& headers, ptcgen::tool::DiagnosticsOutput& report) {
  bool readable = true;
  for (const auto& header : headers) {
    if (llvm::sys::fs::is_regular_file(header)) continue;
    const std::string message =
        "cannot read '" + header + "': " + (llvm::sys::fs::exists(header) ? "not a regular file" : "no such file");
    report.text_stream() << "ptc-gen: error: " << message << "\n";
    report.log().add(ptcgen::diagnostics::RuleId::UnreadableHeader, ptcgen::diagnostics::Severity::Error, message,
                     {header, 0, 0});
    readable = false;
  }
  return readable;
}

/// Whether the headers have distinct stems: two headers with one stem would write the same files.
bool stems_distinct(const std::vector<ptcgen::model::HeaderModel>& headers, ptcgen::tool::DiagnosticsOutput& report) {
  bool distinct = true;
  std::map<std::string, std::string> stems;
  for (const auto& h : headers) {
    auto [it, added] = stems.emplace(h.stem, h.include);
    if (!added) {
      const std::string message =
          it->second + " and " + h.include + " would both generate " + h.stem + ".ptc.hpp; rename one of them";
      report.text_stream() << "ptc-gen: error: " << message << "\n";
      report.log().add(ptcgen::diagnostics::RuleId::NameCollision, ptcgen::diagnostics::Severity::Error, message,
                       {h.source, 0, 0});
      distinct = false;
    }
  }
  return distinct;
}

/// Writes the generated files that changed, and the depfile when asked for.
bool write_generated(const ptcgen::output::Emission& emission, const std::vector<std::string>& files_read) {
  if (!ptcgen::output::write_outputs(emission.files, out_dir, llvm::errs())) return false;
  if (depfile.empty()) return true;
  std::vector<std::string> targets;
  for (const auto& f : emission.files) targets.push_back(absolute(out_dir + "/" + f.name));
  return ptcgen::output::write_if_changed(depfile, ptcgen::output::depfile_text(targets, files_read), llvm::errs());
}

/// --watch: generates as a plain run does, again on every change to what the last run read.
/// Each run's diagnostics document is written as the run ends, before its end line.
int watch_headers(const clang::tooling::CompilationDatabase& compilations, const std::vector<std::string>& headers,
                  ptcgen::extract::Options options, ptcgen::tool::DiagnosticsOutput& report) {
  options.preambles = ptcgen::extract::make_preambles();
  const auto generate = [&] {
    ptcgen::tool::Generation g;
    if (!headers_readable(headers, report)) return g;
    auto extraction =
        ptcgen::extract::extract(compilations, headers, options, report.text_stream(), llvm::errs().has_colors());
    g.files_read = std::move(extraction.files_read);
    if (extraction.failed || !stems_distinct(extraction.headers, report)) return g;
    auto emission = ptcgen::output::emit_all(extraction.headers, report.text_stream(), &report.log());
    g.ok = emission.ok && write_generated(emission, g.files_read);
    return g;
  };
  return ptcgen::tool::watch(
      [&] {
        ptcgen::tool::Generation g = generate();
        g.ok = report.finish(g.ok ? 0 : 1) == 0;
        return g;
      },
      headers);
}

/// A run after the options are read: extract, emit, then print signatures, check, or write. The exit
/// code.
int generate(clang::tooling::CommonOptionsParser& parser, const ptcgen::extract::Options& options, int argc,
             const char** argv, ptcgen::tool::DiagnosticsOutput& report) {
  auto extraction = ptcgen::extract::extract(parser.getCompilations(), parser.getSourcePathList(), options,
                                             report.text_stream(), llvm::errs().has_colors());
  if (!stems_distinct(extraction.headers, report)) extraction.failed = true;
  if (extraction.failed) return 1;

  if (print_signatures) {
    const bool printed =
        ptcgen::output::print_signatures(extraction.headers, llvm::outs(), report.text_stream(), &report.log());
    return printed ? 0 : 1;
  }

  auto emission = ptcgen::output::emit_all(extraction.headers, report.text_stream(), &report.log());
  if (!emission.ok) return 1;
  const bool tokens_ok =
      ptcgen::output::count_tokens(extraction.headers, {token_report, tokenizer_data, token_budget, token_budget_error},
                                   llvm::outs(), report.text_stream(), &report.log());
  if (!check_dir.empty()) {
    const std::string update = update_command.empty() ? rerun_writing(argc, argv) : std::string(update_command);
    const bool same =
        ptcgen::output::check_outputs(emission.files, check_dir, update, llvm::outs(), report.text_stream());
    if (!same) ptcgen::output::record_drift(emission.files, check_dir, extraction.headers, update, report.log());
    return same && tokens_ok ? 0 : 1;
  }
  return write_generated(emission, extraction.files_read) && tokens_ok ? 0 : 1;
}

}  // namespace

int main(int argc, const char** argv) {
  cl::SetVersionPrinter([](llvm::raw_ostream& os) {
    os << "ptc-gen " PTC_VERSION " (clang " LLVM_VERSION_STRING ")\n";
  });
  auto args = tooling_arguments(argc, argv);
  if (!args) return 2;
  int arg_count = static_cast<int>(args->size());
  auto parser = clang::tooling::CommonOptionsParser::create(
      arg_count, args->data(), category, cl::OneOrMore,
      "ptc-gen: generates tool registrations, codecs and schemas from PTC_TOOL declarations.\n\n"
      "  ptc-gen [options] <header>... -- <compiler flags>\n"
      "  ptc-gen [options] -p <build dir> <header>...\n");
  if (!parser) {
    llvm::errs() << llvm::toString(parser.takeError());
    return 2;
  }
  if (!options_valid()) return 2;
  auto report = diagnostics_output(parser->getSourcePathList());
  if (!headers_readable(parser->getSourcePathList(), report)) return report.finish(1);

  ptcgen::extract::Options options;
  options.max_depth = max_depth;
  // --check compares with what `--out-dir <dir>` would write, includes relative to <dir> and all.
  options.out_dir = check_dir.empty() ? std::string(out_dir) : std::string(check_dir);
  options.resource_dir = resource_dir;
  if (auto dir = installed_include_dir(argv[0]); !dir.empty()) options.fallback_include_dirs.push_back(dir);
  options.log = &report.log();
  options.print = report.text();

  if (watch_mode) return watch_headers(parser->getCompilations(), parser->getSourcePathList(), options, report);
  return report.finish(generate(*parser, options, argc, argv, report));
}
