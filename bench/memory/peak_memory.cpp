// Peak memory of the inputs the hardening issue measured (a 12 MB tool call took about 1 GB, a 5 MB
// frontmatter 1.2 GB, a 50 MB file read through HostFilesystem 1.4 GB): each at its documented limit,
// where the work is done, and beyond it, where it is refused. Then the worst shapes of a tool call at
// the argument limit (wide, deep and many small values, in undeclared fields and in declared ones, for a
// tool made from a signature and for a generated one), and bursts of such calls from many threads at
// once. Prints one line per case: the input's size, how much the process's peak resident set grew while
// handling it (Linux: VmHWM, reset through /proc/self/clear_refs before each case), the ratio, and how
// much of the growth was still resident once the case ended (`kept`). docs/limits.md reports one run.
//
//   memory_bench [substring]    only the cases whose name contains it (for massif, heaptrack)

#include <malloc.h>
#include <sys/wait.h>
#include <unistd.h>

#include <barrier>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include <ptc/command.hpp>
#include <ptc/filesystem.hpp>
#include <ptc/limits.hpp>
#include <ptc/registry.hpp>
#include <ptc/session.hpp>
#include <ptc/tool.hpp>

#include "orders.ptc.cpp"

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

struct Growth {
  long peak = 0;  ///< bytes the peak resident set grew by while the work ran
  long kept = 0;  ///< bytes still resident (over the start) once it ended
};

// The peak resident set's growth while `work` runs, and what stays resident after it.
Growth measure(const std::function<void()>& work) {
  { std::ofstream("/proc/self/clear_refs") << "5"; }  // VmHWM := VmRSS
  const long before = status_kb("VmRSS");
  work();
  return {(status_kb("VmHWM") - before) * 1024, (status_kb("VmRSS") - before) * 1024};
}

long peak_growth(const std::function<void()>& work) { return measure(work).peak; }

void report(const char* name, std::size_t input, Growth growth, const char* outcome) {
  std::printf("%-58s %8.1f MB %8.1f MB %7.2fx %8.1f MB  %s\n", name, static_cast<double>(input) / 1e6,
              static_cast<double>(growth.peak) / 1e6, static_cast<double>(growth.peak) / static_cast<double>(input),
              static_cast<double>(growth.kept) / 1e6, outcome);
}

void report(const char* name, std::size_t input, long growth, const char* outcome) {
  report(name, input, Growth{growth, -1}, outcome);
}

// The arguments of the bench's calls: a little under the argument limit, as a model could send them.
constexpr std::size_t kCallBytes = ptc::limits::kArgumentBytes - 4096;

// `head` + items `item(0)`, `item(1)`, ... separated by commas + `tail`, as long as it fits in `bytes`.
std::string fill(std::string head, const std::function<std::string(std::size_t)>& item, std::string_view tail,
                 std::size_t bytes = kCallBytes) {
  std::string out = std::move(head);
  out.reserve(bytes);
  for (std::size_t i = 0;; ++i) {
    const std::string next = item(i);
    if (out.size() + next.size() + 1 + tail.size() > bytes) break;
    if (i > 0) out += ',';
    out += next;
  }
  out += tail;
  return out;
}

// The shapes of a value at the argument limit that cost the most per byte.
std::string deep_array(std::size_t) { return std::string(500, '[') + "0" + std::string(500, ']'); }
std::string deep_object(std::size_t) {
  std::string out;
  for (int i = 0; i < 500; ++i) out += "{\"a\":";
  out += '0';
  out.append(500, '}');
  return out;
}
std::string zero(std::size_t) { return "0"; }
std::string short_string(std::size_t) { return "\"a\""; }
// Distinct short keys: base 36 of the index.
std::string key(std::size_t i) {
  std::string k;
  do {
    k += "0123456789abcdefghijklmnopqrstuvwxyz"[i % 36];
    i /= 36;
  } while (i > 0);
  return k;
}
std::string member(std::size_t i) { return "\"" + key(i) + "\":0"; }

struct Shape {
  const char* name;
  std::string (*item)(std::size_t);
  const char* open;
  const char* close;
};

const Shape kShapes[] = {
    {"deep lists (500 levels)", deep_array, "[", "]"},
    {"deep objects (500 levels)", deep_object, "[", "]"},
    {"a wide list [0,0,...]", zero, "[", "]"},
    {"a wide object {\"k\":0,...}", member, "{", "}"},
    {"many short strings [\"a\",...]", short_string, "[", "]"},
};

// The arguments `{<declared>, "junk": <shape>}`, `junk` being a field the tool does not declare.
std::string undeclared(const std::string& declared, const Shape& shape) {
  return fill("{" + declared + ",\"junk\":" + shape.open, shape.item, std::string(shape.close) + "}");
}

