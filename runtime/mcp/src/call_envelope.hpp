#pragma once
// The fast way in for the one message a busy server mostly reads: a `tools/call` request. It is read
// with simdjson, whose pass over the text validates it entirely, and only the envelope becomes a JSON
// tree; the arguments stay the text they were sent as, for the tool's decoder. Anything unusual (a
// syntax error, a repeated key, deep nesting, escaped member names, another method) is declined, and
// jsonrpc::read's full parse answers it as before: this path accepts a subset of what that one
// accepts, with the same result (tests/fuzz/fuzz_jsonrpc.cpp holds them to it).

#include <optional>
#include <string_view>

#include "jsonrpc.hpp"

namespace ptc::mcp::jsonrpc {

/// The request `text` holds when it is a well-formed `tools/call` whose `params.arguments` is an
/// object: params without `arguments`, and `arguments_text` its text. nullopt for anything else.
std::optional<Message> read_tool_call(std::string_view text);

}  // namespace ptc::mcp::jsonrpc
