#pragma once
// The MCP methods a tools server answers, in both protocol eras, independent of the transport: stdio
// and HTTP hand each message here and send what comes back.
//
// The era is chosen per message, as the 2026-07-28 versioning rules say: a request whose params carry
// `_meta["io.modelcontextprotocol/protocolVersion"]` is served statelessly under that revision; an
// `initialize` opens the 2025 era for its client (the stdio process, or the HTTP session it creates).

#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <ptc/cancellation.hpp>
#include <ptc/mcp/server.hpp>
#include <ptc/mcp/wire.hpp>
#include <ptc/session.hpp>

#include "jsonrpc.hpp"

namespace ptc::mcp {

inline constexpr std::string_view kModernVersion = "2026-07-28";
/// The 2025 revisions `initialize` accepts, newest first; any other request gets the first.
inline constexpr std::string_view kLegacyVersions[] = {"2025-11-25", "2025-06-18", "2025-03-26"};

/// One client: its Session (shared by its calls, so policies hold across them), the revision its
/// `initialize` chose, and its calls in flight (to cancel them).
class Client {
 public:
  explicit Client(std::shared_ptr<Session> session) : session_(std::move(session)) {}

  Session& session() const { return *session_; }
  std::optional<std::string> legacy_version() const;
  void set_legacy_version(std::string version);

  /// False when a call with this id is already in flight (ids must not be reused while pending).
  bool begin_call(const std::string& key, std::shared_ptr<Cancellation> cancellation);
  /// Forgets the call; true when it was cancelled through cancel() or cancel_all(), whose response
  /// must not be sent.
  bool end_call(const std::string& key);
  /// True while a call has begun and not ended (a session with one must not be closed for room).
  bool has_calls_in_flight() const;
  void cancel(const std::string& key, std::string reason);
  void cancel_all(std::string reason);

 private:
  struct InFlight {
    std::shared_ptr<Cancellation> cancellation;
    bool cancelled = false;
  };
  std::shared_ptr<Session> session_;
  mutable std::mutex mutex_;
  std::optional<std::string> legacy_version_;
  std::map<std::string, InFlight> in_flight_;
};

/// Sends a notification that belongs to the request being handled (notifications/progress).
using Notify = std::function<void(const jsonrpc::Json& message)>;

/// What to do with one message.
struct Reply {
  /// Send this now.
  std::optional<jsonrpc::Json> response;
  /// Or run this tools/call (on a worker, or on the current thread) and send what it returns: the
  /// response as one line of JSON text (written from the tool's result text, never a JSON tree);
  /// nullopt means the call was cancelled and gets no response.
  std::function<std::optional<std::string>()> call;
};

/// The revision a message asks for through `_meta` (the 2026 way), if it does.
std::optional<std::string> modern_version(const jsonrpc::Message& message);

/// The revisions served and how each is asked for, for error messages that refuse a version.
std::string supported_versions_text();

class Protocol {
 public:
  Protocol(const ToolRegistry& registry, ServerInfo info, ServerOptions options);

  /// Answers one message. Notifications and client responses get an empty Reply.
  Reply handle(const std::shared_ptr<Client>& client, const jsonrpc::Message& message, Notify notify) const;

  /// The answer to a tools/call whose Reply::call found no worker queue room: the call is forgotten
  /// and the client is told to retry later (-32000).
  jsonrpc::Json refuse_busy(Client& client, const jsonrpc::Message& message) const;

  const ServerOptions& options() const { return options_; }
  /// Every revision served: the modern one first, then the 2025 ones.
  const std::vector<std::string>& supported_versions() const { return supported_; }
  /// A fresh Session with the options' retention and prepare_session hook applied.
  std::shared_ptr<Session> new_session() const;

 private:
  enum class Era { Legacy, Modern };
  /// 2025 results must be objects; 2026-07-28 carries any JSON value.
  static McpResults results_in(Era era) { return era == Era::Legacy ? McpResults::Wrapped : McpResults::Unwrapped; }
  jsonrpc::Json initialize(const std::shared_ptr<Client>& client, const jsonrpc::Message& message) const;
  jsonrpc::Json discover(const jsonrpc::Message& message) const;
  jsonrpc::Json list_tools(const jsonrpc::Message& message, Era era) const;
  Reply call_tool(const std::shared_ptr<Client>& client, const jsonrpc::Message& message, Era era, Notify notify) const;
  void notification(Client& client, const jsonrpc::Message& message) const;
  /// Adds what every 2026 result carries: resultType and the server's identity in _meta.
  jsonrpc::Json modern_result(jsonrpc::Json result) const;
  /// The same for a result given as compact JSON text (an object), as text.
  std::string modern_result_text(std::string_view result) const;
  jsonrpc::Json server_info() const;

  const ToolRegistry& registry_;
  ServerInfo info_;
  ServerOptions options_;
  std::vector<std::string> supported_;
};

}  // namespace ptc::mcp
