#include "output/drift.hpp"

#include <map>
#include <optional>
#include <set>

#include <llvm/ADT/SmallString.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/Path.h>
#include <nlohmann/json.hpp>

namespace ptcgen::output {

namespace {

using diagnostics::RuleId;
using diagnostics::Severity;
/// A tool's part of a file, by the tool's name.
using Parts = std::map<std::string, std::string>;

std::optional<std::string> read_file(const std::string& path) {
  auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/false, /*RequiresNullTerminator=*/false);
  if (!buffer) return std::nullopt;
  return (*buffer)->getBuffer().str();
}

std::string join(const std::string& dir, const std::string& name) {
  llvm::SmallString<256> path(dir);
  llvm::sys::path::append(path, name);
  return std::string(path);
}

bool ends_with(const std::string& s, std::string_view suffix) { return s.ends_with(suffix); }

/// The entries of `<stem>.tools.json`'s "tools" array, each as compact JSON; nullopt when the text is
/// not such a document.
std::optional<Parts> json_parts(const std::string& text) {
  const auto doc = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (doc.is_discarded() || !doc.is_object() || !doc.contains("tools") || !doc["tools"].is_array()) return std::nullopt;
  Parts out;
  for (const auto& tool : doc["tools"])
    if (tool.is_object() && tool.contains("name") && tool["name"].is_string())
      out[tool["name"].get<std::string>()] = tool.dump();
  return out;
}

/// The blocks of `<stem>.tools.md`, separated by blank lines, each starting with `name(`; the heading
/// and anything else belong to no tool.
std::optional<Parts> markdown_parts(const std::string& text) {
  Parts out;
  std::size_t at = 0;
  while (at < text.size()) {
    std::size_t end = text.find("\n\n", at);
    if (end == std::string::npos) end = text.size();
    std::string block = text.substr(at, end - at);
    while (block.ends_with('\n')) block.pop_back();  // the last block ends the file
    const std::size_t paren = block.find('(');
    if (!block.starts_with("#") && paren != std::string::npos && paren > 0 && block.find_first_of(" \n") > paren)
      out[block.substr(0, paren)] = block;
    at = end + 2;
  }
  return out;
}

std::optional<Parts> parts_of(const std::string& name, const std::string& text) {
  if (ends_with(name, ".tools.json")) return json_parts(text);
  if (ends_with(name, ".tools.md")) return markdown_parts(text);
  return std::nullopt;  // the code: no section per tool to compare
}

struct HeaderDrift {
  std::map<std::string, std::set<std::string>> tools;  ///< drifted tool -> the files it drifted in
  std::set<std::string> gone;                          ///< tools committed, no longer declared
  std::vector<std::string> unattributed;               ///< messages about the header as a whole
};

/// What of one file drifted: its tools' parts, tools that are gone, and whether anything else did.
void compare_file(const emit::OutputFile& f, const std::string& committed, HeaderDrift& drift) {
  auto now = parts_of(f.name, f.content);
  auto before = parts_of(f.name, committed);
  if (!now || !before) {
    drift.unattributed.push_back(f.name + " differs from what ptc-gen generates");
    return;
  }
  bool attributed = false;
  for (const auto& [tool, text] : *now) {
    auto it = before->find(tool);
    if (it != before->end() && it->second == text) continue;
    drift.tools[tool].insert(f.name);
    attributed = true;
  }
  for (const auto& [tool, text] : *before) {
    if (now->count(tool)) continue;
    drift.gone.insert(tool);
    attributed = true;
  }
  if (!attributed) drift.unattributed.push_back(f.name + " differs from what ptc-gen generates");
}

std::string listed(const std::set<std::string>& names) {
  std::string out;
  for (const auto& n : names) out += (out.empty() ? "" : ", ") + n;
  return out;
}

void report(const model::HeaderModel& header, const HeaderDrift& drift, const std::string& dir,
            const std::string& update, diagnostics::Log& log) {
  // Messages name no directory: they are part of the fingerprint, which must be the same on every
  // machine. The note says where the files are.
  const diagnostics::Note how{"the committed files are in " + dir + "; to update them, run: " + update, {}};
  for (const auto& tool : header.tools) {
    auto it = drift.tools.find(tool.name);
    if (tool.kind != model::ToolKind::Tool || it == drift.tools.end()) continue;
    log.add(RuleId::Drift, Severity::Error,
            "tool '" + tool.name + "' differs from the committed generated files (" + listed(it->second) + ")",
            tool.location, tool.name);
    log.note(how);
  }
  // The header as a whole, at its first line: where code scanning shows a file's problems.
  const model::Location at{header.source, 1, 0};
  for (const auto& tool : drift.gone) {
    log.add(RuleId::Drift, Severity::Error,
            "tool '" + tool + "' is in the committed generated files but no longer declared in the header", at, tool);
    log.note(how);
  }
  for (const auto& message : drift.unattributed) {
    log.add(RuleId::Drift, Severity::Error, message, at);
    log.note(how);
  }
}

}  // namespace

void record_drift(const std::vector<emit::OutputFile>& files, const std::string& dir,
                  const std::vector<model::HeaderModel>& headers, const std::string& update, diagnostics::Log& log) {
  for (const auto& header : headers) {
    HeaderDrift drift;
    bool code_drifted = false;
    for (const auto& f : files) {
      if (!f.name.starts_with(header.stem + ".")) continue;
      const std::string path = join(dir, f.name);
      const auto committed = read_file(path);
      if (committed && *committed == f.content) continue;
      if (!committed) {
        drift.unattributed.push_back(f.name + " is missing from the committed generated files");
      } else if (ends_with(f.name, ".ptc.hpp") || ends_with(f.name, ".ptc.cpp")) {
        code_drifted = true;
      } else {
        compare_file(f, *committed, drift);
      }
    }
    // The code has no section per tool: a tool whose listing drifted explains its code, else the code's
    // drift is the header's.
    if (code_drifted && drift.tools.empty())
      drift.unattributed.push_back(
          "the generated code (" + header.stem +
          ".ptc.hpp, .ptc.cpp) differs from what ptc-gen generates, and no tool's listing does");
    report(header, drift, dir, update, log);
  }
}

}  // namespace ptcgen::output
