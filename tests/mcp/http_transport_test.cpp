// The Streamable HTTP endpoint without sockets: DNS-rebinding checks, methods and paths, 2025
// sessions and their limits under a flood, the 2026-07-28 header rules and status codes, the refusal
// messages, and SSE for calls.
#include <chrono>
#include <condition_variable>
#include <map>
#include <mutex>
#include <optional>
#include <thread>

#include <gtest/gtest.h>

#include <ptc/registry.hpp>
#include <ptc/tool.hpp>

#include "http_fixtures.hpp"
#include "http_transport.hpp"

namespace {

using nlohmann::json;
using ptc::mcp::HttpRequest;
using ptc::mcp::HttpResponse;
using ptc_test::CollectingStream;
using ptc_test::header_of;
using ptc_test::Req;

json body_of(const HttpResponse& r) { return r.body.empty() ? json() : json::parse(r.body); }

/// The SSE events a streamed response writes.
std::vector<json> events_of(HttpResponse& r) {
  auto stream = std::make_shared<CollectingStream>();
  r.open(stream);
  const std::string text = stream->wait_closed();
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
  auto refused = send(bad_version);
  EXPECT_EQ(refused.status, 400);
  EXPECT_EQ(body_of(refused)["error"]["message"],
            "Bad Request: unsupported MCP-Protocol-Version 1999-01-01; this server supports 2026-07-28 (in _meta, no "
            "session) and 2025-11-25, 2025-06-18, 2025-03-26 (through initialize)");
  EXPECT_EQ(body_of(refused)["error"]["data"],
            (json{{"supported", {"2026-07-28", "2025-11-25", "2025-06-18", "2025-03-26"}},
                  {"requested", "1999-01-01"}}));
  EXPECT_EQ(body_of(refused)["id"], 1);
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

  auto unknown = send(modern("logging/setLevel"));
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
  EXPECT_EQ(body_of(response)["error"]["message"],
            "Unsupported protocol version 1900-01-01; this server supports 2026-07-28 (in _meta, no session) and "
            "2025-11-25, 2025-06-18, 2025-03-26 (through initialize)");
}

TEST_F(HttpEndpointTest, The2026HeaderOnA2025SessionSaysWhatHappened) {
  Req init;
  init.body = R"({"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18"}})";
  const auto id = header_of(send(init), "Mcp-Session-Id");
  ASSERT_FALSE(id.empty());
  const std::string expected =
      "Bad Request: this session was opened with protocol 2025-06-18; 2026-07-28 requests carry no Mcp-Session-Id "
      "(send this one without it), and requests in the session carry MCP-Protocol-Version 2025-06-18 and no _meta "
      "version";
  // The 2026 header on a request of the session (no _meta).
  Req header;
  header.body = R"({"jsonrpc":"2.0","id":3,"method":"tools/list"})";
  header.headers.emplace("mcp-session-id", id);
  header.headers.emplace("mcp-protocol-version", "2026-07-28");
  auto by_header = send(header);
  EXPECT_EQ(by_header.status, 400);
  EXPECT_EQ(body_of(by_header)["error"]["code"], -32600);
  EXPECT_EQ(body_of(by_header)["error"]["message"], expected);
  EXPECT_EQ(body_of(by_header)["id"], 3);
  // A whole 2026 request (_meta and headers) that names the session.
  Req meta = modern("tools/list", json::object(), 4);
  meta.headers.emplace("mcp-session-id", id);
  auto by_meta = send(meta);
  EXPECT_EQ(by_meta.status, 400);
  EXPECT_EQ(body_of(by_meta)["error"]["message"], expected);
  EXPECT_EQ(body_of(by_meta)["id"], 4);
  // A session id that names no session is ignored, as 2026-07-28 says.
  Req stale = modern("tools/list");
  stale.headers.emplace("mcp-session-id", "no-such-session");
  EXPECT_EQ(send(stale).status, 200);
  // The session itself is unharmed.
  header.set("mcp-protocol-version", "2025-06-18");
  EXPECT_EQ(send(header).status, 200);
}

TEST_F(HttpEndpointTest, ABase64NameIsDecodedBeforeComparing) {
  Req r = modern("tools/call", json{{"name", "add"}, {"arguments", {{"a", 1}, {"b", 2}}}});
  r.set("mcp-name", "=?base64?YWRk?=");  // "add"
  auto response = send(r);
  ASSERT_EQ(response.status, 200);
  ASSERT_TRUE(response.open);
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

// ---- JSON responses ------------------------------------------------------------------------------

/// An endpoint with HttpOptions::json_responses, and a tool that cannot run without sampling.
class HttpJsonResponsesTest : public HttpEndpointTest {
 protected:
  void SetUp() override {
    HttpEndpointTest::SetUp();
    registry.add(ptc::make_tool("needs_sampling", "Samples.", "() -> :string", [](const json&, ptc::ToolContext& c) {
      c.require_client("sampling");
      return ptc::ToolResult<json>::ok("sampled");
    }));
    ptc::mcp::HttpOptions options;
    options.json_responses = true;
    endpoint = std::make_unique<ptc::mcp::McpHttpEndpoint>(*protocol, options);
  }
  /// What the call's response sends: the whole response when it went as one, else nullopt and the
  /// stream's events in `events`.
  std::optional<HttpResponse> answer(HttpResponse& r, std::vector<json>& events) {
    EXPECT_TRUE(r.deferred_head);
    auto stream = std::make_shared<CollectingStream>(r.deferred_head);
    r.open(stream);
    auto whole = stream->wait_whole();
    const std::string text = stream->wait_closed();
    for (std::size_t at = 0; (at = text.find("data: ", at)) != std::string::npos;) {
      auto end = text.find('\n', at);
      events.push_back(json::parse(text.substr(at + 6, end - at - 6)));
      at = end;
    }
    return whole;
  }
};

TEST_F(HttpJsonResponsesTest, ACallThatSendsOnlyItsAnswerIsOneJsonResponse) {
  for (bool modern_era : {true, false}) {
    SCOPED_TRACE(modern_era ? "2026-07-28" : "2025-11-25");
    const json params{{"name", "add"}, {"arguments", {{"a", 1}, {"b", 2}}}};
    Req r = modern_era ? modern("tools/call", params, 5) : Req{};
    if (!modern_era) {
      r.headers.emplace("mcp-session-id", initialize());
      r.body = json{{"jsonrpc", "2.0"}, {"id", 5}, {"method", "tools/call"}, {"params", params}}.dump();
    }
    auto response = send(r);
    std::vector<json> events;
    auto whole = answer(response, events);
    ASSERT_TRUE(whole);
    EXPECT_TRUE(events.empty());
    EXPECT_EQ(whole->status, 200);
    EXPECT_EQ(whole->content_type, "application/json");
    const json body = json::parse(whole->body);
    EXPECT_EQ(body["id"], 5);
    // 2026-07-28 puts a scalar result as it is; 2025-11-25 wraps it in an object.
    const json expected = modern_era ? json(3) : json{{"result", 3}};
    EXPECT_EQ(body["result"]["structuredContent"], expected) << whole->body;
  }
}

TEST_F(HttpJsonResponsesTest, ACallThatSendsSomethingFirstStaysAStream) {
  Req r = modern("tools/call", json{{"name", "add"}, {"arguments", {{"a", 1}, {"b", 2}}}});
  auto body = json::parse(r.body);
  body["params"]["_meta"]["progressToken"] = 7;
  r.body = body.dump();
  auto response = send(r);
  EXPECT_EQ(response.content_type, "text/event-stream");
  std::vector<json> events;
  EXPECT_FALSE(answer(response, events));
  ASSERT_EQ(events.size(), 2u);
  EXPECT_EQ(events[0]["method"], "notifications/progress");
  EXPECT_EQ(events[1]["id"], 1);
}

TEST_F(HttpJsonResponsesTest, AnErrorAnswerTakesItsStatus) {
  auto response = send(modern("tools/call", json{{"name", "needs_sampling"}, {"arguments", json::object()}}));
  std::vector<json> events;
  auto whole = answer(response, events);
  ASSERT_TRUE(whole);
  EXPECT_EQ(whole->status, 400);
  EXPECT_EQ(json::parse(whole->body)["error"]["code"], ptc::mcp::jsonrpc::kMissingClientCapability) << whole->body;
}

// ---- 2025 sessions under a flood --------------------------------------------------------------

/// An endpoint with session limits and a tool, `wait`, that runs until the test releases it (or 30 s).
class HttpSessionLimitTest : public ::testing::Test {
 protected:
  ptc::ToolRegistry registry;
  std::unique_ptr<ptc::mcp::Protocol> protocol;
  std::unique_ptr<ptc::mcp::McpHttpEndpoint> endpoint;
  std::mutex mutex;
  std::condition_variable changed;
  int started = 0;
  bool released = false;

  void start(std::size_t max_sessions, std::size_t per_peer, std::chrono::milliseconds idle) {
    registry.add(ptc::make_tool("wait", "Waits for the test.", "() -> :string", [this](const json&, ptc::ToolContext&) {
      std::unique_lock lock(mutex);
      ++started;
      changed.notify_all();
      const bool ok = changed.wait_for(lock, std::chrono::seconds(30), [this] { return released; });
      return ptc::ToolResult<json>::ok(ok ? "released" : "never released");
    }));
    registry.add(ptc::make_tool("add", "Adds.", "(a :int, b :int) -> :int", [](const json& args, ptc::ToolContext&) {
      return ptc::ToolResult<json>::ok(args["a"].get<int>() + args["b"].get<int>());
    }));
    protocol =
        std::make_unique<ptc::mcp::Protocol>(registry, ptc::mcp::ServerInfo{"s", "1"}, ptc::mcp::ServerOptions{});
    ptc::mcp::HttpOptions options;
    options.max_sessions = max_sessions;
    options.max_sessions_per_peer = per_peer;
    options.session_idle_timeout = idle;
    endpoint = std::make_unique<ptc::mcp::McpHttpEndpoint>(*protocol, options);
  }
  void TearDown() override {
    release();
    endpoint.reset();  // waits for the calls still running
  }
  void release() {
    std::lock_guard lock(mutex);
    released = true;
    changed.notify_all();
  }
  bool wait_started(int n) {
    std::unique_lock lock(mutex);
    return changed.wait_for(lock, std::chrono::seconds(30), [&] { return started >= n; });
  }
  HttpResponse send(const Req& r) { return endpoint->handle(r.build()); }
  HttpResponse initialize(const std::string& peer) {
    Req r;
    r.peer = peer;
    r.body = R"({"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25"}})";
    return send(r);
  }
  /// A request in the session `id`.
  HttpResponse in_session(const std::string& id, const std::string& body) {
    Req r;
    r.body = body;
    r.headers.emplace("mcp-session-id", id);
    r.headers.emplace("mcp-protocol-version", "2025-11-25");
    return send(r);
  }
  int ping(const std::string& id) { return in_session(id, R"({"jsonrpc":"2.0","id":1,"method":"ping"})").status; }
  HttpResponse call_wait(const std::string& id) {
    return in_session(id, R"({"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"wait"}})");
  }
};

