#pragma once
// What the four wire formats share: reading a provider's JSON with the path of whatever is not as
// documented, the tool calls' argument forms, the structured-output schema, the stream assemblers'
// bookkeeping (event numbers, the first error ends the stream) and the error-body fallback.
// Internal to src/wire.

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include <ptc/error.hpp>
#include <ptc/json_schema.hpp>
#include <ptc/json_text.hpp>
#include <ptc/schema.hpp>
#include <ptc/tool_call.hpp>

#include "wire/body_writer.hpp"
#include "wire/wire.hpp"

namespace ptc::agent::detail::wire {

using json = nlohmann::json;
using Emit = std::function<void(const StreamEvent&)>;

// The names Message::provider holds, written here rather than read from provider_name() so that the
// wire formats stand on their own (they are tested without the provider clients).
inline constexpr std::string_view kOpenAiChat = "openai";
inline constexpr std::string_view kOpenAiResponses = "openai-responses";
inline constexpr std::string_view kAnthropic = "anthropic";
inline constexpr std::string_view kGemini = "gemini";

std::unique_ptr<Wire> make_openai_chat();
std::unique_ptr<Wire> make_openai_responses();
std::unique_ptr<Wire> make_anthropic();
std::unique_ptr<Wire> make_gemini();

// ---- paths and errors ----------------------------------------------------------------------------

/// Paths as ptc's validation prints them: `choices[0].delta`, `a["odd key"]`; "" is the root.
std::string key_path(std::string_view parent, std::string_view key);
std::string index_path(std::string_view parent, std::size_t index);
/// "path: message", "(root): message" for the root.
Error at(std::string_view path, std::string_view message);
/// `error`, whose message starts with a path, with that path put under `prefix`:
/// "output[0].name: ..." under "response" is "response.output[0].name: ...".
Error nested(std::string_view prefix, const Error& error);

// ---- reading -------------------------------------------------------------------------------------
// Each reader takes the object, the object's path and the member's key. Providers send null for
// "none" as often as they leave a member out, so both read as absent.

/// The member, or nullptr when absent or null.
const json* member(const json& object, std::string_view key);
std::optional<Error> expect_object(const json& value, std::string_view path);
/// An object member: nullptr when absent (an error when `required`).
Result<const json*> object_member(const json& object, std::string_view path, std::string_view key,
                                  bool required = false);
/// An array member: nullptr when absent (an error when `required`).
Result<const json*> array_member(const json& object, std::string_view path, std::string_view key,
                                 bool required = false);
/// A string member into `out`, untouched when absent.
std::optional<Error> read_string(const json& object, std::string_view path, std::string_view key, std::string& out,
                                 bool required = false);
/// A non-negative integer member (a count, an index) into `out`, untouched when absent.
std::optional<Error> read_count(const json& object, std::string_view path, std::string_view key, std::uint64_t& out,
                                bool required = false);
std::optional<Error> read_bool(const json& object, std::string_view path, std::string_view key, bool& out);

// ---- tool calls ----------------------------------------------------------------------------------

/// The arguments as JSON text (OpenAI's form): a string as it is, an object as its compact text.
std::string arguments_text(const ToolCall& call);
/// The arguments as an object (Anthropic's and Gemini's form). Text that is not a JSON object, which
/// the model sent to another provider and dispatch refused, becomes `{}`: these providers take nothing
/// else, and the call's result already tells the model what was wrong.
json arguments_object(const ToolCall& call);
/// Arguments as a streamed or OpenAI-style call leaves them: blank text (some servers send "" for no
/// arguments) is the empty object, anything else stays text for dispatch to parse and report.
json arguments_from_text(std::string text);
/// An id for a call the provider sent without one (Gemini's ids are optional, some OpenAI-compatible
/// servers stream none): "call_" + 16 hex digits of a hash of `seed` (the response's id, or the call
/// itself) + "_" + the call's number in the turn. The same response always gives the same ids;
/// different responses practically never share one, which Anthropic requires of a conversation's
/// tool_use ids should it be sent there.
std::string generated_call_id(std::string_view seed, std::size_t number);

/// OpenAI's auth header (`Authorization: Bearer KEY`), none without a key.
Headers bearer_headers(const std::string& api_key);

/// A provider's rendering applied to each tool, in order, as the array's compact text; an error is the
/// tool's (it names the tool). The text is kept and given again while the same tools are offered: a run
/// offers the same tools with every request, and rendering them anew was a tenth of a turn's work.
/// Thread-safe.
class ToolRenderer {
 public:
  using Render = Result<OrderedJson> (*)(const Tool&);
  explicit ToolRenderer(Render render) : render_(render) {}
  Result<std::string> operator()(const std::vector<const Tool*>& tools) const;

