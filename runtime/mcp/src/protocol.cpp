#include "protocol.hpp"
#include "roots_filesystem.hpp"

#include <algorithm>
#include <charconv>
#include <exception>
#include <iostream>

#include <ptc/error.hpp>
#include <ptc/json_text.hpp>
#include <ptc/mcp/wire.hpp>
#include <ptc/registry.hpp>

namespace ptc::mcp {
namespace {

using jsonrpc::Json;
using jsonrpc::Message;

constexpr std::string_view kVersionKey = "io.modelcontextprotocol/protocolVersion";
constexpr std::string_view kCapabilitiesKey = "io.modelcontextprotocol/clientCapabilities";
constexpr std::string_view kServerInfoKey = "io.modelcontextprotocol/serverInfo";

const nlohmann::json* meta_of(const Message& message) {
  auto it = message.params.find("_meta");
  return it != message.params.end() && it->is_object() ? &*it : nullptr;
}

using jsonrpc::invalid_params;

std::string default_instructions(const ToolRegistry& registry) {
  std::string text = "Tools, as name(parameters) -> result:\n";
  for (const auto& tool : registry.tools()) text += tool.name() + tool.signature_text() + "\n";
  return text;
}

/// A progress token is a string or an integer (MCP's ProgressToken).
std::optional<nlohmann::json> progress_token(const Message& message) {
  const auto* meta = meta_of(message);
  if (!meta) return std::nullopt;
  auto it = meta->find("progressToken");
  if (it == meta->end() || !(it->is_string() || it->is_number_integer())) return std::nullopt;
  return *it;
}

/// Turns ToolContext::report_progress into notifications/progress for one request. Reports must grow
/// (MCP requires it), so one that does not is dropped; none is sent once the call is cancelled.
ProgressSink progress_sink(nlohmann::json token, Notify notify, std::shared_ptr<const Cancellation> cancellation) {
  auto last = std::make_shared<std::optional<double>>();
  auto mutex = std::make_shared<std::mutex>();
  return [token = std::move(token), notify = std::move(notify), cancellation = std::move(cancellation), last,
          mutex](double progress, std::optional<double> total, std::string_view message) {
    std::lock_guard lock(*mutex);
    if (cancellation->cancelled()) return;
    if (*last && progress <= **last) return;
    *last = progress;
    Json params{{"progressToken", token}, {"progress", progress}};
    if (total) params["total"] = *total;
    if (!message.empty()) params["message"] = std::string(message);
    notify(jsonrpc::notification("notifications/progress", std::move(params)));
  };
}

/// A cursor is the offset of the page's first tool, in decimal.
std::optional<std::size_t> read_cursor(const nlohmann::json& cursor, std::size_t size) {
  if (!cursor.is_string()) return std::nullopt;
  const auto& text = cursor.get_ref<const std::string&>();
  std::size_t offset = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), offset);
  if (ec != std::errc() || end != text.data() + text.size() || text.empty() || offset > size) return std::nullopt;
  return offset;
}

/// The methods route() answers in either era.
bool served(std::string_view method) {
  static constexpr std::string_view kMethods[] = {
      "tools/list",     "tools/call",   "resources/list", "resources/templates/list",
      "resources/read", "prompts/list", "prompts/get",    "completion/complete"};
  return std::find(std::begin(kMethods), std::end(kMethods), method) != std::end(kMethods);
}

}  // namespace

// ---- Client --------------------------------------------------------------------------------------

std::optional<std::string> Client::legacy_version() const {
  std::lock_guard lock(mutex_);
  return legacy_version_;
}

void Client::set_legacy_version(std::string version) {
  std::lock_guard lock(mutex_);
  legacy_version_ = std::move(version);
}

bool Client::begin_call(const std::string& key, std::shared_ptr<Cancellation> cancellation) {
  std::lock_guard lock(mutex_);
  return in_flight_.emplace(key, InFlight{std::move(cancellation), false}).second;
}

bool Client::end_call(const std::string& key) {
  std::lock_guard lock(mutex_);
  auto it = in_flight_.find(key);
  if (it == in_flight_.end()) return false;
  const bool cancelled = it->second.cancelled;
  in_flight_.erase(it);
  return cancelled;
}

