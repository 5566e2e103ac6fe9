// mcp_load: the one load generator of the MCP benchmark (bench/mcp/run.sh). It opens the 2025-11-25
// session a host opens, then keeps calls to --tool in flight for --seconds after --warmup, checks every
// answer (its id, isError false, the tool's known structuredContent.result) and prints one line:
//   LABEL TRANSPORT tool=T clients=N in_flight=K calls=C calls/s=R p50_us=A p99_us=B errors=E
//       [responses=json|sse|mixed] [server_cpu_s=S window_calls=W server_cpu_us_per_call=U]
// Over stdio there is one connection (the spawned server's pipes) with --in-flight K requests pipelined
// on it; over HTTP each of --clients N clients has its own connection and one call in flight. The
// server's CPU time (user + system, all its threads, from /proc/PID/stat) is read when the measured
// window opens and when it closes, and divided by the answers that arrived in between; over stdio the
// pid is the spawned server's, over HTTP it is --server-pid's (without it the fields are left out).
//
//   mcp_load --label ptc --tool suggest_priority --in-flight 32 --stdio -- build/.../mcp_bench_server mcp
//   mcp_load --label ts --clients 16 --server-pid 1234 --http http://127.0.0.1:8123/mcp
//   mcp_load --label ptc --clients 500 --stateless --http http://127.0.0.1:8123/mcp
//                                    2026-07-28 requests, no session: as many clients as connections
//   mcp_load --echo-stdio            a server that answers every request with a canned result
//   mcp_load --echo-http PORT        the same over HTTP
// The echo servers do no work, so the generator against them measures the generator itself: its rate
// must be well above every contestant's for the numbers to be the servers'.
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <iterator>
#include <mutex>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include <httplib.h>
#include <nlohmann/json.hpp>

extern char** environ;

namespace {

using nlohmann::json;
using Clock = std::chrono::steady_clock;

/// A benchmarked tool: the arguments of every call and the structuredContent.result every answer must
/// carry, so that a server answering fast but wrongly shows up as errors.
struct Tool {
  std::string_view name, arguments, result;
};

constexpr Tool kTools[] = {
    // The arguments bench/codec_bench.cpp decodes: a typical ~300-byte order search (no orders match).
    {"search_orders",
     R"({"customer_email":"ada@example.com","status":"paid","tags":["priority","gift"],"min_total":25.5,)"
     R"("limit":20,"include_cancelled":false,"ship_to":{"street":"12 Harbour Road","city":"Bergen","country":"NO"},)"
     R"("items":[{"sku":"A-100","quantity":2,"unit_price":9.99},{"sku":"B-220","quantity":1,"unit_price":24.5}]})",
     "[]"},
    // A title that reaches the third test of the quickstart's rules, so the tool does all of its work.
    {"suggest_priority", R"({"title":"Export is slow on large projects"})", R"("high")"},
};

const Tool* find_tool(std::string_view name) {
  for (const auto& tool : kTools)
    if (tool.name == name) return &tool;
  return nullptr;
}

constexpr std::string_view kInitialize =
    R"({"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},)"
    R"("clientInfo":{"name":"mcp_load","version":"1"}}})";
constexpr std::string_view kInitialized = R"({"jsonrpc":"2.0","method":"notifications/initialized"})";

std::string call(const Tool& tool, long long id, bool stateless = false) {
  return R"({"jsonrpc":"2.0","id":)" + std::to_string(id) + R"(,"method":"tools/call","params":{"name":")" +
         std::string(tool.name) + R"(","arguments":)" + std::string(tool.arguments) +
         (stateless ? R"(,"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28",)"
                      R"("io.modelcontextprotocol/clientCapabilities":{}}}})"
                    : "}}");
}

/// The structuredContent every answer must carry: the tool's result wrapped as {"result": ...}, as a
/// 2025 server sends a result that is not an object, or bare, as 2026-07-28 allows.
json expected_structured(const Tool& tool, bool stateless) {
  auto result = json::parse(tool.result);
  return stateless ? result : json{{"result", std::move(result)}};
}

