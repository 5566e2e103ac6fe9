// OpenAI Chat Completions (POST {base}/chat/completions), also spoken by Ollama, llama.cpp's server,
// vLLM and LM Studio. Those servers stream tool calls in every way the format allows and some it does
// not, so the assembler accepts each of them (see ChatAssembler).

#include <map>
#include <string>
#include <utility>
#include <vector>

#include <ptc/provider.hpp>

#include "text.hpp"
#include "wire/body_writer.hpp"
#include "wire/wire_common.hpp"

namespace ptc::agent::detail {
namespace {

using namespace wire;  // NOLINT(google-build-using-namespace): the file's own helpers

void write_tool_call(BodyWriter& out, const ToolCall& call) {
  out.begin_object();
  out.member("id", call.id);
  out.member("type", "function");
  out.key("function");
  out.begin_object();
  out.member("name", call.name);
  out.member("arguments", arguments_text(call));
  out.end_object();
  out.end_object();
}

void write_assistant(BodyWriter& out, const Message& m) {
  out.begin_object();
  out.member("role", "assistant");
  // Content may be null only beside tool calls; an empty answer is the empty string.
  out.key("content");
  if (m.text.empty() && !m.tool_calls.empty())
    out.null();
  else
    out.string(m.text);
  if (!m.tool_calls.empty()) {
    out.key("tool_calls");
    out.begin_array();
    for (const auto& call : m.tool_calls) write_tool_call(out, call);
    out.end_array();
  }
  out.end_object();
}

void write_message(BodyWriter& out, std::string_view role, const std::string& content) {
  out.begin_object();
  out.member("role", role);
  out.member("content", content);
  out.end_object();
}

std::optional<Error> write_messages(BodyWriter& out, const Conversation& conversation) {
  out.begin_array();
  if (!conversation.system.empty()) write_message(out, "system", conversation.system);
  for (std::size_t i = 0; i < conversation.messages.size(); ++i) {
    const Message& m = conversation.messages[i];
    switch (m.role) {
      case Role::user: write_message(out, "user", m.text); break;
      case Role::assistant:
        if (!has_raw(m, kOpenAiChat)) {
          write_assistant(out, m);
        } else if (m.raw.is_object()) {
          out.json(m.raw);
        } else {
          return at(key_path(message_path(i), "raw"), "expected an object");
        }
        break;
      case Role::tool:
        // Chat has no failure flag: the rendered text says that the call failed.
        for (const auto& result : m.tool_results) {
          out.begin_object();
          out.member("role", "tool");
          out.member("tool_call_id", result.call_id);
          out.member("content", result.content);
          out.end_object();
        }
        break;
    }
  }
  out.end_array();
  return std::nullopt;
}

std::optional<Error> read_usage(const json& body, std::string_view path, Usage& usage) {
  auto object = object_member(body, path, "usage");
  if (!object) return object.error();
  if (!*object) return std::nullopt;
  const json& u = **object;
  const std::string upath = key_path(path, "usage");
  if (auto e = read_count(u, upath, "prompt_tokens", usage.input_tokens)) return e;
  if (auto e = read_count(u, upath, "completion_tokens", usage.output_tokens)) return e;
  auto prompt = object_member(u, upath, "prompt_tokens_details");
  if (!prompt) return prompt.error();
  if (*prompt) {
    if (auto e =
            read_count(**prompt, key_path(upath, "prompt_tokens_details"), "cached_tokens", usage.cached_input_tokens))
      return e;
  }
  auto completion = object_member(u, upath, "completion_tokens_details");
  if (!completion) return completion.error();
  if (*completion) {
    if (auto e = read_count(**completion, key_path(upath, "completion_tokens_details"), "reasoning_tokens",
                            usage.reasoning_tokens))
      return e;
  }
  return std::nullopt;
}

// ---- streaming -----------------------------------------------------------------------------------

// One tool call being streamed, keyed by the `index` the server gave it.
struct CallInProgress {
  std::string id;
  std::string name;
  std::string arguments;
};

class ChatAssembler final : public AssemblerBase {
 protected:
  std::optional<Error> handle(const SseReader::Event& event, const Emit& emit) override {
    // Whatever follows [DONE] is not part of the answer.
    if (done_) return std::nullopt;
    const std::string_view data = text::trim(event.data);
    if (data == "[DONE]") {
      done_ = true;
      return std::nullopt;
    }
    if (data.empty()) return std::nullopt;  // a keep-alive
    auto parsed = event_json(data);
    if (!parsed) return parsed.error();
    const json& chunk = *parsed;
    if (auto bad = expect_object(chunk, "")) return bad;
    // Compatible servers report a failure that happens mid-stream as a chunk with an error.
    if (member(chunk, "error")) {
      auto message = error_member_message(chunk);
      return provider_error(message ? *message : compact_text(chunk["error"]));
    }
    if (seed_.empty()) {
      if (auto e = read_string(chunk, "", "id", seed_)) return e;
    }
    auto choices = array_member(chunk, "", "choices");
    if (!choices) return choices.error();
    if (*choices) {
      for (std::size_t i = 0; i < (*choices)->size(); ++i) {
        if (auto e = choice((**choices)[i], index_path("choices", i), emit)) return e;
      }
    }
    return read_usage(chunk, "", usage_);
  }