json busy(const std::string& text) {
  return json{{"jsonrpc", "2.0"}, {"id", 0}, {"error", {{"code", -32000}, {"message", text}}}};
}

TEST_F(HttpSessionLimitTest, AFloodOfInitializeLeavesAnotherClientsCallAndSessionAlone) {
  start(8, 4, std::chrono::seconds(60));
  const auto victim = header_of(initialize("192.0.2.10"), "Mcp-Session-Id");
  ASSERT_FALSE(victim.empty());
  auto call = call_wait(victim);
  ASSERT_TRUE(call.open);
  std::vector<json> events;
  std::thread reader([&] { events = events_of(call); });
  EXPECT_TRUE(wait_started(1));  // no ASSERT from here on: the reader must be joined

  // One peer: 4 sessions, then refused, however many it asks for.
  std::vector<HttpResponse> refused;
  int opened = 0;
  for (int i = 0; i < 50; ++i) {
    auto r = initialize("198.51.100.7");
    if (r.status == 200)
      ++opened;
    else
      refused.push_back(std::move(r));
  }
  EXPECT_EQ(opened, 4);
  EXPECT_EQ(refused.size(), 46u);
  for (const auto& r : refused) {
    EXPECT_EQ(r.status, 503);
    EXPECT_EQ(header_of(r, "Retry-After"), "60");
    EXPECT_EQ(header_of(r, "Mcp-Session-Id"), "");
    EXPECT_EQ(body_of(r),
              busy("Server busy: too many sessions from this address (4, each busy or used in the last 60 s); retry "
                   "later"));
  }
  // Many peers: the server fills up (1 + 4 + 3), then refuses; nothing is closed for them.
  opened = 0;
  refused.clear();
  for (int i = 0; i < 50; ++i) {
    auto r = initialize("203.0.113." + std::to_string(i));
    if (r.status == 200)
      ++opened;
    else
      refused.push_back(std::move(r));
  }
  EXPECT_EQ(opened, 3);
  EXPECT_EQ(refused.size(), 47u);
  for (const auto& r : refused) {
    EXPECT_EQ(r.status, 503);
    EXPECT_EQ(header_of(r, "Retry-After"), "60");
    EXPECT_EQ(body_of(r),
              busy("Server busy: too many sessions in total (8, each busy or used in the last 60 s); retry later"));
  }

  release();
  reader.join();
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0]["id"], 7);
  EXPECT_EQ(events[0]["result"]["structuredContent"], (json{{"result", "released"}}));
  auto listed = in_session(victim, R"({"jsonrpc":"2.0","id":8,"method":"tools/list"})");
  EXPECT_EQ(listed.status, 200);
  EXPECT_EQ(body_of(listed)["result"]["tools"].size(), 2u);
}

