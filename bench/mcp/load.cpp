// mcp_load: the one load generator of the MCP benchmark (bench/mcp/run.sh). It opens the 2025-11-25
// session a host opens, then keeps each of --clients clients at one search_orders call in flight for
// --seconds, checks every answer (its id, isError false) and prints one line:
//   LABEL TRANSPORT clients=N calls=C calls/s=R p50_us=A p99_us=B errors=E
//
//   mcp_load --label ptc --clients 1 --seconds 5 --stdio -- build/.../mcp_bench_server mcp
//   mcp_load --label ts --clients 4 --seconds 5 --http http://127.0.0.1:8123/mcp
//   mcp_load --label ptc --clients 500 --stateless --http http://127.0.0.1:8123/mcp
//                                    2026-07-28 requests, no session: as many clients as connections
//   mcp_load --echo-stdio            a server that answers every request with a canned result
//   mcp_load --echo-http PORT        the same over HTTP
// The echo servers do no work, so the generator against them measures the generator itself: its rate
// must be well above every contestant's for the numbers to be the servers'.
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <mutex>
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

// The arguments bench/codec_bench.cpp decodes: a typical ~300-byte order search.
constexpr std::string_view kArguments =
    R"({"customer_email":"ada@example.com","status":"paid","tags":["priority","gift"],"min_total":25.5,)"
    R"("limit":20,"include_cancelled":false,"ship_to":{"street":"12 Harbour Road","city":"Bergen","country":"NO"},)"
    R"("items":[{"sku":"A-100","quantity":2,"unit_price":9.99},{"sku":"B-220","quantity":1,"unit_price":24.5}]})";

constexpr std::string_view kInitialize =
    R"({"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},)"
    R"("clientInfo":{"name":"mcp_load","version":"1"}}})";
constexpr std::string_view kInitialized = R"({"jsonrpc":"2.0","method":"notifications/initialized"})";

std::string call(long long id, bool stateless = false) {
  return R"({"jsonrpc":"2.0","id":)" + std::to_string(id) +
         R"(,"method":"tools/call","params":{"name":"search_orders","arguments":)" + std::string(kArguments) +
         (stateless ? R"(,"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28",)"
                      R"("io.modelcontextprotocol/clientCapabilities":{}}}})"
                    : "}}");
}

/// Whether `message` answers request `id` with a successful tool result.
bool answered(const json& message, long long id) {
  if (!message.contains("id") || message["id"] != id || !message.contains("result")) return false;
  return message["result"].value("isError", false) == false;  // absent means false
}