 private:
  bool same_tools(const std::vector<const Tool*>& tools) const;

  Render render_;
  mutable std::mutex mutex_;
  // Copies of the tools last rendered. They keep their definitions alive, so a definition at the
  // address of one of theirs is theirs: no other tool can be given that address meanwhile.
  mutable std::vector<Tool> tools_;
  mutable std::string rendered_;
};

// ---- structured output ---------------------------------------------------------------------------

struct OutputSchema {
  OrderedJson schema;
  /// Rendered with the provider's own profile (OpenAI's strict one, Gemini's subset); false: the
  /// portable rendering, because that profile cannot express the schema.
  bool native = true;
};
/// The answer schema in `profile`, or, when the profile cannot express it, the portable rendering
/// without its "$schema" key. An error names the output when neither can.
Result<OutputSchema> output_schema(const OutputSpec& output, Profile profile);
/// The `name`, `schema` and `strict` members of OpenAI's json_schema response format (Chat nests them
/// in `json_schema`, Responses puts them beside `type`).
void write_json_schema_members(BodyWriter& out, const std::string& name, const OutputSchema& schema);
/// OpenAI's rule for a response format's name: ^[a-zA-Z0-9_-]{1,64}$.
std::optional<Error> check_format_name(std::string_view name);
/// Whether a rendered schema describes an object: OpenAI's structured outputs take nothing else at the
/// root.
bool is_object_schema(const OrderedJson& schema);

// ---- messages ------------------------------------------------------------------------------------

/// Whether `message` carries `raw` written by `provider`, to be sent back verbatim.
bool has_raw(const Message& message, std::string_view provider);
/// The request's conversation and settings, or an error when the caller left one unset.
std::optional<Error> check_request(const ModelRequest& request);
/// "messages[i]"
std::string message_path(std::size_t index);

// ---- streams -------------------------------------------------------------------------------------

/// JSON a provider sent (an answer, an event's data): the value ptc::parse_json reads, within its
/// limits, and its error when it reads none. Read with simdjson first, since building the tree with
/// nlohmann's parser was a fifth of a turn's work; what simdjson does not take (malformed text, a
/// repeated key, a number beyond 64 bits) goes to parse_json, which decides.
Result<json> read_json(std::string_view text);
/// An event's data as JSON (read_json); an error says why it is not.
Result<json> event_json(std::string_view data);
/// The event's type: the data's "type" member (Responses and Anthropic repeat it there), else the
/// SSE `event:` field.
std::string event_type(const json& data, const SseReader::Event& event);
void emit_text(const Emit& emit, std::string text);
void emit_call(const Emit& emit, std::size_t index, const std::string& call_id, const std::string& name,
               std::string arguments);

/// The bookkeeping every assembler shares: events are numbered from 1 as they arrive (pings and
/// ignored types too), an error about an event's shape names that number ("event 3: ..."), a
/// provider's own error event is kept as the provider said it, and the first error ends the stream:
/// later events are ignored and finish() returns it.
class AssemblerBase : public StreamAssembler {
 public:
  std::optional<Error> on_event(const SseReader::Event& event, const Emit& emit) final;
  Result<ModelResponse> finish() final;

 protected:
  virtual std::optional<Error> handle(const SseReader::Event& event, const Emit& emit) = 0;
  virtual Result<ModelResponse> complete() = 0;
  /// What handle() returns for the provider's own error: not prefixed with the event number.
  Error provider_error(std::string message);

 private:
  std::size_t events_ = 0;
  std::optional<Error> error_;
  bool provider_failed_ = false;
};

// ---- error bodies --------------------------------------------------------------------------------

/// The provider's message found in `body` by `find` (given the parsed body), or, when the body is not
/// JSON or `find` finds none, its first 200 bytes, cut on a UTF-8 boundary with invalid bytes replaced.
std::string message_or_excerpt(std::string_view body,
                               const std::function<std::optional<std::string>(const json&)>& find);
/// `{"error":{"message":...}}` or `{"error":"..."}` (OpenAI, its compatible servers, Gemini); the
/// first item of an array of them (Gemini's streaming errors without alt=sse).
std::optional<std::string> error_member_message(const json& body);

}  // namespace ptc::agent::detail::wire
