// ptc-gen --watch (generator/tool/watch.cpp), run as an editor's background task runs it: the begin
// and end lines around each run, a run for each change to a header read (the tool header, or one it
// includes), none for other files, one for a save made by renaming a new file into place, and a clean
// stop on SIGTERM and SIGINT.

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "run_process.hpp"
#include "ptc_generate_project.hpp"
#include "scratch_dir.hpp"

extern char** environ;

namespace {

namespace fs = std::filesystem;
using std::chrono::milliseconds;

/// A program (ptc-gen --watch, or a build running it) as a child process in a process group of its
/// own, its stdout and stderr read line by line.
class Watching {
 public:
  explicit Watching(const std::vector<std::string>& args) : Watching(PTC_GEN, with_watch(args)) {}
  Watching(const std::string& program, const std::vector<std::string>& args) {
    int pipe_fds[2];
    if (::pipe(pipe_fds) != 0) throw std::runtime_error("pipe failed");
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, pipe_fds[1], 1);
    posix_spawn_file_actions_adddup2(&actions, pipe_fds[1], 2);
    posix_spawn_file_actions_addclose(&actions, pipe_fds[0]);
    posix_spawnattr_t attributes;
    posix_spawnattr_init(&attributes);
    posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETPGROUP);
    posix_spawnattr_setpgroup(&attributes, 0);
    std::vector<char*> argv{const_cast<char*>(program.c_str())};
    for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    const int rc = ::posix_spawn(&pid_, program.c_str(), &actions, &attributes, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attributes);
    ::close(pipe_fds[1]);
    if (rc != 0) throw std::runtime_error("cannot start " + program);
    fd_ = pipe_fds[0];
  }
  ~Watching() {
    if (pid_ > 0) {
      ::kill(-pid_, SIGKILL);
      ::waitpid(pid_, nullptr, 0);
    }
    ::close(fd_);
  }
  Watching(const Watching&) = delete;
  Watching& operator=(const Watching&) = delete;

  /// The lines written until one starts with `prefix` (that line included), or until `limit` passes
  /// (then the last line is not it).
  std::vector<std::string> until(const std::string& prefix, milliseconds limit = milliseconds(30000)) {
    std::vector<std::string> lines;
    const auto deadline = std::chrono::steady_clock::now() + limit;
    while (true) {
      std::string line;
      if (!next_line(line, deadline)) return lines;
      lines.push_back(line);
      if (line.starts_with(prefix)) return lines;
    }
  }

  /// Sends `signal` to the process group, as a terminal's Ctrl-C does, and returns the exit code (128 +
  /// the signal when it killed the process).
  int stop(int signal) {
    ::kill(-pid_, signal);
    int status = 0;
    ::waitpid(pid_, &status, 0);
    pid_ = -1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  }

 private:
  static std::vector<std::string> with_watch(std::vector<std::string> args) {
    args.insert(args.begin(), "--watch");
    return args;
  }
  bool next_line(std::string& line, std::chrono::steady_clock::time_point deadline) {
    while (true) {
      if (auto nl = buffer_.find('\n'); nl != std::string::npos) {
        line = buffer_.substr(0, nl);
        buffer_.erase(0, nl + 1);
        return true;
      }
      const auto left = std::chrono::duration_cast<milliseconds>(deadline - std::chrono::steady_clock::now()).count();
      if (left <= 0) return false;
      pollfd p{fd_, POLLIN, 0};
      if (::poll(&p, 1, static_cast<int>(left)) <= 0) return false;
      char chunk[4096];
      const ssize_t n = ::read(fd_, chunk, sizeof chunk);
      if (n <= 0) return false;
      buffer_.append(chunk, static_cast<std::size_t>(n));
    }
  }

  pid_t pid_ = -1;
  int fd_ = -1;
  std::string buffer_;
};

class PtcGenWatch : public ptcgen::test::ScratchDirTest {
 protected:
  void SetUp() override {
    ScratchDirTest::SetUp();
    write("kinds.hpp", "#pragma once\nnamespace shop { enum class Kind { a, b }; }\n");
    write("shop.hpp", header("Counts things."));
  }

  static std::string header(const std::string& doc) {
    return "#pragma once\n#include <ptc/annotate.hpp>\n#include \"kinds.hpp\"\nnamespace shop {\n/// " + doc +
           "\nPTC_TOOL() PTC_READ_ONLY int count(Kind kind);\n}\n";
  }
  std::vector<std::string> args() const { return {"--out-dir", path("out"), path("shop.hpp"), "--", "-std=c++20"}; }
};

