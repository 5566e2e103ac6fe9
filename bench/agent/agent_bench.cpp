// The ptc side of the agent benchmark (bench/agent/run.sh): the client CPU an agent turn costs, the
// network excluded by playing the model on loopback (agent_provider_server). Each run is the same
// two-turn conversation: the model calls `search` and `add`, the agent dispatches both and sends the
// results back, the model answers. bench/agent/ai_sdk/run.mjs runs the same conversation with Vercel's
// AI SDK and prints the same line, so the two compare as a ratio from one run on one machine.
//
//   agent_bench --base-url http://127.0.0.1:PORT/v1 [--runs 2000] [--warmup 200]
//               [--variants generate,stream] [--checkpoint-turns 1000] [--label ptc]
//
// One JSON line per variant. CPU is the whole process's (getrusage RUSAGE_SELF, user + system, every
// thread: libcurl's resolver and the dispatcher's included), as process.cpuUsage() is on the Node side.
// RSS is read at the start of the measured runs, after --checkpoint-turns turns and at the end: a
// flat line from the checkpoint on is what "memory flat over 10,000 turns" asks for.

#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <fstream>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include <nlohmann/json.hpp>

#include <ptc/agent/agent.hpp>
#include <ptc/agent/providers.hpp>
#include <ptc/registry.hpp>
#include <ptc/tool.hpp>

namespace {

using nlohmann::json;

constexpr std::string_view kTask = "Find cats and add 2 and 3.";
constexpr std::string_view kExpectedAnswer = "Found 2 results for cats; 2 + 3 = 5.";
constexpr std::uint64_t kTurnsPerRun = 2;

struct Options {
  std::string base_url;
  std::string label = "ptc";
  std::uint64_t runs = 2000;
  std::uint64_t warmup = 200;
  std::uint64_t checkpoint_turns = 1000;
  std::vector<std::string> variants{"generate", "stream"};
};

[[noreturn]] void usage(const char* why) {
  std::fprintf(stderr,
               "agent_bench: %s\nusage: agent_bench --base-url http://127.0.0.1:PORT/v1 [--runs N] [--warmup N] "
               "[--variants generate,stream] [--checkpoint-turns N] [--label NAME]\n",
               why);
  std::exit(2);
}

std::uint64_t count_argument(const char* text) {
  char* end = nullptr;
  const unsigned long long value = std::strtoull(text, &end, 10);
  if (end == text || *end != '\0') usage("a count must be a whole number");
  return value;
}

Options parse(int argc, char** argv) {
  Options out;
  for (int i = 1; i < argc; ++i) {
    const std::string_view flag = argv[i];
    if (i + 1 >= argc) usage("every option takes a value");
    const char* value = argv[++i];
    if (flag == "--base-url") {
      out.base_url = value;
    } else if (flag == "--label") {
      out.label = value;
    } else if (flag == "--runs") {
      out.runs = count_argument(value);
    } else if (flag == "--warmup") {
      out.warmup = count_argument(value);
    } else if (flag == "--checkpoint-turns") {
      out.checkpoint_turns = count_argument(value);
    } else if (flag == "--variants") {
      out.variants.clear();
      std::string_view rest = value;
      while (!rest.empty()) {
        const std::size_t comma = rest.find(',');
        const std::string_view name = rest.substr(0, comma);
        if (name != "generate" && name != "stream") usage("the variants are generate and stream");
        out.variants.emplace_back(name);
        rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 1);
      }
    } else {
      usage("unknown option");
    }
  }
  if (out.base_url.empty()) usage("--base-url is required");
  if (out.runs == 0) usage("--runs must be at least 1");
  return out;
}

std::uint64_t micros(const timeval& t) {
  return static_cast<std::uint64_t>(t.tv_sec) * 1'000'000 + static_cast<std::uint64_t>(t.tv_usec);
}

struct Cpu {
  std::uint64_t user_us = 0;
  std::uint64_t system_us = 0;
};

Cpu process_cpu() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return {micros(usage.ru_utime), micros(usage.ru_stime)};
}

long peak_rss_kb() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_maxrss;  // kilobytes on Linux
}

// The resident set now (ru_maxrss only ever grows, so it cannot show memory staying flat).
long rss_kb() {
  std::ifstream statm("/proc/self/statm");
  long size = 0;
  long resident = 0;
  statm >> size >> resident;
  return resident * (sysconf(_SC_PAGESIZE) / 1024);
}

std::uint64_t wall_us() {
  timespec now{};
  clock_gettime(CLOCK_MONOTONIC, &now);
  return static_cast<std::uint64_t>(now.tv_sec) * 1'000'000 + static_cast<std::uint64_t>(now.tv_nsec) / 1000;
}

