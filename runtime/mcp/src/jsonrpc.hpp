#pragma once
// JSON-RPC 2.0 as MCP uses it: one message per line (stdio) or per POST body (HTTP), no batches.
// Reading classifies a message and refuses what the protocol does not allow; writing builds the
// three message shapes the server sends.

#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace ptc::mcp::jsonrpc {

/// What the server writes: objects keep the order their keys were set in, so messages read as the
/// spec's examples do and the same input gives the same bytes.
using Json = nlohmann::ordered_json;

// The codes JSON-RPC 2.0 and MCP define.
inline constexpr int kParseError = -32700;
inline constexpr int kInvalidRequest = -32600;
inline constexpr int kMethodNotFound = -32601;
inline constexpr int kInvalidParams = -32602;
inline constexpr int kInternalError = -32603;
inline constexpr int kServerBusy = -32000;  // implementation-defined: the call queue is full
inline constexpr int kHeaderMismatch = -32020;
inline constexpr int kMissingClientCapability = -32021;
inline constexpr int kUnsupportedProtocolVersion = -32022;

/// A message from the client, already checked for shape.
struct Message {
  enum class Kind { Request, Notification, Response };
  Kind kind = Kind::Request;
  nlohmann::json id;  ///< a string or an integer for requests, exactly as sent; null otherwise
  std::string method;
  /// Always an object (absent params read as {}). For a response: {"result": ...} or {"error": ...}.
  nlohmann::json params = nlohmann::json::object();
  /// For tools/call, the text of `params.arguments` exactly as sent, when it is an object; `params`
  /// then has no `arguments` member (the arguments are never built as a tree here: the tool decodes
  /// the text). Empty otherwise (`params.arguments`, if any, as parsed).
  std::string arguments_text{};
};

/// A reply the server owes for input it cannot use: the error response to send (id null when the id
/// could not be read).
struct Refusal {
  Json response;
};

/// Reads one message. Malformed JSON is -32700; a batch (array), a non-object, a wrong `jsonrpc`, an id
/// that is not a string or integer, or a method that is not a string is -32600; params that are not
/// an object are -32602. The text is parsed with ptc's reader: nesting is bounded and repeated keys
/// are refused.
struct ReadResult {
  std::optional<Message> message;
  std::optional<Refusal> refusal;
};
ReadResult read(std::string_view text);
/// read() without its fast way in for tools/call (call_envelope.hpp): every message parsed whole. The
/// reference that fast way is tested against.
ReadResult read_parsed(std::string_view text);

/// `{"jsonrpc":"2.0","id":id,"result":result}`
Json result(const nlohmann::json& id, Json result);
/// `result(id, R)` as one line, for a result `R` that is already compact JSON text (a JSON object).
std::string result_line(const nlohmann::json& id, std::string_view result);
/// `{"jsonrpc":"2.0","id":id,"error":{"code","message","data"?}}`
Json error(const nlohmann::json& id, int code, std::string message, Json data = nullptr);
/// `error(message.id, kInvalidParams, "Invalid params: " + why)`.
Json invalid_params(const Message& message, std::string why);
/// `{"jsonrpc":"2.0","method":method,"params":params}`
Json notification(std::string method, Json params);

/// A message as one line: compact, no newline inside (JSON escapes control characters), bytes that are
/// not UTF-8 replaced rather than thrown on.
std::string line(const Json& message);

/// The text of the value at `path` (member names) in `json`, which must be valid JSON, or nullopt when
/// a member is missing or written with escapes. Iterative: nesting costs no stack.
std::optional<std::string_view> member_text(std::string_view json, std::initializer_list<std::string_view> path);

/// The key under which an in-flight request is tracked: ids 1 and "1" are different requests.
std::string id_key(const nlohmann::json& id);

}  // namespace ptc::mcp::jsonrpc
