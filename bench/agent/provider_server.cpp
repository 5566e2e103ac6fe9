// The agent benchmark's model: a loopback OpenAI Chat Completions endpoint that answers every request
// from the request alone, so that any number of clients can run the same two-turn conversation
// against it without a script. A request whose last message is not a tool result gets two tool calls
// (`search` and `add`); one whose last message is a tool result gets the final answer. Both as one
// JSON body or, for `"stream": true`, as server-sent events with the calls' arguments split the way
// OpenAI splits them.
//
//   agent_provider_server     prints "PORT <port>" once listening on a free loopback port
//
// It runs in its own process, so its CPU is never counted against a client; it is kept cheap anyway
// (one parse of the request, requests not kept) so that the machine's second core stays free for the
// client. It is the provider double of the agent's tests (tests/agent/double), answering by handler:
// one thread per connection, and clients keep one connection alive across requests. Each event of a
// streamed answer is its own chunk, as a real provider's events leave it one at a time.

#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "provider_double.hpp"

namespace {

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

// What a request gets: the next turn of the conversation, whole or streamed as it asked.
ptc_test::Reply answer(const ptc_test::RecordedRequest& request) {
  auto error = [](int status, std::string_view message) {
    return ptc_test::Reply::json(status,
                                 json{{"error", {{"message", message}, {"type", "invalid_request_error"}}}}.dump());
  };
  if (request.method != "POST" || request.target != "/v1/chat/completions")
    return error(404, "only POST /v1/chat/completions is served");
  json body = json::parse(request.body, nullptr, false);
  if (!body.is_object()) return error(400, "the body is not a JSON object");
  const unsigned long long n = ++request_counter;
  const bool tools = wants_tool_calls(body);
  const auto stream = body.find("stream");
  if (stream != body.end() && stream->is_boolean() && stream->get<bool>())
    return ptc_test::Reply::sse(completion_events(body, tools, n));
  return ptc_test::Reply::json(200, completion_body(body, tools, n));
}

}  // namespace

int main() {
  ptc_test::ProviderDouble server;
  server.keep_requests(false);
  server.set_handler(answer);
  std::printf("PORT %u\n", static_cast<unsigned>(server.port()));
  std::fflush(stdout);
  // Serves until killed.
  for (;;) pause();
}