/// Whether `message` answers request `id` with a successful tool result carrying `structured`.
bool answered(const json& message, long long id, const json& structured) {
  if (!message.contains("id") || message["id"] != id || !message.contains("result")) return false;
  const auto& result = message["result"];
  if (result.value("isError", false)) return false;  // absent means false
  const auto found = result.find("structuredContent");
  return found != result.end() && *found == structured;
}

/// The CPU time, user and system, that process `pid` has used so far in all its threads (those that
/// have ended too), in seconds. /proc/PID/stat counts in clock ticks (10 ms on most kernels), so a
/// window must last seconds for the figure to be good to a percent.
double process_cpu_seconds(pid_t pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
  const std::string stat((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  // The command name (field 2) may hold spaces and parentheses; the fields after its last ')' do not.
  const auto after_name = stat.rfind(')');
  if (after_name == std::string::npos) throw std::runtime_error("cannot read /proc/" + std::to_string(pid) + "/stat");
  std::istringstream fields(stat.substr(after_name + 1));
  std::string skip;
  for (int field = 3; field <= 13; ++field) fields >> skip;  // state .. cmajflt
  unsigned long long utime = 0, stime = 0;
  if (!(fields >> utime >> stime)) throw std::runtime_error("no utime and stime in /proc/" + std::to_string(pid));
  return static_cast<double>(utime + stime) / static_cast<double>(::sysconf(_SC_CLK_TCK));
}

/// The server's CPU time and the answers counted at the two ends of the measured window.
struct CpuWindow {
  pid_t pid = 0;  // 0: unknown, nothing is read
  double cpu_at_open = 0, cpu_at_close = 0;
  long long answers_at_open = 0, answers_at_close = 0;
  void open(long long answers) {
    if (pid) cpu_at_open = process_cpu_seconds(pid);
    answers_at_open = answers;
  }
  void close(long long answers) {
    if (pid) cpu_at_close = process_cpu_seconds(pid);
    answers_at_close = answers;
  }
  /// The fields report() appends: nothing without a pid.
  std::string fields() const {
    if (!pid) return {};
    const double cpu = cpu_at_close - cpu_at_open;
    const long long calls = answers_at_close - answers_at_open;
    char text[128];
    std::snprintf(text, sizeof text, " server_cpu_s=%.3f window_calls=%lld server_cpu_us_per_call=%.1f", cpu, calls,
                  cpu * 1e6 / static_cast<double>(std::max(1LL, calls)));
    return text;
  }
};

struct Options {
  std::string label = "server", transport;
  const Tool* tool = &kTools[0];
  int clients = 1;
  int in_flight = 1;
  bool stateless = false;  // --stateless: 2026-07-28 requests instead of a 2025 session per client
  double seconds = 5, warmup = 1;
  pid_t server_pid = 0;              // --server-pid, for HTTP
  std::vector<std::string> command;  // --stdio
  std::string url;                   // --http
};

/// Every latency of the measured window, and the errors.
struct Tally {
  std::mutex mutex;
  std::vector<double> micros;
  long long errors = 0;
  void add(std::vector<double>& mine, long long errs) {
    std::lock_guard lock(mutex);
    micros.insert(micros.end(), mine.begin(), mine.end());
    errors += errs;
  }
};

void report(const Options& o, Tally& t, const std::string& extra) {
  auto& v = t.micros;
  std::sort(v.begin(), v.end());
  const auto at = [&](double q) { return v.empty() ? 0.0 : v[std::min(v.size() - 1, std::size_t(q * v.size()))]; };
  std::printf("%s %s tool=%s clients=%d in_flight=%d calls=%zu calls/s=%.0f p50_us=%.1f p99_us=%.1f errors=%lld%s\n",
              o.label.c_str(), o.transport.c_str(), std::string(o.tool->name).c_str(), o.clients, o.in_flight, v.size(),
              static_cast<double>(v.size()) / o.seconds, at(0.50), at(0.99), t.errors, extra.c_str());
  std::fflush(stdout);
}

// ---- stdio ------------------------------------------------------------------------------------------

class Child {
 public:
  explicit Child(const std::vector<std::string>& command) {
    int in[2], out[2];
    if (::pipe(in) || ::pipe(out)) throw std::runtime_error("pipe");
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, in[0], 0);
    posix_spawn_file_actions_adddup2(&actions, out[1], 1);
    for (int fd : {in[0], in[1], out[0], out[1]}) posix_spawn_file_actions_addclose(&actions, fd);
    std::vector<char*> argv;
    for (const auto& a : command) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    if (posix_spawnp(&pid_, argv[0], &actions, nullptr, argv.data(), environ) != 0)
      throw std::runtime_error("cannot start " + command[0]);
    posix_spawn_file_actions_destroy(&actions);
    ::close(in[0]);
    ::close(out[1]);
    to_ = in[1];
    from_ = out[0];
  }
  ~Child() { finish(); }
  pid_t pid() const { return pid_; }
  /// Closes the server's input (EOF: it ends) and waits for it.
  void finish() {
    if (pid_ == 0) return;
    ::close(to_);
    ::close(from_);
    int status = 0;
    ::waitpid(pid_, &status, 0);
    pid_ = 0;
  }
  void send(const std::string& text) {
    std::string_view rest = text;
    while (!rest.empty()) {
      const auto n = ::write(to_, rest.data(), rest.size());
      if (n <= 0) throw std::runtime_error("the server closed its input");
      rest.remove_prefix(static_cast<std::size_t>(n));
    }
  }
  /// The next line, bounded by the buffer the server may fill.
  std::string line() {
    for (;;) {
      if (auto nl = buffer_.find('\n', scanned_); nl != std::string::npos) {
        std::string l = buffer_.substr(0, nl);
        buffer_.erase(0, nl + 1);
        scanned_ = 0;
        return l;
      }
      scanned_ = buffer_.size();
      if (buffer_.size() > (64u << 20)) throw std::runtime_error("a line over 64 MiB");
      char chunk[65536];
      const auto n = ::read(from_, chunk, sizeof chunk);
      if (n <= 0) throw std::runtime_error("the server closed its output");
      buffer_.append(chunk, static_cast<std::size_t>(n));
    }
  }

 private:
  pid_t pid_ = 0;
  int to_ = -1, from_ = -1;
  std::string buffer_;
  std::size_t scanned_ = 0;
};

// One process, one session: --in-flight requests pipelined on the one pipe, as a host's concurrent
// calls are. Each answer sends the next request of its slot at once, so the server never runs dry.
void run_stdio(const Options& o) {
  Child child(o.command);
  child.send(std::string(kInitialize) + "\n");
  while (!json::parse(child.line()).contains("result")) {
  }
  child.send(std::string(kInitialized) + "\n");

  const json expected = expected_structured(*o.tool, false);
  const int slots = o.in_flight;
  const auto start = Clock::now();
  const auto measure_from = start + std::chrono::duration<double>(o.warmup);
  const auto stop = measure_from + std::chrono::duration<double>(o.seconds);
  std::vector<Clock::time_point> sent(slots);
  std::vector<double> micros;
  long long errors = 0, answers = 0;
  CpuWindow window{child.pid()};
  bool opened = false, closed = false;
  // Slot s's requests have the ids s + k * slots (k >= 1), so an answer's id names its slot.
  std::string batch;
  for (int s = 0; s < slots; ++s) {
    sent[s] = Clock::now();
    batch += call(*o.tool, slots + s) + "\n";
  }
  child.send(batch);
  for (int in_flight = slots; in_flight > 0;) {
    const auto message = json::parse(child.line());
    if (!message.contains("id")) continue;  // a notification
    const long long id = message["id"].get<long long>();
    const int s = static_cast<int>(id % slots);
    const auto now = Clock::now();
    // The window's ends are read as answers arrive: the server is busy on both sides of each read.
    if (!opened && now >= measure_from) {
      window.open(answers);
      opened = true;
    }
    ++answers;
    if (!answered(message, id, expected)) ++errors;
    if (now >= measure_from && sent[s] >= measure_from)
      micros.push_back(std::chrono::duration<double, std::micro>(now - sent[s]).count());
    if (now >= stop) {
      if (!closed) {
        window.close(answers);
        closed = true;
      }
      --in_flight;
      continue;
    }
    sent[s] = now;
    child.send(call(*o.tool, (id / slots + 1) * slots + s) + "\n");
  }
  child.finish();
  Tally t;
  t.add(micros, errors);
  report(o, t, window.fields());
}

// ---- HTTP -------------------------------------------------------------------------------------------

/// How the server answered tools/call: as one JSON body, or on an SSE stream.
struct Forms {
  std::atomic<long long> bodies{0}, streams{0};
  std::string field() const {
    if (bodies == 0 && streams == 0) return {};
    return std::string(" responses=") + (streams == 0 ? "json" : bodies == 0 ? "sse" : "mixed");
  }
};

/// The JSON-RPC message of a response that is JSON or an SSE stream of `data:` lines (the last one).
json message_of(const httplib::Result& r, Forms& forms) {
  if (!r || r->status != 200) return json();
  const auto& body = r->body;
  if (r->get_header_value("Content-Type").rfind("text/event-stream", 0) != 0) {
    ++forms.bodies;
    return json::parse(body, nullptr, false);
  }
  ++forms.streams;
  json last;
  for (std::size_t at = body.find("data: "); at != std::string::npos; at = body.find("data: ", at + 1)) {
    const auto end = body.find('\n', at);
    last = json::parse(body.substr(at + 6, end - at - 6), nullptr, false);
  }
  return last;
}

/// Opens a client's 2025 session (or, stateless, only sets the 2026 headers); false if refused.
bool open_session(const Options& o, httplib::Client& client, const std::string& path, httplib::Headers& headers) {
  if (o.stateless) {
    headers.emplace("MCP-Protocol-Version", "2026-07-28");
    headers.emplace("Mcp-Method", "tools/call");
    headers.emplace("Mcp-Name", std::string(o.tool->name));
    return true;
  }
  auto init = client.Post(path, headers, std::string(kInitialize), "application/json");
  if (!init || init->status != 200) return false;
  if (init->has_header("Mcp-Session-Id")) headers.emplace("Mcp-Session-Id", init->get_header_value("Mcp-Session-Id"));
  headers.emplace("MCP-Protocol-Version", "2025-11-25");
  client.Post(path, headers, std::string(kInitialized), "application/json");
  return true;
}

void run_http(const Options& o) {
  const auto scheme_end = o.url.find("://") + 3;
  const auto path_at = o.url.find('/', scheme_end);
  const std::string host_port = o.url.substr(0, path_at), path = o.url.substr(path_at);
  const json expected = expected_structured(*o.tool, o.stateless);
  const auto start = Clock::now();
  const auto measure_from = start + std::chrono::duration<double>(o.warmup);
  const auto stop = measure_from + std::chrono::duration<double>(o.seconds);
  Tally tally;
  Forms forms;
  std::atomic<long long> answers{0};
  std::vector<std::thread> clients;
  for (int c = 0; c < o.clients; ++c)
    clients.emplace_back([&] {
      httplib::Client client(host_port);
      client.set_keep_alive(true);
      client.set_tcp_nodelay(true);  // as hosts' HTTP stacks do; without it each request waits on ACKs
      client.set_read_timeout(30, 0);
      httplib::Headers headers{{"Accept", "application/json, text/event-stream"}};
      std::vector<double> micros;
      long long errors = 0;
      if (!open_session(o, client, path, headers)) {
        tally.add(micros, 1);
        return;
      }
      for (long long id = 1;; ++id) {
        const auto before = Clock::now();
        if (before >= stop) break;
        const auto message =
            message_of(client.Post(path, headers, call(*o.tool, id, o.stateless), "application/json"), forms);
        const auto after = Clock::now();
        answers.fetch_add(1, std::memory_order_relaxed);
        if (!answered(message, id, expected)) ++errors;
        if (before >= measure_from) micros.push_back(std::chrono::duration<double, std::micro>(after - before).count());
      }
      tally.add(micros, errors);
    });
  // The window is the clock's: this thread only sleeps, reads the server's CPU and counts answers.
  CpuWindow window{o.server_pid};
  std::this_thread::sleep_until(measure_from);
  window.open(answers.load());
  std::this_thread::sleep_until(stop);
  window.close(answers.load());
  for (auto& t : clients) t.join();
  report(o, tally, forms.field() + window.fields());
}

// ---- the echo servers -------------------------------------------------------------------------------

/// The answer a server that does no work gives `request`: the called tool's known result, so that the
/// generator's rows check answers as the servers' do.
std::string canned(const json& request) {
  const auto* tool = find_tool(request.value("/params/name"_json_pointer, std::string()));
  const std::string result(tool ? tool->result : "null");
  return R"({"jsonrpc":"2.0","id":)" + request["id"].dump() + R"(,"result":{"content":[{"type":"text","text":)" +
         json(result).dump() + R"(}],"structuredContent":{"result":)" + result + R"(},"isError":false}})";
}

int echo_stdio() {
  std::string line;
  while (std::getline(std::cin, line)) {
    const auto message = json::parse(line, nullptr, false);
    if (!message.is_object() || !message.contains("id")) continue;
    std::cout << (message.value("method", "") == "initialize"
                      ? R"({"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-11-25","capabilities":{},)"
                        R"("serverInfo":{"name":"echo","version":"1"}}})"
                      : canned(message))
              << '\n'
              << std::flush;
  }
  return 0;
}

int echo_http(int port) {
  httplib::Server server;
  server.set_tcp_nodelay(true);
  server.Post(".*", [](const httplib::Request& request, httplib::Response& response) {
    const auto message = json::parse(request.body, nullptr, false);
    if (!message.is_object() || !message.contains("id")) {
      response.status = 202;
      return;
    }
    response.set_content(message.value("method", "") == "initialize"
                             ? R"({"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-11-25"}})"
                             : canned(message),
                         "application/json");
  });
  return server.listen("127.0.0.1", port) ? 0 : 1;
}

bool refuse(const std::string& why) {
  std::cerr << "mcp_load: " << why << "\n";
  return false;
}

/// Reads the command line into `o`; false (after saying why) if it is not one mcp_load takes.
bool parse(const std::vector<std::string>& args, Options& o) {
  for (std::size_t i = 0; i < args.size(); ++i) {
    const auto next = [&] {
      if (i + 1 >= args.size()) throw std::invalid_argument(args[i] + " needs a value");
      return args[++i];
    };
    if (args[i] == "--label") {
      o.label = next();
    } else if (args[i] == "--tool") {
      const auto name = next();
      if (!(o.tool = find_tool(name))) return refuse("no tool " + name + " in the benchmark");
    } else if (args[i] == "--clients") {
      o.clients = std::max(1, std::atoi(next().c_str()));
    } else if (args[i] == "--in-flight") {
      o.in_flight = std::max(1, std::atoi(next().c_str()));
    } else if (args[i] == "--seconds") {
      o.seconds = std::atof(next().c_str());
    } else if (args[i] == "--warmup") {
      o.warmup = std::atof(next().c_str());
    } else if (args[i] == "--server-pid") {
      o.server_pid = static_cast<pid_t>(std::atol(next().c_str()));
    } else if (args[i] == "--http") {
      o.transport = "http", o.url = next();
    } else if (args[i] == "--stateless") {
      o.stateless = true;
    } else if (args[i] == "--stdio") {
      o.transport = "stdio";
      if (i + 1 < args.size() && args[i + 1] == "--") ++i;
      o.command.assign(args.begin() + static_cast<long>(i) + 1, args.end());
      break;
    } else {
      return refuse("unknown argument " + args[i]);
    }
  }
  // One spawned server has one pair of pipes; HTTP clients each wait for their answer.
  if (o.transport == "stdio" && o.clients != 1)
    return refuse("over stdio there is one client; --in-flight sets its calls in flight");
  if (o.transport == "http" && o.in_flight != 1)
    return refuse("over HTTP each client has one call in flight; --clients sets how many");
  return !o.transport.empty() && !(o.transport == "stdio" && o.command.empty());
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  if (!args.empty() && args[0] == "--echo-stdio") return echo_stdio();
  if (args.size() == 2 && args[0] == "--echo-http") return echo_http(std::atoi(args[1].c_str()));
  try {
    Options o;
    if (!parse(args, o)) {
      std::cerr << "usage: mcp_load [--label L] [--tool search_orders|suggest_priority] [--seconds S] [--warmup W]\n"
                   "                (--stdio [--in-flight K] -- CMD... |\n"
                   "                 --http URL [--clients N] [--stateless] [--server-pid PID])\n";
      return 2;
    }
    if (o.transport == "stdio")
      run_stdio(o);
    else
      run_http(o);
  } catch (const std::exception& e) {
    std::cerr << "mcp_load: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