TEST_F(HttpSessionLimitTest, OnlySessionsIdlePastTheTimeoutAreClosedForNewOnes) {
  using namespace std::chrono_literals;
  start(2, 2, 100ms);
  const auto idle = header_of(initialize("192.0.2.1"), "Mcp-Session-Id");
  const auto calling = header_of(initialize("192.0.2.2"), "Mcp-Session-Id");
  // The call goes on after its client stopped reading (the response, stream and all, is dropped).
  ASSERT_TRUE(call_wait(calling).open);
  ASSERT_TRUE(wait_started(1));
  std::this_thread::sleep_for(150ms);

  const auto fresh = header_of(initialize("192.0.2.3"), "Mcp-Session-Id");
  ASSERT_FALSE(fresh.empty());
  EXPECT_EQ(ping(idle), 404) << "the idle session made room";
  EXPECT_EQ(ping(calling), 200) << "a session with a call in flight is never closed";
  auto refused = initialize("192.0.2.4");
  EXPECT_EQ(refused.status, 503);
  EXPECT_EQ(header_of(refused, "Retry-After"), "1") << "the fresh session is idle long enough within a second";
  EXPECT_EQ(body_of(refused),
            busy("Server busy: too many sessions in total (2, each busy or used in the last 100 ms); retry later"));

  // Once its call is over and both are idle, the one idle longer makes room.
  release();
  std::this_thread::sleep_for(400ms);
  EXPECT_EQ(initialize("192.0.2.5").status, 200);
  EXPECT_EQ(ping(fresh), 404);
  EXPECT_EQ(ping(calling), 200);
}