// The arguments `{<declared>, "0":0, "1":0, ...}`: as many undeclared fields as fit.
std::string undeclared_fields(const std::string& declared) { return fill("{" + declared + ",", member, "}"); }

ptc::Tool store_tool() {
  return ptc::make_tool("store", "Stores a text.", "(text :string) -> :int",
                        [](const nlohmann::json& args, ptc::ToolContext&) -> ptc::ToolResult<nlohmann::json> {
                          return ptc::ToolResult<nlohmann::json>::ok(args["text"].get_ref<const std::string&>().size());
                        });
}

// Tools made from signatures whose one parameter holds a whole shape; the handler reads its size.
ptc::Tool holding_tool(const char* name, const char* signature) {
  return ptc::make_tool(name, "Counts.", signature,
                        [](const nlohmann::json& args, ptc::ToolContext&) -> ptc::ToolResult<nlohmann::json> {
                          return ptc::ToolResult<nlohmann::json>::ok(args.begin()->size());
                        });
}

ptc::ToolRegistry& registry() {
  static ptc::ToolRegistry r;
  if (r.size() == 0) {
    r.add(store_tool());
    r.add(holding_tool("ints", "(values [:int]) -> :int"));
    r.add(holding_tool("strings", "(values [:string]) -> :int"));
    r.add(holding_tool("anything", "(values :any) -> :int"));
    ptc_gen::orders::register_tools(r);
  }
  return r;
}

// The declared part of a generated `search_orders` call (bench/include/bench/orders.hpp).
const std::string kOrdersDeclared =
    R"("customer_email":"ada@example.com","status":"paid","tags":[],"limit":20,"include_cancelled":false,)"
    R"("ship_to":{"street":"","city":"","country":""},"items":[])";

const char* outcome_name(ptc::CallStatus status) {
  return status == ptc::CallStatus::Succeeded          ? "done"
         : status == ptc::CallStatus::InvalidArguments ? "refused"
                                                       : "failed";
}

// One call of `tool` with `arguments` as OpenAI sends them (the object's JSON text in a string).
void call_case(const std::string& name, const char* tool, std::string arguments, ptc::DispatchOptions options = {}) {
  const std::size_t bytes = arguments.size();
  registry();  // built before the measure starts
  ptc::Session session("memory");
  ptc::ToolCall call{"1", tool, nlohmann::json(std::move(arguments))};
  ptc::CallStatus status{};
  const Growth growth = measure([&] { status = registry().dispatch(session, call, options).status; });
  report(name.c_str(), bytes, growth, outcome_name(status));
}

// `threads` calls at once, each from its own thread and session, all with `arguments`; the peak is
// that of the burst, `kept` what is resident once every thread has ended and one small call followed.
void burst_case(const std::string& name, const char* tool, const std::string& arguments, int threads) {
  std::vector<ptc::ToolCall> calls(static_cast<std::size_t>(threads), ptc::ToolCall{"1", tool, arguments});
  std::vector<ptc::CallStatus> statuses(calls.size());
  registry();
  const Growth growth = measure([&] {
    std::barrier start(threads);
    std::vector<std::thread> running;
    for (int t = 0; t < threads; ++t)
      running.emplace_back([&, t] {
        ptc::Session session("memory");
        start.arrive_and_wait();
        statuses[static_cast<std::size_t>(t)] = registry().dispatch(session, calls[static_cast<std::size_t>(t)]).status;
      });
    for (auto& t : running) t.join();
    // The next call, a small one, as a server's next request.
    ptc::Session session("memory");
    registry().dispatch(session, ptc::ToolCall{"2", "store", nlohmann::json(R"({"text":"x"})")});
  });
  int done = 0;
  for (auto s : statuses) done += s == ptc::CallStatus::Succeeded;
  const std::string outcome = std::to_string(done) + " of " + std::to_string(threads) + " done";
  report(name.c_str(), arguments.size() * calls.size(), growth, outcome.c_str());
}

void tool_call(const char* name, std::size_t bytes) {
  ptc::ToolRegistry registry;
  registry.add(store_tool());
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

const char* only = nullptr;  // the substring of the cases to run, or null for all

// Each case runs in its own process, so that memory one case freed (and the allocator kept) does not
// hide another's growth. `mapped`: large blocks are mapped and unmapped directly, for the same reason
// (the limit cases); the shapes and bursts run with glibc's defaults, as a server does.
void isolated(const std::string& name, const std::function<void()>& run_case, bool mapped = false) {
  if (only && name.find(only) == std::string::npos) return;
  std::fflush(stdout);
  const pid_t child = fork();
  if (child == 0) {
    if (mapped) mallopt(M_MMAP_THRESHOLD, 128 * 1024);
    run_case();
    std::fflush(stdout);
    _exit(0);
  }
  int status = 0;
  waitpid(child, &status, 0);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) std::printf("%-58s failed (status %d)\n", name.c_str(), status);
}

