// libFuzzer target: the MCP dispatcher, fed what a client may send: the input is a session of messages,
// one per line, read and handled in order as the stdio transport does (tool calls run on this thread).
//
// Oracles: nothing throws out of the dispatcher; every request is answered exactly once, with its own id
// (a cancelled call excepted), and every message the server writes (responses, progress) is one line of
// JSON-RPC 2.0; a response is a result or an error, never both.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include <ptc/registry.hpp>
#include <ptc/tool.hpp>
#include <ptc/tool_context.hpp>

#include "fuzz_common.hpp"
#include "jsonrpc.hpp"
#include "protocol.hpp"

namespace {

namespace rpc = ptc::mcp::jsonrpc;
using nlohmann::json;

const ptc::ToolRegistry& registry() {
  static const auto tools = [] {
    auto owned = std::make_unique<ptc::ToolRegistry>();
    auto& r = *owned;
    using Result = ptc::ToolResult<json>;
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
    return owned;
  }();
  return *tools;
}

void check_line(const rpc::Json& message, std::string_view input) {
  const std::string line = rpc::line(message);
  if (line.find('\n') != std::string::npos || line.find('\r') != std::string::npos)
    ptc_fuzz::oracle_failure("a server message that is not one line", "line", line, "input", input);
  if (message.value("jsonrpc", "") != "2.0")
    ptc_fuzz::oracle_failure("a server message without jsonrpc 2.0", "line", line, "input", input);
}

void check_response(const rpc::Json& response, const json& id, std::string_view input) {
  check_line(response, input);
  if (response.contains("result") == response.contains("error"))
    ptc_fuzz::oracle_failure("a response that is not exactly one of result and error", "response", rpc::line(response),
                             "input", input);
  if (json::parse(response.at("id").dump()) != id)
    ptc_fuzz::oracle_failure("a response with another request's id", "response", rpc::line(response), "input", input);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto input = ptc_fuzz::as_text(data, size);
  ptc::mcp::ServerOptions options;
  ptc::mcp::Protocol protocol(registry(), {"fuzz", "1.0"}, options);
  auto client = std::make_shared<ptc::mcp::Client>(protocol.new_session());
  const auto notify = [input](const rpc::Json& message) { check_line(message, input); };

  std::size_t start = 0;
  while (start <= input.size()) {
    const std::size_t end = std::min(input.find('\n', start), input.size());
    const auto text = input.substr(start, end - start);
    start = end + 1;
    if (text.empty()) continue;
    const auto read = rpc::read(text);
    if (read.refusal) {
      check_line(read.refusal->response, input);
      continue;
    }
    const auto& message = *read.message;
    const bool request = message.kind == rpc::Message::Kind::Request;
    auto reply = protocol.handle(client, message, notify);
    if (reply.response && reply.call)
      ptc_fuzz::oracle_failure("a reply that is both an answer and a call", "message", text);
    if (reply.response) {
      if (!request) ptc_fuzz::oracle_failure("a notification or response that got an answer", "message", text);
      check_response(*reply.response, message.id, input);
    } else if (reply.call) {
      if (!request) ptc_fuzz::oracle_failure("a notification that started a call", "message", text);
      // Nothing cancels calls here (cancellations arrive between lines, after the call has run), so
      // every call answers.
      auto response = reply.call();
      if (!response) ptc_fuzz::oracle_failure("a call that was not cancelled and sent no response", "message", text);
      // The call's answer is written as text: it must be one line of JSON, and the same bytes the
      // server writes for the message it parses to.
      const auto parsed = rpc::Json::parse(*response, nullptr, false);
      if (parsed.is_discarded() || rpc::line(parsed) != *response)
        ptc_fuzz::oracle_failure("a call's answer that is not one compact JSON line", "line", *response, "input",
                                 input);
      check_response(parsed, message.id, input);
    } else if (request) {
      ptc_fuzz::oracle_failure("a request without an answer", "message", text, "input", input);
    }
  }
  return 0;
}