TEST_F(HttpSessionLimitTest, AnOpenResponseStreamKeepsItsSession) {
  using namespace std::chrono_literals;
  start(1, 1, 100ms);
  const auto reading = header_of(initialize("192.0.2.1"), "Mcp-Session-Id");
  auto call =
      in_session(reading,
                 R"({"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"add","arguments":{"a":1,"b":2}}})");
  ASSERT_TRUE(call.open);
  // The call is over and its answer queued, but the server still writes it to a slow reader: it keeps
  // the response, and with it what the stream's opener holds.
  auto stream = std::make_shared<CollectingStream>();
  call.open(stream);
  const std::string written = stream->wait_closed();
  EXPECT_NE(written.find(R"("structuredContent":{"result":3})"), std::string::npos) << written;
  std::this_thread::sleep_for(150ms);
  auto refused = initialize("192.0.2.2");
  EXPECT_EQ(refused.status, 503);
  EXPECT_EQ(body_of(refused),
            busy("Server busy: too many sessions in total (1, each busy or used in the last 100 ms); retry later"));
  call = {};  // written: the server drops the response
  std::this_thread::sleep_for(150ms);
  EXPECT_EQ(initialize("192.0.2.2").status, 200);
  EXPECT_EQ(ping(reading), 404);
}

TEST_F(HttpSessionLimitTest, APeerAtItsCapMakesRoomFromItsOwnIdleSessions) {
  using namespace std::chrono_literals;
  start(8, 1, 100ms);
  const auto first = header_of(initialize("192.0.2.1"), "Mcp-Session-Id");
  const auto other = header_of(initialize("192.0.2.2"), "Mcp-Session-Id");
  EXPECT_EQ(initialize("192.0.2.1").status, 503) << "the first session is not idle yet";
  std::this_thread::sleep_for(150ms);
  EXPECT_EQ(initialize("192.0.2.1").status, 200);
  EXPECT_EQ(ping(first), 404);
  EXPECT_EQ(ping(other), 200) << "another peer's idle session is left alone while the total has room";
}

TEST(HttpHeaderValue, DecodesTheBase64Sentinel) {
  EXPECT_EQ(ptc::mcp::decode_header_value("plain"), "plain");
  EXPECT_EQ(ptc::mcp::decode_header_value("=?base64?SGVsbG8sIOS4lueVjA==?="), "Hello, \xe4\xb8\x96\xe7\x95\x8c");
  EXPECT_EQ(ptc::mcp::decode_header_value("=?base64?IHBhZGRlZCA=?="), " padded ");
  EXPECT_EQ(ptc::mcp::decode_header_value("=?base64?***?="), std::nullopt);
  EXPECT_EQ(ptc::mcp::decode_header_value("=?base64?A?="), std::nullopt);
}

}  // namespace
