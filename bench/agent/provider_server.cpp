// The agent benchmark's model: a loopback OpenAI Chat Completions endpoint that answers every request
// from the request alone, so that any number of clients can run the same two-turn conversation
// against it without a script. A request whose last message is not a tool result gets two tool calls
// (`search` and `add`); one whose last message is a tool result gets the final answer. Both as one
// JSON body or, for `"stream": true`, as server-sent events with the calls' arguments split the way
// OpenAI splits them.
//
//   agent_provider_server [PORT]     prints "PORT <port>" once listening (0 or none: any free port)
//
// It runs in its own process, so its CPU is never counted against a client; it is kept cheap anyway
// (no recording, one parse of the request) so that the machine's second core stays free for the
// client. One thread per connection, synchronous: clients keep one connection alive across requests.

#include <atomic>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/http/parser.hpp>
#include <boost/beast/http/read.hpp>
#include <boost/beast/http/string_body.hpp>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = asio::ip::tcp;
using boost::system::error_code;
using nlohmann::json;

// Ids must differ between requests: clients key tool results by call id, and a client that cached
// anything by id would otherwise be measured doing less work than a real conversation asks of it.
std::atomic<unsigned long long> request_counter{0};

constexpr std::string_view kFinalText = "Found 2 results for cats; 2 + 3 = 5.";
constexpr long long kCreated = 1700000000;

json usage_json(bool tools) {
  const int prompt = tools ? 64 : 112;
  const int completion = tools ? 38 : 14;
  return json{{"prompt_tokens", prompt}, {"completion_tokens", completion}, {"total_tokens", prompt + completion}};
}

struct Call {
  std::string id;
  std::string name;
  // The arguments' JSON text in the pieces a stream sends them in; joined, the whole arguments.
  std::vector<std::string> pieces;
};

std::vector<Call> calls_for(unsigned long long n) {
  const std::string prefix = "call_" + std::to_string(n) + "_";
  return {Call{prefix + "0", "search", {R"({"query":)", R"("cats"})"}},
          Call{prefix + "1", "add", {R"({"a":2,)", R"("b":3})"}}};
}

bool wants_tool_calls(const json& body) {
  const auto messages = body.find("messages");
  if (messages == body.end() || !messages->is_array() || messages->empty()) return true;
  const json& last = messages->back();
  return !(last.is_object() && last.value("role", "") == "tool");
}

std::string completion_body(const json& request, bool tools, unsigned long long n) {
  json message = {{"role", "assistant"}};
  if (tools) {
    message["content"] = nullptr;
    json calls = json::array();
    for (const Call& call : calls_for(n)) {
      std::string arguments;
      for (const std::string& piece : call.pieces) arguments += piece;
      calls.push_back(
          {{"id", call.id}, {"type", "function"}, {"function", {{"name", call.name}, {"arguments", arguments}}}});
    }
    message["tool_calls"] = std::move(calls);
  } else {
    message["content"] = kFinalText;
  }
  const json body = {{"id", "chatcmpl-" + std::to_string(n)},
                     {"object", "chat.completion"},
                     {"created", kCreated},
                     {"model", request.value("model", "bench")},
                     {"choices", json::array({{{"index", 0},
                                               {"message", std::move(message)},
                                               {"logprobs", nullptr},
                                               {"finish_reason", tools ? "tool_calls" : "stop"}}})},
                     {"usage", usage_json(tools)}};
  return body.dump();
}

// The events of a streamed answer, each a whole "data: ...\n\n" block, in the order OpenAI sends
// them: the role, then each call's id and name with empty arguments followed by argument pieces (or
// the text in pieces), the finish reason, a usage chunk with no choices, and [DONE].
std::vector<std::string> completion_events(const json& request, bool tools, unsigned long long n) {
  const json base = {{"id", "chatcmpl-" + std::to_string(n)},
                     {"object", "chat.completion.chunk"},
                     {"created", kCreated},
                     {"model", request.value("model", "bench")}};
  std::vector<std::string> events;
  auto add = [&](json delta, const json& finish_reason) {
    json chunk = base;
    chunk["choices"] = json::array({{{"index", 0}, {"delta", std::move(delta)}, {"finish_reason", finish_reason}}});
    events.push_back("data: " + chunk.dump() + "\n\n");
  };
  if (tools) {
    const std::vector<Call> calls = calls_for(n);
    for (std::size_t i = 0; i < calls.size(); ++i) {
      json first = {{"index", i},
                    {"id", calls[i].id},
                    {"type", "function"},
                    {"function", {{"name", calls[i].name}, {"arguments", ""}}}};
      json delta = {{"tool_calls", json::array({std::move(first)})}};
      if (i == 0) delta = {{"role", "assistant"}, {"content", nullptr}, {"tool_calls", delta["tool_calls"]}};
      add(std::move(delta), nullptr);
      for (const std::string& piece : calls[i].pieces)
        add({{"tool_calls", json::array({{{"index", i}, {"function", {{"arguments", piece}}}}})}}, nullptr);
    }
    add(json::object(), "tool_calls");
  } else {
    add({{"role", "assistant"}, {"content", ""}}, nullptr);
    const std::string_view text = kFinalText;
    const std::size_t half = text.size() / 2;
    add({{"content", text.substr(0, half)}}, nullptr);
    add({{"content", text.substr(half)}}, nullptr);
    add(json::object(), "stop");
  }
  json usage = base;
  usage["choices"] = json::array();
  usage["usage"] = usage_json(tools);
  events.push_back("data: " + usage.dump() + "\n\n");
  events.push_back("data: [DONE]\n\n");
  return events;
}

