#pragma once
// MCP over a byte stream: one JSON-RPC message per line in each direction (the stdio binding, which
// works unchanged over a socket or pipes).

#include <functional>

#include "protocol.hpp"

namespace ptc::mcp {

/// Serves `in_fd` -> `out_fd` until end of input, an unwritable output, or a byte on `stop_fd` (-1:
/// none). After end of input, calls in flight get `options.shutdown_grace` to finish and answer; then,
/// or at once on a stop, they are cancelled and get the grace period again. Calls still running after
/// that make it call `on_stuck` (which may exit the process) and then wait for them. Descriptors are
/// not closed.
void serve_stream(const Protocol& protocol, int in_fd, int out_fd, int stop_fd, const std::function<void()>& on_stuck);

}  // namespace ptc::mcp
