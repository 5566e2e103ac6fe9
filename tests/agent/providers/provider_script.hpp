#pragma once
// The provider's side of a tool loop, for the provider double to play: a turn (text, tool calls, usage)
// written as each provider's documented whole response and as its server-sent events, the error bodies
// each provider sends, and what the client sent back read out of a recorded request body (the tool
// results, the last user text, the tools offered). Header-only: only *_test.cpp files are compiled.
//
// The shapes follow the providers' API references and the recorded transcripts in
// tests/agent/wire/golden/; they are written here independently of src/wire so that the loop tests do
// not check the wire formats against themselves.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include <ptc/agent/providers.hpp>

#include "provider_double.hpp"

namespace provider_script {

using ptc::agent::Provider;
using json = nlohmann::ordered_json;

inline constexpr Provider kProviders[] = {Provider::openai, Provider::openai_responses, Provider::anthropic,
                                          Provider::gemini};

/// A call the model makes: `arguments` is the JSON text it wrote (an object for Anthropic and Gemini,
/// which send arguments as objects).
struct Call {
  std::string id;
  std::string name;
  std::string arguments;
};

/// One assistant turn and the usage its request reports.
struct Turn {
  std::string text;
  std::vector<Call> calls;
  std::uint64_t input_tokens = 0;
  std::uint64_t output_tokens = 0;
};

inline Turn answer(std::string text, std::uint64_t input_tokens = 10, std::uint64_t output_tokens = 5) {
  return Turn{std::move(text), {}, input_tokens, output_tokens};
}

inline Turn calls(std::vector<Call> calls, std::uint64_t input_tokens = 10, std::uint64_t output_tokens = 5) {
  return Turn{{}, std::move(calls), input_tokens, output_tokens};
}

// ---- requests ------------------------------------------------------------------------------------

/// The path the base URL carries in the tests, as the providers' own base URLs do.
inline std::string base_path(Provider p) { return p == Provider::gemini ? "/v1beta" : "/v1"; }

/// The request target the client must POST to for `model`.
inline std::string target(Provider p, const std::string& model, bool stream) {
  switch (p) {
    case Provider::openai: return "/v1/chat/completions";
    case Provider::openai_responses: return "/v1/responses";
    case Provider::anthropic: return "/v1/messages";
    case Provider::gemini:
      return "/v1beta/models/" + model + (stream ? ":streamGenerateContent?alt=sse" : ":generateContent");
  }
  return {};
}

// ---- whole responses -----------------------------------------------------------------------------

namespace detail {

inline json arguments_object(const Call& call) {
  json parsed = json::parse(call.arguments);
  if (!parsed.is_object()) throw std::invalid_argument("a script call's arguments must be an object here");
  return parsed;
}

// The halves a streamed piece of text is sent in, so that every stream has a delta that ends inside a
// value.
inline std::pair<std::string, std::string> halves(const std::string& text) {
  const std::size_t mid = text.size() / 2;
  return {text.substr(0, mid), text.substr(mid)};
}

inline json chat_usage(const Turn& t) {
  return json{{"prompt_tokens", t.input_tokens},
              {"completion_tokens", t.output_tokens},
              {"total_tokens", t.input_tokens + t.output_tokens}};
}

inline json responses_object(const Turn& t) {
  json output = json::array();
  if (!t.text.empty())
    output.push_back(json{
        {"id", "msg_script"},
        {"type", "message"},
        {"status", "completed"},
        {"role", "assistant"},
        {"content", json::array({json{{"type", "output_text"}, {"text", t.text}, {"annotations", json::array()}}})}});
  for (const Call& c : t.calls)
    output.push_back(json{{"id", "fc_" + c.id},
                          {"type", "function_call"},
                          {"status", "completed"},
                          {"arguments", c.arguments},
                          {"call_id", c.id},
                          {"name", c.name}});
  return json{{"id", "resp_script"},
              {"object", "response"},
              {"created_at", 1751900000},
              {"status", "completed"},
              {"error", nullptr},
              {"incomplete_details", nullptr},
              {"model", "test-model"},
              {"output", std::move(output)},
              {"usage",
               {{"input_tokens", t.input_tokens},
                {"input_tokens_details", {{"cached_tokens", 0}}},
                {"output_tokens", t.output_tokens},
                {"output_tokens_details", {{"reasoning_tokens", 0}}},
                {"total_tokens", t.input_tokens + t.output_tokens}}}};
}

inline json gemini_usage(const Turn& t, bool final) {
  json usage = {{"promptTokenCount", t.input_tokens}};
  if (final) usage["candidatesTokenCount"] = t.output_tokens;
  usage["totalTokenCount"] = t.input_tokens + (final ? t.output_tokens : 0);
  return usage;
}

inline json gemini_chunk(json parts, std::optional<std::string> finish, json usage) {
  json candidate = {{"content", {{"parts", std::move(parts)}, {"role", "model"}}}};
  if (finish) candidate["finishReason"] = *finish;
  candidate["index"] = 0;
  return json{{"candidates", json::array({std::move(candidate)})},
              {"usageMetadata", std::move(usage)},
              {"modelVersion", "test-model"},
              {"responseId", "script-response-id"}};
}

inline json gemini_call_part(const Call& c) {
  return json{{"functionCall", {{"id", c.id}, {"name", c.name}, {"args", arguments_object(c)}}}};
}

inline std::string data(const json& value) { return "data: " + value.dump() + "\n\n"; }
inline std::string typed(const std::string& type, const json& value) {
  return "event: " + type + "\ndata: " + value.dump() + "\n\n";
}
// Gemini ends its lines with CRLF.
inline std::string gemini_data(const json& value) { return "data: " + value.dump() + "\r\n\r\n"; }

}  // namespace detail

/// The provider's whole (not streamed) response to a request, as JSON text.
inline std::string whole(Provider p, const Turn& t) {
  using namespace detail;  // NOLINT(google-build-using-namespace)
  switch (p) {
    case Provider::openai: {
      json message = {{"role", "assistant"}, {"content", t.text.empty() && !t.calls.empty() ? json() : json(t.text)}};
      if (!t.calls.empty()) {
        json list = json::array();
        for (const Call& c : t.calls)
          list.push_back(json{
              {"id", c.id}, {"type", "function"}, {"function", {{"name", c.name}, {"arguments", c.arguments}}}});
        message["tool_calls"] = std::move(list);
      }
      message["refusal"] = nullptr;
      return json{{"id", "chatcmpl-script"},
                  {"object", "chat.completion"},
                  {"created", 1751900000},
                  {"model", "test-model"},
                  {"choices", json::array({json{{"index", 0},
                                                {"message", std::move(message)},
                                                {"logprobs", nullptr},
                                                {"finish_reason", t.calls.empty() ? "stop" : "tool_calls"}}})},
                  {"usage", chat_usage(t)}}
          .dump();
    }
    case Provider::openai_responses: return responses_object(t).dump();
    case Provider::anthropic: {
      json content = json::array();
      if (!t.text.empty()) content.push_back(json{{"type", "text"}, {"text", t.text}});
      for (const Call& c : t.calls)
        content.push_back(json{{"type", "tool_use"}, {"id", c.id}, {"name", c.name}, {"input", arguments_object(c)}});
      return json{{"id", "msg_script"},
                  {"type", "message"},
                  {"role", "assistant"},
                  {"model", "test-model"},
                  {"content", std::move(content)},
                  {"stop_reason", t.calls.empty() ? "end_turn" : "tool_use"},
                  {"stop_sequence", nullptr},
                  {"usage", {{"input_tokens", t.input_tokens}, {"output_tokens", t.output_tokens}}}}
          .dump();
    }
    case Provider::gemini: {
      json parts = json::array();
      if (!t.text.empty()) parts.push_back(json{{"text", t.text}});
      for (const Call& c : t.calls) parts.push_back(gemini_call_part(c));
      return gemini_chunk(std::move(parts), "STOP", gemini_usage(t, true)).dump();
    }
  }
  return {};
}

// ---- streamed responses --------------------------------------------------------------------------

/// The provider's server-sent events for the turn, one whole event per item: the text in two deltas,
/// each call's arguments in two deltas (Gemini sends calls whole), the usage where the provider puts it,
/// and the end the provider marks its stream with.
inline std::vector<std::string> events(Provider p, const Turn& t) {
  using namespace detail;  // NOLINT(google-build-using-namespace)
  std::vector<std::string> out;
  const auto [text1, text2] = halves(t.text);
  switch (p) {
    case Provider::openai: {
      const auto chunk = [](json delta, json finish) {
        return json{
            {"id", "chatcmpl-script"},
            {"object", "chat.completion.chunk"},
            {"created", 1751900000},
            {"model", "test-model"},
            {"choices", json::array({json{{"index", 0}, {"delta", std::move(delta)}, {"finish_reason", finish}}})},
            {"usage", nullptr}};
      };
      out.push_back(data(chunk({{"role", "assistant"}, {"content", ""}}, nullptr)));
      if (!t.text.empty()) {
        out.push_back(data(chunk({{"content", text1}}, nullptr)));
        out.push_back(data(chunk({{"content", text2}}, nullptr)));
      }
      for (std::size_t i = 0; i < t.calls.size(); ++i) {
        const Call& c = t.calls[i];
        const auto [args1, args2] = halves(c.arguments);
        out.push_back(
            data(chunk({{"tool_calls", json::array({json{{"index", i},
                                                         {"id", c.id},
                                                         {"type", "function"},
                                                         {"function", {{"name", c.name}, {"arguments", ""}}}}})}},
                       nullptr)));
        for (const std::string& piece : {args1, args2})
          out.push_back(data(chunk(
              {{"tool_calls", json::array({json{{"index", i}, {"function", {{"arguments", piece}}}}})}}, nullptr)));
      }
      out.push_back(data(chunk(json::object(), t.calls.empty() ? "stop" : "tool_calls")));
      json usage = chunk(json::object(), nullptr);
      usage["choices"] = json::array();
      usage["usage"] = chat_usage(t);
      out.push_back(data(usage));
      out.push_back("data: [DONE]\n\n");
      return out;
    }
    case Provider::openai_responses: {
      int sequence = 0;
      const auto event = [&](const std::string& type, json fields) {
        json value = {{"type", type}, {"sequence_number", sequence++}};
        for (auto& [key, v] : fields.items()) value[key] = v;
        out.push_back(typed(type, value));
      };
      json created = responses_object(t);
      created["status"] = "in_progress";
      created["output"] = json::array();
      created["usage"] = nullptr;
      event("response.created", {{"response", created}});
      std::size_t index = 0;
      if (!t.text.empty()) {
        event("response.output_item.added", {{"output_index", index},
                                             {"item",
                                              {{"id", "msg_script"},
                                               {"type", "message"},
                                               {"status", "in_progress"},
                                               {"content", json::array()},
                                               {"role", "assistant"}}}});
        for (const std::string& piece : {text1, text2})
          event("response.output_text.delta",
                {{"item_id", "msg_script"}, {"output_index", index}, {"content_index", 0}, {"delta", piece}});
        event("response.output_text.done",
              {{"item_id", "msg_script"}, {"output_index", index}, {"content_index", 0}, {"text", t.text}});
        ++index;
      }
      for (const Call& c : t.calls) {
        const auto [args1, args2] = halves(c.arguments);
        event("response.output_item.added", {{"output_index", index},
                                             {"item",
                                              {{"id", "fc_" + c.id},
                                               {"type", "function_call"},
                                               {"status", "in_progress"},
                                               {"arguments", ""},
                                               {"call_id", c.id},
                                               {"name", c.name}}}});
        for (const std::string& piece : {args1, args2})
          event("response.function_call_arguments.delta",
                {{"item_id", "fc_" + c.id}, {"output_index", index}, {"delta", piece}});
        event("response.function_call_arguments.done",
              {{"item_id", "fc_" + c.id}, {"output_index", index}, {"arguments", c.arguments}});
        ++index;
      }
      event("response.completed", {{"response", responses_object(t)}});
      return out;
    }
    case Provider::anthropic: {
      out.push_back(typed("message_start", {{"type", "message_start"},
                                            {"message",
                                             {{"id", "msg_script"},
                                              {"type", "message"},
                                              {"role", "assistant"},
                                              {"model", "test-model"},
                                              {"content", json::array()},
                                              {"stop_reason", nullptr},
                                              {"stop_sequence", nullptr},
                                              {"usage", {{"input_tokens", t.input_tokens}, {"output_tokens", 1}}}}}}));
      out.push_back(typed("ping", {{"type", "ping"}}));
      std::size_t index = 0;
      const auto block = [&](json start, const std::string& delta_type, const std::string& field,
                             const std::pair<std::string, std::string>& pieces) {
        out.push_back(typed("content_block_start",
                            {{"type", "content_block_start"}, {"index", index}, {"content_block", std::move(start)}}));
        for (const std::string& piece : {pieces.first, pieces.second})
          out.push_back(typed("content_block_delta", {{"type", "content_block_delta"},
                                                      {"index", index},
                                                      {"delta", {{"type", delta_type}, {field, piece}}}}));
        out.push_back(typed("content_block_stop", {{"type", "content_block_stop"}, {"index", index}}));
        ++index;
      };
      if (!t.text.empty()) block({{"type", "text"}, {"text", ""}}, "text_delta", "text", {text1, text2});
      for (const Call& c : t.calls)
        block({{"type", "tool_use"}, {"id", c.id}, {"name", c.name}, {"input", json::object()}}, "input_json_delta",
              "partial_json", halves(c.arguments));
      out.push_back(
          typed("message_delta",
                {{"type", "message_delta"},
                 {"delta", {{"stop_reason", t.calls.empty() ? "end_turn" : "tool_use"}, {"stop_sequence", nullptr}}},
                 {"usage", {{"output_tokens", t.output_tokens}}}}));
      out.push_back(typed("message_stop", {{"type", "message_stop"}}));
      return out;
    }
    case Provider::gemini: {
      if (!t.text.empty()) {
        for (const std::string& piece : {text1, text2})
          out.push_back(gemini_data(gemini_chunk(json::array({json{{"text", piece}}}), std::nullopt,
                                                 gemini_usage(t, false))));
      }
      if (!t.calls.empty()) {
        json parts = json::array();
        for (const Call& c : t.calls) parts.push_back(gemini_call_part(c));
        out.push_back(gemini_data(gemini_chunk(std::move(parts), std::nullopt, gemini_usage(t, false))));
      }
      out.push_back(gemini_data(gemini_chunk(json::array({json{{"text", ""}}}), std::string("STOP"),
                                             gemini_usage(t, true))));
      return out;
    }
  }
  return out;
}

/// How many of the last events() make the stream's end: without them the answer is incomplete (Chat:
/// the finish_reason chunk, the usage chunk and [DONE]; Responses: response.completed; Anthropic:
/// message_stop; Gemini: the chunk with the finishReason).
inline std::size_t end_events(Provider p) { return p == Provider::openai ? 3 : 1; }

/// events() without its end.
inline std::vector<std::string> events_without_end(Provider p, const Turn& t) {
  std::vector<std::string> out = events(p, t);
  out.resize(out.size() - end_events(p));
  return out;
}

/// The turn as the double sends it: whole JSON or server-sent events.
inline ptc_test::Reply reply(Provider p, const Turn& t, bool stream) {
  return stream ? ptc_test::Reply::sse(events(p, t)) : ptc_test::Reply::json(200, whole(p, t));
}

// ---- errors --------------------------------------------------------------------------------------

/// The error body the provider sends with an error status, holding `message`.
inline std::string error_body(Provider p, int status, const std::string& message) {
  const bool auth = status == 401 || status == 403;
  const bool rate = status == 429;
  switch (p) {
    case Provider::openai:
    case Provider::openai_responses:
      return json{{"error",
                   {{"message", message},
                    {"type", auth   ? "invalid_request_error"
                             : rate ? "rate_limit_exceeded"
                                    : "server_error"},
                    {"param", nullptr},
                    {"code", auth ? json("invalid_api_key") : json()}}}}
          .dump();
    case Provider::anthropic:
      return json{{"type", "error"},
                  {"error",
                   {{"type", auth   ? "authentication_error"
                             : rate ? "rate_limit_error"
                                    : "api_error"},
                    {"message", message}}}}
          .dump();
    case Provider::gemini:
      return json{{"error",
                   {{"code", status},
                    {"message", message},
                    {"status", auth   ? "UNAUTHENTICATED"
                               : rate ? "RESOURCE_EXHAUSTED"
                                      : "INTERNAL"}}}}
          .dump();
  }
  return {};
}

/// An error the provider reports mid-stream, as its own event, holding `message`.
inline std::string stream_error_event(Provider p, const std::string& message) {
  using namespace detail;  // NOLINT(google-build-using-namespace)
  switch (p) {
    case Provider::openai: return data({{"error", {{"message", message}, {"type", "server_error"}}}});
    case Provider::openai_responses:
      return typed("error", {{"type", "error"}, {"code", "server_error"}, {"message", message}, {"param", nullptr}});
    case Provider::anthropic:
      return typed("error", {{"type", "error"}, {"error", {{"type", "overloaded_error"}, {"message", message}}}});
    case Provider::gemini:
      return gemini_data({{"error", {{"code", 500}, {"message", message}, {"status", "INTERNAL"}}}});
  }
  return {};
}

// ---- what the client sent ------------------------------------------------------------------------

/// A tool result as the request carries it. `is_error` is the provider's own flag (Anthropic's
/// `is_error`; Gemini: an `error` rather than an `output` in functionResponse.response); nullopt for
/// OpenAI, whose formats have none. `name` is Gemini's (the others match results by id only).
struct SentResult {
  std::string call_id;
  std::string name;
  std::string content;
  std::optional<bool> is_error;
};

namespace detail {

inline std::string text_of(const json& value) { return value.is_string() ? value.get<std::string>() : value.dump(); }

}  // namespace detail

/// Every tool result in a request body, in order.
inline std::vector<SentResult> sent_results(Provider p, const json& body) {
  std::vector<SentResult> out;
  switch (p) {
    case Provider::openai:
      for (const json& m : body.at("messages"))
        if (m.at("role") == "tool")
          out.push_back({m.at("tool_call_id").get<std::string>(), {}, detail::text_of(m.at("content")), std::nullopt});
      break;
    case Provider::openai_responses:
      for (const json& item : body.at("input"))
        if (item.value("type", "") == "function_call_output")
          out.push_back({item.at("call_id").get<std::string>(), {}, detail::text_of(item.at("output")), std::nullopt});
      break;
    case Provider::anthropic:
      for (const json& turn : body.at("messages")) {
        if (turn.at("role") != "user" || !turn.at("content").is_array()) continue;
        for (const json& block : turn.at("content"))
          if (block.at("type") == "tool_result")
            out.push_back({block.at("tool_use_id").get<std::string>(),
                           {},
                           detail::text_of(block.at("content")),
                           block.contains("is_error") ? std::optional<bool>(block.at("is_error").get<bool>())
                                                      : std::optional<bool>(false)});
      }
      break;
    case Provider::gemini:
      for (const json& content : body.at("contents")) {
        if (content.at("role") != "user") continue;
        for (const json& part : content.at("parts")) {
          if (!part.contains("functionResponse")) continue;
          const json& r = part.at("functionResponse");
          const json& response = r.at("response");
          const bool failed = response.contains("error");
          out.push_back({r.value("id", ""), r.at("name").get<std::string>(),
                         detail::text_of(failed ? response.at("error") : response.at("output")), failed});
        }
      }
      break;
  }
  return out;
}

/// The text of the last user message in a request body ("" when it has none).
inline std::string last_user_text(Provider p, const json& body) {
  std::string out;
  switch (p) {
    case Provider::openai:
      for (const json& m : body.at("messages"))
        if (m.at("role") == "user") out = detail::text_of(m.at("content"));
      break;
    case Provider::openai_responses:
      for (const json& item : body.at("input"))
        if (item.value("type", "message") == "message" && item.value("role", "") == "user")
          out = detail::text_of(item.at("content"));
      break;
    case Provider::anthropic:
      for (const json& turn : body.at("messages")) {
        if (turn.at("role") != "user") continue;
        if (turn.at("content").is_string()) {
          out = turn.at("content").get<std::string>();
          continue;
        }
        for (const json& block : turn.at("content"))
          if (block.at("type") == "text") out = block.at("text").get<std::string>();
      }
      break;
    case Provider::gemini:
      for (const json& content : body.at("contents")) {
        if (content.at("role") != "user") continue;
        for (const json& part : content.at("parts"))
          if (part.contains("text")) out = part.at("text").get<std::string>();
      }
      break;
  }
  return out;
}

/// The names of the tools a request body offers, in order; empty when it has no `tools`.
inline std::vector<std::string> tool_names(Provider p, const json& body) {
  std::vector<std::string> out;
  if (!body.contains("tools")) return out;
  switch (p) {
    case Provider::openai:
      for (const json& t : body.at("tools")) out.push_back(t.at("function").at("name").get<std::string>());
      break;
    case Provider::openai_responses:
    case Provider::anthropic:
      for (const json& t : body.at("tools")) out.push_back(t.at("name").get<std::string>());
      break;
    case Provider::gemini:
      for (const json& group : body.at("tools"))
        for (const json& d : group.at("functionDeclarations")) out.push_back(d.at("name").get<std::string>());
      break;
  }
  return out;
}

}  // namespace provider_script
