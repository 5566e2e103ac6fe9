// Gemini (POST {base}/models/{model}:generateContent, or :streamGenerateContent?alt=sse). The model's
// content goes back verbatim from Message::raw, which is how thought signatures survive a tool loop, as
// Gemini requires of function calls.

#include <algorithm>
#include <initializer_list>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include <ptc/provider.hpp>

#include "wire/body_writer.hpp"
#include "wire/wire_common.hpp"

namespace ptc::agent::detail {
namespace {

using namespace wire;  // NOLINT(google-build-using-namespace): the file's own helpers

void write_text_part(BodyWriter& out, const std::string& text) {
  out.begin_object();
  out.member("text", text);
  out.end_object();
}

void write_calls(RoleGroups& contents, const Message& m) {
  if (!m.text.empty()) write_text_part(contents.item("model"), m.text);
  for (const auto& call : m.tool_calls) {
    BodyWriter& out = contents.item("model");
    out.begin_object();
    out.key("functionCall");
    out.begin_object();
    out.member("name", call.name);
    out.key("args");
    out.json(arguments_object(call));
    out.end_object();
    out.end_object();
  }
}

// Ids go to Gemini only when they are Gemini's own, found in the raw content of the turn that made the
// calls: an id ptc made up for a call Gemini sent without one, or another provider's, would match
// nothing (Gemini then matches a response to its call by name and order).
std::optional<Error> write_raw_calls(RoleGroups& contents, const Message& m, std::size_t i,
                                     std::set<std::string>& gemini_ids) {
  const std::string path = key_path(message_path(i), "raw");
  if (auto bad = expect_object(m.raw, path)) return bad;
  auto raw_parts = array_member(m.raw, path, "parts", true);
  if (!raw_parts) return raw_parts.error();
  for (const auto& part : **raw_parts) {
    if (const json* call = member(part, "functionCall"); call && call->is_object())
      if (const json* id = member(*call, "id"); id && id->is_string()) gemini_ids.insert(id->get<std::string>());
    contents.item("model").json(part);
  }
  return std::nullopt;
}

void write_responses(RoleGroups& contents, const Message& m, const std::set<std::string>& gemini_ids) {
  for (const auto& result : m.tool_results) {
    ToolOutcome outcome;
    outcome.call_id = gemini_ids.count(result.call_id) ? result.call_id : std::string();
    outcome.name = result.name;
    outcome.status = result.is_error ? CallStatus::Failed : CallStatus::Succeeded;
    outcome.result.success = !result.is_error;
    outcome.rendered = result.content;
    contents.item("user").json(gemini_function_response(outcome));
  }
}

// Gemini does not insist on alternating roles, but a function's responses belong in the one user
// content that follows its call, and contents without parts are refused: RoleGroups.
std::optional<Error> write_contents(BodyWriter& out, const Conversation& conversation) {
  RoleGroups contents(out, "parts");
  std::set<std::string> gemini_ids;
  for (std::size_t i = 0; i < conversation.messages.size(); ++i) {
    const Message& m = conversation.messages[i];
    switch (m.role) {
      case Role::user:
        if (!m.text.empty()) write_text_part(contents.item("user"), m.text);
        break;
      case Role::assistant:
        gemini_ids.clear();
        if (!has_raw(m, kGemini)) {
          write_calls(contents, m);
        } else if (auto bad = write_raw_calls(contents, m, i, gemini_ids)) {
          return bad;
        }
        break;
      case Role::tool: write_responses(contents, m, gemini_ids); break;
    }
  }
  contents.finish();
  return std::nullopt;
}

// What one generateContent response, or the chunks of a streamed one, say: the answer's text (thought
// summaries left out), the calls, the finish reason, the usage, and the content to send back.
class GeminiTurn {
 public:
  /// Streamed: each chunk's parts are added to the content to send back, consecutive text merged.
  /// Whole: that content is the candidate's, verbatim.
  explicit GeminiTurn(bool streamed) : streamed_(streamed) {}