bool Client::has_calls_in_flight() const {
  std::lock_guard lock(mutex_);
  return !in_flight_.empty();
}

void Client::cancel(const std::string& key, std::string reason) {
  std::lock_guard lock(mutex_);
  auto it = in_flight_.find(key);
  if (it == in_flight_.end()) return;  // finished already, or never known: nothing to do
  it->second.cancelled = true;
  it->second.cancellation->cancel(std::move(reason));
}

void Client::cancel_all(std::string reason) {
  std::lock_guard lock(mutex_);
  for (auto& [key, call] : in_flight_) {
    call.cancelled = true;
    call.cancellation->cancel(reason);
  }
}

/// A client subscribes to a bounded number of URIs, so subscriptions cannot grow without end.
constexpr std::size_t kMaxSubscriptions = 1024;

void Client::keep_subscription(const std::string& key, std::shared_ptr<void> handle) {
  std::lock_guard lock(mutex_);
  if (listening_.size() < kMaxSubscriptions) listening_[key] = std::move(handle);
}

void Client::drop_subscription(const std::string& key) {
  std::shared_ptr<void> handle;  // destroyed outside the lock: it takes the listeners' lock
  std::lock_guard lock(mutex_);
  auto it = listening_.find(key);
  if (it == listening_.end()) return;
  handle = std::move(it->second);
  listening_.erase(it);
}

void Client::subscribe(std::string uri) {
  std::lock_guard lock(mutex_);
  if (subscriptions_.size() < kMaxSubscriptions) subscriptions_.insert(std::move(uri));
}

void Client::unsubscribe(const std::string& uri) {
  std::lock_guard lock(mutex_);
  subscriptions_.erase(uri);
}

bool Client::subscribed(const std::string& uri) const {
  std::lock_guard lock(mutex_);
  return subscriptions_.count(uri) != 0;
}

std::string call_id(const nlohmann::json& id) { return id.is_string() ? id.get<std::string>() : id.dump(); }

std::shared_ptr<Filesystem> Client::roots_filesystem() const {
  std::lock_guard lock(mutex_);
  return roots_filesystem_;
}

void Client::set_roots_filesystem(std::shared_ptr<Filesystem> filesystem) {
  std::lock_guard lock(mutex_);
  roots_filesystem_ = std::move(filesystem);
}

nlohmann::json Client::capabilities() const {
  std::lock_guard lock(mutex_);
  return capabilities_;
}

void Client::set_capabilities(nlohmann::json capabilities) {
  std::lock_guard lock(mutex_);
  capabilities_ = std::move(capabilities);
}

Result<nlohmann::json> Client::Pending::wait(const Cancellation& cancellation,
                                             std::chrono::steady_clock::time_point give_up) {
  std::unique_lock lock(mutex_);
  while (!response_) {
    // Cancellation has a signal of its own; a short wait keeps both in view.
    if (cancellation.cancelled()) return Error{"The call was cancelled while it waited for the client's answer."};
    const auto now = std::chrono::steady_clock::now();
    if (now >= give_up) return Error{"The client did not answer in time."};
    answered_.wait_for(lock,
                       std::min<std::chrono::steady_clock::duration>(give_up - now, std::chrono::milliseconds(50)));
  }
  if (auto result = response_->find("result"); result != response_->end()) return std::move(*result);
  const auto& error = (*response_)["error"];
  std::string message = error.is_object() && error.contains("message") && error["message"].is_string()
                            ? error["message"].get<std::string>()
                            : error.dump();
  return Error{"The client answered with an error: " + message};
}

void Client::Pending::resolve(nlohmann::json response) {
  {
    std::lock_guard lock(mutex_);
    if (response_) return;
    response_ = std::move(response);
  }
  answered_.notify_all();
}

std::pair<std::string, std::shared_ptr<Client::Pending>> Client::expect() {
  std::lock_guard lock(mutex_);
  std::string id = "ptc-" + std::to_string(++next_request_);
  auto pending = std::make_shared<Pending>();
  pending_.emplace(id, pending);
  return {std::move(id), std::move(pending)};
}

