// Anthropic Messages (POST {base}/messages, anthropic-version 2023-06-01). The assistant's content
// blocks go back verbatim from Message::raw, which is how thinking blocks and their signatures survive
// a tool loop, as Anthropic requires.

#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <ptc/json_input.hpp>
#include <ptc/provider.hpp>

#include "wire/body_writer.hpp"
#include "wire/wire_common.hpp"

namespace ptc::agent::detail {
namespace {

using namespace wire;  // NOLINT(google-build-using-namespace): the file's own helpers

constexpr std::uint64_t kDefaultMaxTokens = 4096;

void write_text_block(BodyWriter& out, const std::string& text) {
  out.begin_object();
  out.member("type", "text");
  out.member("text", text);
  out.end_object();
}

void write_assistant(RoleGroups& turns, const Message& m) {
  if (!m.text.empty()) write_text_block(turns.item("assistant"), m.text);
  for (const auto& call : m.tool_calls) {
    BodyWriter& out = turns.item("assistant");
    out.begin_object();
    out.member("type", "tool_use");
    out.member("id", call.id);
    out.member("name", call.name);
    out.key("input");
    out.json(arguments_object(call));
    out.end_object();
  }
}

// Anthropic wants user and assistant turns to alternate and refuses empty content: RoleGroups.
std::optional<Error> write_messages(BodyWriter& out, const Conversation& conversation) {
  RoleGroups turns(out, "content");
  for (std::size_t i = 0; i < conversation.messages.size(); ++i) {
    const Message& m = conversation.messages[i];
    switch (m.role) {
      case Role::user:
        // Anthropic refuses empty text blocks.
        if (!m.text.empty()) write_text_block(turns.item("user"), m.text);
        break;
      case Role::assistant:
        if (!has_raw(m, kAnthropic)) {
          write_assistant(turns, m);
          break;
        }
        if (!m.raw.is_array()) return at(key_path(message_path(i), "raw"), "expected an array");
        for (const auto& block : m.raw) turns.item("assistant").json(block);
        break;
      case Role::tool:
        // is_error is written for successes too, as ptc::anthropic_tool_result writes it.
        for (const auto& result : m.tool_results) {
          BodyWriter& block = turns.item("user");
          block.begin_object();
          block.member("type", "tool_result");
          block.member("tool_use_id", result.call_id);
          block.member("content", result.content);
          block.member("is_error", result.is_error);
          block.end_object();
        }
        break;
    }
  }
  turns.finish();
  return std::nullopt;
}

// Anthropic's input_tokens leave out what was read from or written to the cache; Usage counts the
// whole input, with the part read from the cache in cached_input_tokens.
struct Counts {
  std::uint64_t input = 0;
  std::uint64_t cache_creation = 0;
  std::uint64_t cache_read = 0;
  std::uint64_t output = 0;
  std::uint64_t thinking = 0;

  // Members the object has replace the counts so far (a stream's message_delta repeats them,
  // cumulatively); those it lacks are kept.
  std::optional<Error> read(const json& usage, const std::string& path) {
    if (auto e = read_count(usage, path, "input_tokens", input)) return e;
    if (auto e = read_count(usage, path, "cache_creation_input_tokens", cache_creation)) return e;
    if (auto e = read_count(usage, path, "cache_read_input_tokens", cache_read)) return e;
    if (auto e = read_count(usage, path, "output_tokens", output)) return e;
    auto details = object_member(usage, path, "output_tokens_details");
    if (!details) return details.error();
    if (*details) {
      if (auto e = read_count(**details, key_path(path, "output_tokens_details"), "thinking_tokens", thinking))
        return e;
    }
    return std::nullopt;
  }

  Usage usage() const {
    Usage u;
    u.requests = 1;
    u.input_tokens = input + cache_creation + cache_read;
    u.cached_input_tokens = cache_read;
    u.output_tokens = output;
    u.reasoning_tokens = thinking;
    return u;
  }
};

std::optional<Error> read_usage(const json& object, const std::string& path, Counts& counts) {
  auto usage = object_member(object, path, "usage");
  if (!usage) return usage.error();
  if (!*usage) return std::nullopt;
  return counts.read(**usage, key_path(path, "usage"));
}

// "type: message" of an error object, whichever parts it has.
std::string failure_text(const json& error) {
  std::string type;
  std::string message;
  if (const json* t = member(error, "type"); t && t->is_string()) type = t->get<std::string>();
  if (const json* m = member(error, "message"); m && m->is_string()) message = m->get<std::string>();
  if (message.empty()) message = compact_text(error);
  return type.empty() ? message : type + ": " + message;
}

// ---- streaming -----------------------------------------------------------------------------------

// One content block as it arrives: the block content_block_start gave, and what the deltas add.
struct Block {
  json start;
  std::string type;
  std::optional<std::string> text;       // text_delta
  std::optional<std::string> input;      // input_json_delta (tool_use, server_tool_use)
  std::optional<std::string> thinking;   // thinking_delta
  std::optional<std::string> signature;  // signature_delta
  std::optional<std::size_t> call;       // tool_use: the call's number in the turn
  std::string call_id;
  std::string name;
};

class AnthropicAssembler final : public AssemblerBase {
 protected:
  std::optional<Error> handle(const SseReader::Event& event, const Emit& emit) override {
    if (done_) return std::nullopt;
    auto parsed = event_json(event.data);
    if (!parsed) return parsed.error();
    const json& data = *parsed;
    if (auto bad = expect_object(data, "")) return bad;
    const std::string type = event_type(data, event);
    if (type == "message_start") {
      auto message = object_member(data, "", "message", true);
      if (!message) return message.error();
      return read_usage(**message, "message", counts_);
    }
    if (type == "content_block_start") return block_start(data, emit);
    if (type == "content_block_delta") return block_delta(data, emit);
    if (type == "message_delta") {
      auto delta = object_member(data, "", "delta");
      if (!delta) return delta.error();
      if (*delta) {
        if (auto e = read_string(**delta, "delta", "stop_reason", stop_reason_)) return e;
      }
      return read_usage(data, "", counts_);
    }
    if (type == "message_stop") {
      done_ = true;
      return std::nullopt;
    }
    if (type == "error") {
      const json* error = member(data, "error");
      return provider_error(failure_text(error ? *error : data));
    }
    // ping, content_block_stop (a block's parts are put together at the end) and event types added
    // after this was written.
    return std::nullopt;
  }

