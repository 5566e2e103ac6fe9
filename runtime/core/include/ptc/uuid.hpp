#pragma once
// ptc::make_uuid — random identifiers for sessions, events, signals and command invocations.

#include <string>

namespace ptc {

/// A random (version 4) UUID, e.g. "1b4e28ba-2fa1-41d2-883f-0016d3cca427". Thread-safe: each thread
/// draws from its own generator, seeded from the operating system's entropy. Fast, and unique, but
/// not secret: the generator is not cryptographic, so enough of its UUIDs tell the next ones. Use
/// make_secret_uuid for an identifier that grants access.
std::string make_uuid();
/// make_uuid written into `out`, whose buffer is reused: for a caller that keeps one string for the
/// ids it makes one after another.
void assign_uuid(std::string& out);

/// A random (version 4) UUID whose 122 random bits come from the kernel's cryptographic generator
/// (getrandom(2)) at every call: for identifiers that grant access, such as an MCP HTTP session id,
/// which nobody may guess from the ones they were given. Throws std::system_error when the kernel
/// gives no random bytes.
std::string make_secret_uuid();

}  // namespace ptc
