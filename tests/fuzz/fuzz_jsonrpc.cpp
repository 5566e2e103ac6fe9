// libFuzzer target: the MCP server's JSON-RPC reader, which reads every line a client (or anything
// that reaches a stdio pipe or an HTTP endpoint) sends.
//
// Oracles: exactly one of message and refusal; the same text reads the same way twice; a refusal is a
// JSON-RPC error response with one of the codes the reader may give, an id that is null, a string or an
// integer, and one line when written; a message's id fits its kind and its params are an object; the
// arguments' text cut out of a call parses to its arguments; and a call the fast way in
// (call_envelope.hpp) accepts reads exactly as the full parse reads it.

#include <cstddef>
#include <cstdint>
#include <string>

#include <ptc/json_input.hpp>

#include "fuzz_common.hpp"
#include "call_envelope.hpp"
#include "jsonrpc.hpp"

namespace {

namespace rpc = ptc::mcp::jsonrpc;

std::string shown(const rpc::ReadResult& r) {
  if (r.refusal) return "refusal " + rpc::line(r.refusal->response);
  const auto& m = *r.message;
  return "message " + std::to_string(static_cast<int>(m.kind)) + " " + m.id.dump() + " " + m.method + " " +
         m.params.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto text = ptc_fuzz::as_text(data, size);
  const auto first = rpc::read(text);
  if (first.message.has_value() == first.refusal.has_value())
    ptc_fuzz::oracle_failure("a read that is neither or both a message and a refusal", "text", text);
  if (shown(first) != shown(rpc::read(text))) ptc_fuzz::oracle_failure("two reads of one text differ", "text", text);

  if (first.refusal) {
    const auto& response = first.refusal->response;
    const auto line = rpc::line(response);
    if (line.find('\n') != std::string::npos || line.find('\r') != std::string::npos)
      ptc_fuzz::oracle_failure("a refusal that is not one line", "line", line, "text", text);
    const int code = response.at("error").at("code").get<int>();
    if (code != rpc::kParseError && code != rpc::kInvalidRequest && code != rpc::kInvalidParams)
      ptc_fuzz::oracle_failure("a refusal with a code the reader does not give", "line", line);
    const auto& id = response.at("id");
    if (!id.is_null() && !id.is_string() && !id.is_number_integer())
      ptc_fuzz::oracle_failure("a refusal whose id is not null, a string or an integer", "line", line);
    if (response.at("jsonrpc") != "2.0") ptc_fuzz::oracle_failure("a refusal without jsonrpc 2.0", "line", line);
    return 0;
  }

  const auto& m = *first.message;
  const bool id_ok = m.id.is_string() || m.id.is_number_integer();
  // An empty method is still a string (JSON-RPC asks no more): the dispatcher answers it "Method not found".
  if (m.kind == rpc::Message::Kind::Request && !id_ok)
    ptc_fuzz::oracle_failure("a request without a usable id", "text", text);
  if (m.kind == rpc::Message::Kind::Notification && !m.id.is_null())
    ptc_fuzz::oracle_failure("a notification with an id", "text", text);
  if (!m.params.is_object()) ptc_fuzz::oracle_failure("params that are not an object", "text", text);
  // The arguments' text, which stands for the arguments, is the object the whole text holds there.
  if (!m.arguments_text.empty()) {
    if (m.params.contains("arguments"))
      ptc_fuzz::oracle_failure("a call with its arguments both as text and as a tree", "text", text);
    const auto reread = ptc::parse_json(m.arguments_text);
    const auto whole = ptc::parse_json(text);
    if (!reread || !whole || *reread != whole->at("params").at("arguments"))
      ptc_fuzz::oracle_failure("arguments text that is not the arguments", "arguments text", m.arguments_text, "text",
                               text);
  }
  // The fast way in for calls accepts only what the full parse accepts, and reads it the same way.
  if (rpc::read_tool_call(text)) {
    const auto parsed = rpc::read_parsed(text);
    if (shown(first) != shown(parsed) || !parsed.message ||
        first.message->arguments_text != parsed.message->arguments_text)
      ptc_fuzz::oracle_failure("the fast read of a call differs from the full parse", "text", text, "parsed",
                               shown(parsed));
  }
  return 0;
}