  /// One GenerateContentResponse. The provider's own failure (an error, a blocked prompt) sets
  /// provider_failed().
  std::optional<Error> add(const json& chunk, const Emit& emit) {
    if (auto bad = expect_object(chunk, "")) return bad;
    if (member(chunk, "error")) {
      provider_failed_ = true;
      auto message = error_member_message(chunk);
      return Error{message ? *message : compact_text(chunk["error"])};
    }
    auto feedback = object_member(chunk, "", "promptFeedback");
    if (!feedback) return feedback.error();
    if (*feedback) {
      std::string reason;
      if (auto e = read_string(**feedback, "promptFeedback", "blockReason", reason)) return e;
      if (!reason.empty()) {
        provider_failed_ = true;
        return Error{"the prompt was blocked (" + reason + ")"};
      }
    }
    if (seed_.empty()) {
      if (auto e = read_string(chunk, "", "responseId", seed_)) return e;
    }
    auto candidates = array_member(chunk, "", "candidates");
    if (!candidates) return candidates.error();
    if (*candidates && !(*candidates)->empty()) {
      saw_candidate_ = true;
      if (auto e = candidate((**candidates)[0], "candidates[0]", emit)) return e;
    }
    auto usage = object_member(chunk, "", "usageMetadata");
    if (!usage) return usage.error();
    if (*usage) {
      // Every chunk that has usage has it so far; the last one's is the turn's.
      const json& u = **usage;
      for (auto [key, field] :
           {std::pair{"promptTokenCount", &prompt_}, std::pair{"candidatesTokenCount", &candidates_},
            std::pair{"cachedContentTokenCount", &cached_}, std::pair{"thoughtsTokenCount", &thoughts_}})
        if (auto e = read_count(u, "usageMetadata", key, *field)) return e;
    }
    return std::nullopt;
  }

  bool provider_failed() const { return provider_failed_; }
  bool saw_candidate() const { return saw_candidate_; }
  bool finished() const { return !finish_reason_.empty(); }

  ModelResponse result() {
    ModelResponse out;
    out.stop_reason = finish_reason_;
    Message& m = out.message;
    m.role = Role::assistant;
    m.text = text_;
    m.tool_calls = calls_;
    // candidatesTokenCount leaves the thoughts out; Usage's output counts them, as reasoning.
    m.usage.requests = 1;
    m.usage.input_tokens = prompt_;
    m.usage.cached_input_tokens = cached_;
    m.usage.output_tokens = candidates_ + thoughts_;
    m.usage.reasoning_tokens = thoughts_;
    if (streamed_ && !parts_.empty())
      m.raw = json{{"role", role_.empty() ? "model" : role_}, {"parts", parts_}};
    else if (!streamed_)
      m.raw = content_;
    m.provider = std::string(kGemini);
    return out;
  }

 private:
  std::optional<Error> candidate(const json& c, const std::string& path, const Emit& emit) {
    if (auto bad = expect_object(c, path)) return bad;
    if (auto e = read_string(c, path, "finishReason", finish_reason_)) return e;
    auto content = object_member(c, path, "content");
    if (!content) return content.error();
    if (!*content) return std::nullopt;
    const std::string cpath = key_path(path, "content");
    if (!streamed_) content_ = **content;
    if (auto e = read_string(**content, cpath, "role", role_)) return e;
    auto parts = array_member(**content, cpath, "parts");
    if (!parts) return parts.error();
    if (!*parts) return std::nullopt;
    for (std::size_t j = 0; j < (*parts)->size(); ++j)
      if (auto e = part((**parts)[j], index_path(key_path(cpath, "parts"), j), emit)) return e;
    return std::nullopt;
  }

