// libFuzzer target: the MCP dispatcher, fed what a client may send: the input is a session of messages,
// one per line, read and handled in order as the stdio transport does (calls run on this thread).
//
// The registry serves tools, resources (a static one, a template with an int variable, a `{+path}`
// one, a template whose reader asks the client), prompts with arguments (one asks the client),
// completers, and tools that elicit, sample and list roots, so that messages reach every method of
// both eras: 2025 after an `initialize` (the server's questions go out on the stream as requests
// "ptc-1", "ptc-2", ... and the client's JSON-RPC responses come back), 2026-07-28 with `_meta`
// (questions come back as `input_required` results, and the retried request brings `inputResponses`
// and `requestState`).
//
// The harness plays the client's part in two ways:
//   - when a running 2025 handler sends the client a question, the harness hands the dispatcher the
//     input's next lines up to and including one response, as long as they are notifications (a
//     cancellation) or responses, before the handler waits: what the stdio transport's reader does
//     while the call runs on a worker, with a client that answers each question as it reads it. A
//     question no line answers fails at once (ServerOptions::client_answer_timeout is zero: every
//     answer there will be is in before the wait), so no handler waits and runs stay fast;
//   - `@state` anywhere in a line is replaced by the requestState of the last `input_required` result,
//     so that retries can bring state this process sealed (the fuzzer cannot forge one).
//
// Oracles: nothing throws out of the dispatcher; every request is answered exactly once, with its own
// id, unless it was cancelled while it ran (and then it is not answered); notifications and responses
// are never answered; every message the server writes (responses, progress, its own requests) is one
// line of JSON-RPC 2.0, and none quotes a JSON library exception (what the client sent was read as a
// type it does not have); a response is a result or an error, never both, and an error has an integer
// code and a string message; the server's own requests are 2025 only, have fresh string ids and ask
// elicitation/create, sampling/createMessage or roots/list; a 2026-07-28 result says its resultType,
// and an `input_required` one carries its questions and a requestState; no call runs for long.

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include <ptc/client_requests.hpp>
#include <ptc/content.hpp>
#include <ptc/prompt_template.hpp>
#include <ptc/registry.hpp>
#include <ptc/resource.hpp>
#include <ptc/schema.hpp>
#include <ptc/tool.hpp>
#include <ptc/tool_context.hpp>

#include "fuzz_common.hpp"
#include "jsonrpc.hpp"
#include "protocol.hpp"