bool Client::resolve(const nlohmann::json& id, nlohmann::json response) {
  if (!id.is_string()) return false;
  std::shared_ptr<Pending> pending;
  {
    std::lock_guard lock(mutex_);
    auto it = pending_.find(id.get<std::string>());
    if (it == pending_.end()) return false;
    pending = it->second;
    pending_.erase(it);
  }
  pending->resolve(std::move(response));
  return true;
}

void Client::forget(const std::shared_ptr<Pending>& pending) {
  std::lock_guard lock(mutex_);
  for (auto it = pending_.begin(); it != pending_.end(); ++it)
    if (it->second == pending) {
      pending_.erase(it);
      return;
    }
}

// ---- Protocol ------------------------------------------------------------------------------------

std::optional<std::string> modern_version(const Message& message) {
  const auto* meta = meta_of(message);
  if (!meta) return std::nullopt;
  auto it = meta->find(kVersionKey);
  if (it == meta->end()) return std::nullopt;
  return it->is_string() ? it->get<std::string>() : std::string();
}

std::string supported_versions_text() {
  std::string text = std::string(kModernVersion) + " (in _meta, no session) and ";
  for (auto v : kLegacyVersions) {
    if (v != kLegacyVersions[0]) text += ", ";
    text += v;
  }
  return text + " (through initialize)";
}

namespace {
StateKey state_key_of(const ServerOptions& options) {
  auto key = load_state_key(options.state_key_file);
  if (!key) throw std::runtime_error(key.error().message);
  return std::move(*key);
}
}  // namespace

Protocol::Protocol(const ToolRegistry& registry, ServerInfo info, ServerOptions options)
    : registry_(registry), info_(std::move(info)), options_(std::move(options)), state_key_(state_key_of(options_)) {
  const ServerIdentity offered = registry.offered_server_identity();
  if (info_.name.empty()) info_.name = offered.name;
  if (info_.version.empty()) info_.version = offered.version;
  supported_.emplace_back(kModernVersion);
  for (auto v : kLegacyVersions) supported_.emplace_back(v);
  registry_listener_ = registry_.on_change([this](ToolRegistry::Change change) {
    listeners_.list_changed(change == ToolRegistry::Change::Tools       ? Listeners::List::Tools
                            : change == ToolRegistry::Change::Resources ? Listeners::List::Resources
                                                                        : Listeners::List::Prompts);
  });
  // What the program says through the registry (cli::run owns the server): ToolRegistry::notify_resource_updated.
  resource_listener_ =
      registry_.on_resource_updated([this](const std::string& uri) { listeners_.resource_updated(uri); });
}

std::shared_ptr<void> Protocol::open_push(const std::shared_ptr<Client>& client, Notify notify) const {
  return listeners_.add_client(client, std::move(notify));
}

void Protocol::resource_updated(const std::string& uri) const { listeners_.resource_updated(uri); }

Reply Protocol::listen(const Message& message, Notify notify) const {
  auto notifications = message.params.find("notifications");
  if (notifications == message.params.end() || !notifications->is_object())
    return {invalid_params(message, "\"notifications\" must be an object (the notifications to listen for)"), {}};
  ListenFilter filter = ListenFilter::from_json(*notifications);
  // The acknowledgement comes first on the stream and says what will be sent.
  Json ack{{"notifications", Json(filter.to_json())},
           {"_meta", Json{{"io.modelcontextprotocol/subscriptionId", Json(message.id)}}}};
  notify(jsonrpc::notification("notifications/subscriptions/acknowledged", std::move(ack)));
  Reply reply;
  reply.subscription = listeners_.add_subscription(message.id, std::move(filter), std::move(notify));
  return reply;
}

std::shared_ptr<Session> Protocol::new_session() const {
  auto session = std::make_shared<Session>(std::string{}, options_.session);
  if (options_.prepare_session) options_.prepare_session(*session);
  return session;
}

Json Protocol::server_info() const {
  Json out{{"name", info_.name}, {"version", info_.version}};
  if (!info_.title.empty()) out["title"] = info_.title;
  return out;
}

// The shape has one home, modern_result_text; the JSON form is its text parsed (ordered_json keeps
// the members' order). Only discovery and tools/list take this way, not the calls.
Json Protocol::modern_result(Json result) const { return Json::parse(modern_result_text(compact_text(result))); }

