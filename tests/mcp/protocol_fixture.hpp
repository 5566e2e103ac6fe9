#pragma once
// What the Protocol tests share (protocol_test, protocol_served_test): a registry, a Protocol over it
// and one client, and requests answered on the test's thread, a call's work included.

#include <memory>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <ptc/registry.hpp>

#include "protocol.hpp"

namespace ptc_test {

/// The `_meta` of a 2026-07-28 request from a client that declares no capability.
inline nlohmann::json meta() {
  return nlohmann::json{{"io.modelcontextprotocol/protocolVersion", "2026-07-28"},
                        {"io.modelcontextprotocol/clientCapabilities", nlohmann::json::object()}};
}

class ProtocolFixture : public ::testing::Test {
 protected:
  ptc::ToolRegistry registry;
  ptc::mcp::ServerOptions options;
  std::unique_ptr<ptc::mcp::Protocol> protocol;
  std::shared_ptr<ptc::mcp::Client> client;

  /// A new Protocol (with `options` as they are now) and a new client.
  void reset() {
    protocol = std::make_unique<ptc::mcp::Protocol>(registry, ptc::mcp::ServerInfo{"srv", "9.9"}, options);
    client = std::make_shared<ptc::mcp::Client>(protocol->new_session());
  }
  /// The answer to one request, running a tool call on this thread.
  nlohmann::json ask(const nlohmann::json& message) { return ask_text(message.dump()); }
  /// The same for a request's text, which the reader may refuse.
  nlohmann::json ask_text(const std::string& message) {
    auto read = ptc::mcp::jsonrpc::read(message);
    if (read.refusal) return nlohmann::json::parse(read.refusal->response.dump());
    auto reply = protocol->handle(client, *read.message, [](const auto&) {});
    if (reply.response) return nlohmann::json::parse(reply.response->dump());
    if (reply.response_line) return nlohmann::json::parse(*reply.response_line);
    if (reply.call) {
      auto out = reply.call();
      return out ? nlohmann::json::parse(*out) : nlohmann::json("no response");
    }
    return nlohmann::json("nothing");
  }
};

}  // namespace ptc_test