void add_tools(ptc::ToolRegistry& registry) {
  registry.add(ptc::make_tool("search", "Searches the catalogue.", "(query :string) -> [:string]",
                              [](const json& args, ptc::ToolContext&) {
                                const std::string& query = args["query"].get_ref<const std::string&>();
                                return ptc::ToolResult<json>::ok(json::array({query + " 1", query + " 2"}));
                              }));
  registry.add(
      ptc::make_tool("add", "Adds two integers.", "(a :int, b :int) -> :int", [](const json& args, ptc::ToolContext&) {
        return ptc::ToolResult<json>::ok(args["a"].get<std::int64_t>() + args["b"].get<std::int64_t>());
      }));
}

class Runner {
 public:
  Runner(ptc::agent::Model& model, const ptc::ToolRegistry& registry, bool stream)
      : agent_(model, registry, options(stream)) {
    // What a streaming caller does with the deltas, as the Node side reads its textStream: they are
    // taken, not dropped unseen.
    if (stream) {
      agent_.subscribe([this](const ptc::agent::AgentEvent& event) {
        if (const auto* delta = std::get_if<ptc::agent::StreamEvent>(&event);
            delta && delta->kind == ptc::agent::StreamEvent::Kind::text_delta)
          streamed_chars_ += delta->text.size();
      });
    }
  }

  // One two-turn conversation; exits the program on any departure from the script, so a number is
  // never printed for a run that did less than the conversation asks.
  void run_once() {
    ptc::agent::RunResult result = agent_.run(std::string(kTask));
    if (!result.ok()) fail("the run failed: " + result.error->message);
    if (result.text != kExpectedAnswer) fail("unexpected answer: " + result.text);
    if (result.turns != kTurnsPerRun || result.tool_calls != 2)
      fail("expected 2 turns and 2 tool calls, got " + std::to_string(result.turns) + " and " +
           std::to_string(result.tool_calls));
  }

  std::uint64_t streamed_chars() const { return streamed_chars_; }

 private:
  static ptc::agent::AgentOptions options(bool stream) {
    ptc::agent::AgentOptions out;
    out.settings.model = "gpt-4o-mini";
    out.stream = stream;
    return out;
  }

  [[noreturn]] static void fail(const std::string& why) {
    std::fprintf(stderr, "agent_bench: %s\n", why.c_str());
    std::exit(1);
  }

  ptc::agent::Agent agent_;
  std::uint64_t streamed_chars_ = 0;
};

json measure(const Options& options, const std::string& variant) {
  ptc::agent::ProviderOptions provider;
  provider.provider = ptc::agent::Provider::openai;
  provider.base_url = options.base_url;
  auto model = ptc::agent::make_model(std::move(provider));
  if (!model) {
    std::fprintf(stderr, "agent_bench: %s\n", model.error().message.c_str());
    std::exit(1);
  }
  ptc::ToolRegistry registry;
  add_tools(registry);
  Runner runner(**model, registry, variant == "stream");
  for (std::uint64_t i = 0; i < options.warmup; ++i) runner.run_once();

  const long rss_start = rss_kb();
  long rss_checkpoint = -1;
  const Cpu cpu_start = process_cpu();
  const std::uint64_t wall_start = wall_us();
  for (std::uint64_t i = 1; i <= options.runs; ++i) {
    runner.run_once();
    // statm is read between runs at one point only; its cost (one small read) is inside the measure
    // but is a few microseconds against thousands of turns.
    if (i * kTurnsPerRun == options.checkpoint_turns) rss_checkpoint = rss_kb();
  }
  const std::uint64_t wall = wall_us() - wall_start;
  const Cpu cpu_end = process_cpu();

  const double turns = static_cast<double>(options.runs * kTurnsPerRun);
  const double user = static_cast<double>(cpu_end.user_us - cpu_start.user_us);
  const double system = static_cast<double>(cpu_end.system_us - cpu_start.system_us);
  json line = {{"client", options.label},
               {"variant", variant},
               {"runs", options.runs},
               {"turns", options.runs * kTurnsPerRun},
               {"warmup_runs", options.warmup},
               {"cpu_us_per_turn", (user + system) / turns},
               {"user_us_per_turn", user / turns},
               {"sys_us_per_turn", system / turns},
               {"wall_us_per_turn", static_cast<double>(wall) / turns},
               {"rss_kb_start", rss_start},
               {"checkpoint_turns", options.checkpoint_turns},
               {"rss_kb_checkpoint", rss_checkpoint >= 0 ? json(rss_checkpoint) : json(nullptr)},
               {"rss_kb_end", rss_kb()},
               {"peak_rss_kb", peak_rss_kb()}};
  if (variant == "stream") line["streamed_chars"] = runner.streamed_chars();
  return line;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    const Options options = parse(argc, argv);
    for (const std::string& variant : options.variants) {
      const json line = measure(options, variant);
      std::printf("%s\n", line.dump().c_str());
      std::fflush(stdout);
    }
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "agent_bench: %s\n", e.what());
    return 1;
  }
}