std::string Protocol::modern_result_text(std::string_view result) const {
  // resultType first, the result's own members, then _meta.
  std::string out = R"({"resultType":"complete")";
  if (result.size() > 2) {
    out += ',';
    out.append(result.substr(1, result.size() - 2));
  }
  out += R"(,"_meta":)";
  out += compact_text(Json{{std::string(kServerInfoKey), server_info()}});
  out += '}';
  return out;
}

Reply Protocol::handle(const std::shared_ptr<Client>& client, const Message& message, Notify notify) const {
  if (message.kind == Message::Kind::Response) {
    // An answer to a question a handler asked (2025 elicitation, sampling, roots); one nobody awaits
    // (its call ended) is dropped.
    client->resolve(message.id, message.params);
    return {};
  }
  if (message.kind == Message::Kind::Notification) {
    notification(*client, message);
    return {};
  }
  const auto& method = message.method;
  // A request that carries the 2026 _meta version is of that era even when it is `initialize`, which
  // the era removed: it gets -32601 like any other removed method.
  if (auto version = modern_version(message)) {
    if (*version != kModernVersion) {
      if (version->empty())
        return {invalid_params(message, "_meta \"" + std::string(kVersionKey) + "\" must be a non-empty string"), {}};
      return {jsonrpc::error(message.id, jsonrpc::kUnsupportedProtocolVersion,
                             "Unsupported protocol version " + *version + "; this server supports " +
                                 supported_versions_text(),
                             Json{{"supported", supported_}, {"requested", *version}}),
              {}};
    }
    const auto* meta = meta_of(message);
    auto caps = meta->find(kCapabilitiesKey);
    if (caps == meta->end() || !caps->is_object())
      return {invalid_params(message, "_meta \"" + std::string(kCapabilitiesKey) + "\" is required (an object)"), {}};
    if (method == "initialize")
      return {jsonrpc::error(message.id, jsonrpc::kMethodNotFound,
                             "Method not found: initialize (" + std::string(kModernVersion) +
                                 ", the version in _meta, has none); this server supports " + supported_versions_text(),
                             Json{{"supported", supported_}}),
              {}};
    if (method == "server/discover") return {discover(message), {}};
    if (method == "subscriptions/listen") return listen(message, std::move(notify));
    return route(client, message, Era::Modern, std::move(notify));
  }

  if (method == "initialize") return {initialize(client, message), {}};
  if (method == "ping") return {jsonrpc::result(message.id, Json::object()), {}};
  // server/discover exists only in 2026-07-28, whatever came before it on this client.
  if (method == "server/discover")
    return {invalid_params(message, "server/discover is a 2026-07-28 method and needs _meta \"" +
                                        std::string(kVersionKey) + "\": \"" + std::string(kModernVersion) +
                                        "\" (and \"" + std::string(kCapabilitiesKey) + "\")"),
            {}};
  const bool subscription = method == "resources/subscribe" || method == "resources/unsubscribe";
  if (!served(method) && !subscription)
    return {jsonrpc::error(message.id, jsonrpc::kMethodNotFound, "Method not found: " + method), {}};
  if (!client->legacy_version())
    return {invalid_params(message, "the request has no _meta \"" + std::string(kVersionKey) +
                                        "\" (protocol 2026-07-28), and no initialize came before it (2025)"),
            {}};
  // 2026-07-28 replaced these with subscriptions/listen.
  if (subscription) return {this->subscription(*client, message, method == "resources/subscribe"), {}};
  return route(client, message, Era::Legacy, std::move(notify));
}

Reply Protocol::route(const std::shared_ptr<Client>& client, const Message& message, Era era, Notify notify) const {
  const auto& method = message.method;
  if (method == "tools/list") return list_tools(message, era);
  if (method == "tools/call") return call_tool(client, message, era, std::move(notify));
  if (method == "resources/list") return {list_resources(message, era, false), {}};
  if (method == "resources/templates/list") return {list_resources(message, era, true), {}};
  if (method == "resources/read") return read_resource(client, message, era, std::move(notify));
  if (method == "prompts/list") return {list_prompts(message, era), {}};
  if (method == "prompts/get") return get_prompt(client, message, era, std::move(notify));
  if (method == "completion/complete") return {complete(message, era), {}};
  // served() lists what is above.
  return {jsonrpc::error(message.id, jsonrpc::kMethodNotFound, "Method not found: " + method), {}};
}