namespace {

namespace rpc = ptc::mcp::jsonrpc;
using nlohmann::json;
using Result = ptc::ToolResult<json>;

/// Values that start with what was typed, from a fixed list.
ptc::Completer starting_with(std::vector<std::string> values) {
  return [values = std::move(values)](const ptc::CompletionRequest& r) {
    std::vector<std::string> out;
    for (const auto& v : values)
      if (v.rfind(r.value, 0) == 0) out.push_back(v);
    return out;
  };
}

ptc::Schema name_form() {
  ptc::MapEntry name("name", ptc::Schema::string());
  name.doc = "Your name";
  return ptc::Schema::map({name, ptc::MapEntry("ok", ptc::Schema::boolean())});
}

void add_tools(ptc::ToolRegistry& r) {
  r.add(ptc::make_tool("add", "Adds.", "(a :int, b :int?) -> :int", [](const json& args, ptc::ToolContext&) {
    return Result::ok(args["a"].get<long long>() / 2 + (args["b"].is_null() ? 0 : args["b"].get<long long>() / 2));
  }));
  r.add(ptc::make_tool("shape", "Echoes a shape.", "(s {name :string, tags [:string]}, at :string?) -> :any",
                       [](const json& args, ptc::ToolContext& context) {
                         context.report_progress(1, 2, "half");
                         return Result::ok(args);
                       }));
  r.add(ptc::make_tool("fail", "Fails.", "() -> :string",
                       [](const json&, ptc::ToolContext&) { return Result::error("no"); }));
  // Asks the user, twice when the first answer accepts (a second round in 2026-07-28).
  r.add(ptc::make_tool("ask", "Asks the user.", "(message :string?) -> :string",
                       [](const json& args, ptc::ToolContext& c) {
                         const std::string message = args["message"].is_string() ? args["message"].get<std::string>()
                                                                                 : std::string("Your name?");
                         auto first = c.elicit(message, name_form(), "first");
                         if (!first) return Result::error(first.error().message);
                         if (!first->accepted()) return Result::ok("declined");
                         auto second = c.elicit("Sure?", name_form(), "second");
                         if (!second) return Result::error(second.error().message);
                         return Result::ok(first->value->dump() + (second->accepted() ? " confirmed" : " not sure"));
                       }));
  r.add(ptc::make_tool("sample", "Asks the client's model.", "(prompt :string) -> :string",
                       [](const json& args, ptc::ToolContext& c) {
                         ptc::SamplingRequest request{{{"user", args.at("prompt").get<std::string>()}}};
                         request.max_tokens = 10;
                         request.key = "answer";
                         auto sample = c.sample(request);
                         if (!sample) return Result::error(sample.error().message);
                         return Result::ok(sample->text + "|" + sample->model + "|" + sample->stop_reason);
                       }));
  r.add(ptc::make_tool("roots", "Lists the client's roots.", "() -> [:string]", [](const json&, ptc::ToolContext& c) {
    auto roots = c.roots("roots");
    if (!roots) return Result::error(roots.error().message);
    json out = json::array();
    for (const auto& root : *roots) out.push_back(root.uri + " " + root.name);
    return Result::ok(out);
  }));
  // Three questions at once: three requests in flight in 2025, one round in 2026-07-28.
  r.add(ptc::make_tool("ask_all", "Asks everything at once.", "() -> :int", [](const json&, ptc::ToolContext& c) {
    auto form = ptc::detail::elicitation_schema(name_form());
    auto answers = c.ask_client(
        {{"user", "elicitation/create", json{{"message", "Name?"}, {"requestedSchema", *form}}},
         {"model", "sampling/createMessage",
          json{{"messages", {{{"role", "user"}, {"content", {{"type", "text"}, {"text", "Hi"}}}}}}, {"maxTokens", 5}}},
         {"where", "roots/list", json::object()}});
    if (!answers) return Result::error(answers.error().message);
    return Result::ok(static_cast<long long>(answers->size()));
  }));
  ptc::ToolOptions needs_sampling;
  needs_sampling.client_capabilities = {"sampling"};
  r.add(ptc::make_tool(
      "must_sample", "Needs sampling.", "() -> :string",
      [](const json&, ptc::ToolContext& c) {
        c.require_client("roots");  // not declared as needed: a 2026 client without it gets -32021 from here
        auto sample = c.sample({{{"user", "Hello"}}});
        if (!sample) return Result::error(sample.error().message);
        return Result::ok(sample->text);
      },
      needs_sampling));
}

void add_resources(ptc::ToolRegistry& r) {
  r.add_resource(ptc::make_resource("mem://readme", "readme", "The readme.", "() -> :string",
                                    [](const json&, ptc::ToolContext&) { return Result::ok("# Read me"); },
                                    {.title = "Read me", .mime_type = "text/markdown"}));
  r.add_resource(
      ptc::make_resource("mem://logo", "logo", "The logo.", "() -> :string", [](const json&, ptc::ToolContext& c) {
        c.attach(ptc::Content::resource_blob("mem://logo", "image/png", std::string("\x89PNG\0\n", 6)));
        return Result::ok("");
      }));
  ptc::ResourceOptions issue;
  issue.completers["id"] = starting_with({"1", "12", "123", "2", "404"});
  r.add_resource(ptc::make_resource(
      "mem://issues/{id}", "issue", "One issue.", "(id [:and :int [:> 0]]) -> {id :int, title :string}",
      [](const json& args, ptc::ToolContext&) {
        if (args.at("id") == 404) return Result::error("Issue 404 does not exist.");
        return Result::ok(json{{"id", args.at("id")}, {"title", "Crash"}});
      },
      issue));
  ptc::ResourceOptions files;
  files.completers["path"] = [](const ptc::CompletionRequest& request) {
    std::vector<std::string> out;  // more than a completion may carry
    for (int i = 0; i < 150; ++i) out.push_back(std::string(request.value) + std::to_string(i));
    return out;
  };
  r.add_resource(ptc::make_resource(
      "file:///{+path}", "file", "A file.", "(path :string) -> :string",
      [](const json& args, ptc::ToolContext&) { return Result::ok(args.at("path")); }, files));
  // A reader that asks the client: resources/read goes through the round trips too.
  r.add_resource(ptc::make_resource("mem://ask/{topic}/{level}", "ask_topic", "Asks about a topic.",
                                    "(topic :string, level [:enum \"low\" \"high\"]) -> :string",
                                    [](const json& args, ptc::ToolContext& c) {
                                      auto answer = c.elicit(args.at("topic").get<std::string>(), name_form());
                                      if (!answer) return Result::error(answer.error().message);
                                      return Result::ok(answer->accepted() ? answer->value->dump() : "no");
                                    }));
}

void add_prompts(ptc::ToolRegistry& r) {
  ptc::PromptTemplateOptions triage;
  triage.completers["issue"] = starting_with({"PTC-1", "PTC-12", "PTC-2"});
  r.add_prompt(ptc::make_prompt(
      "triage", "Triage an issue.", "(issue :string, urgency [:enum \"low\" \"high\"], days :int?) -> :string",
      [](const json& args, ptc::ToolContext& context) {
        context.attach(ptc::Content::resource_text("mem://issues/1", "application/json", "{}"));
        return Result::ok("Triage " + args.at("issue").get<std::string>() + " as " +
                          args.at("urgency").get<std::string>() +
                          (args.contains("days") && !args["days"].is_null() ? " within " + args["days"].dump() : ""));
      },
      triage));
  r.add_prompt(ptc::make_prompt("dialogue", "A dialogue.", "() -> [{role :string, text :string}]",
                                [](const json&, ptc::ToolContext&) {
                                  return Result::ok(json::array({json{{"role", "user"}, {"text", "Hi"}},
                                                                 json{{"role", "assistant"}, {"text", "Hello"}}}));
                                }));
  r.add_prompt(ptc::make_prompt("ask_prompt", "A prompt that asks for context.", "(verbose :bool?) -> :string",
                                [](const json&, ptc::ToolContext& c) {
                                  auto roots = c.roots();
                                  if (!roots) return Result::error(roots.error().message);
                                  return Result::ok(std::to_string(roots->size()) + " roots");
                                }));
}

const ptc::ToolRegistry& registry() {
  static const auto tools = [] {
    auto owned = std::make_unique<ptc::ToolRegistry>();
    add_tools(*owned);
    add_resources(*owned);
    add_prompts(*owned);
    return owned;
  }();
  return *tools;
}

/// The session being replayed: its lines, what the server said so far, the call running.
struct Replay {
  std::string_view input;
  std::size_t next = 0;      ///< where the next line starts
  std::string state;         ///< requestState of the last input_required result
  bool modern_call = false;  ///< the call running is of the 2026-07-28 era
  std::string call_key;      ///< its id (rpc::id_key), or empty when no call runs
  bool call_cancelled = false;
  std::set<std::string> server_ids;  ///< the ids of the server's own requests

