// 2026-07-28's multi round-trip requests: the `input_required` result a handler's unanswered questions
// produce, and the answers a retried request brings back (its inputResponses, and those of earlier
// rounds sealed in requestState, which only this request may bring back).

#include <openssl/evp.h>

#include <ptc/json_input.hpp>
#include <ptc/json_text.hpp>

#include "protocol.hpp"

namespace ptc::mcp {
namespace {

using jsonrpc::Json;
using jsonrpc::Message;

/// How long a client has to answer a round before its state is refused: a person may be filling a form.
constexpr std::chrono::hours kRequestStateLifetime{1};

std::string sha256_hex(std::string_view text) {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int size = 0;
  if (EVP_Digest(text.data(), text.size(), digest, &size, EVP_sha256(), nullptr) != 1)
    throw std::runtime_error("SHA-256 failed");
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  for (unsigned int i = 0; i < size; ++i) {
    out += kHex[digest[i] >> 4];
    out += kHex[digest[i] & 15];
  }
  return out;
}

/// What the state is bound to: the method, what it names and its arguments, so that a state cannot be
/// replayed on another tool, prompt or resource, or with other arguments.
std::string binding(const Message& message) {
  const auto& p = message.params;
  std::string text = message.method + "\n";
  for (const char* member : {"name", "uri", "arguments"})
    if (auto it = p.find(member); it != p.end()) text += compact_text(*it) + "\n";
  // A tool's arguments read as text are bound as the tree would be: the same whatever the spacing
  // and member order of the retry. The text was valid JSON when it was read.
  if (!message.arguments_text.empty())
    if (auto arguments = parse_json(message.arguments_text)) text += compact_text(*arguments) + "\n";
  return sha256_hex(text);
}

}  // namespace

Result<nlohmann::json> Protocol::round_trip_answers(const Message& message) const {
  nlohmann::json answers = nlohmann::json::object();
  const auto& p = message.params;
  if (auto state = p.find("requestState"); state != p.end() && !state->is_null()) {
    if (!state->is_string()) return Error{"requestState must be a string"};
    auto opened = open(state_key_, state->get_ref<const std::string&>());
    if (!opened) return Error{"requestState: " + opened.error().message};
    auto payload = nlohmann::json::parse(*opened, nullptr, false);
    if (!payload.is_object() || !payload.contains("b") || payload["b"] != binding(message) ||
        !payload.contains("answers") || !payload["answers"].is_object())
      return Error{"requestState: it belongs to another request"};
    answers = std::move(payload["answers"]);
  }
  if (auto responses = p.find("inputResponses"); responses != p.end() && !responses->is_null()) {
    if (!responses->is_object()) return Error{"inputResponses must be an object"};
    for (auto it = responses->begin(); it != responses->end(); ++it) {
      // Each answer is the result of the request it answers, an object; anything else is refused
      // here rather than read as a user's answer.
      if (!it.value().is_object())
        return Error{"inputResponses[\"" + it.key() + "\"] must be an object (the result of the request it answers)"};
      answers[it.key()] = it.value();
    }
  }
  return answers;
}

std::string Protocol::input_required_line(const Message& message, const InputRequired& asked) const {
  Json requests = Json::object();
  for (const auto& r : asked.requests()) requests[r.key] = Json{{"method", r.method}, {"params", Json(r.params)}};
  const std::string payload = compact_text(nlohmann::json{{"b", binding(message)}, {"answers", asked.answers()}});
  std::string state;
  try {
    state = seal(state_key_, payload, std::chrono::system_clock::now() + kRequestStateLifetime);
  } catch (const std::length_error&) {
    return jsonrpc::line(jsonrpc::error(message.id, jsonrpc::kInternalError,
                                        "Internal error: the answers so far are too large to carry in requestState"));
  }
  Json result{{"resultType", "input_required"}, {"inputRequests", std::move(requests)}, {"requestState", state}};
  result["_meta"] = Json{{"io.modelcontextprotocol/serverInfo", server_info()}};
  return jsonrpc::line(jsonrpc::result(message.id, std::move(result)));
}

}  // namespace ptc::mcp