void limit_case(const char* name, const std::function<void()>& run_case) { isolated(name, run_case, true); }

}  // namespace

int main(int argc, char** argv) {
  if (argc > 1) only = argv[1];
  std::printf("%-58s %11s %11s %8s %11s\n", "case", "input", "peak growth", "ratio", "kept");
  limit_case("tool call at the argument limit",
             [] { tool_call("tool call at the argument limit", ptc::limits::kArgumentBytes); });
  limit_case("tool call of 12 MB (refused)", [] { tool_call("tool call of 12 MB (refused)", 12'000'000); });
  limit_case("frontmatter at the frontmatter limit",
             [] { frontmatter("frontmatter at the frontmatter limit", ptc::limits::kFrontmatterBytes); });
  limit_case("frontmatter of 5 MB (refused)", [] { frontmatter("frontmatter of 5 MB (refused)", 5'000'000); });
  limit_case("HostFilesystem read at the file limit",
             [] { file_read("HostFilesystem read at the file limit", ptc::limits::kFileBytes); });
  limit_case("HostFilesystem read of 50 MB (refused)",
             [] { file_read("HostFilesystem read of 50 MB (refused)", 50'000'000); });

  // The worst shapes at the argument limit, in a field the tool does not declare: dropped with a
  // warning, so nothing but the reading should cost memory.
  for (const Shape& shape : kShapes) {
    const std::string signature = std::string("signature, undeclared: ") + shape.name;
    isolated(signature, [&] { call_case(signature, "store", undeclared(R"("text":"x")", shape)); });
    const std::string generated = std::string("generated, undeclared: ") + shape.name;
    isolated(generated, [&] { call_case(generated, "search_orders", undeclared(kOrdersDeclared, shape)); });
  }
  const std::string fields = "signature, many undeclared fields {\"k\":0,...}";
  isolated(fields, [&] { call_case(fields, "store", undeclared_fields(R"("text":"x")")); });
  const std::string strict = "signature, many undeclared fields, strict";
  isolated(strict, [&] {
    ptc::DispatchOptions options;
    options.mode = ptc::Mode::Strict;
    call_case(strict, "store", undeclared_fields(R"("text":"x")"), options);
  });
  const std::string generated_fields = "generated, many undeclared fields {\"k\":0,...}";
  isolated(generated_fields, [&] { call_case(generated_fields, "search_orders", undeclared_fields(kOrdersDeclared)); });

  // The same shapes in a declared parameter: a JSON handler is given them as nlohmann::json, so they
  // cost at least that value's size.
  isolated("signature, declared [:int]: a wide list",
           [] { call_case("signature, declared [:int]: a wide list", "ints", fill(R"({"values":[)", zero, "]}")); });
  isolated("signature, declared [:string]: many short strings", [] {
    call_case("signature, declared [:string]: many short strings", "strings",
              fill(R"({"values":[)", short_string, "]}"));
  });
  isolated("signature, declared :any: a wide object", [] {
    call_case("signature, declared :any: a wide object", "anything", fill(R"({"values":{)", member, "}}"));
  });
  isolated("signature, declared :any: deep lists", [] {
    call_case("signature, declared :any: deep lists", "anything", fill(R"({"values":[)", deep_array, "]}"));
  });
  isolated("generated, declared vector<string>: many short strings", [] {
    call_case("generated, declared vector<string>: many short strings", "search_orders",
              fill(R"({"customer_email":"a@b.c","status":"paid","limit":1,"include_cancelled":false,)"
                   R"("ship_to":{"street":"","city":"","country":""},"items":[],"tags":[)",
                   short_string, "]}"));
  });

  // Bursts: eight calls at the limit at once, each from its own thread, as a server's workers run
  // them. `kept` is what the process still holds once they all ended.
  const std::string text_burst = "burst: 8 threads x text at the limit";
  isolated(text_burst,
           [&] { burst_case(text_burst, "store", "{\"text\":\"" + std::string(kCallBytes - 12, 'x') + "\"}", 8); });
  const std::string wide_burst = "burst: 8 threads x undeclared wide list";
  isolated(wide_burst, [&] { burst_case(wide_burst, "store", undeclared(R"("text":"x")", kShapes[2]), 8); });
  const std::string generated_burst = "burst: 8 threads x generated, undeclared wide list";
  isolated(generated_burst,
           [&] { burst_case(generated_burst, "search_orders", undeclared(kOrdersDeclared, kShapes[2]), 8); });
}
