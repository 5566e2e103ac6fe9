// Times tool programs' start-up from the outside, as a client sees it (bench/startup/run.sh):
//   startup_probe list RUNS PROGRAM...   spawn `PROGRAM list`, read its output to the end, reap it
//   startup_probe mcp RUNS PROGRAM...    spawn `PROGRAM mcp`, send initialize, wait for its answer, send
//                                        notifications/initialized and tools/list, wait for that answer
// The programs take turns, RUNS times each after one warm-up run. Prints a line per program,
// `best_ms median_ms bytes`: the fastest and the median of its runs, and the bytes its last run read
// (so a program that answered nothing, or less than another, shows). A driver in C++ rather than a
// script, so that the driver's own work is small and the same for every program timed.
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

extern char** environ;

namespace {

constexpr std::string_view kInitialize =
    R"({"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},)"
    R"("clientInfo":{"name":"startup_probe","version":"1"}}})"
    "\n";
constexpr std::string_view kListTools = R"({"jsonrpc":"2.0","method":"notifications/initialized"})"
                                        "\n"
                                        R"({"jsonrpc":"2.0","id":1,"method":"tools/list"})"
                                        "\n";

[[noreturn]] void die(const char* what) {
  std::fprintf(stderr, "startup_probe: %s: %s\n", what, std::strerror(errno));
  std::exit(2);
}

struct Child {
  pid_t pid = -1;
  int in = -1;   // the child's standard input, written here
  int out = -1;  // the child's standard output, read here
};

Child spawn(const char* program, const char* command) {
  int to_child[2];
  int from_child[2];
  if (pipe(to_child) != 0 || pipe(from_child) != 0) die("pipe");
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, to_child[0], 0);
  posix_spawn_file_actions_adddup2(&actions, from_child[1], 1);
  for (int fd : {to_child[0], to_child[1], from_child[0], from_child[1]})
    posix_spawn_file_actions_addclose(&actions, fd);
  char* argv[] = {const_cast<char*>(program), const_cast<char*>(command), nullptr};
  Child child;
  if (int error = posix_spawn(&child.pid, program, &actions, nullptr, argv, environ); error != 0) {
    errno = error;
    die(program);
  }
  posix_spawn_file_actions_destroy(&actions);
  close(to_child[0]);
  close(from_child[1]);
  child.in = to_child[1];
  child.out = from_child[0];
  return child;
}

void write_all(int fd, std::string_view text) {
  while (!text.empty()) {
    const ssize_t n = write(fd, text.data(), text.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) die("write");
    text.remove_prefix(static_cast<std::size_t>(n));
  }
}

/// Reads until the line answering request `id` is complete, or to the end when `id` is negative.
/// Returns the bytes read. The server writes `{"jsonrpc":"2.0","id":N,...` for its answers; lines it
/// sends unasked (notifications) do not start so. Only the start of the current line is kept, so the
/// probe's own work does not grow with the answer beyond reading it (no buffer to grow and fault in).
std::size_t read_until(int fd, int id) {
  const std::string prefix = R"({"jsonrpc":"2.0","id":)" + std::to_string(id) + ",";
  std::string head;        // the current line's first bytes, up to the prefix's length
  bool answering = false;  // the current line starts with the prefix
  std::size_t total = 0;
  static char chunk[1 << 16];
  for (;;) {
    const ssize_t n = read(fd, chunk, sizeof chunk);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) die("read");
    if (n == 0) {
      if (id < 0) return total;
      std::fprintf(stderr, "startup_probe: the program closed its output before answering request %d\n", id);
      std::exit(2);
    }
    total += static_cast<std::size_t>(n);
    if (id < 0) continue;
    for (std::string_view rest(chunk, static_cast<std::size_t>(n)); !rest.empty();) {
      const std::size_t end = rest.find('\n');
      const std::string_view part = rest.substr(0, end);
      if (head.size() < prefix.size()) {
        head.append(part.substr(0, prefix.size() - head.size()));
        answering = head.size() == prefix.size() && head == prefix;
      }
      if (end == std::string_view::npos) break;
      // The line ended. Nothing follows an answer the probe waits for until it sends the next request.
      if (answering) return total;
      head.clear();
      rest.remove_prefix(end + 1);
    }
  }
}

int reap(pid_t pid) {
  int status = 0;
  while (waitpid(pid, &status, 0) < 0)
    if (errno != EINTR) die("waitpid");
  return status;
}

/// One start-up; returns its milliseconds and the bytes read.
std::pair<double, std::size_t> once(const char* program, bool mcp) {
  using Clock = std::chrono::steady_clock;
  const auto start = Clock::now();
  Child child = spawn(program, mcp ? "mcp" : "list");
  std::size_t bytes = 0;
  if (mcp) {
    write_all(child.in, kInitialize);
    bytes += read_until(child.out, 0);
    write_all(child.in, kListTools);
    bytes += read_until(child.out, 1);
  } else {
    close(child.in);  // `list` reads nothing
    child.in = -1;
    bytes = read_until(child.out, -1);
  }
  // `list` is done when the program has exited; `mcp` when tools/list is answered. The MCP server's
  // exit at end of input is not part of what a client waits for.
  const auto stop = mcp ? Clock::now() : Clock::time_point{};
  if (mcp) {
    close(child.in);  // the end of input ends the server
    char sink[4096];
    while (read(child.out, sink, sizeof sink) > 0) {
    }
  }
  const int status = reap(child.pid);
  const auto end = mcp ? stop : Clock::now();
  close(child.out);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    std::fprintf(stderr, "startup_probe: %s %s exited with status %d\n", program, mcp ? "mcp" : "list", status);
    std::exit(2);
  }
  return {std::chrono::duration<double, std::milli>(end - start).count(), bytes};
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 4 || (std::string_view(argv[1]) != "list" && std::string_view(argv[1]) != "mcp")) {
    std::fprintf(stderr, "usage: startup_probe list|mcp RUNS PROGRAM...\n");
    return 2;
  }
  const bool mcp = std::string_view(argv[1]) == "mcp";
  const int runs = std::max(1, std::atoi(argv[2]));
  const std::vector<const char*> programs(argv + 3, argv + argc);
  std::vector<std::vector<double>> times(programs.size());
  std::vector<std::size_t> bytes(programs.size());
  for (const char* program : programs) once(program, mcp);  // warm-up: binaries and libraries into the page cache
  // The programs take turns, so that a change in the machine's load falls on all of them alike.
  for (int i = 0; i < runs; ++i) {
    for (std::size_t p = 0; p < programs.size(); ++p) {
      auto [ms, n] = once(programs[p], mcp);
      times[p].push_back(ms);
      bytes[p] = n;
    }
  }
  for (std::size_t p = 0; p < programs.size(); ++p) {
    std::sort(times[p].begin(), times[p].end());
    std::printf("%.3f %.3f %zu\n", times[p].front(), times[p][times[p].size() / 2], bytes[p]);
  }
  return 0;
}
