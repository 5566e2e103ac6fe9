// The Streamable HTTP endpoint without sockets: DNS-rebinding checks, methods and paths, 2025
// sessions, the 2026-07-28 header rules and status codes, and SSE for calls.
#include <map>

#include <gtest/gtest.h>

#include <ptc/registry.hpp>
#include <ptc/tool.hpp>

#include "http_transport.hpp"

namespace {

using nlohmann::json;
using ptc::mcp::HttpRequest;
using ptc::mcp::HttpResponse;

struct Req {
  std::string method = "POST";
  std::string path = "/mcp";
  std::string body;
  std::multimap<std::string, std::string> headers{{"host", "127.0.0.1:8000"}, {"content-type", "application/json"}};

  /// Replaces every value of a header (names are kept in lower case).
  Req& set(const std::string& name, const std::string& value) {
    headers.erase(name);
    headers.emplace(name, value);
    return *this;
  }

  HttpRequest build() const {
    HttpRequest r;
    r.method = method;
    r.path = path;
    r.body = body;
    r.headers = [h = headers](std::string_view name) {
      std::string lower(name);
      for (auto& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      std::vector<std::string> out;
      for (auto [it, end] = h.equal_range(lower); it != end; ++it) out.push_back(it->second);
      return out;
    };
    return r;
  }
};

std::string header_of(const HttpResponse& r, const std::string& name) {
  for (const auto& [k, v] : r.headers)
    if (k == name) return v;
  return {};
}

json body_of(const HttpResponse& r) { return r.body.empty() ? json() : json::parse(r.body); }

/// The SSE events a streamed response writes.
std::vector<json> events_of(HttpResponse& r) {
  std::string text;
  ptc::mcp::HttpStream stream{[&](std::string_view b) {
                                text.append(b);
                                return true;
                              },
                              [] { return true; }};
  r.stream(stream);
  std::vector<json> events;
  for (std::size_t at = 0; (at = text.find("data: ", at)) != std::string::npos;) {
    auto end = text.find('\n', at);
    events.push_back(json::parse(text.substr(at + 6, end - at - 6)));
    at = end;
  }
  return events;
}

const json kModernMeta{{"io.modelcontextprotocol/protocolVersion", "2026-07-28"},
                       {"io.modelcontextprotocol/clientCapabilities", json::object()}};

class HttpEndpointTest : public ::testing::Test {
 protected:
  ptc::ToolRegistry registry;
  std::unique_ptr<ptc::mcp::Protocol> protocol;
  std::unique_ptr<ptc::mcp::McpHttpEndpoint> endpoint;

  void SetUp() override {
    registry.add(ptc::make_tool("add", "Adds.", "(a :int, b :int) -> :int", [](const json& args, ptc::ToolContext& c) {
      c.report_progress(1, 1, "added");
      return ptc::ToolResult<json>::ok(args["a"].get<int>() + args["b"].get<int>());
    }));
    protocol =
        std::make_unique<ptc::mcp::Protocol>(registry, ptc::mcp::ServerInfo{"s", "1"}, ptc::mcp::ServerOptions{});
    endpoint = std::make_unique<ptc::mcp::McpHttpEndpoint>(*protocol, ptc::mcp::HttpOptions{});
  }
  HttpResponse send(const Req& r) { return endpoint->handle(r.build()); }
  Req modern(const std::string& method, json params = json::object(), json id = 1) {
    params["_meta"] = kModernMeta;
    Req r;
    r.body = json{{"jsonrpc", "2.0"}, {"id", id}, {"method", method}, {"params", params}}.dump();
    r.headers.emplace("mcp-protocol-version", "2026-07-28");
    r.headers.emplace("mcp-method", method);
    if (params.contains("name")) r.headers.emplace("mcp-name", params["name"].get<std::string>());
    return r;
  }
  /// A 2025 session: its id.
  std::string initialize() {
    Req r;
    r.body =
        R"({"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{}}})";
    auto response = send(r);
    EXPECT_EQ(response.status, 200);
    EXPECT_EQ(body_of(response)["result"]["protocolVersion"], "2025-11-25");
    return header_of(response, "Mcp-Session-Id");
  }
};

