// libFuzzer target: what a model provider sends back, read by each provider's wire format
// (runtime/agent/src/wire) — a whole answer, or a server-sent-events stream cut into network pieces.
// The first byte picks the provider (bits 0-1), whole or streamed (bit 2) and the piece size (bits 3-7);
// the rest is the body.
//
// Oracles: reading never throws and ends in a turn or an Error; the same input read again gives the
// same result (deterministic, whatever the pieces); a turn's tool calls all have names; the events
// streamed add up to the turn's text; read_json (simdjson first) reads every body as parse_json does.

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>
#include <ptc/agent/conversation.hpp>
#include <ptc/json_input.hpp>

#include "fuzz_common.hpp"
#include "transport/http_transport.hpp"
#include "wire/wire.hpp"
#include "wire/wire_common.hpp"

namespace {

using namespace ptc::agent;

struct Read {
  std::string outcome;   // the turn's JSON or the error's text
  std::string streamed;  // the text deltas, joined
  bool ok = false;
  std::string text;
};

// read_json reads with simdjson first; it must still read what parse_json reads, and fail as it fails.
void read_json_agrees(std::string_view body) {
  const auto read = detail::wire::read_json(body);
  const auto parsed = ptc::parse_json(body);
  if (read.has_value() != parsed.has_value())
    ptc_fuzz::oracle_failure("read_json and parse_json disagree on acceptance", "body", body);
  if (parsed ? read->dump() != parsed->dump() : read.error().message != parsed.error().message)
    ptc_fuzz::oracle_failure("read_json and parse_json read differently", "body", body, "read_json",
                             parsed ? read->dump() : read.error().message);
}

Read whole(const detail::Wire& wire, std::string_view body) {
  Read out;
  read_json_agrees(body);
  auto parsed = detail::wire::read_json(body);
  if (!parsed) return out;
  auto response = wire.parse_response(*parsed);
  if (!response) {
    out.outcome = response.error().message;
    return out;
  }
  for (const auto& call : response->message.tool_calls)
    if (call.name.empty()) ptc_fuzz::oracle_failure("a tool call without a name", "body", body);
  out.ok = true;
  out.text = response->message.text;
  out.outcome = to_json(response->message).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  return out;
}

Read streamed(const detail::Wire& wire, std::string_view body, std::size_t piece) {
  Read out;
  auto assembler = wire.stream();
  detail::SseReader reader;
  std::optional<ptc::Error> failure;
  auto emit = [&](const StreamEvent& e) {
    if (e.kind == StreamEvent::Kind::text_delta) out.streamed += e.text;
  };
  auto deliver = [&](const detail::SseReader::Event& event) {
    failure = assembler->on_event(event, emit);
    return !failure;
  };
  bool going = true;
  for (std::size_t at = 0; going && at < body.size(); at += piece) going = reader.feed(body.substr(at, piece), deliver);
  if (going && !failure)
    if (auto last = reader.finish()) deliver(*last);
  if (failure) {
    out.outcome = failure->message;
    return out;
  }
  if (!going) {
    out.outcome = "refused by the reader";
    return out;
  }
  auto response = assembler->finish();
  if (!response) {
    out.outcome = response.error().message;
    return out;
  }
  for (const auto& call : response->message.tool_calls)
    if (call.name.empty()) ptc_fuzz::oracle_failure("a streamed tool call without a name", "body", body);
  out.ok = true;
  out.text = response->message.text;
  out.outcome = to_json(response->message).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  static const Provider providers[] = {Provider::openai, Provider::openai_responses, Provider::anthropic,
                                       Provider::gemini};
  const Provider provider = providers[data[0] & 3];
  const bool stream = (data[0] & 4) != 0;
  const std::size_t piece = static_cast<std::size_t>(data[0] >> 3) + 1;
  const std::string_view body = ptc_fuzz::as_text(data + 1, size - 1);
  const auto wire = detail::make_wire(provider);
  try {
    const Read first = stream ? streamed(*wire, body, piece) : whole(*wire, body);
    // Read again in whole pieces: the pieces must not change what a stream means.
    const Read again = stream ? streamed(*wire, body, body.size() + 1) : whole(*wire, body);
    if (first.outcome != again.outcome || first.ok != again.ok)
      ptc_fuzz::oracle_failure("the pieces changed the result", "first", first.outcome, "again", again.outcome);
    if (stream && first.ok && first.streamed != first.text && !first.text.empty() &&
        first.text.find(first.streamed) == std::string::npos)
      ptc_fuzz::oracle_failure("the streamed text is not the turn's text", "streamed", first.streamed, "text",
                               first.text);
  } catch (const std::exception& e) {
    ptc_fuzz::oracle_failure("an exception escaped", "what", e.what(), "body", body);
  }
  return 0;
}