  std::optional<Error> part(const json& p, const std::string& path, const Emit& emit) {
    if (auto bad = expect_object(p, path)) return bad;
    bool thought = false;
    if (auto e = read_bool(p, path, "thought", thought)) return e;
    auto call = object_member(p, path, "functionCall");
    if (!call) return call.error();
    if (*call) return function_call(p, **call, key_path(path, "functionCall"), emit);
    if (member(p, "text")) {
      std::string text;
      if (auto e = read_string(p, path, "text", text)) return e;
      std::string signature;
      if (auto e = read_string(p, path, "thoughtSignature", signature)) return e;
      if (!thought) {
        text_ += text;
        emit_text(emit, text);
      }
      if (streamed_) keep_text(p, text, thought);
      return std::nullopt;
    }
    if (streamed_) parts_.push_back(p);
    return std::nullopt;
  }

  std::optional<Error> function_call(const json& p, const json& call, const std::string& path, const Emit& emit) {
    std::string name;
    if (auto e = read_string(call, path, "name", name, true)) return e;
    if (name.empty()) return at(key_path(path, "name"), "must not be empty");
    std::string id;
    if (auto e = read_string(call, path, "id", id)) return e;
    auto args = object_member(call, path, "args");
    if (!args) return args.error();
    json arguments = *args ? **args : json::object();
    const std::size_t number = calls_.size();
    if (id.empty()) id = generated_call_id(seed_.empty() ? compact_text(call) : seed_, number);
    emit_call(emit, number, id, name, compact_text(arguments));
    calls_.push_back(ToolCall{std::move(id), std::move(name), std::move(arguments)});
    if (streamed_) parts_.push_back(p);
    return std::nullopt;
  }

  // A streamed answer's text comes a few words per chunk, and its thought signature, if any, in a
  // later chunk, often on an empty text part. Sent back as one text part holding the signature, it is
  // what the whole (not streamed) answer would have been.
  void keep_text(const json& p, const std::string& text, bool thought) {
    const auto only = [](const json& part, std::initializer_list<std::string_view> keys) {
      for (auto it = part.begin(); it != part.end(); ++it)
        if (std::find(keys.begin(), keys.end(), it.key()) == keys.end()) return false;
      return true;
    };
    if (!parts_.empty()) {
      json& last = parts_.back();
      const json* last_text = member(last, "text");
      const json* last_thought = member(last, "thought");
      bool same_kind = (last_thought && last_thought->is_boolean() && last_thought->get<bool>()) == thought;
      if (last_text && last_text->is_string() && same_kind && only(last, {"text", "thought"}) &&
          only(p, {"text", "thought", "thoughtSignature"})) {
        last["text"] = last_text->get<std::string>() + text;
        if (const json* signature = member(p, "thoughtSignature")) last["thoughtSignature"] = *signature;
        return;
      }
    }
    if (text.empty() && !member(p, "thoughtSignature") && only(p, {"text", "thought"})) return;
    parts_.push_back(p);
  }

  bool streamed_;
  bool provider_failed_ = false;
  bool saw_candidate_ = false;
  std::string seed_;  // the response's id, for ids of calls Gemini sent without one
  std::string text_;
  std::vector<ToolCall> calls_;
  std::string finish_reason_;
  std::string role_;
  json parts_ = json::array();  // streamed: the content to send back
  json content_;                // whole: the candidate's content
  std::uint64_t prompt_ = 0;
  std::uint64_t candidates_ = 0;
  std::uint64_t cached_ = 0;
  std::uint64_t thoughts_ = 0;
};

// Each event's data is a whole GenerateContentResponse: text parts are deltas, function calls come
// whole. The stream has no end marker; the chunk with a finishReason is the last one.
class GeminiAssembler final : public AssemblerBase {
 protected:
  std::optional<Error> handle(const SseReader::Event& event, const Emit& emit) override {
    auto parsed = event_json(event.data);
    if (!parsed) return parsed.error();
    auto failed = turn_.add(*parsed, emit);
    if (failed && turn_.provider_failed()) return provider_error(failed->message);
    return failed;
  }