TEST_F(HttpEndpointTest, ForeignHostsAndOriginsAreForbidden) {
  Req r = modern("tools/list");
  r.set("host", "evil.example:8000");
  EXPECT_EQ(send(r).status, 403);
  Req o = modern("tools/list");
  o.headers.emplace("origin", "https://evil.example");
  EXPECT_EQ(send(o).status, 403);
  Req local = modern("tools/list");
  local.headers.emplace("origin", "http://localhost:5173");
  EXPECT_EQ(send(local).status, 200);
  Req v6 = modern("tools/list");
  v6.set("host", "[::1]:8000");
  EXPECT_EQ(send(v6).status, 200);
}

TEST_F(HttpEndpointTest, OtherPathsAndMethods) {
  Req r = modern("tools/list");
  r.path = "/other";
  EXPECT_EQ(send(r).status, 404);
  Req get;
  get.method = "GET";
  EXPECT_EQ(send(get).status, 405);
  Req del;
  del.method = "DELETE";
  EXPECT_EQ(send(del).status, 405);
  Req text = modern("tools/list");
  text.set("content-type", "text/plain");
  EXPECT_EQ(send(text).status, 415);
}

TEST_F(HttpEndpointTest, MalformedBodiesAre400) {
  Req r;
  r.body = "{not json";
  auto response = send(r);
  EXPECT_EQ(response.status, 400);
  EXPECT_EQ(body_of(response)["error"]["code"], -32700);
  r.body = "[]";
  EXPECT_EQ(send(r).status, 400);
}

TEST_F(HttpEndpointTest, LegacySessionsLiveUntilDeleted) {
  const auto id = initialize();
  ASSERT_FALSE(id.empty());
  Req list;
  list.body = R"({"jsonrpc":"2.0","id":1,"method":"tools/list"})";
  list.headers.emplace("mcp-session-id", id);
  list.headers.emplace("mcp-protocol-version", "2025-11-25");
  auto listed = send(list);
  EXPECT_EQ(listed.status, 200);
  EXPECT_EQ(body_of(listed)["result"]["tools"][0]["name"], "add");
  Req note;
  note.body = R"({"jsonrpc":"2.0","method":"notifications/initialized"})";
  note.headers.emplace("mcp-session-id", id);
  EXPECT_EQ(send(note).status, 202);
  Req bad_version = list;
  bad_version.set("mcp-protocol-version", "1999-01-01");
  EXPECT_EQ(send(bad_version).status, 400);
  Req del;
  del.method = "DELETE";
  del.headers.emplace("mcp-session-id", id);
  EXPECT_EQ(send(del).status, 200);
  EXPECT_EQ(send(list).status, 404) << "the session is gone";
  EXPECT_EQ(send(del).status, 404);
}

TEST_F(HttpEndpointTest, WithoutSessionOrMetaTheRequestIsRefused) {
  Req r;
  r.body = R"({"jsonrpc":"2.0","id":1,"method":"tools/list"})";
  auto response = send(r);
  EXPECT_EQ(response.status, 400);
  EXPECT_EQ(body_of(response)["error"]["code"], -32602);
}

TEST_F(HttpEndpointTest, LegacyProtocolErrorsTravelWith200) {
  const auto id = initialize();
  Req r;
  r.body = R"({"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"nope"}})";
  r.headers.emplace("mcp-session-id", id);
  auto response = send(r);
  EXPECT_EQ(response.status, 200);
  EXPECT_EQ(body_of(response)["error"]["code"], -32602);
}