std::string head(int status, std::string_view content_type, bool chunked, std::size_t length, bool keep_alive) {
  std::string out = "HTTP/1.1 " + std::to_string(status) + (status == 200 ? " OK\r\n" : " Error\r\n");
  out += "Content-Type: ";
  out += content_type;
  out += "\r\n";
  out += chunked ? std::string("Transfer-Encoding: chunked\r\nCache-Control: no-cache\r\n")
                 : "Content-Length: " + std::to_string(length) + "\r\n";
  out += keep_alive ? "Connection: keep-alive\r\n\r\n" : "Connection: close\r\n\r\n";
  return out;
}

std::string chunk(std::string_view bytes) {
  char size[24];
  const int n = std::snprintf(size, sizeof size, "%zx\r\n", bytes.size());
  std::string out(size, static_cast<std::size_t>(n));
  out.append(bytes).append("\r\n");
  return out;
}

bool send_json(tcp::socket& socket, int status, const std::string& body, bool keep_alive) {
  error_code ec;
  const std::string header = head(status, "application/json", false, body.size(), keep_alive);
  const std::vector<asio::const_buffer> buffers{asio::buffer(header), asio::buffer(body)};
  asio::write(socket, buffers, ec);
  return !ec;
}

bool send_error(tcp::socket& socket, int status, std::string_view message, bool keep_alive) {
  return send_json(socket, status, json{{"error", {{"message", message}, {"type", "invalid_request_error"}}}}.dump(),
                   keep_alive);
}

// Each event is its own write, as a real provider's events leave it one at a time: the client reads
// and parses the stream in the pieces it would get over the network (however the kernel coalesces
// them on loopback), not as one buffer.
bool send_events(tcp::socket& socket, const std::vector<std::string>& events, bool keep_alive) {
  error_code ec;
  asio::write(socket, asio::buffer(head(200, "text/event-stream", true, 0, keep_alive)), ec);
  for (const std::string& event : events) {
    if (ec) return false;
    asio::write(socket, asio::buffer(chunk(event)), ec);
  }
  if (!ec) asio::write(socket, asio::buffer(std::string_view("0\r\n\r\n")), ec);
  return !ec;
}

bool answer(tcp::socket& socket, const http::request<http::string_body>& request, bool keep_alive) {
  if (request.method() != http::verb::post || request.target() != "/v1/chat/completions")
    return send_error(socket, 404, "only POST /v1/chat/completions is served", keep_alive);
  json body = json::parse(request.body(), nullptr, false);
  if (!body.is_object()) return send_error(socket, 400, "the body is not a JSON object", keep_alive);
  const unsigned long long n = ++request_counter;
  const bool tools = wants_tool_calls(body);
  const auto stream = body.find("stream");
  if (stream != body.end() && stream->is_boolean() && stream->get<bool>())
    return send_events(socket, completion_events(body, tools, n), keep_alive);
  return send_json(socket, 200, completion_body(body, tools, n), keep_alive);
}

void serve(tcp::socket socket) {
  error_code ec;
  // Events go out as they are written rather than waiting on Nagle for the previous one's ACK.
  socket.set_option(tcp::no_delay(true), ec);
  beast::flat_buffer buffer;
  for (;;) {
    http::request_parser<http::string_body> parser;
    parser.body_limit(std::size_t{16} << 20);
    http::read(socket, buffer, parser, ec);
    if (ec) break;
    const bool keep_alive = parser.get().keep_alive();
    bool ok = false;
    try {
      ok = answer(socket, parser.get(), keep_alive);
    } catch (const std::exception& e) {
      send_error(socket, 500, e.what(), false);
    }
    if (!ok || !keep_alive) break;
  }
  socket.shutdown(tcp::socket::shutdown_both, ec);
  socket.close(ec);
}

}  // namespace

int main(int argc, char** argv) {
  try {
    const unsigned long port = argc > 1 ? std::strtoul(argv[1], nullptr, 10) : 0;
    if (port > 65535) {
      std::fprintf(stderr, "usage: agent_provider_server [PORT]\n");
      return 2;
    }
    asio::io_context io;
    const tcp::endpoint endpoint(asio::ip::make_address("127.0.0.1"), static_cast<unsigned short>(port));
    tcp::acceptor acceptor(io);
    acceptor.open(endpoint.protocol());
    acceptor.set_option(tcp::acceptor::reuse_address(true));
    acceptor.bind(endpoint);
    acceptor.listen();
    std::printf("PORT %u\n", static_cast<unsigned>(acceptor.local_endpoint().port()));
    std::fflush(stdout);
    for (;;) {
      tcp::socket socket(io);
      error_code ec;
      acceptor.accept(socket, ec);
      if (ec) {
        // Out of descriptors, say: try again rather than spin.
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
        continue;
      }
      std::thread(serve, std::move(socket)).detach();
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "agent_provider_server: %s\n", e.what());
    return 1;
  }
}
