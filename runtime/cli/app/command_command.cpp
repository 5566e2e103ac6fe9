#include "command_command.hpp"

#include <cstdlib>
#include <iostream>
#include <map>
#include <memory>
#include <mutex>
#include <optional>

#include <ptc/command.hpp>
#include <ptc/commands.hpp>
#include <ptc/json_text.hpp>

#include "support.hpp"

namespace ptc::app {
namespace {

constexpr int kFailed = 1;

enum class Action { List, Invoke, Dispatch, Reload, Register, Unregister };

struct Options {
  std::string root = ".jido_code";
  std::string global_root;
  std::string target;  // NAME or PATH
  std::string params = "{}";
  std::string context = "{}";
  std::string invocation_id;
  bool signals = false;
};

int failure(const std::string& message) {
  std::cerr << "error: " << message << "\n";
  return kFailed;
}

std::optional<nlohmann::json> json_option(const std::string& flag, const std::string& argument, int& exit_code) {
  auto raw = cli::detail::read_json_argument(argument);
  if (!raw) {
    std::cerr << cli::detail::cannot_read(raw.error());
    exit_code = kFailed;
    return std::nullopt;
  }
  // Checked for repeated keys too: nlohmann would keep only the last of them.
  auto parsed = parse_command_json(*raw);
  if (!parsed) {
    exit_code = failure(flag + ": " + parsed.error().to_string());
    return std::nullopt;
  }
  return std::move(*parsed);
}

std::filesystem::path global_root(const Options& o) {
  if (!o.global_root.empty()) return o.global_root;
  const char* home = std::getenv("HOME");
  return home && *home ? std::filesystem::path(home) / ".jido_code" : std::filesystem::path();
}

int run_dispatch(Commands& commands, const Options& o, const nlohmann::json& params, const nlohmann::json& context) {
  std::mutex mutex;
  std::map<std::string, std::string> failures;  // invocation id -> error
  // Subscribed before publishing, so the outcome cannot be missed.
  auto outcome = commands.bus().subscribe("command.failed", [&](const Signal& s) {
    std::lock_guard lock(mutex);
    failures[s.data.value("invocation_id", "")] = s.data.value("error", "");
  });
  CommandDispatchOptions options;
  if (!o.invocation_id.empty()) options.invocation_id = o.invocation_id;
  auto dispatched = commands.dispatch(o.target, params, context, options);
  commands.dispatcher().wait_idle();
  commands.bus().unsubscribe(outcome);
  if (!dispatched) return failure(dispatched.error().message);
  std::cout << ptc::compact_text(nlohmann::json{{"invocation_id", *dispatched}}) << "\n";
  auto failed = failures.find(*dispatched);
  return failed == failures.end() ? 0 : failure(failed->second);
}

int run(Action action, const Options& o) {
  std::mutex print;
  auto opened = Commands::open({global_root(o), o.root, stderr_log_sink(LogLevel::Info)});
  if (!opened) return failure(opened.error().message);
  Commands& commands = **opened;
  if (o.signals)
    commands.bus().subscribe("**", [&print](const Signal& s) {
      std::lock_guard lock(print);
      std::cout << ptc::compact_text(s.to_json()) << "\n" << std::flush;
    });

  auto print_result = [](const Result<nlohmann::json>& r) {
    if (!r) return failure(r.error().message);
    std::cout << ptc::compact_text(*r) << "\n";
    return 0;
  };
  switch (action) {
    case Action::List:
      for (const auto& name : commands.registry().list_commands()) std::cout << name << "\n";
      return 0;
    case Action::Reload: return print_result(commands.registry().reload());
    case Action::Register: return print_result(commands.registry().register_command(o.target));
    case Action::Unregister: return print_result(commands.registry().unregister_command(o.target));
    case Action::Invoke:
    case Action::Dispatch: break;
  }
  int exit_code = 0;
  auto params = json_option("--params", o.params, exit_code);
  if (!params) return exit_code;
  auto context = json_option("--context", o.context, exit_code);
  if (!context) return exit_code;
  if (action == Action::Dispatch) return run_dispatch(commands, o, *params, *context);
  CommandInvokeOptions options;
  if (!o.invocation_id.empty()) options.invocation_id = o.invocation_id;
  return print_result(commands.invoke(o.target, *params, *context, options));
}

}  // namespace

void add_command_command(CLI::App& app, int& exit_code) {
  auto o = std::make_shared<Options>();
  auto* command = app.add_subcommand("command", "List, invoke and dispatch markdown commands (docs/commands.md)");
  command->require_subcommand(1);

  auto add = [&](const char* name, const char* help, Action action, const char* target = nullptr,
                 const char* target_help = nullptr) {
    auto* sub = command->add_subcommand(name, help);
    if (target) sub->add_option(target, o->target, target_help)->required();
    sub->add_option("--root", o->root, "Project root: settings.json and commands/*.md (default .jido_code)");
    sub->add_option("--global-root", o->global_root, "Global root (default ~/.jido_code)");
    sub->add_flag("--signals", o->signals, "Print every signal published, one JSON object per line, in order");
    if (action == Action::Invoke || action == Action::Dispatch) {
      sub->add_option("--params", o->params, "JSON object of params; @FILE reads a file, - standard input");
      sub->add_option("--context", o->context, "JSON object of context; @FILE reads a file, - standard input");
      sub->add_option("--invocation-id", o->invocation_id, "Invocation id (default: the context's, else a new UUID)");
    }
    sub->callback([o, action, &exit_code] { exit_code = run(action, *o); });
  };
  add("list", "Print the names of the commands, one per line", Action::List);
  add("invoke", "Run a command now and print {\"invocation_id\",\"duration_ms\",\"result\"}", Action::Invoke, "NAME",
      "Command name");
  add("dispatch", "Publish command.invoke, wait for the dispatcher, print {\"invocation_id\"}; exit 1 if it failed",
      Action::Dispatch, "NAME", "Command name");
  add("reload", "Read the commands again; print {\"previous_count\",\"current_count\"}", Action::Reload);
  add("register", "Add the command in one file; print {\"name\",\"path\",\"scope\",\"current_count\"}",
      Action::Register, "PATH", "Markdown command file");
  add("unregister", "Remove a command; print {\"name\",\"current_count\"}", Action::Unregister, "NAME", "Command name");
}

}  // namespace ptc::app