TEST_F(HttpEndpointTest, ModernRequestsAreStatelessAndChecked) {
  auto ok = send(modern("tools/list"));
  EXPECT_EQ(ok.status, 200);
  EXPECT_EQ(header_of(ok, "Mcp-Session-Id"), "") << "no sessions in 2026-07-28";
  EXPECT_EQ(body_of(ok)["result"]["resultType"], "complete");

  Req missing = modern("tools/list");
  missing.headers.erase("mcp-method");
  auto m = send(missing);
  EXPECT_EQ(m.status, 400);
  EXPECT_EQ(body_of(m)["error"]["code"], -32020);

  Req mismatch = modern("tools/call", json{{"name", "add"}, {"arguments", {{"a", 1}, {"b", 2}}}});
  mismatch.set("mcp-name", "other");
  auto mm = send(mismatch);
  EXPECT_EQ(mm.status, 400);
  EXPECT_EQ(body_of(mm)["error"]["message"],
            "Header mismatch: Mcp-Name header value 'other' does not match body value 'add'");

  Req version = modern("tools/list");
  version.set("mcp-protocol-version", "2025-11-25");
  EXPECT_EQ(body_of(send(version))["error"]["code"], -32020);

  auto unknown = send(modern("resources/list"));
  EXPECT_EQ(unknown.status, 404);
  EXPECT_EQ(body_of(unknown)["error"]["code"], -32601);

  // initialize is a method the 2026 revision removed: with its _meta it opens no session.
  auto removed = send(modern("initialize", json{{"protocolVersion", "2026-07-28"}}));
  EXPECT_EQ(removed.status, 404);
  EXPECT_EQ(body_of(removed)["error"]["code"], -32601);
  EXPECT_EQ(header_of(removed, "Mcp-Session-Id"), "");
}

TEST_F(HttpEndpointTest, AnUnsupportedModernVersionIs400With32022) {
  Req r = modern("tools/list");
  auto body = json::parse(r.body);
  body["params"]["_meta"]["io.modelcontextprotocol/protocolVersion"] = "1900-01-01";
  r.body = body.dump();
  r.set("mcp-protocol-version", "1900-01-01");
  auto response = send(r);
  EXPECT_EQ(response.status, 400);
  EXPECT_EQ(body_of(response)["error"]["code"], -32022);
}

TEST_F(HttpEndpointTest, ABase64NameIsDecodedBeforeComparing) {
  Req r = modern("tools/call", json{{"name", "add"}, {"arguments", {{"a", 1}, {"b", 2}}}});
  r.set("mcp-name", "=?base64?YWRk?=");  // "add"
  auto response = send(r);
  ASSERT_EQ(response.status, 200);
  ASSERT_TRUE(response.stream);
  auto events = events_of(response);
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0]["result"]["structuredContent"], 3);
}

TEST_F(HttpEndpointTest, CallsStreamProgressThenTheResponse) {
  auto params = json{{"name", "add"}, {"arguments", {{"a", 1}, {"b", 2}}}};
  Req r = modern("tools/call", params);
  auto body = json::parse(r.body);
  body["params"]["_meta"]["progressToken"] = 7;
  r.body = body.dump();
  auto response = send(r);
  EXPECT_EQ(response.content_type, "text/event-stream");
  EXPECT_EQ(header_of(response, "X-Accel-Buffering"), "no");
  auto events = events_of(response);
  ASSERT_EQ(events.size(), 2u);
  EXPECT_EQ(events[0]["method"], "notifications/progress");
  EXPECT_EQ(events[0]["params"]["progressToken"], 7);
  EXPECT_EQ(events[1]["id"], 1);
}

TEST(HttpHeaderValue, DecodesTheBase64Sentinel) {
  EXPECT_EQ(ptc::mcp::decode_header_value("plain"), "plain");
  EXPECT_EQ(ptc::mcp::decode_header_value("=?base64?SGVsbG8sIOS4lueVjA==?="), "Hello, \xe4\xb8\x96\xe7\x95\x8c");
  EXPECT_EQ(ptc::mcp::decode_header_value("=?base64?IHBhZGRlZCA=?="), " padded ");
  EXPECT_EQ(ptc::mcp::decode_header_value("=?base64?***?="), std::nullopt);
  EXPECT_EQ(ptc::mcp::decode_header_value("=?base64?A?="), std::nullopt);
}

}  // namespace
