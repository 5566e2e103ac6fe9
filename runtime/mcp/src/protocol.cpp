#include "protocol.hpp"

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

Json invalid_params(const Message& message, std::string why) {
  return jsonrpc::error(message.id, jsonrpc::kInvalidParams, "Invalid params: " + std::move(why));
}

/// The JSON-RPC id as the ToolCall id a ToolInvoked event carries.
std::string call_id(const nlohmann::json& id) { return id.is_string() ? id.get<std::string>() : id.dump(); }

std::string default_instructions(const ToolRegistry& registry) {
  std::string text = "Tools, as name(parameters) -> result:\n";
  for (const auto& tool : registry.tools()) text += tool.name() + tool.signature().render() + "\n";
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

Protocol::Protocol(const ToolRegistry& registry, ServerInfo info, ServerOptions options)
    : registry_(registry), info_(std::move(info)), options_(std::move(options)) {
  supported_.emplace_back(kModernVersion);
  for (auto v : kLegacyVersions) supported_.emplace_back(v);
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
  if (message.kind == Message::Kind::Response) return {};  // the server sends no requests to answer
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
    if (method == "tools/list") return {list_tools(message, Era::Modern), {}};
    if (method == "tools/call") return call_tool(client, message, Era::Modern, std::move(notify));
    return {jsonrpc::error(message.id, jsonrpc::kMethodNotFound, "Method not found: " + method), {}};
  }

  if (method == "initialize") return {initialize(client, message), {}};
  if (method == "ping") return {jsonrpc::result(message.id, Json::object()), {}};
  const bool known = method == "server/discover" || method == "tools/list" || method == "tools/call";
  if (!known) return {jsonrpc::error(message.id, jsonrpc::kMethodNotFound, "Method not found: " + method), {}};
  // server/discover exists only in 2026-07-28, whatever came before it on this client.
  if (method == "server/discover")
    return {invalid_params(message, "server/discover is a 2026-07-28 method and needs _meta \"" +
                                        std::string(kVersionKey) + "\": \"" + std::string(kModernVersion) +
                                        "\" (and \"" + std::string(kCapabilitiesKey) + "\")"),
            {}};
  if (!client->legacy_version())
    return {invalid_params(message, "the request has no _meta \"" + std::string(kVersionKey) +
                                        "\" (protocol 2026-07-28), and no initialize came before it (2025)"),
            {}};
  if (method == "tools/list") return {list_tools(message, Era::Legacy), {}};
  return call_tool(client, message, Era::Legacy, std::move(notify));
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
  Json result{{"protocolVersion", version},
              {"capabilities", Json{{"tools", Json{{"listChanged", false}}}}},
              {"serverInfo", server_info()}};
  result["instructions"] = info_.instructions.empty() ? default_instructions(registry_) : info_.instructions;
  return jsonrpc::result(message.id, std::move(result));
}

Json Protocol::discover(const Message& message) const {
  Json result{{"supportedVersions", supported_}, {"capabilities", Json{{"tools", Json::object()}}}};
  result["instructions"] = info_.instructions.empty() ? default_instructions(registry_) : info_.instructions;
  result["ttlMs"] = options_.list_ttl_ms;
  result["cacheScope"] = "public";
  return jsonrpc::result(message.id, modern_result(std::move(result)));
}

Json Protocol::list_tools(const Message& message, Era era) const {
  const auto tools = registry_.tools();
  std::size_t begin = 0;
  if (auto cursor = message.params.find("cursor"); cursor != message.params.end() && !cursor->is_null()) {
    auto offset = read_cursor(*cursor, tools.size());
    if (!offset) return invalid_params(message, "unknown cursor");
    begin = *offset;
  }
  const std::size_t end = options_.page_size == 0 ? tools.size() : std::min(tools.size(), begin + options_.page_size);
  Json list = Json::array();
  for (std::size_t i = begin; i < end; ++i) {
    auto definition = mcp_tool(tools[i], results_in(era));
    if (!definition) {
      // One tool the MCP profile cannot express must not hide the others; say why where an operator
      // looks (stderr is never the protocol stream).
      std::cerr << "ptc mcp: tool '" << tools[i].name() << "' is not listed: " << definition.error().to_string()
                << "\n";
      continue;
    }
    list.push_back(std::move(*definition));
  }
  Json result{{"tools", std::move(list)}};
  if (end < tools.size()) result["nextCursor"] = std::to_string(end);
  if (era == Era::Legacy) return jsonrpc::result(message.id, std::move(result));
  result["ttlMs"] = options_.list_ttl_ms;
  result["cacheScope"] = "public";
  return jsonrpc::result(message.id, modern_result(std::move(result)));
}

