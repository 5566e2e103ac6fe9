// ptc::cli::run — `list`, `prompt`, `schema` and `call` for any program that owns a ToolRegistry.

#include <ptc/cli.hpp>

#include <filesystem>
#include <iostream>
#include <optional>
#include <string_view>

#include <CLI/CLI.hpp>

#include <ptc/json_schema.hpp>
#include <ptc/mcp/server.hpp>
#include <ptc/registry.hpp>
#include <ptc/session.hpp>
#include <ptc/token_report.hpp>
#include <ptc/tool_catalog.hpp>
#include <ptc/tool_renderings.hpp>
#include <ptc/validate.hpp>

#include "agent_command.hpp"
#include "mcp_auth.hpp"
#include "request_state.hpp"
#include "support.hpp"

namespace ptc::cli {
namespace {

constexpr int kFailed = 1;
constexpr int kUsage = 2;

/// What the command line asked for; CLI11 fills it while parsing.
struct Request {
  std::string profile = "portable";
  std::string format;  // definitions: the provider whose request format to print
  std::string tool;
  std::string json;  // empty: no arguments, which dispatch reads as {}
  std::string mode = "enabled";
  std::string http;  // mcp: HOST:PORT, or empty for stdio
  std::string path = "/mcp";
  std::vector<std::string> allowed_origins;
  std::vector<std::string> allowed_hosts;
  detail::McpAuthRequest auth;   // mcp: the --auth-* options
  std::string state_key_file;    // mcp: empty for a random key per process
  std::string roots_filesystem;  // mcp: empty for off
  bool json_responses = false;   // mcp --http: answer calls as JSON when they can be
  std::string tokenizer_data;    // tokens: the directory of the .tiktoken files
  bool json_report = false;      // tokens --json
  detail::AgentRequest agent;
};

/// The subcommands, kept so we can ask which one was given once parsing is done.
struct Commands {
  CLI::App* list = nullptr;
  CLI::App* prompt = nullptr;
  CLI::App* schema = nullptr;
  CLI::App* definitions = nullptr;
  CLI::App* call = nullptr;
  CLI::App* mcp = nullptr;
  CLI::App* agent = nullptr;
  CLI::App* tokens = nullptr;
};

Commands define_commands(CLI::App& app, Request& request) {
  // At most one; "none" is checked after parsing, because CLI11 would report an unknown subcommand as
  // a missing one.
  app.require_subcommand(0, 1);
  Commands c;
  c.list = app.add_subcommand("list", "Print one line per tool: name(params) -> result");
  c.prompt = app.add_subcommand("prompt", "Print the tool list the LLM sees in its prompt");
  c.schema = app.add_subcommand("schema", "Print the tools document {\"tools\":[...]} with JSON Schemas");
  c.schema->add_option("--profile", request.profile, "portable (default), openai, anthropic, gemini or mcp");
  c.definitions =
      app.add_subcommand("definitions",
                         "Print the tool definitions a provider's request takes, ready to send as its `tools`");
  c.definitions
      ->add_option("FORMAT", request.format,
                   "openai (Chat Completions, strict), openai-responses, anthropic, gemini, or mcp "
                   "(a tools/list result)")
      ->required();
  c.tokens = app.add_subcommand("tokens",
                                "Print what each tool costs in tokens, for every rendering (o200k_base / cl100k_base)");
  c.tokens->add_option("--tokenizer-data", request.tokenizer_data,
                       "The directory holding o200k_base.tiktoken and cl100k_base.tiktoken (default: "
                       "$PTC_TOKENIZER_DATA)");
  c.tokens->add_flag("--json", request.json_report, "Print the report as JSON, each rendering's text included");
  c.call = app.add_subcommand("call", "Call a tool; prints the result as JSON, or the validation report (exit 1)");
  c.call->add_option("NAME", request.tool, "The tool to call")->required();
  c.call->add_option("JSON", request.json, "Arguments object (default {}); @FILE reads a file, - reads standard input");
  c.call->add_option("--mode", request.mode, "Validation mode: enabled (default), warn_only, strict or disabled");
  c.mcp = app.add_subcommand("mcp", "Serve the tools over MCP: on standard input and output, or over HTTP with --http");
  c.mcp->add_option("--http", request.http,
                    "Serve Streamable HTTP on HOST:PORT (e.g. 127.0.0.1:8000) instead of stdio");
  c.mcp->add_option("--path", request.path, "The HTTP endpoint's path (default /mcp)");
  c.mcp->add_option("--allow-origin", request.allowed_origins, "An Origin to accept besides localhost (repeatable)");
  c.mcp->add_option("--allow-host", request.allowed_hosts, "A Host header to accept besides localhost (repeatable)");
  c.mcp->add_option("--mode", request.mode, "Validation mode: enabled (default), warn_only, strict or disabled");
  c.mcp->add_option("--state-key-file", request.state_key_file,
                    "The secret (64 hex digits, mode 0600) that protects request state; instances behind one "
                    "load balancer share it (default: a random key per process)");
  c.mcp->add_option("--roots-filesystem", request.roots_filesystem,
                    "Give each client's tools its roots as their filesystem, each root inside this directory "
                    "(\"/\": anywhere)");
  c.mcp->add_flag("--json-responses", request.json_responses,
                  "Over HTTP, answer a call that sends nothing but its answer as application/json instead "
                  "of an SSE stream");
  detail::define_mcp_auth(*c.mcp, request.auth);
  c.agent = detail::define_agent(app, request.agent);
  return c;
}

/// Tool values may hold bytes that are not UTF-8 (a file read as text); show them replaced rather than
/// let dump() throw.
template <class Json>
std::string dump_pretty(const Json& value) {
  return value.dump(2, ' ', false, nlohmann::json::error_handler_t::replace);
}

std::string tool_names(const ToolRegistry& registry) {
  std::string names;
  for (const auto& tool : registry.tools()) names += (names.empty() ? "" : ", ") + tool.name();
  return names.empty() ? "(none)" : names;
}

int list_tools(const ToolRegistry& registry, std::ostream& out) {
  for (const auto& tool : registry.tools()) out << tool.name() << tool.signature_text() << "\n";
  return 0;
}

int print_prompt(const ToolRegistry& registry, std::ostream& out) {
  const auto tools = registry.tools();
  out << render_tool_list(tools);
  return 0;
}

int print_schema(const ToolRegistry& registry, const Request& request, std::ostream& out, std::ostream& err) {
  auto profile = profile_from_name(request.profile);
  if (!profile) {
    err << detail::unknown_profile(request.profile);
    return kUsage;
  }
  const auto tools = registry.tools();
  auto document = tools_document(tools, *profile);
  if (!document) {
    err << "error: " << document.error().to_string() << "\n";
    return kFailed;
  }
  out << dump_pretty(*document) << "\n";
  return 0;
}

int print_definitions(const ToolRegistry& registry, const Request& request, std::ostream& out, std::ostream& err) {
  const auto rendering = rendering_from_name(request.format);
  if (!rendering || *rendering == Rendering::Prompt) {
    err << detail::unknown_format(request.format);
    return kUsage;
  }
  auto definitions = OrderedJson::array();
  for (const auto& tool : registry.tools()) {
    auto definition = tool_definition(tool, *rendering);
    if (!definition) {
      err << "error: " << definition.error().to_string() << "\n";
      return kFailed;
    }
    definitions.push_back(std::move(*definition));
  }
  // How each request takes the list: OpenAI and Anthropic the array as `tools`, Gemini as one
  // `functionDeclarations` entry of it; MCP answers tools/list with `{"tools": [...]}`.
  OrderedJson document;
  if (*rendering == Rendering::Gemini)
    document = OrderedJson::array({OrderedJson{{"functionDeclarations", std::move(definitions)}}});
  else if (*rendering == Rendering::Mcp)
    document = OrderedJson{{"tools", std::move(definitions)}};
  else
    document = std::move(definitions);
  out << dump_pretty(document) << "\n";
  return 0;
}

int print_tokens(const ToolRegistry& registry, const Request& request, std::ostream& out, std::ostream& err) {
  const auto dir = tokenizer_data(request.tokenizer_data);
  if (!dir) {
    err << "error: tokens needs OpenAI's rank files (o200k_base.tiktoken, cl100k_base.tiktoken): give their "
           "directory with --tokenizer-data or PTC_TOKENIZER_DATA\n";
    return kUsage;
  }
  auto encodings = load_report_encodings(*dir);
  if (!encodings) {
    err << "error: " << encodings.error().message << "\n";
    return kUsage;
  }
  const auto tools = registry.tools();
  const TokenReport report = token_report(tools, *encodings);
  out << (request.json_report ? token_report_json(report) : token_report_table(report));
  return 0;
}

/// The outcome as the `call` subcommand prints it; keys in a fixed order so the output can be diffed.
nlohmann::ordered_json outcome_json(const ToolOutcome& outcome) {
  nlohmann::ordered_json out;
  out["status"] = status_name(outcome.status);
  out["success"] = outcome.success();
  out["message"] = outcome.result.message;
  out["value"] = outcome.visible_value ? nlohmann::ordered_json(outcome.visible_value->json()) : nullptr;
  auto warnings = nlohmann::ordered_json::array();
  for (const auto& w : outcome.validation.warnings) warnings.push_back({{"path", w.path}, {"message", w.message}});
  out["warnings"] = std::move(warnings);
  // The outcome stores the first limits::kStoredIssues warnings; the others are counted.
  if (outcome.validation.more_warnings != 0) out["more_warnings"] = outcome.validation.more_warnings;
  return out;
}

int print_outcome(const ToolOutcome& outcome, std::ostream& out) {
  if (outcome.status == CallStatus::InvalidArguments) {
    // The report is what the model would read; malformed or non-object JSON has none, only the message.
    const bool has_report = outcome.validation.error_count() != 0;
    out << (has_report ? outcome.validation.report() : outcome.result.message + "\n");
    return kFailed;
  }
  out << dump_pretty(outcome_json(outcome)) << "\n";
  return outcome.success() ? 0 : kFailed;
}

int call_tool(const ToolRegistry& registry, const Request& request, const Options& options, std::ostream& out,
              std::ostream& err) {
  auto mode = mode_from_name(request.mode);
  if (!mode) {
    err << detail::unknown_mode(request.mode);
    return kUsage;
  }
  const auto found = registry.lookup(request.tool);
  if (!found) {
    err << "error: unknown tool '" << request.tool << "'\navailable tools: " << tool_names(registry) << "\n";
    return kUsage;
  }
  auto text = detail::read_json_argument(request.json);
  if (!text) {
    err << detail::cannot_read(text.error());
    return kUsage;
  }
  // One call and the process ends: nobody reads a log (a prepare_session that subscribes still sees
  // the call's event).
  Session session({}, SessionOptions{.log_limit = 0});
  if (options.prepare_session) options.prepare_session(session);
  DispatchOptions dispatch_options;
  dispatch_options.mode = *mode;
  try {
    // The text goes in unparsed, so dispatch reports malformed JSON exactly as it does for providers.
    return print_outcome(registry.dispatch(session, found, ToolCall{"cli", request.tool, *text}, dispatch_options),
                         out);
  } catch (const PromptEvaluationError& e) {
    // A handler may stop the whole evaluation; on the command line that is just a failed call.
    err << "error: " << e.what() << "\n";
    return kFailed;
  }
}

/// "HOST:PORT" (or "[::1]:PORT") split, the port checked.
std::optional<std::pair<std::string, int>> host_and_port(const std::string& text) {
  const auto colon = text.rfind(':');
  if (colon == std::string::npos || colon == 0) return std::nullopt;
  std::string host = text.substr(0, colon);
  if (host.size() > 2 && host.front() == '[' && host.back() == ']') host = host.substr(1, host.size() - 2);
  const std::string port = text.substr(colon + 1);
  if (port.empty() || port.size() > 5 || port.find_first_not_of("0123456789") != std::string::npos) return std::nullopt;
  const int number = std::stoi(port);
  if (number > 65535) return std::nullopt;
  return std::pair{host, number};
}

// `options.server`, its empty fields taken from the deprecated fields it replaced, then from what the
// generated tools offered (the CMake project's name and version), then the defaults.
ServerIdentity server_identity(const Options& options, const ToolRegistry& registry, const std::string& program) {
  ServerIdentity id = options.server;
  const ServerIdentity offered = registry.offered_server_identity();
  auto fill = [](std::string& field, const std::string& old, const std::string& built, const std::string& fallback) {
    if (!field.empty()) return;
    field = !old.empty() ? old : !built.empty() ? built : fallback;
  };
  fill(id.name, options.server_name, offered.name, program.empty() ? "ptc" : program);
  fill(id.version, options.server_version, offered.version, "0.0.0");
  fill(id.title, options.server_title, "", "");
  return id;
}

int serve_mcp(const ToolRegistry& registry, const Request& request, const Options& options, const std::string& program,
              std::ostream& err) {
  auto mode = mode_from_name(request.mode);
  if (!mode) {
    err << detail::unknown_mode(request.mode);
    return kUsage;
  }
  // Checked here, before serving, so a bad key file is a usage error and not a server that starts and
  // then cannot resume what it sealed.
  if (!request.state_key_file.empty()) {
    if (auto key = mcp::StateKey::from_file(request.state_key_file); !key) {
      err << "error: " << key.error().message << "\n";
      return kUsage;
    }
  }
  auto auth = detail::mcp_auth(request.auth, !request.http.empty(), err);
  if (!auth) {
    err << "error: " << auth.error().message << "\n";
    return kUsage;
  }
  mcp::ServerInfo info = server_identity(options, registry, program);
  mcp::ServerOptions server_options;
  server_options.mode = *mode;
  server_options.state_key_file = request.state_key_file;
  server_options.roots_filesystem = request.roots_filesystem;
  server_options.prepare_session = options.prepare_session;
  mcp::Server server(registry, std::move(info), std::move(server_options));
  if (request.http.empty()) return server.serve_stdio();
  auto address = host_and_port(request.http);
  if (!address) {
    err << "error: --http takes HOST:PORT, e.g. 127.0.0.1:8000 (got '" << request.http << "')\n";
    return kUsage;
  }
  mcp::HttpOptions http;
  http.host = address->first;
  http.port = address->second;
  http.path = request.path;
  http.allowed_origins = request.allowed_origins;
  http.allowed_hosts = request.allowed_hosts;
  http.json_responses = request.json_responses;
  http.auth = std::move(*auth);
  http.on_listening = [&err, &http](int port) {
    // The address goes to standard error, so scripts and tests can find a port chosen with :0.
    err << "ptc mcp: serving http://" << (http.host.find(':') != std::string::npos ? "[" + http.host + "]" : http.host)
        << ":" << port << http.path << "\n"
        << std::flush;
  };
  return server.serve_http(http) == 0 ? 0 : kFailed;
}

/// The message, then the help of the subcommand it concerns (CLI11 picks the one being parsed).
int usage_error(const CLI::App& app, std::string_view message, std::ostream& err) {
  err << "error: " << message << "\n" << app.help();
  return kUsage;
}

int run_named(std::string program, const ToolRegistry& registry, const std::vector<std::string>& args,
              std::ostream& out, std::ostream& err, const Options& options) {
  CLI::App app{
      "The tools this program offers an LLM: list them, show their prompt text and JSON Schemas, "
      "or call one.",
      std::move(program)};
  Request request;
  const Commands commands = define_commands(app, request);
  try {
    std::vector<std::string> reversed(args.rbegin(), args.rend());  // CLI11 consumes from the back
    app.parse(std::move(reversed));
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e, out, err);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e, out, err);
  } catch (const CLI::ParseError& e) {
    return usage_error(app, e.what(), err);
  }
  if (app.get_subcommands().empty())
    return usage_error(app, "give a subcommand: list, prompt, schema, definitions, tokens, call, mcp or agent", err);
  if (commands.list->parsed()) return list_tools(registry, out);
  if (commands.prompt->parsed()) return print_prompt(registry, out);
  if (commands.schema->parsed()) return print_schema(registry, request, out, err);
  if (commands.definitions->parsed()) return print_definitions(registry, request, out, err);
  if (commands.tokens->parsed()) return print_tokens(registry, request, out, err);
  if (commands.mcp->parsed()) return serve_mcp(registry, request, options, app.get_name(), err);
  if (commands.agent->parsed()) return detail::run_agent(registry, request.agent, options, out, err);
  return call_tool(registry, request, options, out, err);
}

}  // namespace

int run(const ToolRegistry& registry, int argc, const char* const* argv, const Options& options) {
  std::vector<std::string> args;
  if (argc > 1) args.assign(argv + 1, argv + argc);
  // Help and usage name the program as it was invoked, without its directory.
  std::string program = argc > 0 ? std::filesystem::path(argv[0]).filename().string() : std::string();
  return run_named(std::move(program), registry, args, std::cout, std::cerr, options);
}

int run(const ToolRegistry& registry, const std::vector<std::string>& args, std::ostream& out, std::ostream& err,
        const Options& options) {
  return run_named({}, registry, args, out, err, options);
}

}  // namespace ptc::cli
