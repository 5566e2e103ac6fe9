#pragma once
// What the wire format tests share: the fixed conversation the golden request bodies are written from,
// the golden files (PTC_UPDATE_GOLDEN=1 rewrites them instead of comparing), recorded SSE transcripts
// fed through SseReader in pieces of any size, and turns and stream events as JSON, so that a mismatch
// shows every field at once.

#include <cstdlib>
#include <fstream>
#include <memory>
#include <optional>
#include <stdexcept>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <ptc/agent/conversation.hpp>
#include <ptc/agent/model.hpp>
#include <ptc/json_schema.hpp>
#include <ptc/signature.hpp>
#include <ptc/tool.hpp>

#include "transport/http_transport.hpp"
#include "wire/wire.hpp"

namespace wire_test {

using nlohmann::json;
using ptc::OrderedJson;
using ptc::agent::Conversation;
using ptc::agent::Message;
using ptc::agent::ModelRequest;
using ptc::agent::ModelResponse;
using ptc::agent::ModelSettings;
using ptc::agent::OutputSpec;
using ptc::agent::Role;
using ptc::agent::StreamEvent;
using ptc::agent::ToolResultPart;

inline std::string fixture_path(std::string_view name) {
  return std::string(PTC_SOURCE_DIR) + "/tests/agent/wire/golden/" + std::string(name);
}

inline std::string read_fixture(std::string_view name) {
  std::ifstream in(fixture_path(name), std::ios::binary);
  if (!in) {
    ADD_FAILURE() << "missing fixture " << fixture_path(name);
    return {};
  }
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

/// Compares the body's dump(2) with golden/<name>, byte for byte; with PTC_UPDATE_GOLDEN=1 in the
/// environment, writes it there instead (then review the diff against the provider's API reference).
inline void expect_golden(std::string_view name, const ptc::Result<OrderedJson>& body) {
  ASSERT_TRUE(body) << body.error().message;
  const std::string text = body->dump(2) + "\n";
  if (const char* update = std::getenv("PTC_UPDATE_GOLDEN"); update && std::string_view(update) == "1") {
    std::ofstream(fixture_path(name), std::ios::binary) << text;
    return;
  }
  EXPECT_EQ(text, read_fixture(name)) << "golden/" << name << " differs; PTC_UPDATE_GOLDEN=1 rewrites it";
}

/// Two tools of the same signature, the conversation of one tool turn (a call whose arguments are JSON
/// text, as OpenAI sends them, and one whose arguments are an object, as Anthropic and Gemini do; one
/// result failed) and a follow-up, and an answer schema.
struct Fixture {
  ptc::Tool search = ptc::make_tool("search_papers", "Search the paper catalogue by keywords.",
                                    "(query :string, limit :int) -> [:string]");
  ptc::Tool preprints = ptc::make_tool("search_preprints", "Search the preprint server by keywords.",
                                       "(query :string, limit :int) -> [:string]");
  Conversation conversation;
  ModelSettings settings;
  OutputSpec output{ptc::parse_type("{title :string, year :int, venue :string?}").value(), "paper"};

  explicit Fixture(std::string model) {
    settings.model = std::move(model);
    settings.temperature = 0.2;
    settings.max_output_tokens = 1024;
    settings.parallel_tool_calls = false;
    conversation.system = "You answer questions about published research. Use the tools to look papers up.";
    conversation.messages.push_back(user("Which paper on tide prediction from 2021 is the most cited?"));
    Message assistant;
    assistant.role = Role::assistant;
    assistant.text = "I will search both catalogues.";
    assistant.tool_calls.push_back({"call_A1", "search_papers", json("{\"query\":\"tide prediction\",\"limit\":5}")});
    assistant.tool_calls.push_back({"call_B2", "search_preprints", json{{"query", "tide prediction"}, {"limit", 3}}});
    conversation.messages.push_back(assistant);
    Message results;
    results.role = Role::tool;
    results.tool_results.push_back({"call_A1", "search_papers",
                                    R"x(["Tidal forecasting with LSTMs (2021)","Harmonic analysis revisited (2019)"])x",
                                    false});
    results.tool_results.push_back({"call_B2", "search_preprints", "preprint server unavailable: HTTP 503", true});
    conversation.messages.push_back(results);
    conversation.messages.push_back(user("Only journal papers, please."));
  }

  static Message user(std::string text) {
    Message m;
    m.role = Role::user;
    m.text = std::move(text);
    return m;
  }

  ModelRequest request(bool with_tools = true, bool with_output = true) const {
    ModelRequest r;
    r.conversation = &conversation;
    r.settings = &settings;
    if (with_tools) r.tools = {&search, &preprints};
    if (with_output) r.output = &output;
    return r;
  }
};

// ---- turns and events as JSON --------------------------------------------------------------------

inline json usage_json(const ptc::agent::Usage& u) {
  return {{"requests", u.requests},
          {"input", u.input_tokens},
          {"output", u.output_tokens},
          {"cached", u.cached_input_tokens},
          {"reasoning", u.reasoning_tokens}};
}

inline json calls_json(const std::vector<ptc::ToolCall>& calls) {
  json out = json::array();
  for (const auto& c : calls) out.push_back({{"id", c.id}, {"name", c.name}, {"arguments", c.arguments}});
  return out;
}

/// The turn without `raw` (tests look at that on its own).
inline json turn_json(const ModelResponse& r) {
  return {{"text", r.message.text},
          {"tool_calls", calls_json(r.message.tool_calls)},
          {"stop_reason", r.stop_reason},
          {"usage", usage_json(r.message.usage)},
          {"provider", r.message.provider}};
}

/// The request body a wire writes, read back as JSON: what the goldens and the checks look at is
/// what is sent.
inline ptc::Result<OrderedJson> request_json(const ptc::agent::detail::Wire& wire, const ModelRequest& request,
                                             bool stream) {
  auto text = wire.request_body(request, stream);
  if (!text) return text.error();
  return OrderedJson::parse(*text);
}

// One provider's wire with the helpers every provider's tests use: the request body (a failure is a
// test failure), a whole answer read (a failure throws), and the error an answer gives.
struct WireUnderTest {
  std::unique_ptr<ptc::agent::detail::Wire> wire;

  OrderedJson body_of(const ModelRequest& request, bool stream = false) const {
    auto body = request_json(*wire, request, stream);
    if (!body) {
      ADD_FAILURE() << body.error().message;
      return {};
    }
    return *body;
  }
  ModelResponse parse(const json& body) const {
    auto r = wire->parse_response(body);
    if (!r) throw std::runtime_error(r.error().message);
    return *r;
  }
  ModelResponse parse(std::string_view body) const { return parse(json::parse(body)); }
  ModelResponse parse(const char* body) const { return parse(std::string_view(body)); }
  std::string parse_error(std::string_view body) const {
    auto r = wire->parse_response(json::parse(body));
    if (r) return "no error: " + turn_json(*r).dump();
    return r.error().message;
  }
};

inline json event_json(const StreamEvent& e) {
  if (e.kind == StreamEvent::Kind::text_delta) return {{"text", e.text}};
  return {{"call", e.index}, {"id", e.call_id}, {"name", e.name}, {"arguments", e.text}};
}

// ---- streams -------------------------------------------------------------------------------------

struct Streamed {
  json events = json::array();
  std::optional<ptc::Error> event_error;  ///< what on_event returned, the first time it failed
  std::optional<ptc::Result<ModelResponse>> turn;

  const ModelResponse& ok() const {
    if (!turn || !*turn) throw std::runtime_error("the stream failed: " + error());
    return **turn;
  }
  std::string error() const {
    if (event_error) return event_error->message;
    if (turn && !*turn) return turn->error().message;
    return {};
  }
};

/// Feeds an SSE transcript through SseReader in pieces of `piece` bytes (0: whole) into the wire's
/// assembler, as the provider client does, and finishes the turn.
inline Streamed run_stream(const ptc::agent::detail::Wire& wire, std::string_view transcript, std::size_t piece = 0) {
  Streamed out;
  auto assembler = wire.stream();
  ptc::agent::detail::SseReader reader;
  auto emit = [&](const StreamEvent& e) { out.events.push_back(event_json(e)); };
  auto deliver = [&](const ptc::agent::detail::SseReader::Event& event) {
    auto failed = assembler->on_event(event, emit);
    if (failed && !out.event_error) out.event_error = failed;
    return !failed;
  };
  if (piece == 0) piece = transcript.size() == 0 ? 1 : transcript.size();
  for (std::size_t at = 0; at < transcript.size(); at += piece) {
    if (!reader.feed(transcript.substr(at, piece), deliver)) break;
  }
  if (!out.event_error) {
    if (auto last = reader.finish()) deliver(*last);
  }
  out.turn.emplace(assembler->finish());
  return out;
}

}  // namespace wire_test