  Result<ModelResponse> complete() override {
    if (!done_) return Error{"the stream ended before message_stop: the answer is incomplete"};
    ModelResponse out;
    out.stop_reason = stop_reason_;
    Message& m = out.message;
    m.role = Role::assistant;
    json content = json::array();
    for (auto& [index, block] : blocks_) {
      json b = block.start;
      if (block.text) {
        b["text"] = *block.text;
        if (block.type == "text") m.text += *block.text;
      }
      if (block.thinking) b["thinking"] = *block.thinking;
      if (block.signature) b["signature"] = *block.signature;
      const json* given = member(b, "input");
      json arguments = given && given->is_object() ? *given : json::object();
      if (block.input) {
        // The text is put together from its pieces first: a piece may end inside a character or an
        // escape. Text that is no JSON object is still the model's call: it goes to dispatch as text,
        // which reports it to the model, while the block sent back holds `{}` (Anthropic takes
        // nothing else).
        auto input = parse_json(*block.input);
        if (input && input->is_object()) {
          b["input"] = *input;
          arguments = std::move(input).value();
        } else {
          b["input"] = json::object();
          arguments = arguments_from_text(*block.input);
        }
      }
      if (block.call) m.tool_calls.push_back(ToolCall{block.call_id, block.name, std::move(arguments)});
      content.push_back(std::move(b));
    }
    m.usage = counts_.usage();
    m.raw = std::move(content);
    m.provider = std::string(kAnthropic);
    return out;
  }

 private:
  std::optional<Error> block_start(const json& data, const Emit& emit) {
    std::uint64_t index = 0;
    if (auto e = read_count(data, "", "index", index, true)) return e;
    auto start = object_member(data, "", "content_block", true);
    if (!start) return start.error();
    if (blocks_.count(index)) return at("index", "content block " + std::to_string(index) + " started twice");
    Block block;
    block.start = **start;
    if (auto e = read_string(block.start, "content_block", "type", block.type, true)) return e;
    for (auto [key, field] : {std::pair{"text", &block.text}, std::pair{"thinking", &block.thinking},
                              std::pair{"signature", &block.signature}}) {
      if (!member(block.start, key)) continue;
      field->emplace();
      if (auto e = read_string(block.start, "content_block", key, **field)) return e;
    }
    if (block.type == "tool_use") {
      if (auto e = read_string(block.start, "content_block", "id", block.call_id, true)) return e;
      if (auto e = read_string(block.start, "content_block", "name", block.name, true)) return e;
      if (block.name.empty()) return at("content_block.name", "must not be empty");
      auto input = object_member(block.start, "content_block", "input");
      if (!input) return input.error();
      block.call = calls_++;
      emit_call(emit, *block.call, block.call_id, block.name, "");
    }
    blocks_.emplace(index, std::move(block));
    return std::nullopt;
  }

  // Each delta adds to its field of the block, whatever the block's type: server tools stream their
  // input as tool_use does, and a delta type added later is simply not kept.
  std::optional<Error> block_delta(const json& data, const Emit& emit) {
    std::uint64_t index = 0;
    if (auto e = read_count(data, "", "index", index, true)) return e;
    auto it = blocks_.find(index);
    if (it == blocks_.end()) return at("index", "content block " + std::to_string(index) + " was not started");
    Block& block = it->second;
    auto delta = object_member(data, "", "delta", true);
    if (!delta) return delta.error();
    const json& d = **delta;
    std::string type;
    if (auto e = read_string(d, "delta", "type", type, true)) return e;
    std::string piece;
    if (type == "text_delta") {
      if (auto e = read_string(d, "delta", "text", piece, true)) return e;
      if (!block.text) block.text.emplace();
      *block.text += piece;
      if (block.type == "text") emit_text(emit, std::move(piece));
    } else if (type == "input_json_delta") {
      if (auto e = read_string(d, "delta", "partial_json", piece, true)) return e;
      if (!block.input) block.input.emplace();
      *block.input += piece;
      if (block.call && !piece.empty()) emit_call(emit, *block.call, block.call_id, block.name, std::move(piece));
    } else if (type == "thinking_delta") {
      if (auto e = read_string(d, "delta", "thinking", piece, true)) return e;
      if (!block.thinking) block.thinking.emplace();
      *block.thinking += piece;
    } else if (type == "signature_delta") {
      if (auto e = read_string(d, "delta", "signature", piece, true)) return e;
      if (!block.signature) block.signature.emplace();
      *block.signature += piece;
    }
    return std::nullopt;
  }

