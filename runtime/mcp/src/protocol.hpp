#pragma once
// The MCP methods a tools server answers, in both protocol eras, independent of the transport: stdio
// and HTTP hand each message here and send what comes back.
//
// The era is chosen per message, as the 2026-07-28 versioning rules say: a request whose params carry
// `_meta["io.modelcontextprotocol/protocolVersion"]` is served statelessly under that revision; an
// `initialize` opens the 2025 era for its client (the stdio process, or the HTTP session it creates).

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include <ptc/cancellation.hpp>
#include <ptc/filesystem.hpp>
#include <ptc/mcp/server.hpp>
#include <ptc/mcp/wire.hpp>
#include <ptc/registry.hpp>
#include <ptc/session.hpp>

#include "client_channels.hpp"
#include "jsonrpc.hpp"
#include "listeners.hpp"
#include "request_state.hpp"

namespace ptc::mcp {

inline constexpr std::string_view kModernVersion = "2026-07-28";
/// The 2025 revisions `initialize` accepts, newest first; any other request gets the first.
inline constexpr std::string_view kLegacyVersions[] = {"2025-11-25", "2025-06-18", "2025-03-26"};

/// One client: its Session (shared by its calls, so policies hold across them), the revision its
/// `initialize` chose, and its calls in flight (to cancel them).
/// The JSON-RPC id of a request as the ToolCall id its ToolInvoked event carries.
std::string call_id(const nlohmann::json& id);

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

  /// The capabilities the client's initialize declared (2025; 2026 requests carry their own).
  nlohmann::json capabilities() const;
  void set_capabilities(nlohmann::json capabilities);

  /// A request the server sent this client (2025 elicitation, sampling, roots), awaiting its response.
  class Pending {
   public:
    /// The response's result; an error when the client answered with one, the call was cancelled,
    /// or `give_up` passed.
    Result<nlohmann::json> wait(const Cancellation& cancellation, std::chrono::steady_clock::time_point give_up);
    void resolve(nlohmann::json response);

   private:
    std::mutex mutex_;
    std::condition_variable answered_;
    std::optional<nlohmann::json> response_;
  };
  /// A fresh request id ("ptc-N") and what will hold its response.
  std::pair<std::string, std::shared_ptr<Pending>> expect();
  /// Hands a response to the request awaiting it; false when none does (unknown or forgotten id).
  bool resolve(const nlohmann::json& id, nlohmann::json response);
  void forget(const std::shared_ptr<Pending>& pending);

  /// Keeps a stdio subscriptions/listen stream's handle until notifications/cancelled names its id.
  void keep_subscription(const std::string& key, std::shared_ptr<void> handle);
  void drop_subscription(const std::string& key);

  /// The filesystem of the client's roots (ServerOptions::roots_filesystem), kept from the last call
  /// until the client says its roots changed; null when there is none to keep.
  std::shared_ptr<Filesystem> roots_filesystem() const;
  void set_roots_filesystem(std::shared_ptr<Filesystem> filesystem);

  /// The resource URIs the client subscribed to (2025 resources/subscribe), for resources/updated.
  void subscribe(std::string uri);
  void unsubscribe(const std::string& uri);
  bool subscribed(const std::string& uri) const;