Json Protocol::refuse_busy(Client& client, const Message& message) const {
  client.end_call(jsonrpc::id_key(message.id));
  return jsonrpc::error(message.id, jsonrpc::kServerBusy,
                        "Server busy: " + std::to_string(options_.max_queued_calls) +
                            " calls are waiting already; retry later");
}

Json Protocol::initialize(const std::shared_ptr<Client>& client, const Message& message) const {
  // A revision we speak is echoed; for any other the newest 2025 one is offered, and the client
  // decides whether it can use it.
  std::string version(kLegacyVersions[0]);
  auto requested = message.params.find("protocolVersion");
  if (requested != message.params.end() && requested->is_string()) {
    for (auto v : kLegacyVersions)
      if (*requested == v) version = v;
  }
  client->set_legacy_version(version);
  if (auto caps = message.params.find("capabilities"); caps != message.params.end() && caps->is_object())
    client->set_capabilities(*caps);
  Json result{{"protocolVersion", version}, {"capabilities", capabilities(Era::Legacy)}, {"serverInfo", server_info()}};
  result["instructions"] = info_.instructions.empty() ? default_instructions(registry_) : info_.instructions;
  return jsonrpc::result(message.id, std::move(result));
}

Json Protocol::discover(const Message& message) const {
  Json result{{"supportedVersions", supported_}, {"capabilities", capabilities(Era::Modern)}};
  result["instructions"] = info_.instructions.empty() ? default_instructions(registry_) : info_.instructions;
  return era_result(message, std::move(result), Era::Modern, true);
}

Json Protocol::capabilities(Era) const {
  // Lists change when the program adds to the registry, and clients hear it: 2025 clients on their push
  // channel, 2026-07-28 ones on subscriptions/listen. Resources and prompts are stated when there are any.
  Json out{{"tools", Json{{"listChanged", true}}}};
  const bool resources = !registry_.resources().empty();
  const bool prompts = !registry_.prompts().empty();
  if (resources) out["resources"] = Json{{"subscribe", true}, {"listChanged", true}};
  if (prompts) out["prompts"] = Json{{"listChanged", true}};
  if (resources || prompts) out["completions"] = Json::object();
  return out;
}

Json Protocol::era_result(const Message& message, Json result, Era era, bool cacheable) const {
  if (era == Era::Legacy) return jsonrpc::result(message.id, std::move(result));
  if (cacheable) {
    result["ttlMs"] = options_.list_ttl_ms;
    result["cacheScope"] = "public";
  }
  return jsonrpc::result(message.id, modern_result(std::move(result)));
}

std::optional<std::pair<std::size_t, std::size_t>> Protocol::page(const Message& message, std::size_t size) const {
  std::size_t begin = 0;
  if (auto cursor = message.params.find("cursor"); cursor != message.params.end() && !cursor->is_null()) {
    auto offset = read_cursor(*cursor, size);
    if (!offset) return std::nullopt;
    begin = *offset;
  }
  const std::size_t end = options_.page_size == 0 ? size : std::min(size, begin + options_.page_size);
  return std::pair{begin, end};
}

Reply Protocol::list_tools(const Message& message, Era era) const {
  const auto tools = registry_.tools();
  auto range = page(message, tools.size());
  if (!range) return {invalid_params(message, "unknown cursor"), {}};
  // The tools are written as text (a generated tool's from its listing, without reading its signature)
  // and put where the envelope, written as a tree, holds a placeholder: the last string of its kind in
  // the line, since what follows "tools" in the result is the server's own.
  std::string list = "[";
  for (std::size_t i = range->first; i < range->second; ++i) {
    auto definition = mcp_tool_text(tools[i], results_in(era));
    if (!definition) {
      // One tool the MCP profile cannot express must not hide the others; say why where an operator
      // looks (stderr is never the protocol stream).
      std::cerr << "ptc mcp: tool '" << tools[i].name() << "' is not listed: " << definition.error().to_string()
                << "\n";
      continue;
    }
    if (list.size() > 1) list += ',';
    list += *definition;
  }
  list += ']';
  constexpr std::string_view kPlaceholder = "\"\\u0000tools\\u0000\"";
  Json result{{"tools", std::string("\0tools\0", 7)}};
  if (range->second < tools.size()) result["nextCursor"] = std::to_string(range->second);
  std::string line = jsonrpc::line(era_result(message, std::move(result), era, true));
  line.replace(line.rfind(kPlaceholder), kPlaceholder.size(), list);
  return {std::nullopt, {}, {}, std::move(line)};
}