Reply Protocol::call_tool(const std::shared_ptr<Client>& client, const Message& message, Era era, Notify notify) const {
  // jsonrpc::read made params an object, so what read_mcp_tool_call refuses is the name. An empty name
  // is an unknown tool; arguments that are not an object go on to dispatch, which tells the model.
  auto params = read_mcp_tool_call(message.params);
  if (!params) return {invalid_params(message, "\"name\" must be a string"), {}};
  auto tool = registry_.find(params->name);
  if (!tool) return {invalid_params(message, "Unknown tool: " + std::string(params->name)), {}};

  // The timeout counts from the request's arrival, for the deadline dispatch checks and for the
  // signal a running handler sees alike.
  const auto& timeout = options_.call_timeout;
  auto cancellation = timeout ? std::make_shared<Cancellation>(Cancellation::Clock::now() + *timeout)
                              : std::make_shared<Cancellation>();
  const auto deadline = timeout ? std::optional<Deadline>(Deadline::after(*timeout)) : std::nullopt;
  const std::string key = jsonrpc::id_key(message.id);
  if (!client->begin_call(key, cancellation))
    return {jsonrpc::error(message.id, jsonrpc::kInvalidRequest, "Invalid Request: id " + key + " is already in use"),
            {}};

  ToolCall call{call_id(message.id), tool->name(), params->arguments ? *params->arguments : nlohmann::json::object()};
  call.arguments_text = message.arguments_text;  // generated tools decode the request's own text
  auto token = progress_token(message);
  auto run = [this, client, key, era, id = message.id, call = std::move(call), tool = std::move(*tool), cancellation,
              deadline, token = std::move(token), notify = std::move(notify)]() -> std::optional<std::string> {
    DispatchOptions dispatch;
    dispatch.mode = options_.mode;
    dispatch.environment.adapter = "mcp";
    dispatch.environment.cancellation = cancellation;
    if (token) dispatch.environment.progress = progress_sink(*token, notify, cancellation);
    dispatch.environment.deadline = deadline;
    dispatch.memory_budget = options_.memory_budget;
    // What dispatch could not turn into an outcome is answered as a failed call's outcome is.
    auto failed = [&tool, era](std::string text) {
      ToolOutcome outcome;
      outcome.result = ToolResult<LazyJson>::error(text);
      outcome.rendered = std::move(text);
      return mcp_call_tool_result_text(outcome, tool, results_in(era));
    };
    std::string result;  // the CallToolResult's text
    if (cancellation->cancelled()) {
      result = failed("The call was cancelled before it started (" + cancellation->reason() + ").");
    } else {
      try {
        result =
            mcp_call_tool_result_text(registry_.dispatch(client->session(), call, dispatch), tool, results_in(era));
      } catch (const std::exception& e) {
        // Dispatch turns tool failures into results; what it throws (a deadline, a handler that
        // stopped the evaluation) is still the tool's outcome, not a protocol fault: the model reads it.
        result = failed(e.what());
      }
    }
    if (client->end_call(key)) return std::nullopt;
    if (era == Era::Modern) result = modern_result_text(result);
    return jsonrpc::result_line(id, result);
  };
  return {std::nullopt, std::move(run)};
}

void Protocol::notification(Client& client, const Message& message) const {
  if (message.method != "notifications/cancelled") return;  // initialized and the rest need nothing
  auto id = message.params.find("requestId");
  if (id == message.params.end() || !(id->is_string() || id->is_number_integer())) return;
  std::string reason = "cancelled by the client";
  if (auto r = message.params.find("reason"); r != message.params.end() && r->is_string())
    reason = r->get<std::string>();
  client.cancel(jsonrpc::id_key(*id), std::move(reason));
}

}  // namespace ptc::mcp