 private:
  struct InFlight {
    std::shared_ptr<Cancellation> cancellation;
    bool cancelled = false;
  };
  std::shared_ptr<Session> session_;
  mutable std::mutex mutex_;
  std::optional<std::string> legacy_version_;
  std::map<std::string, InFlight> in_flight_;
  std::set<std::string> subscriptions_;
  std::shared_ptr<Filesystem> roots_filesystem_;
  nlohmann::json capabilities_ = nlohmann::json::object();
  std::uint64_t next_request_ = 0;
  std::map<std::string, std::shared_ptr<Pending>> pending_;
  std::map<std::string, std::shared_ptr<void>> listening_;
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
  /// Or keep the request's stream open for notifications (subscriptions/listen) while this handle
  /// lives; the transport drops it when the client goes away.
  std::shared_ptr<void> subscription{};
  /// Or send this line now: a result (never an error) written as text, where a tree would cost more
  /// than the answer (tools/list splices the tools' listings).
  std::optional<std::string> response_line{};
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
  /// Where the server may send a 2025 client messages of its own (list_changed, resources/updated):
  /// the stdio output, or an HTTP session's GET stream; until the handle is destroyed.
  std::shared_ptr<void> open_push(const std::shared_ptr<Client>& client, Notify notify) const;
  /// Tells the clients that subscribed to `uri` that it changed (Server::notify_resource_updated;
  /// ToolRegistry::notify_resource_updated reaches it through the registry).
  void resource_updated(const std::string& uri) const;
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
  Reply list_tools(const jsonrpc::Message& message, Era era) const;
  /// The methods both eras share, once the era is known.
  Reply route(const std::shared_ptr<Client>& client, const jsonrpc::Message& message, Era era, Notify notify) const;
  Reply call_tool(const std::shared_ptr<Client>& client, const jsonrpc::Message& message, Era era, Notify notify) const;
  /// What a request that runs user code (a tool, a resource's reader, a prompt's renderer) gets: a
  /// cancellation the client can raise, the call timeout, progress when asked for. `work` runs on a
  /// worker and returns the response line (for a result, without the 2026 members, which are added
  /// here); the Reply sends nothing when the request was cancelled meanwhile.
  using Work = std::function<std::string(const DispatchOptions& options)>;
  Reply run_request(const std::shared_ptr<Client>& client, const jsonrpc::Message& message, Era era, Notify notify,
                    Work work) const;
  DispatchOptions dispatch_options(const jsonrpc::Message& message, Notify notify,
                                   const std::shared_ptr<Cancellation>& cancellation) const;
  /// What a 2026 request brings for its handler's questions: the answers of earlier rounds (from its
  /// requestState, which must open and belong to this request) and of this one (inputResponses).
  Result<nlohmann::json> round_trip_answers(const jsonrpc::Message& message) const;
  /// ServerOptions::roots_filesystem: registers the filesystem of the client's roots on its session,
  /// kept from an earlier call or asked for through `channel` (which may throw InputRequired), and
  /// returns it for the call to hold; an error when the client's answer could not be read.
  Result<std::shared_ptr<Filesystem>> confine_to_roots(Client& client, ClientChannel& channel, Era era) const;
  /// The `input_required` result for a handler that asked what was not answered yet.
  std::string input_required_line(const jsonrpc::Message& message, const InputRequired& asked) const;

  // Resources, prompts and completions (protocol_served.cpp).
  jsonrpc::Json list_resources(const jsonrpc::Message& message, Era era, bool templates) const;
  Reply read_resource(const std::shared_ptr<Client>& client, const jsonrpc::Message& message, Era era,
                      Notify notify) const;
  jsonrpc::Json list_prompts(const jsonrpc::Message& message, Era era) const;
  Reply get_prompt(const std::shared_ptr<Client>& client, const jsonrpc::Message& message, Era era,
                   Notify notify) const;
  jsonrpc::Json complete(const jsonrpc::Message& message, Era era) const;
  /// 2026 subscriptions/listen: acknowledges the filter and keeps the stream for notifications.
  Reply listen(const jsonrpc::Message& message, Notify notify) const;
  /// 2025 resources/subscribe and resources/unsubscribe.
  jsonrpc::Json subscription(Client& client, const jsonrpc::Message& message, bool subscribe) const;
  /// The capabilities initialize and server/discover state: what the registry serves.
  jsonrpc::Json capabilities(Era era) const;
  /// A result in `era`: as it is in 2025; with resultType and serverInfo in 2026, and with ttlMs and
  /// cacheScope too when `cacheable`.
  jsonrpc::Json era_result(const jsonrpc::Message& message, jsonrpc::Json result, Era era, bool cacheable) const;
  /// [begin, end) of the page a list request asks for (its cursor), or nullopt for an unknown cursor.
  std::optional<std::pair<std::size_t, std::size_t>> page(const jsonrpc::Message& message, std::size_t size) const;
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
  StateKey state_key_;
  mutable Listeners listeners_;
  std::shared_ptr<void> registry_listener_;  // the registry's changes, sent on as list_changed
  std::shared_ptr<void> resource_listener_;  // ToolRegistry::notify_resource_updated, sent on as resources/updated
};

}  // namespace ptc::mcp