struct Options {
  std::string label = "server", transport;
  int clients = 1;
  bool stateless = false;  // --stateless: 2026-07-28 requests instead of a 2025 session per client
  double seconds = 5, warmup = 1;
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

void report(const Options& o, Tally& t, double seconds, std::string extra = {}) {
  auto& v = t.micros;
  std::sort(v.begin(), v.end());
  const auto at = [&](double q) { return v.empty() ? 0.0 : v[std::min(v.size() - 1, std::size_t(q * v.size()))]; };
  std::printf("%s %s clients=%d calls=%zu calls/s=%.0f p50_us=%.1f p99_us=%.1f errors=%lld%s\n", o.label.c_str(),
              o.transport.c_str(), o.clients, v.size(), v.size() / seconds, at(0.50), at(0.99), t.errors,
              extra.c_str());
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
  /// Closes the server's input (EOF: it ends) and waits for it; the CPU time it used, in microseconds.
  double finish() {
    if (pid_ == 0) return 0;
    ::close(to_);
    ::close(from_);
    int status = 0;
    rusage usage{};
    ::wait4(pid_, &status, 0, &usage);
    pid_ = 0;
    const auto us = [](const timeval& t) { return t.tv_sec * 1e6 + t.tv_usec; };
    return us(usage.ru_utime) + us(usage.ru_stime);
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

// One process, one session: the clients are ids in flight on the one pipe, as a host's concurrent
// calls are.
void run_stdio(const Options& o) {
  Child child(o.command);
  child.send(std::string(kInitialize) + "\n");
  while (!json::parse(child.line()).contains("result")) {
  }
  child.send(std::string(kInitialized) + "\n");

  const auto start = Clock::now();
  const auto measure_from = start + std::chrono::duration<double>(o.warmup);
  const auto stop = measure_from + std::chrono::duration<double>(o.seconds);
  std::vector<Clock::time_point> sent(o.clients);
  std::vector<double> micros;
  long long errors = 0;
  // Client c's calls have the ids c + k * clients (k >= 1), so an answer's id names its client.
  std::string batch;
  for (int c = 0; c < o.clients; ++c) {
    sent[c] = Clock::now();
    batch += call(o.clients + c) + "\n";
  }
  child.send(batch);
  int in_flight = o.clients;
  long long answers = 0;  // warm-up included, for the server's CPU time per call
  while (in_flight > 0) {
    const auto message = json::parse(child.line());
    if (!message.contains("id")) continue;  // a notification
    const long long id = message["id"].get<long long>();
    const int c = static_cast<int>(id % o.clients);
    const auto now = Clock::now();
    ++answers;
    if (!answered(message, id)) ++errors;
    if (now >= measure_from && sent[c] >= measure_from)
      micros.push_back(std::chrono::duration<double, std::micro>(now - sent[c]).count());
    if (now >= stop) {
      --in_flight;
      continue;
    }
    sent[c] = now;
    child.send(call((id / o.clients + 1) * o.clients + c) + "\n");
  }
  // The server's own CPU time per call, start-up included: what a call costs it, apart from how
  // long the operating system takes to hand the bytes over.
  const double cpu = child.finish();
  Tally t;
  t.add(micros, errors);
  char extra[64];
  std::snprintf(extra, sizeof extra, " server_cpu_us_per_call=%.1f", cpu / std::max(1LL, answers));
  report(o, t, o.seconds, extra);
}

// ---- HTTP -------------------------------------------------------------------------------------------

/// The JSON-RPC message of a response that is JSON or an SSE stream of `data:` lines (the last one).
json message_of(const httplib::Result& r) {
  if (!r || r->status != 200) return json();
  const auto& body = r->body;
  if (r->get_header_value("Content-Type").rfind("text/event-stream", 0) != 0) return json::parse(body, nullptr, false);
  json last;
  for (std::size_t at = body.find("data: "); at != std::string::npos; at = body.find("data: ", at + 1)) {
    const auto end = body.find('\n', at);
    last = json::parse(body.substr(at + 6, end - at - 6), nullptr, false);
  }
  return last;
}

void run_http(const Options& o) {
  const auto scheme_end = o.url.find("://") + 3;
  const auto path_at = o.url.find('/', scheme_end);
  const std::string host_port = o.url.substr(0, path_at), path = o.url.substr(path_at);
  const auto start = Clock::now();
  const auto measure_from = start + std::chrono::duration<double>(o.warmup);
  const auto stop = measure_from + std::chrono::duration<double>(o.seconds);
  Tally tally;
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
      if (o.stateless) {
        headers.emplace("MCP-Protocol-Version", "2026-07-28");
        headers.emplace("Mcp-Method", "tools/call");
        headers.emplace("Mcp-Name", "search_orders");
      } else {
        auto init = client.Post(path, headers, std::string(kInitialize), "application/json");
        if (!init || init->status != 200) {
          tally.add(micros, 1);
          return;
        }
        if (init->has_header("Mcp-Session-Id"))
          headers.emplace("Mcp-Session-Id", init->get_header_value("Mcp-Session-Id"));
        headers.emplace("MCP-Protocol-Version", "2025-11-25");
        client.Post(path, headers, std::string(kInitialized), "application/json");
      }
      for (long long id = 1;; ++id) {
        const auto before = Clock::now();
        if (before >= stop) break;
        const auto message = message_of(client.Post(path, headers, call(id, o.stateless), "application/json"));
        const auto after = Clock::now();
        if (!answered(message, id)) ++errors;
        if (before >= measure_from) micros.push_back(std::chrono::duration<double, std::micro>(after - before).count());
      }
      tally.add(micros, errors);
    });
  for (auto& t : clients) t.join();
  report(o, tally, o.seconds);
}

// ---- the echo servers -------------------------------------------------------------------------------

std::string canned(const json& id) {
  return R"({"jsonrpc":"2.0","id":)" + id.dump() +
         R"(,"result":{"content":[{"type":"text","text":"[]"}],)"
         R"("structuredContent":{"result":[]},"isError":false}})";
}

int echo_stdio() {
  std::string line;
  while (std::getline(std::cin, line)) {
    const auto message = json::parse(line, nullptr, false);
    if (!message.is_object() || !message.contains("id")) continue;
    std::cout << (message.value("method", "") == "initialize"
                      ? R"({"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-11-25","capabilities":{},)"
                        R"("serverInfo":{"name":"echo","version":"1"}}})"
                      : canned(message["id"]))
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
                             : canned(message["id"]),
                         "application/json");
  });
  return server.listen("127.0.0.1", port) ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  if (!args.empty() && args[0] == "--echo-stdio") return echo_stdio();
  if (args.size() == 2 && args[0] == "--echo-http") return echo_http(std::atoi(args[1].c_str()));
  Options o;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const auto next = [&] {
      if (i + 1 >= args.size()) throw std::invalid_argument(args[i] + " needs a value");
      return args[++i];
    };
    if (args[i] == "--label")
      o.label = next();
    else if (args[i] == "--clients")
      o.clients = std::max(1, std::atoi(next().c_str()));
    else if (args[i] == "--seconds")
      o.seconds = std::atof(next().c_str());
    else if (args[i] == "--warmup")
      o.warmup = std::atof(next().c_str());
    else if (args[i] == "--http")
      o.transport = "http", o.url = next();
    else if (args[i] == "--stateless")
      o.stateless = true;
    else if (args[i] == "--stdio") {
      o.transport = "stdio";
      if (i + 1 < args.size() && args[i + 1] == "--") ++i;
      o.command.assign(args.begin() + static_cast<long>(i) + 1, args.end());
      break;
    } else {
      std::cerr << "mcp_load: unknown argument " << args[i] << "\n";
      return 2;
    }
  }
  if (o.transport.empty() || (o.transport == "stdio" && o.command.empty())) {
    std::cerr << "usage: mcp_load [--label L] [--clients N] [--seconds S] [--warmup W] (--http URL [--stateless] | "
                 "--stdio -- "
                 "CMD...)\n";
    return 2;
  }
  try {
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