bool ends_ok(const std::vector<std::string>& lines) {
  return !lines.empty() && lines.back().starts_with("ptc-gen: end: ok in ");
}

TEST_F(PtcGenWatch, RunsOnceThenOnEachChangeToAHeaderItRead) {
  Watching w(args());
  auto first = w.until("ptc-gen: end");
  ASSERT_TRUE(ends_ok(first)) << ::testing::PrintToString(first);
  EXPECT_EQ(first.front(), "ptc-gen: begin");
  EXPECT_NE(read("out/shop.tools.md").find("Counts things."), std::string::npos);

  // The tool header itself.
  write("shop.hpp", header("Counts items."));
  auto second = w.until("ptc-gen: end");
  ASSERT_TRUE(ends_ok(second)) << ::testing::PrintToString(second);
  EXPECT_EQ(second.front(), "ptc-gen: begin");
  EXPECT_NE(read("out/shop.tools.md").find("Counts items."), std::string::npos);

  // A header it includes (in the preamble the watch compiles once and reuses while nothing in it
  // changes).
  write("kinds.hpp", "#pragma once\nnamespace shop { enum class Kind { a, b, c }; }\n");
  ASSERT_TRUE(ends_ok(w.until("ptc-gen: end")));
  EXPECT_NE(read("out/shop.tools.json").find("\"c\""), std::string::npos) << read("out/shop.tools.json");

  // What the watch wrote, through its preamble, is what a plain run writes.
  auto plain = ptc::test::run_process(PTC_GEN, {"--out-dir", path("plain"), path("shop.hpp"), "--", "-std=c++20"});
  ASSERT_EQ(plain.exit_code, 0) << plain.err;
  for (const char* name : {"shop.ptc.hpp", "shop.ptc.cpp", "shop.tools.json", "shop.tools.md"})
    EXPECT_EQ(read(std::string("out/") + name), read(std::string("plain/") + name)) << name;

  // A file it did not read, in the same directory, and its own outputs: no run.
  write("notes.txt", "unrelated\n");
  const auto quiet = w.until("ptc-gen: begin", milliseconds(400));
  EXPECT_TRUE(quiet.empty()) << ::testing::PrintToString(quiet);

  EXPECT_EQ(w.stop(SIGTERM), 0);
}

// Editors save by writing a new file and renaming it over the old one: one run, not one per event.
TEST_F(PtcGenWatch, ASaveByRenameMakesOneRun) {
  Watching w(args());
  ASSERT_TRUE(ends_ok(w.until("ptc-gen: end")));
  write("shop.hpp.tmp", header("Counts by kind."));
  fs::rename(dir_ / "shop.hpp.tmp", dir_ / "shop.hpp");
  ASSERT_TRUE(ends_ok(w.until("ptc-gen: end")));
  EXPECT_NE(read("out/shop.tools.md").find("Counts by kind."), std::string::npos);
  const auto again = w.until("ptc-gen: begin", milliseconds(400));
  EXPECT_TRUE(again.empty()) << ::testing::PrintToString(again);
  EXPECT_EQ(w.stop(SIGINT), 0);
}

// A run that fails says so in its end line, with its diagnostics before it, and the watch goes on: the
// next save that fixes the header generates again.
TEST_F(PtcGenWatch, AFailedRunIsReportedAndTheWatchGoesOn) {
  Watching w(args());
  ASSERT_TRUE(ends_ok(w.until("ptc-gen: end")));
  write("shop.hpp", "#pragma once\n#include <ptc/annotate.hpp>\nPTC_TOOL() int undocumented(int x);\n");
  const auto failed = w.until("ptc-gen: end");
  ASSERT_FALSE(failed.empty());
  EXPECT_TRUE(failed.back().starts_with("ptc-gen: end: failed in ")) << ::testing::PrintToString(failed);
  bool diagnosed = false;
  for (const auto& line : failed) diagnosed = diagnosed || line.find("error: tool 'undocumented'") != std::string::npos;
  EXPECT_TRUE(diagnosed) << ::testing::PrintToString(failed);
  write("shop.hpp", header("Counts again."));
  ASSERT_TRUE(ends_ok(w.until("ptc-gen: end")));
  EXPECT_NE(read("out/shop.tools.md").find("Counts again."), std::string::npos);
  const auto stopped = w.stop(SIGTERM);
  EXPECT_EQ(stopped, 0);
}

