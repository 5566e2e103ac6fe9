#pragma once
// ptc::make_uuid — random identifiers for sessions, events, signals and command invocations.

#include <string>

namespace ptc {

/// A random (version 4) UUID, e.g. "1b4e28ba-2fa1-41d2-883f-0016d3cca427". Thread-safe: each thread
/// draws from its own generator, seeded from the operating system's entropy.
std::string make_uuid();

}  // namespace ptc
