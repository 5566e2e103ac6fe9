// OpenAI Responses (POST {base}/responses). ptc sends the whole conversation each turn and never
// refers to a previous response by id; the model's own output items (reasoning among them) go back
// verbatim from Message::raw.

#include <map>
#include <string>
#include <utility>
#include <vector>

#include <ptc/provider.hpp>

#include "wire/body_writer.hpp"
#include "wire/wire_common.hpp"

namespace ptc::agent::detail {
namespace {

using namespace wire;  // NOLINT(google-build-using-namespace): the file's own helpers

void write_message_item(BodyWriter& out, std::string_view role, const std::string& text) {
  out.begin_object();
  out.member("type", "message");
  out.member("role", role);
  out.member("content", text);
  out.end_object();
}

void write_item(BodyWriter& out, std::string_view type, const std::string& call_id, std::string_view key,
                const std::string& value, const std::string* name = nullptr) {
  out.begin_object();
  out.member("type", type);
  out.member("call_id", call_id);
  if (name) out.member("name", *name);
  out.member(key, value);
  out.end_object();
}

std::optional<Error> write_input(BodyWriter& out, const Conversation& conversation) {
  out.begin_array();
  for (std::size_t i = 0; i < conversation.messages.size(); ++i) {
    const Message& m = conversation.messages[i];
    switch (m.role) {
      case Role::user: write_message_item(out, "user", m.text); break;
      case Role::assistant:
        if (has_raw(m, kOpenAiResponses)) {
          if (!m.raw.is_array()) return at(key_path(message_path(i), "raw"), "expected an array");
          for (const auto& item : m.raw) out.json(item);
          break;
        }
        if (!m.text.empty()) write_message_item(out, "assistant", m.text);
        for (const auto& call : m.tool_calls)
          write_item(out, "function_call", call.id, "arguments", arguments_text(call), &call.name);
        break;
      case Role::tool:
        // No failure flag in this format either: the rendered text says that the call failed.
        for (const auto& result : m.tool_results)
          write_item(out, "function_call_output", result.call_id, "output", result.content);
        break;
    }
  }
  out.end_array();
  return std::nullopt;
}

std::optional<Error> read_usage(const json& response, Usage& usage) {
  auto object = object_member(response, "", "usage");
  if (!object) return object.error();
  if (!*object) return std::nullopt;
  const json& u = **object;
  if (auto e = read_count(u, "usage", "input_tokens", usage.input_tokens)) return e;
  if (auto e = read_count(u, "usage", "output_tokens", usage.output_tokens)) return e;
  auto input = object_member(u, "usage", "input_tokens_details");
  if (!input) return input.error();
  if (*input) {
    if (auto e = read_count(**input, "usage.input_tokens_details", "cached_tokens", usage.cached_input_tokens))
      return e;
  }
  auto output = object_member(u, "usage", "output_tokens_details");
  if (!output) return output.error();
  if (*output) {
    if (auto e = read_count(**output, "usage.output_tokens_details", "reasoning_tokens", usage.reasoning_tokens))
      return e;
  }
  return std::nullopt;
}

// "code: message" of a response's `error` or an `error` event, whichever parts it has.
std::string failure_text(const json& error) {
  std::string code;
  std::string message;
  if (const json* c = member(error, "code"); c && c->is_string()) code = c->get<std::string>();
  if (const json* m = member(error, "message"); m && m->is_string()) message = m->get<std::string>();
  if (message.empty()) message = error.is_object() ? compact_text(error) : "the response failed";
  return code.empty() ? message : code + ": " + message;
}

// The text of a `message` output item: its output_text parts, and a refusal (the model's answer in
// words; the run decides what to make of it).
std::optional<Error> message_text(const json& item, const std::string& path, std::string& text) {
  auto content = array_member(item, path, "content");
  if (!content) return content.error();
  if (!*content) return std::nullopt;
  for (std::size_t i = 0; i < (*content)->size(); ++i) {
    const json& part = (**content)[i];
    const std::string ppath = index_path(key_path(path, "content"), i);
    if (auto bad = expect_object(part, ppath)) return bad;
    std::string type;
    if (auto e = read_string(part, ppath, "type", type)) return e;
    std::string piece;
    if (type == "output_text") {
      if (auto e = read_string(part, ppath, "text", piece, true)) return e;
    } else if (type == "refusal") {
      if (auto e = read_string(part, ppath, "refusal", piece, true)) return e;
    }
    text += piece;
  }
  return std::nullopt;
}

// A whole Response object, from POST /responses or from the stream's response.completed; errors
// name paths in that object, except the response's own failure, which sets `failed`.
Result<ModelResponse> parse_response_object(const json& response, bool& failed) {
  if (auto bad = expect_object(response, "")) return *bad;
  std::string status;
  if (auto e = read_string(response, "", "status", status)) return *e;
  if (const json* error = member(response, "error"); error || status == "failed") {
    failed = true;
    return Error{error ? failure_text(*error) : "the response failed"};
  }
  auto output = array_member(response, "", "output", true);
  if (!output) return output.error();
  ModelResponse out;
  Message& m = out.message;
  m.role = Role::assistant;
  for (std::size_t i = 0; i < (*output)->size(); ++i) {
    const json& item = (**output)[i];
    const std::string path = index_path("output", i);
    if (auto bad = expect_object(item, path)) return *bad;
    std::string type;
    if (auto e = read_string(item, path, "type", type)) return *e;
    if (type == "message") {
      std::string text;
      if (auto e = message_text(item, path, text)) return *e;
      m.text += text;
    }
  }
  auto calls = parse_tool_calls(response);
  if (!calls) return calls.error();
  m.tool_calls = std::move(calls).value();
  out.stop_reason = status;
  auto incomplete = object_member(response, "", "incomplete_details");
  if (!incomplete) return incomplete.error();
  if (*incomplete) {
    if (auto e = read_string(**incomplete, "incomplete_details", "reason", out.stop_reason)) return *e;
  }
  if (auto e = read_usage(response, m.usage)) return *e;
  m.usage.requests = 1;
  m.raw = **output;
  m.provider = std::string(kOpenAiResponses);
  return out;
}

// ---- streaming -----------------------------------------------------------------------------------

struct CallInProgress {
  std::string call_id;
  std::string name;
  std::string arguments;
};

// The deltas are passed on as they come; the turn itself is read from response.completed (or
// response.incomplete), which carries the whole response.
class ResponsesAssembler final : public AssemblerBase {
 protected:
  std::optional<Error> handle(const SseReader::Event& event, const Emit& emit) override {
    if (done_) return std::nullopt;
    auto parsed = event_json(event.data);
    if (!parsed) return parsed.error();
    const json& data = *parsed;
    if (auto bad = expect_object(data, "")) return bad;
    const std::string type = event_type(data, event);
    if (type == "response.output_text.delta") {
      std::string delta;
      if (auto e = read_string(data, "", "delta", delta, true)) return e;
      streamed_ += delta;
      emit_text(emit, std::move(delta));
    } else if (type == "response.output_item.added") {
      return item_added(data, emit);
    } else if (type == "response.function_call_arguments.delta") {
      CallInProgress* call = nullptr;
      std::size_t number = 0;
      if (auto e = find_call(data, call, number)) return e;
      std::string delta;
      if (auto e = read_string(data, "", "delta", delta, true)) return e;
      call->arguments += delta;
      if (!delta.empty()) emit_call(emit, number, call->call_id, call->name, std::move(delta));
    } else if (type == "response.function_call_arguments.done") {
      CallInProgress* call = nullptr;
      std::size_t number = 0;
      if (auto e = find_call(data, call, number)) return e;
      if (auto e = read_string(data, "", "arguments", call->arguments)) return e;
    } else if (type == "response.completed" || type == "response.incomplete") {
      auto response = object_member(data, "", "response", true);
      if (!response) return response.error();
      bool failed = false;
      auto turn = parse_response_object(**response, failed);
      if (!turn) return failed ? provider_error(turn.error().message) : nested("response", turn.error());
      turn_ = std::move(turn).value();
      done_ = true;
    } else if (type == "response.failed") {
      auto response = object_member(data, "", "response", true);
      if (!response) return response.error();
      const json* error = member(**response, "error");
      return provider_error(error ? failure_text(*error) : "the response failed");
    } else if (type == "error") {
      const json* nested_error = member(data, "error");
      return provider_error(failure_text(nested_error ? *nested_error : data));
    }
    // Other events (created, in_progress, content parts, reasoning summaries, ...) add nothing that
    // response.completed does not carry whole.
    return std::nullopt;
  }

