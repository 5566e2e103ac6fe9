#include "output/diff.hpp"

#include <optional>
#include <vector>

#include <llvm/ADT/SmallString.h>
#include <llvm/ADT/StringRef.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/Program.h>
#include <llvm/Support/raw_ostream.h>

namespace ptcgen::output {

namespace {

std::vector<llvm::StringRef> lines_of(llvm::StringRef text) {
  std::vector<llvm::StringRef> lines;
  while (!text.empty()) {
    auto [line, rest] = text.split('\n');
    lines.push_back(line);
    text = rest;
  }
  return lines;
}

std::string hunk_range(std::size_t count) { return count == 0 ? "0,0" : "1," + std::to_string(count); }

void replace_all(const std::string& before, const std::string& before_label, const std::string& after,
                 const std::string& after_label, llvm::raw_ostream& out) {
  const auto a = lines_of(before);
  const auto b = lines_of(after);
  out << "--- " << before_label << "\n+++ " << after_label << "\n";
  out << "@@ -" << hunk_range(a.size()) << " +" << hunk_range(b.size()) << " @@\n";
  for (auto line : a) out << "-" << line << "\n";
  for (auto line : b) out << "+" << line << "\n";
}

/// A temporary file holding `content`, removed when this goes out of scope.
class TempFile {
 public:
  explicit TempFile(const std::string& content) {
    int fd = -1;
    if (llvm::sys::fs::createTemporaryFile("ptc-gen-diff", "txt", fd, path_)) return;
    llvm::raw_fd_ostream os(fd, /*shouldClose=*/true);
    os << content;
    ok_ = !os.has_error();
  }
  ~TempFile() {
    if (!path_.empty()) llvm::sys::fs::remove(path_);
  }
  TempFile(const TempFile&) = delete;
  TempFile& operator=(const TempFile&) = delete;

  bool ok() const { return ok_; }
  llvm::StringRef path() const { return path_; }

 private:
  llvm::SmallString<128> path_;
  bool ok_ = false;
};

}  // namespace

void unified_diff(const std::string& before, const std::string& before_label, const std::string& after,
                  const std::string& after_label, llvm::raw_ostream& out) {
  auto diff = llvm::sys::findProgramByName("diff");
  TempFile a(before), b(after), result("");
  if (diff && a.ok() && b.ok() && result.ok()) {
    const llvm::StringRef args[] = {"diff", "-u", "--label", before_label, "--label", after_label, a.path(), b.path()};
    const std::optional<llvm::StringRef> redirects[] = {std::nullopt, result.path(), std::nullopt};
    // diff exits 1 when the files differ, 2 on trouble.
    if (llvm::sys::ExecuteAndWait(*diff, args, std::nullopt, redirects) == 1) {
      if (auto text = llvm::MemoryBuffer::getFile(result.path())) {
        out << (*text)->getBuffer();
        return;
      }
    }
  }
  replace_all(before, before_label, after, after_label, out);
}

}  // namespace ptcgen::output
