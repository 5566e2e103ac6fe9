// libFuzzer target: sealed request state (runtime/mcp/src/request_state.cpp), the token a 2026-07-28
// client hands back when it retries an input-required call, and so any text a client cares to send.
//
// Oracles: open() never accepts a token this process did not seal (the key is drawn at start, so the
// fuzzer cannot know it: an accepted input is a forgery); every refusal is one of the four texts and
// never quotes the input; the input sealed as a payload opens to itself, and that token with one bit
// of it changed (the bit chosen by the input) is refused.

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <string>

#include "fuzz_common.hpp"
#include "request_state.hpp"

namespace {

using ptc::mcp::StateKey;
using std::chrono::system_clock;

const StateKey& key() {
  static const StateKey k = StateKey::random();
  return k;
}

bool known_refusal(const std::string& message) {
  return message == "request state too large" || message == "request state malformed" ||
         message == "request state tampered with" || message == "request state expired";
}

void check_refusal(const ptc::Result<std::string>& r, std::string_view token, const char* what) {
  if (r) ptc_fuzz::oracle_failure(what, "token", token, "payload", *r);
  if (!known_refusal(r.error().message))
    ptc_fuzz::oracle_failure("a refusal that is not one of the four texts", "message", r.error().message, "token",
                             token);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto text = ptc_fuzz::as_text(data, size);
  const auto now = system_clock::now();
  check_refusal(ptc::mcp::open(key(), text, now), text, "a token this process never sealed was accepted");

  // The input as a payload: sealed, it opens to itself; with one bit flipped anywhere, it does not.
  const auto token = ptc::mcp::seal(key(), text, now + std::chrono::minutes(1));
  const auto opened = ptc::mcp::open(key(), token, now);
  if (!opened || *opened != text)
    ptc_fuzz::oracle_failure("a sealed payload that does not open to itself", "payload", text, "token", token);
  auto edited = token;
  const std::size_t at = size == 0 ? 0 : (static_cast<std::size_t>(data[0]) * 131 + size) % edited.size();
  edited[at] = edited[at] == 'A' ? 'B' : 'A';
  check_refusal(ptc::mcp::open(key(), edited, now), edited, "an edited token was accepted");
  // Expired at the instant it was sealed for.
  check_refusal(ptc::mcp::open(key(), token, now + std::chrono::minutes(1)), token, "an expired token was accepted");
  return 0;
}