  Result<ModelResponse> complete() override {
    if (!turn_.finished()) return Error{"the stream ended before a finishReason: the answer is incomplete"};
    return turn_.result();
  }

 private:
  GeminiTurn turn_{true};
};

// ---- the wire ------------------------------------------------------------------------------------

class GeminiWire final : public Wire {
  ToolRenderer tools_{gemini_function_declaration};

 public:
  // Model names are accepted with or without the "models/" prefix Gemini lists them with.
  std::string url(std::string_view base_url, const ModelSettings& settings, bool stream) const override {
    std::string_view model = settings.model;
    if (model.rfind("models/", 0) == 0) model.remove_prefix(7);
    std::string out(base_url);
    out += "/models/";
    out += model;
    out += stream ? ":streamGenerateContent?alt=sse" : ":generateContent";
    return out;
  }

  Headers headers(const std::string& api_key) const override {
    if (api_key.empty()) return {};
    return {{"x-goog-api-key", api_key}};
  }

  // Gemini 2.x answers 400 "Function calling with a response mime type: 'application/json' is
  // unsupported" to a request with both: the answer schema goes only with a request without tools
  // (the answer turn that follows the tool turns); with tools, the answer is asked for in the prompt
  // and decoded leniently, as for Anthropic. settings.parallel_tool_calls has no Gemini counterpart.
  Result<std::string> request_body(const ModelRequest& request, bool) const override {
    if (auto bad = check_request(request)) return *bad;
    const ModelSettings& settings = *request.settings;
    // Gemini's own subset (responseSchema) when it can express the answer; otherwise JSON Schema
    // (responseJsonSchema), which takes maps and :any.
    std::optional<OutputSchema> answer;
    if (request.output && (request.tools.empty() || !request.tool_calls_allowed)) {
      auto schema = output_schema(*request.output, Profile::Gemini);
      if (!schema) return schema.error();
      answer = std::move(schema).value();
    }
    BodyWriter body;
    body.begin_object();
    if (!request.conversation->system.empty()) {
      body.key("systemInstruction");
      body.begin_object();
      body.key("parts");
      body.begin_array();
      write_text_part(body, request.conversation->system);
      body.end_array();
      body.end_object();
    }
    body.key("contents");
    if (auto bad = write_contents(body, *request.conversation)) return *bad;
    if (!request.tools.empty() && request.tool_calls_allowed) {
      auto declarations = tools_(request.tools);
      if (!declarations) return declarations.error();
      body.key("tools");
      body.begin_array();
      body.begin_object();
      body.key("functionDeclarations");
      body.raw(*declarations);
      body.end_object();
      body.end_array();
    }
    if (settings.temperature || settings.max_output_tokens || answer) {
      body.key("generationConfig");
      body.begin_object();
      if (settings.temperature) body.key("temperature"), body.number(*settings.temperature);
      if (settings.max_output_tokens) body.key("maxOutputTokens"), body.unsigned_integer(*settings.max_output_tokens);
      if (answer) {
        body.member("responseMimeType", "application/json");
        body.key(answer->native ? "responseSchema" : "responseJsonSchema");
        body.json(answer->schema);
      }
      body.end_object();
    }
    body.end_object();
    return body.take();
  }

  Result<ModelResponse> parse_response(const nlohmann::json& body) const override {
    GeminiTurn turn(false);
    if (auto e = turn.add(body, {})) return *e;
    if (!turn.saw_candidate()) {
      if (!member(body, "candidates")) return at("candidates", "missing required field");
      return at("candidates", "expected at least one candidate");
    }
    return turn.result();
  }

  std::unique_ptr<StreamAssembler> stream() const override { return std::make_unique<GeminiAssembler>(); }

  std::string error_message(std::string_view body) const override {
    return message_or_excerpt(body, error_member_message);
  }
};

}  // namespace

namespace wire {
std::unique_ptr<Wire> make_gemini() { return std::make_unique<GeminiWire>(); }
}  // namespace wire

}  // namespace ptc::agent::detail
