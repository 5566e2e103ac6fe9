#pragma once
// Request state for MCP 2026-07-28's multi round-trip requests: a call that needs input from the user
// answers `{resultType: "input_required", inputRequests, requestState}`, and the client retries the
// call with `requestState` as it was given. The state is the server's own note to its future self, so
// it is sealed: a version byte, an expiry, the payload and an HMAC-SHA256 over all three, as base64url
// text. Any instance that holds the same StateKey opens it, which is what lets a retry land on another
// instance behind a load balancer (docs/deploy.md).
//
// The payload is signed, not encrypted: the client may read it, so it must hold nothing the client may
// not see. It is JSON the server wrote about the client's own call, and readable state is easier to
// debug; integrity is what the protocol needs, because a client that could edit the state could
// make the server resume a call it never started.

#include <array>
#include <chrono>
#include <cstddef>
#include <string>
#include <string_view>

#include <ptc/error.hpp>

namespace ptc::mcp {

/// The 32-byte secret that seals request state. It has no way to be printed, compared or written: the
/// bytes leave it only into the MAC. Copies are fine (every copy is wiped when it goes).
class StateKey {
 public:
  static constexpr std::size_t kBytes = 32;

  /// A key from the kernel's CSPRNG (getrandom); for a single instance, whose tokens no other
  /// process needs to open. Throws std::system_error if the kernel has no randomness to give.
  static StateKey random();
  /// A key read from a file that holds at least 64 hex digits (32 bytes; `openssl rand -hex 32`),
  /// one trailing newline allowed, and that no one but its owner can read or write (mode 0600 or
  /// 0400). The key is derived from those bytes (HMAC-SHA256 under a fixed label), so the same file
  /// gives the same key on every instance, and the secret is not used raw if it is shared with
  /// anything else. Errors name the file and never show its contents.
  static Result<StateKey> from_file(const std::string& path);

  StateKey(const StateKey&) = default;
  StateKey& operator=(const StateKey&) = default;
  ~StateKey();

 private:
  StateKey() = default;
  friend std::string seal(const StateKey&, std::string_view, std::chrono::system_clock::time_point);
  friend Result<std::string> open(const StateKey&, std::string_view, std::chrono::system_clock::time_point);

  std::array<unsigned char, kBytes> bytes_{};
};

/// `file` empty: StateKey::random(); otherwise StateKey::from_file(file). What
/// ServerOptions::state_key_file means.
Result<StateKey> load_state_key(const std::string& file);

/// The longest token open() reads (base64url text); longer ones are refused before any decoding.
inline constexpr std::size_t kMaxRequestStateBytes = std::size_t{1} << 20;
/// The longest payload seal() takes: its token is at most kMaxRequestStateBytes long.
inline constexpr std::size_t kMaxRequestStatePayloadBytes = kMaxRequestStateBytes / 4 * 3 - 1 - 8 - 32;

/// The payload sealed until `expires`, as base64url text without padding. Throws std::length_error
/// for a payload over kMaxRequestStatePayloadBytes, whose token open() would refuse.
std::string seal(const StateKey& key, std::string_view payload, std::chrono::system_clock::time_point expires);

/// The payload of a token seal() made with `key`, if it has not expired by `now`. Errors, which never
/// quote the token: "request state too large", "request state malformed", "request state tampered
/// with" (a MAC that does not match: edited, or sealed with another key), "request state expired".
Result<std::string> open(const StateKey& key, std::string_view token,
                         std::chrono::system_clock::time_point now = std::chrono::system_clock::now());

}  // namespace ptc::mcp