DispatchOptions Protocol::dispatch_options(const Message& message, Notify notify,
                                           const std::shared_ptr<Cancellation>& cancellation) const {
  DispatchOptions dispatch;
  dispatch.mode = options_.mode;
  dispatch.environment.adapter = "mcp";
  dispatch.environment.cancellation = cancellation;
  if (auto token = progress_token(message))
    dispatch.environment.progress = progress_sink(*token, std::move(notify), cancellation);
  // The timeout counts from the request's arrival, for the deadline dispatch checks and for the signal
  // a running handler sees alike.
  if (options_.call_timeout) dispatch.environment.deadline = Deadline::after(*options_.call_timeout);
  dispatch.memory_budget = options_.memory_budget;
  return dispatch;
}

Reply Protocol::run_request(const std::shared_ptr<Client>& client, const Message& message, Era era, Notify notify,
                            Work work) const {
  std::shared_ptr<ClientChannel> channel;
  if (era == Era::Modern) {
    auto answers = round_trip_answers(message);
    if (!answers) return {invalid_params(message, answers.error().message), {}};
    const auto* meta = meta_of(message);
    channel = std::make_shared<RoundTripChannel>(meta->at(std::string(kCapabilitiesKey)), std::move(*answers));
  }
  const auto& timeout = options_.call_timeout;
  auto cancellation = timeout ? std::make_shared<Cancellation>(Cancellation::Clock::now() + *timeout)
                              : std::make_shared<Cancellation>();
  const std::string key = jsonrpc::id_key(message.id);
  if (!client->begin_call(key, cancellation))
    return {jsonrpc::error(message.id, jsonrpc::kInvalidRequest, "Invalid Request: id " + key + " is already in use"),
            {}};
  DispatchOptions dispatch = dispatch_options(message, notify, cancellation);
  dispatch.environment.client =
      channel ? channel : std::make_shared<StreamChannel>(client, notify, cancellation, options_.client_answer_timeout);
  auto run = [this, client, key, message, work = std::move(work),
              dispatch = std::move(dispatch)]() -> std::optional<std::string> {
    std::string response;
    try {
      response = work(dispatch);
    } catch (const InputRequired& asked) {
      response = input_required_line(message, asked);
    } catch (const MissingClientCapability& missing) {
      response =
          jsonrpc::line(jsonrpc::error(message.id, jsonrpc::kMissingClientCapability,
                                       "Missing required client capability: " + missing.capability(),
                                       Json{{"requiredCapabilities", Json{{missing.capability(), Json::object()}}}}));
    }
    if (client->end_call(key)) return std::nullopt;
    return response;
  };
  return {std::nullopt, std::move(run)};
}

