#pragma once
// ptc::ServerIdentity — who a server is, as its clients show it. One type for every place that names a
// server: mcp::ServerInfo is this type, and cli::Options carries one for the `mcp` subcommand.

#include <string>

namespace ptc {

struct ServerIdentity {
  /// The machine name clients key the server by, e.g. "tracker".
  std::string name;
  std::string version;
  /// A human-readable name a client may show instead of `name`.
  std::string title{};
  /// Text a host may add to the model's system prompt. Empty: the tools' compact signatures.
  std::string instructions{};
};

}  // namespace ptc