  bool done_ = false;
  std::map<std::uint64_t, Block> blocks_;  // by the block's index: the order of the message's content
  std::size_t calls_ = 0;
  std::string stop_reason_;
  Counts counts_;
};

// ---- the wire ------------------------------------------------------------------------------------

class AnthropicWire final : public Wire {
  ToolRenderer tools_{anthropic_tool};

 public:
  std::string url(std::string_view base_url, const ModelSettings&, bool) const override {
    return std::string(base_url) + "/messages";
  }

  Headers headers(const std::string& api_key) const override {
    Headers out;
    if (!api_key.empty()) out.emplace_back("x-api-key", api_key);
    out.emplace_back("anthropic-version", "2023-06-01");
    return out;
  }

  // Messages 2023-06-01 has no response format: an answer schema is asked for in the prompt and
  // decoded leniently, so `output` adds nothing here.
  Result<std::string> request_body(const ModelRequest& request, bool stream) const override {
    if (auto bad = check_request(request)) return *bad;
    const ModelSettings& settings = *request.settings;
    BodyWriter body;
    body.begin_object();
    body.member("model", settings.model);
    body.key("max_tokens");
    body.unsigned_integer(settings.max_output_tokens.value_or(kDefaultMaxTokens));
    if (!request.conversation->system.empty()) body.member("system", request.conversation->system);
    body.key("messages");
    if (auto bad = write_messages(body, *request.conversation)) return *bad;
    if (!request.tools.empty()) {
      auto tools = tools_(request.tools);
      if (!tools) return tools.error();
      body.key("tools");
      body.raw(*tools);
      // Anthropic refuses a history of tool_use blocks without the tools' definitions, so a turn where
      // calls are not allowed lists them and says "none".
      if (!request.tool_calls_allowed || !settings.parallel_tool_calls) {
        body.key("tool_choice");
        body.begin_object();
        body.member("type", request.tool_calls_allowed ? "auto" : "none");
        if (request.tool_calls_allowed) body.member("disable_parallel_tool_use", true);
        body.end_object();
      }
    }
    if (settings.temperature) body.key("temperature"), body.number(*settings.temperature);
    if (stream) body.member("stream", true);
    body.end_object();
    return body.take();
  }

  // tool_use input is kept as the object Anthropic sent (ToolCall::arguments holds an object, not text).
  Result<ModelResponse> parse_response(const nlohmann::json& body) const override {
    if (auto bad = expect_object(body, "")) return *bad;
    if (const json* type = member(body, "type"); type && *type == "error") {
      const json* error = member(body, "error");
      return Error{failure_text(error ? *error : body)};
    }
    auto content = array_member(body, "", "content", true);
    if (!content) return content.error();
    ModelResponse out;
    Message& m = out.message;
    m.role = Role::assistant;
    for (std::size_t i = 0; i < (*content)->size(); ++i) {
      const json& block = (**content)[i];
      const std::string path = index_path("content", i);
      if (auto bad = expect_object(block, path)) return *bad;
      std::string type;
      if (auto e = read_string(block, path, "type", type, true)) return *e;
      if (type == "text") {
        std::string text;
        if (auto e = read_string(block, path, "text", text, true)) return *e;
        m.text += text;
      }
    }
    auto calls = parse_tool_calls(body);
    if (!calls) return calls.error();
    m.tool_calls = std::move(calls).value();
    if (auto e = read_string(body, "", "stop_reason", out.stop_reason)) return *e;
    Counts counts;
    if (auto e = read_usage(body, "", counts)) return *e;
    m.usage = counts.usage();
    m.raw = **content;
    m.provider = std::string(kAnthropic);
    return out;
  }

  std::unique_ptr<StreamAssembler> stream() const override { return std::make_unique<AnthropicAssembler>(); }

  std::string error_message(std::string_view body) const override {
    return message_or_excerpt(body, [](const json& parsed) -> std::optional<std::string> {
      const json* error = member(parsed, "error");
      if (!error) return std::nullopt;
      if (error->is_string()) return error->get<std::string>();
      if (const json* message = member(*error, "message"); message && message->is_string())
        return message->get<std::string>();
      return std::nullopt;
    });
  }
};

}  // namespace

namespace wire {
std::unique_ptr<Wire> make_anthropic() { return std::make_unique<AnthropicWire>(); }
}  // namespace wire

}  // namespace ptc::agent::detail