  /// The next non-empty line, with `@state` replaced; false at the end.
  bool line(std::string& out, std::size_t& after) const {
    std::size_t start = next;
    while (start <= input.size()) {
      const std::size_t end = std::min(input.find('\n', start), input.size());
      std::string_view text = input.substr(start, end - start);
      start = end + 1;
      if (text.empty()) continue;
      out.clear();
      for (std::size_t at; (at = text.find("@state")) != std::string_view::npos; text.remove_prefix(at + 6))
        out.append(text.substr(0, at)).append(state);
      out.append(text);
      after = start;
      return true;
    }
    return false;
  }
};

/// nlohmann's exception texts come from reading a value as a type it does not have: what the client
/// sent (an answer, params) must be checked before it is read, and a failure said in words. A server
/// message may quote the text only when the client wrote it (as it is, or escaped in a string).
constexpr std::string_view kLibraryError = "[json.exception.";
bool client_wrote_library_error = false;

/// Notes whether a message the client sent holds the text, once decoded.
void read_from_client(const rpc::Message& message) {
  const auto text = message.method + message.id.dump(-1, ' ', false, json::error_handler_t::replace) +
                    message.params.dump(-1, ' ', false, json::error_handler_t::replace);
  if (text.find(kLibraryError) != std::string::npos) client_wrote_library_error = true;
}

void check_line(const rpc::Json& message, std::string_view input) {
  const std::string line = rpc::line(message);
  if (line.find('\n') != std::string::npos || line.find('\r') != std::string::npos)
    ptc_fuzz::oracle_failure("a server message that is not one line", "line", line, "input", input);
  if (!message.is_object() || message.value("jsonrpc", "") != "2.0")
    ptc_fuzz::oracle_failure("a server message without jsonrpc 2.0", "line", line, "input", input);
  if (!client_wrote_library_error && line.find(kLibraryError) != std::string::npos)
    ptc_fuzz::oracle_failure("a server message that quotes a JSON library exception", "line", line, "input", input);
}

void check_response(const rpc::Json& response, const json& id, bool modern, std::string_view input) {
  check_line(response, input);
  const std::string line = rpc::line(response);
  if (response.contains("result") == response.contains("error"))
    ptc_fuzz::oracle_failure("a response that is not exactly one of result and error", "response", line, "input",
                             input);
  if (response.contains("method")) ptc_fuzz::oracle_failure("a response with a method", "response", line);
  if (!response.contains("id") || json::parse(response.at("id").dump()) != id)
    ptc_fuzz::oracle_failure("a response with another request's id", "response", line, "input", input);
  if (auto error = response.find("error"); error != response.end()) {
    if (!error->is_object() || !error->contains("code") || !(*error)["code"].is_number_integer() ||
        !error->contains("message") || !(*error)["message"].is_string())
      ptc_fuzz::oracle_failure("an error without an integer code and a string message", "response", line, "input",
                               input);
    return;
  }
  const auto& result = response["result"];
  const std::string type = result.is_object() ? result.value("resultType", "") : "";
  if (!modern) {
    if (type == "input_required")
      ptc_fuzz::oracle_failure("a 2025 result that asks for input", "response", line, "input", input);
    return;
  }
  if (type == "input_required") {
    const auto& requests = result.value("inputRequests", rpc::Json());
    if (!requests.is_object() || requests.empty() || !result.contains("requestState") ||
        !result["requestState"].is_string())
      ptc_fuzz::oracle_failure("an input_required result without questions and state", "response", line, "input",
                               input);
    for (const auto& request : requests) {
      const std::string method = request.is_object() ? request.value("method", "") : "";
      if (method != "elicitation/create" && method != "sampling/createMessage" && method != "roots/list")
        ptc_fuzz::oracle_failure("an input request of another method", "response", line, "input", input);
    }
  } else if (type != "complete") {
    ptc_fuzz::oracle_failure("a 2026-07-28 result without its resultType", "response", line, "input", input);
  }
}

/// A request the server sent its client while a call ran.
void check_server_request(Replay& replay, const rpc::Json& message) {
  const std::string line = rpc::line(message);
  if (replay.call_key.empty())
    ptc_fuzz::oracle_failure("a server request outside a call", "message", line, "input", replay.input);
  if (replay.modern_call)
    ptc_fuzz::oracle_failure("a 2026-07-28 call that asked on the stream", "message", line, "input", replay.input);
  const auto& id = message["id"];
  if (!id.is_string() || id.get<std::string>().rfind("ptc-", 0) != 0 ||
      !replay.server_ids.insert(id.get<std::string>()).second)
    ptc_fuzz::oracle_failure("a server request without a fresh ptc-N id", "message", line, "input", replay.input);
  const std::string method = message.value("method", "");
  if (method != "elicitation/create" && method != "sampling/createMessage" && method != "roots/list")
    ptc_fuzz::oracle_failure("a server request of another method", "message", line, "input", replay.input);
  if (!message.contains("params") || !message["params"].is_object())
    ptc_fuzz::oracle_failure("a server request without params", "message", line, "input", replay.input);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto input = ptc_fuzz::as_text(data, size);
  ptc::mcp::ServerOptions options;
  options.client_answer_timeout = std::chrono::milliseconds(0);  // answers arrive before the wait, or never
  ptc::mcp::Protocol protocol(registry(), {"fuzz", "1.0"}, options);
  auto client = std::make_shared<ptc::mcp::Client>(protocol.new_session());
  Replay replay;
  replay.input = input;
  client_wrote_library_error = input.find(kLibraryError) != std::string_view::npos;  // a refusal quotes the line

  ptc::mcp::Notify notify;
  // What a handler sends while it runs: progress, or a question to the client, which the input's next
  // responses and notifications answer (handled before the handler waits, as a transport's reader
  // would while the call runs on a worker).
  notify = [&](const rpc::Json& message) {
    check_line(message, input);
    if (!message.contains("id")) {
      if (message.value("method", "").rfind("notifications/", 0) != 0)
        ptc_fuzz::oracle_failure("a server message that is neither a request nor a notification", "message",
                                 rpc::line(message), "input", input);
      return;
    }
    check_server_request(replay, message);
    // The client reads each question as it is sent, so it answers (at most) one per question: the
    // notifications before the next response, and that response.
    std::string text;
    std::size_t after = 0;
    bool answered = false;
    while (!answered && replay.line(text, after)) {
      const auto read = rpc::read(text);
      if (!read.message || read.message->kind == rpc::Message::Kind::Request) break;
      replay.next = after;
      const auto& answer = *read.message;
      read_from_client(answer);
      answered = answer.kind == rpc::Message::Kind::Response;
      if (answer.kind == rpc::Message::Kind::Notification && answer.method == "notifications/cancelled") {
        auto id = answer.params.find("requestId");
        if (id != answer.params.end() && (id->is_string() || id->is_number_integer()) &&
            rpc::id_key(*id) == replay.call_key)
          replay.call_cancelled = true;
      }
      auto reply = protocol.handle(client, answer, notify);
      if (reply.response || reply.response_line || reply.call)
        ptc_fuzz::oracle_failure("a response or notification that got an answer", "message", text, "input", input);
    }
  };

  std::string text;
  std::size_t after = 0;
  while (replay.line(text, after)) {
    replay.next = after;
    const auto read = rpc::read(text);
    if (read.refusal) {
      check_line(read.refusal->response, input);
      continue;
    }
    const auto& message = *read.message;
    read_from_client(message);
    const bool request = message.kind == rpc::Message::Kind::Request;
    const bool modern = ptc::mcp::modern_version(message) == std::string(ptc::mcp::kModernVersion);
    auto reply = protocol.handle(client, message, notify);
    if (int(bool(reply.response)) + int(bool(reply.response_line)) + int(bool(reply.call)) > 1)
      ptc_fuzz::oracle_failure("a reply that is more than one of an answer, an answer's text and a call", "message",
                               text);
    if (reply.response_line) {
      // An answer written as text must be one compact line of JSON, as the tree it parses to writes.
      const auto parsed = rpc::Json::parse(*reply.response_line, nullptr, false);
      if (parsed.is_discarded() || rpc::line(parsed) != *reply.response_line)
        ptc_fuzz::oracle_failure("an answer's text that is not one compact JSON line", "line", *reply.response_line,
                                 "input", input);
      else
        reply.response = parsed;
    }
    if (reply.response) {
      if (!request) ptc_fuzz::oracle_failure("a notification or response that got an answer", "message", text);
      check_response(*reply.response, message.id, modern, input);
    } else if (reply.call) {
      if (!request) ptc_fuzz::oracle_failure("a notification that started a call", "message", text);
      replay.modern_call = modern;
      replay.call_key = rpc::id_key(message.id);
      replay.call_cancelled = false;
      const auto start = std::chrono::steady_clock::now();
      auto response = reply.call();
      if (std::chrono::steady_clock::now() - start > std::chrono::seconds(2))
        ptc_fuzz::oracle_failure("a call that ran for seconds", "message", text, "input", input);
      replay.call_key.clear();
      // Only a cancellation that arrived while the call ran (here: between its questions) silences it.
      if (response.has_value() == replay.call_cancelled)
        ptc_fuzz::oracle_failure(replay.call_cancelled ? "a call cancelled while it ran that still answered"
                                                       : "a call that was not cancelled and sent no response",
                                 "message", text, "input", input);
      if (!response) continue;
      // The call's answer is written as text: it must be one line of JSON, and the same bytes the
      // server writes for the message it parses to.
      const auto parsed = rpc::Json::parse(*response, nullptr, false);
      if (parsed.is_discarded() || rpc::line(parsed) != *response)
        ptc_fuzz::oracle_failure("a call's answer that is not one compact JSON line", "line", *response, "input",
                                 input);
      check_response(parsed, message.id, modern, input);
      if (modern && parsed.contains("result") && parsed["result"].is_object() &&
          parsed["result"].value("resultType", "") == "input_required")
        replay.state = parsed["result"]["requestState"].get<std::string>();
    } else if (request) {
      ptc_fuzz::oracle_failure("a request without an answer", "message", text, "input", input);
    }
  }
  return 0;
}
