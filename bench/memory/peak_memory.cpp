// Peak memory of the inputs the hardening issue measured (a 12 MB tool call took about 1 GB, a 5 MB
// frontmatter 1.2 GB, a 50 MB file read through HostFilesystem 1.4 GB): each at its documented limit,
// where the work is done, and beyond it, where it is refused. Prints one line per case: the input's
// size, how much the process's peak resident set grew while handling it (Linux: VmHWM, reset through
// /proc/self/clear_refs before each case), and the ratio. docs/limits.md reports one run.

#include <malloc.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <string>

#include <nlohmann/json.hpp>

#include <ptc/command.hpp>
#include <ptc/filesystem.hpp>
#include <ptc/limits.hpp>
#include <ptc/registry.hpp>
#include <ptc/session.hpp>
#include <ptc/tool.hpp>

namespace {

// kB from /proc/self/status.
long status_kb(const char* field) {
  std::ifstream in("/proc/self/status");
  std::string line;
  const std::string prefix = std::string(field) + ":";
  while (std::getline(in, line))
    if (line.rfind(prefix, 0) == 0) return std::stol(line.substr(prefix.size()));
  return -1;
}

// The peak resident set's growth while `work` runs, in bytes.
long peak_growth(const std::function<void()>& work) {
  { std::ofstream("/proc/self/clear_refs") << "5"; }  // VmHWM := VmRSS
  const long before = status_kb("VmRSS");
  work();
  return (status_kb("VmHWM") - before) * 1024;
}

void report(const char* name, std::size_t input, long growth, const char* outcome) {
  std::printf("%-44s %10.1f MB %10.1f MB %7.2fx  %s\n", name, static_cast<double>(input) / 1e6,
              static_cast<double>(growth) / 1e6, static_cast<double>(growth) / static_cast<double>(input), outcome);
}

void tool_call(const char* name, std::size_t bytes) {
  ptc::ToolRegistry registry;
  registry.add(ptc::make_tool("store", "Stores a text.", "(text :string) -> :int",
                              [](const nlohmann::json& args, ptc::ToolContext&) -> ptc::ToolResult<nlohmann::json> {
                                return ptc::ToolResult<nlohmann::json>::ok(
                                    args["text"].get_ref<const std::string&>().size());
                              }));
  ptc::Session session("memory");
  // Arguments as OpenAI sends them: the object's JSON text in a string.
  ptc::ToolCall call{"1", "store", nlohmann::json("{\"text\": \"" + std::string(bytes - 12, 'x') + "\"}")};
  ptc::CallStatus status{};
  const long growth = peak_growth([&] { status = registry.dispatch(session, call).status; });
  report(name, bytes, growth, status == ptc::CallStatus::Succeeded ? "done" : "refused");
}

void frontmatter(const char* name, std::size_t bytes) {
  std::string text = "---\nname: big\ndescription: Big\njido:\n  schema:\n";
  for (int i = 0;; ++i) {
    const std::string key = "    k" + std::to_string(i) + ":\n      type: string\n";
    if (text.size() + key.size() + 4 > bytes) break;
    text += key;
  }
  text += "---\nbody\n";
  bool parsed = false;
  const long growth = peak_growth([&] { parsed = ptc::parse_command(text, "big.md").ok(); });
  report(name, text.size(), growth, parsed ? "done" : "refused");
}

void file_read(const char* name, std::size_t bytes) {
  const auto root = std::filesystem::temp_directory_path() / "ptc_memory_bench";
  std::filesystem::create_directories(root);
  { std::ofstream(root / "big.txt", std::ios::binary) << std::string(bytes, 'z'); }
  ptc::HostFilesystem fs(root);
  bool read = false;
  const long growth = peak_growth([&] {
    try {
      read = fs.read("big.txt").size() == bytes;
    } catch (const std::exception&) {
      read = false;
    }
  });
  std::filesystem::remove_all(root);
  report(name, bytes, growth, read ? "done" : "refused");
}

// Each case runs in its own process, so that memory one case freed (and the allocator kept) does not
// hide another's growth; large blocks are mapped and unmapped directly for the same reason.
void isolated(const std::function<void()>& run_case) {
  std::fflush(stdout);
  const pid_t child = fork();
  if (child == 0) {
    run_case();
    std::fflush(stdout);
    _exit(0);
  }
  int status = 0;
  waitpid(child, &status, 0);
}

}  // namespace

int main() {
  mallopt(M_MMAP_THRESHOLD, 128 * 1024);
  std::printf("%-44s %13s %13s %8s\n", "case", "input", "peak growth", "ratio");
  isolated([] { tool_call("tool call at the argument limit", ptc::limits::kArgumentBytes); });
  isolated([] { tool_call("tool call of 12 MB (refused)", 12'000'000); });
  isolated([] { frontmatter("frontmatter at the frontmatter limit", ptc::limits::kFrontmatterBytes); });
  isolated([] { frontmatter("frontmatter of 5 MB (refused)", 5'000'000); });
  isolated([] { file_read("HostFilesystem read at the file limit", ptc::limits::kFileBytes); });
  isolated([] { file_read("HostFilesystem read of 50 MB (refused)", 50'000'000); });
}
