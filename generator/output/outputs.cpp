#include "output/outputs.hpp"

#include <string_view>

#include <llvm/ADT/SmallString.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/Path.h>
#include <llvm/Support/raw_ostream.h>

#include <ptc/signature.hpp>

#include "emit/emit.hpp"
#include "model/schema.hpp"
#include "output/diff.hpp"

namespace ptcgen::output {

namespace {

void print(const model::Location& at, std::string_view severity, const std::string& message, llvm::raw_ostream& err) {
  if (at.file.empty())
    err << "ptc-gen: " << severity << ": " << message << "\n";
  else
    err << at.file << ":" << at.line << ":" << at.column << ": " << severity << ": " << message << "\n";
}

std::string join(const std::string& dir, const std::string& name) {
  llvm::SmallString<256> path(dir);
  llvm::sys::path::append(path, name);
  return std::string(path);
}

std::optional<std::string> read_file(const std::string& path) {
  auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/false, /*RequiresNullTerminator=*/false);
  if (!buffer) return std::nullopt;
  return (*buffer)->getBuffer().str();
}

void escape_into(std::string& out, const std::string& path) {
  for (char c : path) {
    if (c == ' ' || c == '#') out += '\\';
    if (c == '$') out += '$';
    out += c;
  }
}

}  // namespace

void print_diagnostic(const model::Location& at, std::string_view severity, const std::string& message,
                      llvm::raw_ostream& err) {
  print(at, severity, message, err);
}

namespace {

/// Prints an emitter's problem and records it; one without a location is recorded at its header.
void report(const emit::EmitError& e, diagnostics::Severity severity, const model::HeaderModel& header,
            llvm::raw_ostream& err, diagnostics::Log* log) {
  print(e.location, diagnostics::severity_name(severity), e.message, err);
  if (!log) return;
  const model::Location at = e.location.file.empty() ? model::Location{header.source, 0, 0} : e.location;
  log->add(e.rule, severity, e.message, at, e.tool);
}

}  // namespace

Emission emit_all(const std::vector<model::HeaderModel>& headers, llvm::raw_ostream& err, diagnostics::Log* log) {
  Emission out;
  for (const auto& header : headers) {
    emit::Emitted emitted = emit::emit_header(header);
    for (const auto& w : emitted.warnings) report(w, diagnostics::Severity::Warning, header, err, log);
    for (const auto& n : emitted.notes) report(n, diagnostics::Severity::Note, header, err, log);
    for (const auto& e : emitted.errors) report(e, diagnostics::Severity::Error, header, err, log);
    if (!emitted.errors.empty()) {
      out.ok = false;
      continue;
    }
    for (auto& f : emitted.files) out.files.push_back(std::move(f));
  }
  if (!out.ok) out.files.clear();
  return out;
}

bool write_if_changed(const std::string& path, const std::string& content, llvm::raw_ostream& err) {
  if (auto existing = read_file(path); existing && *existing == content) return true;
  llvm::SmallString<256> temp;
  int fd = -1;
  if (auto ec = llvm::sys::fs::createUniqueFile(path + ".tmp-%%%%%%", fd, temp)) {
    err << "ptc-gen: error: cannot write " << path << ": " << ec.message() << "\n";
    return false;
  }
  {
    llvm::raw_fd_ostream os(fd, /*shouldClose=*/true);
    os << content;
    os.close();
    if (os.has_error()) {
      err << "ptc-gen: error: cannot write " << temp << ": " << os.error().message() << "\n";
      os.clear_error();
      llvm::sys::fs::remove(temp);
      return false;
    }
  }
  // The rename replaces the file in one step: a reader never sees half of it.
  if (auto ec = llvm::sys::fs::rename(temp, path)) {
    err << "ptc-gen: error: cannot replace " << path << ": " << ec.message() << "\n";
    llvm::sys::fs::remove(temp);
    return false;
  }
  return true;
}

bool write_outputs(const std::vector<emit::OutputFile>& files, const std::string& dir, llvm::raw_ostream& err) {
  if (auto ec = llvm::sys::fs::create_directories(dir)) {
    err << "ptc-gen: error: cannot create " << dir << ": " << ec.message() << "\n";
    return false;
  }
  bool ok = true;
  for (const auto& f : files) ok = write_if_changed(join(dir, f.name), f.content, err) && ok;
  return ok;
}

bool check_outputs(const std::vector<emit::OutputFile>& files, const std::string& dir, const std::string& update,
                   llvm::raw_ostream& out, llvm::raw_ostream& err) {
  bool same = true;
  for (const auto& f : files) {
    const std::string path = join(dir, f.name);
    const auto committed = read_file(path);
    if (committed && *committed == f.content) continue;
    same = false;
    if (!committed)
      err << "ptc-gen: " << path << " is missing\n";
    else
      err << "ptc-gen: " << path << " differs from what ptc-gen generates\n";
    unified_diff(committed.value_or(""), committed ? path : path + " (missing)", f.content, f.name + " (generated)",
                 out);
  }
  if (!same) err << "ptc-gen: to update the files in " << dir << ", run:\n  " << update << "\n";
  return same;
}

std::string depfile_text(const std::vector<std::string>& targets, const std::vector<std::string>& inputs) {
  std::string out;
  for (std::size_t i = 0; i < targets.size(); ++i) {
    if (i) out += ' ';
    escape_into(out, targets[i]);
  }
  out += ':';
  for (const auto& input : inputs) {
    out += " \\\n  ";
    escape_into(out, input);
  }
  return out + "\n";
}

bool print_signatures(const std::vector<model::HeaderModel>& headers, llvm::raw_ostream& out, llvm::raw_ostream& err,
                      diagnostics::Log* log) {
  bool ok = true;
  for (const auto& header : headers) {
    for (const auto& tool : header.tools) {
      // What a model may call, as <stem>.tools.json lists it: not the readers of resources or prompts.
      if (tool.kind != model::ToolKind::Tool) continue;
      auto signature = model::signature_of(tool, header);
      if (!signature) {
        print(tool.location, "error", signature.error().message, err);
        if (log)
          log->add(diagnostics::RuleId::InvalidSignature, diagnostics::Severity::Error, signature.error().message,
                   tool.location, tool.name);
        ok = false;
        continue;
      }
      out << tool.name << signature->render() << "\n";
    }
  }
  return ok;
}

}  // namespace ptcgen::output