Reply Protocol::call_tool(const std::shared_ptr<Client>& client, const Message& message, Era era, Notify notify) const {
  // jsonrpc::read made params an object, so what read_mcp_tool_call refuses is the name. An empty name
  // is an unknown tool; arguments that are not an object go on to dispatch, which tells the model.
  auto params = read_mcp_tool_call(message.params);
  if (!params) return {invalid_params(message, "\"name\" must be a string"), {}};
  const auto found = registry_.lookup(params->name);  // the one lookup: dispatch takes what it found
  if (!found) return {invalid_params(message, "Unknown tool: " + std::string(params->name)), {}};

  // A tool that cannot run without a client capability is refused before it starts (SEP-2575).
  const Tool& tool = found.tool();
  const nlohmann::json declared =
      era == Era::Modern ? meta_of(message)->at(std::string(kCapabilitiesKey)) : client->capabilities();
  for (const auto& needed : tool.client_capabilities())
    if (!declares(declared, needed))
      return {jsonrpc::error(message.id, jsonrpc::kMissingClientCapability,
                             "Missing required client capability: " + needed + " (tool '" + tool.name() + "')",
                             Json{{"requiredCapabilities", Json{{needed, Json::object()}}}}),
              {}};

  // Arguments read as text reach the tool as text (dispatch's form for JSON text, as OpenAI sends
  // them): a generated tool decodes the request's own bytes, and only a hand-written one builds a tree.
  ToolCall call{call_id(message.id), tool.name(),
                !message.arguments_text.empty() ? nlohmann::json(message.arguments_text)
                : params->arguments             ? *params->arguments
                                                : nlohmann::json::object()};
  auto work = [this, client, era, id = message.id, call = std::move(call), found](const DispatchOptions& dispatch) {
    // What dispatch could not turn into an outcome is answered as a failed call's outcome is.
    auto failed = [&found, era](std::string text) {
      ToolOutcome outcome;
      outcome.result = ToolResult<LazyJson>::error(text);
      outcome.rendered = std::move(text);
      return mcp_call_tool_result_text(outcome, found.tool(), results_in(era));
    };
    const auto& cancellation = dispatch.environment.cancellation;
    std::string result;  // the CallToolResult's text
    // Held until the call ends: a later call may put another filesystem on the session.
    Result<std::shared_ptr<Filesystem>> roots = std::shared_ptr<Filesystem>();
    if (!options_.roots_filesystem.empty() && !cancellation->cancelled())
      roots = confine_to_roots(*client, *dispatch.environment.client, era);
    if (cancellation->cancelled()) {
      result = failed("The call was cancelled before it started (" + cancellation->reason() + ").");
    } else if (!roots) {
      result = failed(roots.error().message);
    } else {
      try {
        result = mcp_call_tool_result_text(registry_.dispatch(client->session(), found, call, dispatch), found.tool(),
                                           results_in(era));
      } catch (const InputRequired&) {
        throw;  // run_request answers input_required
      } catch (const MissingClientCapability& e) {
        if (era == Era::Modern) throw;  // -32021; a 2025 client reads why in the result
        result = failed(e.what());
      } catch (const std::exception& e) {
        // Dispatch turns tool failures into results; what it throws (a deadline, a handler that
        // stopped the evaluation) is still the tool's outcome, not a protocol fault: the model reads it.
        result = failed(e.what());
      }
    }
    if (era == Era::Modern) result = modern_result_text(result);
    return jsonrpc::result_line(id, result);
  };
  return run_request(client, message, era, std::move(notify), std::move(work));
}

Result<std::shared_ptr<Filesystem>> Protocol::confine_to_roots(Client& client, ClientChannel& channel, Era era) const {
  auto filesystem = era == Era::Legacy ? client.roots_filesystem() : nullptr;
  if (!filesystem && !channel.supports("roots")) {
    filesystem = std::make_shared<MountedFilesystem>(std::vector<MountedFilesystem::Mount>{});
  } else if (!filesystem) {
    const std::string key = "ptc-roots";
    auto answers = channel.ask({ClientRequest{key, "roots/list", nlohmann::json::object()}});
    if (!answers) return Error{"The client's roots could not be read: " + answers.error().message};
    auto answer = answers->find(key);
    if (answer == answers->end()) return Error{"The client's roots could not be read: it gave no answer."};
    auto roots = detail::roots_of(answer->second);
    if (!roots) return Error{"The client's roots could not be read: " + roots.error().message};
    filesystem = roots_filesystem(*roots, options_.roots_filesystem);
  }
  if (era == Era::Legacy) client.set_roots_filesystem(filesystem);
  client.session().resources().add<Filesystem>(filesystem);
  return filesystem;
}

void Protocol::notification(Client& client, const Message& message) const {
  if (message.method == "notifications/roots/list_changed") client.set_roots_filesystem(nullptr);
  if (message.method != "notifications/cancelled") return;  // initialized and the rest need nothing
  auto id = message.params.find("requestId");
  if (id == message.params.end() || !(id->is_string() || id->is_number_integer())) return;
  std::string reason = "cancelled by the client";
  if (auto r = message.params.find("reason"); r != message.params.end() && r->is_string())
    reason = r->get<std::string>();
  client.cancel(jsonrpc::id_key(*id), std::move(reason));
  client.drop_subscription(jsonrpc::id_key(*id));  // a stdio subscriptions/listen ends the same way
}

}  // namespace ptc::mcp
