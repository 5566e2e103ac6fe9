// ptc-gen against `clang -fsyntax-only` on the same header (README.md, "Performance"): the generator
// parses the header with clang's front end and then extracts and emits, so its cost over a plain
// syntax check is what ptc adds. Each iteration runs the real programs as child processes.

#include <spawn.h>
#include <sys/wait.h>

#include <filesystem>
#include <string>
#include <vector>

#include <benchmark/benchmark.h>

extern char** environ;

namespace {

bool run(const std::vector<std::string>& args) {
  std::vector<char*> argv;
  for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", 0x1 /* O_WRONLY */, 0);
  pid_t pid = 0;
  int rc = posix_spawn(&pid, argv[0], &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (rc != 0) return false;
  int status = 0;
  waitpid(pid, &status, 0);
  return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

std::vector<std::string> flags() { return {"-std=c++20", "-I" PTC_CORE_INCLUDE}; }

void ptc_gen(benchmark::State& state, const char* header) {
  const auto out = std::filesystem::temp_directory_path() / "ptc_gen_bench";
  std::filesystem::create_directories(out);
  std::vector<std::string> args{PTC_GEN, "--out-dir", out.string(), header, "--"};
  for (auto& f : flags()) args.push_back(f);
  for (auto _ : state)
    if (!run(args)) state.SkipWithError("ptc-gen failed");
}

void clang_syntax_only(benchmark::State& state, const char* header) {
  std::vector<std::string> args{
      PTC_CLANG, "-fsyntax-only", "-x", "c++", "-DPTC_GENERATOR", "-Wno-pragma-once-outside-header", header};
  for (auto& f : flags()) args.push_back(f);
  for (auto _ : state)
    if (!run(args)) state.SkipWithError("clang failed");
}

BENCHMARK_CAPTURE(ptc_gen, orders_header, PTC_ORDERS_HEADER)
    ->Unit(benchmark::kMillisecond)
    ->Iterations(5)
    ->UseRealTime();
BENCHMARK_CAPTURE(clang_syntax_only, orders_header, PTC_ORDERS_HEADER)
    ->Unit(benchmark::kMillisecond)
    ->Iterations(5)
    ->UseRealTime();
BENCHMARK_CAPTURE(ptc_gen, many_tools_1000, PTC_MANY_HEADER)
    ->Unit(benchmark::kMillisecond)
    ->Iterations(3)
    ->UseRealTime();
BENCHMARK_CAPTURE(clang_syntax_only, many_tools_1000, PTC_MANY_HEADER)
    ->Unit(benchmark::kMillisecond)
    ->Iterations(3)
    ->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