  Result<ModelResponse> complete() override {
    if (!done_) return Error{"the stream ended before response.completed: the answer is incomplete"};
    // The deltas were shown as they came; a completed text that does not hold them would record in the
    // conversation another answer than the one shown.
    if (!streamed_.empty() && turn_.message.text.find(streamed_) == std::string::npos)
      return Error{"the streamed text does not match the text of the completed response"};
    return turn_;
  }

 private:
  std::string streamed_;  // the text deltas, as shown
  std::optional<Error> item_added(const json& data, const Emit& emit) {
    auto item = object_member(data, "", "item", true);
    if (!item) return item.error();
    std::string type;
    if (auto e = read_string(**item, "item", "type", type)) return e;
    if (type != "function_call") return std::nullopt;
    std::uint64_t output_index = 0;
    if (auto e = read_count(data, "", "output_index", output_index, true)) return e;
    CallInProgress call;
    if (auto e = read_string(**item, "item", "call_id", call.call_id)) return e;
    if (auto e = read_string(**item, "item", "name", call.name)) return e;
    if (auto e = read_string(**item, "item", "arguments", call.arguments)) return e;
    auto [it, added] = by_output_index_.try_emplace(output_index, calls_.size());
    if (!added) return at("output_index", "a second item at output index " + std::to_string(output_index));
    calls_.push_back(std::move(call));
    const CallInProgress& c = calls_.back();
    emit_call(emit, it->second, c.call_id, c.name, c.arguments);
    return std::nullopt;
  }