  Result<ModelResponse> complete() override {
    // llama.cpp's server and others sometimes end the stream without [DONE]; a finish_reason already
    // said the answer is whole, so only a stream that has neither was cut off.
    if (!done_ && finish_reason_.empty())
      return Error{"the stream ended before [DONE] and without a finish_reason: the answer is incomplete"};
    ModelResponse out;
    out.stop_reason = finish_reason_;
    Message& m = out.message;
    m.role = Role::assistant;
    m.text = text_.empty() ? refusal_ : text_;
    m.provider = std::string(kOpenAiChat);
    for (std::size_t k = 0; k < calls_.size(); ++k) {
      CallInProgress& c = calls_[k];
      if (c.name.empty())
        return Error{"tool call " + std::to_string(k) + " (index " + std::to_string(indexes_[k]) +
                     "): the stream never named its function"};
      std::string id = c.id.empty() ? generated_call_id(seed_.empty() ? c.name + c.arguments : seed_, k) : c.id;
      m.tool_calls.push_back(ToolCall{std::move(id), c.name, arguments_from_text(c.arguments)});
    }
    m.usage = usage_;
    m.usage.requests = 1;
    return out;
  }

 private:
  std::optional<Error> choice(const json& c, const std::string& path, const Emit& emit) {
    if (auto bad = expect_object(c, path)) return bad;
    // With n > 1 the other choices are alternative answers; the conversation continues with the first.
    std::uint64_t index = 0;
    if (auto e = read_count(c, path, "index", index)) return e;
    if (index != 0) return std::nullopt;
    auto delta = object_member(c, path, "delta");
    if (!delta) return delta.error();
    if (*delta) {
      const json& d = **delta;
      const std::string dpath = key_path(path, "delta");
      std::string content;
      if (auto e = read_string(d, dpath, "content", content)) return e;
      if (!content.empty()) {
        text_ += content;
        emit_text(emit, std::move(content));
      }
      std::string refusal;
      if (auto e = read_string(d, dpath, "refusal", refusal)) return e;
      refusal_ += refusal;
      auto calls = array_member(d, dpath, "tool_calls");
      if (!calls) return calls.error();
      if (*calls) {
        for (std::size_t j = 0; j < (*calls)->size(); ++j)
          if (auto e = call_delta((**calls)[j], index_path(key_path(dpath, "tool_calls"), j), j, emit)) return e;
      }
    }
    return read_string(c, path, "finish_reason", finish_reason_);
  }

  // Every quirk seen in the wild: the id and the name in the first delta or a later one, the name sent
  // again with each delta (never concatenated), a whole call in one delta, several calls in one delta.
  std::optional<Error> call_delta(const json& delta, const std::string& path, std::size_t position, const Emit& emit) {
    if (auto bad = expect_object(delta, path)) return bad;
    // `index` is required by the format; a server that leaves it out sends whole calls, one per
    // array item, so the item's position stands in for it.
    std::uint64_t index = position;
    if (const json* given = member(delta, "index"); given) {
      if (!given->is_number_integer()) return at(key_path(path, "index"), "expected an integer");
      if (auto e = read_count(delta, path, "index", index)) return e;
    }
    std::string id;
    if (auto e = read_string(delta, path, "id", id)) return e;
    auto [it, added] = by_index_.try_emplace(index, calls_.size());
    // Some servers give every call of a turn index 0; a new id at an index that has one starts a new
    // call rather than joining two calls' arguments into text that is no JSON.
    if (!added && !id.empty() && !calls_[it->second].id.empty() && calls_[it->second].id != id) {
      it->second = calls_.size();
      added = true;
    }
    if (added) {
      calls_.emplace_back();
      indexes_.push_back(index);
    }
    const std::size_t number = it->second;
    CallInProgress& call = calls_[number];
    bool news = added;
    if (!id.empty() && call.id.empty()) {
      call.id = std::move(id);
      news = true;
    }
    std::string arguments;
    auto function = object_member(delta, path, "function");
    if (!function) return function.error();
    if (*function) {
      const json& f = **function;
      const std::string fpath = key_path(path, "function");
      std::string name;
      if (auto e = read_string(f, fpath, "name", name)) return e;
      if (!name.empty() && name != call.name) {
        // A server that repeats the name sends it whole each time; one that grows it sends the name so
        // far; anything else is a name split across deltas.
        if (call.name.empty() || name.rfind(call.name, 0) == 0)
          call.name = std::move(name);
        else
          call.name += name;
        news = true;
      }
      if (const json* a = member(f, "arguments"); a) {
        if (a->is_string()) {
          arguments = a->get<std::string>();
        } else if (a->is_object() && call.arguments.empty()) {
          // Some servers send a whole call's arguments as an object.
          arguments = compact_text(*a);
        } else {
          return at(key_path(fpath, "arguments"), "expected a string");
        }
      }
    }
    call.arguments += arguments;
    if (news || !arguments.empty()) emit_call(emit, number, call.id, call.name, std::move(arguments));
    return std::nullopt;
  }