TEST_F(PtcGenWatch, StopsCleanlyAndSaysSo) {
  for (int signal : {SIGTERM, SIGINT}) {
    Watching w(args());
    ASSERT_TRUE(ends_ok(w.until("ptc-gen: end")));
    EXPECT_EQ(w.stop(signal), 0) << signal;
    const auto last = w.until("ptc-gen: stopped", milliseconds(2000));
    ASSERT_FALSE(last.empty());
    EXPECT_EQ(last.back(), "ptc-gen: stopped");
  }
}

// The VS Code task shipped in share/ptc/vscode: its background patterns match the begin and end lines,
// and its problem pattern reads the file, line, column, severity and message of ptc-gen's diagnostics
// as the watch prints them.
TEST_F(PtcGenWatch, TheVsCodeProblemMatcherReadsTheWatchOutput) {
  std::ifstream in(PTC_VSCODE_TASKS);
  const auto tasks = nlohmann::json::parse(in);
  const auto& matcher = tasks.at("tasks").at(0).at("problemMatcher");
  const std::regex begins(matcher.at("background").at("beginsPattern").get<std::string>());
  const std::regex ends(matcher.at("background").at("endsPattern").get<std::string>());
  const auto& pattern = matcher.at("pattern");
  const std::regex problem(pattern.at("regexp").get<std::string>());

  write("shop.hpp", "#pragma once\n#include <ptc/annotate.hpp>\nPTC_TOOL() int undocumented(int x);\n");
  Watching w(args());
  const auto lines = w.until("ptc-gen: end");
  ASSERT_GE(lines.size(), 3u) << ::testing::PrintToString(lines);
  EXPECT_TRUE(std::regex_search(lines.front(), begins));
  EXPECT_TRUE(std::regex_search(lines.back(), ends));
  std::smatch m;
  ASSERT_TRUE(std::regex_match(lines[1], m, problem)) << lines[1];
  const auto group = [&](const char* name) { return m[pattern.at(name).get<int>()].str(); };
  EXPECT_EQ(group("file"), path("shop.hpp"));
  EXPECT_EQ(group("line"), "3");
  EXPECT_EQ(group("column"), "16");
  EXPECT_EQ(group("severity"), "error");
  EXPECT_EQ(group("message"), "tool 'undocumented' has no description");
  EXPECT_EQ(w.stop(SIGTERM), 0);
}

// <target>_ptc_watch runs the watch with the build's own flags and outputs; Ctrl-C stops it cleanly.
TEST_F(PtcGenWatch, TheWatchTargetWatchesWithTheBuildsFlags) {
  fs::create_directories(dir_ / "project" / "include" / "deps");
  write("project/CMakeLists.txt",
        ptcgen::test::ptc_generate_project(R"(target_include_directories(app PRIVATE include/deps)
ptc_generate(TARGET app HEADERS include/tools.hpp)
)"));
  write("project/include/deps/kinds.hpp", "#pragma once\nenum class Kind { a, b };\n");
  write("project/include/tools.hpp",
        "#include <ptc/annotate.hpp>\n#include \"kinds.hpp\"\n/// Counts.\nPTC_TOOL() PTC_READ_ONLY int count(Kind "
        "k);\n");
  const std::string build = path("project/build");
  ASSERT_EQ(std::system(("'" + std::string(PTC_TEST_CMAKE) + "' -S '" + path("project") + "' -B '" + build +
                         "' -G Ninja -DCMAKE_MAKE_PROGRAM='" + PTC_TEST_NINJA + "' > /dev/null")
                            .c_str()),
            0);
  Watching w(PTC_TEST_NINJA, {"-C", build, "app_ptc_watch"});
  const auto lines = w.until("ptc-gen: end");
  ASSERT_FALSE(lines.empty());
  EXPECT_TRUE(lines.back().starts_with("ptc-gen: end: ok")) << ::testing::PrintToString(lines);
  EXPECT_TRUE(fs::exists(fs::path(build) / "ptc_gen" / "app" / "tools.tools.md"));
  w.stop(SIGINT);
  const auto last = w.until("ptc-gen: stopped", milliseconds(3000));
  ASSERT_FALSE(last.empty());
  EXPECT_EQ(last.back(), "ptc-gen: stopped");
}

}  // namespace