  std::optional<Error> find_call(const json& data, CallInProgress*& call, std::size_t& number) {
    std::uint64_t output_index = 0;
    if (auto e = read_count(data, "", "output_index", output_index, true)) return e;
    auto it = by_output_index_.find(output_index);
    if (it == by_output_index_.end())
      return at("output_index", "no function_call item was added at output index " + std::to_string(output_index));
    number = it->second;
    call = &calls_[number];
    return std::nullopt;
  }

  bool done_ = false;
  ModelResponse turn_;
  std::vector<CallInProgress> calls_;
  std::map<std::uint64_t, std::size_t> by_output_index_;
};

// ---- the wire ------------------------------------------------------------------------------------

class OpenAiResponsesWire final : public Wire {
  ToolRenderer tools_{openai_responses_tool};

 public:
  std::string url(std::string_view base_url, const ModelSettings&, bool) const override {
    return std::string(base_url) + "/responses";
  }

  Headers headers(const std::string& api_key) const override { return bearer_headers(api_key); }

  // `store` is left at the API's default (true). With store:false, reasoning items sent back resolve
  // only through their encrypted_content, which older deployments return only when the request asks
  // for it with include:["reasoning.encrypted_content"], and non-reasoning models (gpt-4o, gpt-4.1)
  // refuse that include with a 400: each choice breaks one kind of model. Stored, the items ptc sends
  // back verbatim resolve for every model.
  Result<std::string> request_body(const ModelRequest& request, bool stream) const override {
    if (auto bad = check_request(request)) return *bad;
    const ModelSettings& settings = *request.settings;
    BodyWriter body;
    body.begin_object();
    body.member("model", settings.model);
    if (!request.conversation->system.empty()) body.member("instructions", request.conversation->system);
    body.key("input");
    if (auto bad = write_input(body, *request.conversation)) return *bad;
    if (!request.tools.empty() && request.tool_calls_allowed) {
      auto tools = tools_(request.tools);
      if (!tools) return tools.error();
      body.key("tools");
      body.raw(*tools);
      body.member("parallel_tool_calls", settings.parallel_tool_calls);
    }
    if (request.output) {
      if (auto bad = check_format_name(request.output->name)) return *bad;
      auto schema = output_schema(*request.output, Profile::OpenAI);
      if (!schema) return schema.error();
      // As in Chat: an object at the root or no structured output.
      if (is_object_schema(schema->schema)) {
        body.key("text");
        body.begin_object();
        body.key("format");
        body.begin_object();
        body.member("type", "json_schema");
        write_json_schema_members(body, request.output->name, *schema);
        body.end_object();
        body.end_object();
      }
    }
    if (settings.temperature) body.key("temperature"), body.number(*settings.temperature);
    if (settings.max_output_tokens) body.key("max_output_tokens"), body.unsigned_integer(*settings.max_output_tokens);
    if (stream) body.member("stream", true);
    body.end_object();
    return body.take();
  }

  Result<ModelResponse> parse_response(const nlohmann::json& body) const override {
    bool failed = false;
    return parse_response_object(body, failed);
  }

  std::unique_ptr<StreamAssembler> stream() const override { return std::make_unique<ResponsesAssembler>(); }

  std::string error_message(std::string_view body) const override {
    return message_or_excerpt(body, error_member_message);
  }
};

}  // namespace

namespace wire {
std::unique_ptr<Wire> make_openai_responses() { return std::make_unique<OpenAiResponsesWire>(); }
}  // namespace wire

}  // namespace ptc::agent::detail