  bool done_ = false;
  std::string seed_;  // the completion's id, for ids of calls streamed without one
  std::string text_;
  std::string refusal_;
  std::string finish_reason_;
  std::vector<CallInProgress> calls_;   // in the order their indexes first appeared
  std::vector<std::uint64_t> indexes_;  // the server's index of each call
  std::map<std::uint64_t, std::size_t> by_index_;
  Usage usage_;
};

// ---- the wire ------------------------------------------------------------------------------------

class OpenAiChatWire final : public Wire {
  ToolRenderer tools_{openai_chat_tool};

 public:
  std::string url(std::string_view base_url, const ModelSettings&, bool) const override {
    return std::string(base_url) + "/chat/completions";
  }

  Headers headers(const std::string& api_key) const override { return bearer_headers(api_key); }

  Result<std::string> request_body(const ModelRequest& request, bool stream) const override {
    if (auto bad = check_request(request)) return *bad;
    const ModelSettings& settings = *request.settings;
    BodyWriter body;
    body.begin_object();
    body.member("model", settings.model);
    body.key("messages");
    if (auto bad = write_messages(body, *request.conversation)) return *bad;
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
      // Structured outputs take an object at the root only; another answer is asked for in text.
      if (is_object_schema(schema->schema)) {
        body.key("response_format");
        body.begin_object();
        body.member("type", "json_schema");
        body.key("json_schema");
        body.begin_object();
        write_json_schema_members(body, request.output->name, *schema);
        body.end_object();
        body.end_object();
      }
    }
    if (settings.temperature) body.key("temperature"), body.number(*settings.temperature);
    if (settings.max_output_tokens)
      body.key("max_completion_tokens"), body.unsigned_integer(*settings.max_output_tokens);
    if (stream) {
      body.member("stream", true);
      body.key("stream_options");
      body.begin_object();
      body.member("include_usage", true);
      body.end_object();
    }
    body.end_object();
    return body.take();
  }

  Result<ModelResponse> parse_response(const nlohmann::json& body) const override {
    if (auto bad = expect_object(body, "")) return *bad;
    if (member(body, "error")) {
      auto message = error_member_message(body);
      return Error{message ? *message : compact_text(body["error"])};
    }
    auto choices = array_member(body, "", "choices", true);
    if (!choices) return choices.error();
    if ((*choices)->empty()) return at("choices", "expected at least one choice");
    const json& choice = (**choices)[0];
    if (auto bad = expect_object(choice, "choices[0]")) return *bad;
    auto message = object_member(choice, "choices[0]", "message", true);
    if (!message) return message.error();
    ModelResponse out;
    Message& m = out.message;
    m.role = Role::assistant;
    m.provider = std::string(kOpenAiChat);
    std::string refusal;
    if (auto e = read_string(**message, "choices[0].message", "content", m.text)) return *e;
    if (auto e = read_string(**message, "choices[0].message", "refusal", refusal)) return *e;
    // A refusal is the model's answer in words; the run decides what to make of it.
    if (m.text.empty()) m.text = std::move(refusal);
    auto calls = parse_tool_calls(body);
    if (!calls) return calls.error();
    m.tool_calls = std::move(calls).value();
    if (auto e = read_string(choice, "choices[0]", "finish_reason", out.stop_reason)) return *e;
    if (auto e = read_usage(body, "", m.usage)) return *e;
    m.usage.requests = 1;
    return out;
  }

  std::unique_ptr<StreamAssembler> stream() const override { return std::make_unique<ChatAssembler>(); }

  std::string error_message(std::string_view body) const override {
    return message_or_excerpt(body, error_member_message);
  }
};

}  // namespace

namespace wire {
std::unique_ptr<Wire> make_openai_chat() { return std::make_unique<OpenAiChatWire>(); }
}  // namespace wire

}  // namespace ptc::agent::detail
