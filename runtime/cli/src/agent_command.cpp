#include "agent_command.hpp"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>

#include <ptc/agent.hpp>
#include <ptc/file_input.hpp>
#include <ptc/session.hpp>
#include <ptc/signature.hpp>

namespace ptc::cli::detail {

namespace {

constexpr int kFailed = 1;
constexpr int kUsage = 2;

std::string env(std::string_view name) {
  const char* v = std::getenv(std::string(name).c_str());
  return v ? v : "";
}

// A call's arguments on one line, cut short: the stderr log is for a person watching.
std::string brief(const nlohmann::json& arguments) {
  std::string text = arguments.is_string() ? arguments.get<std::string>()
                                           : arguments.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  for (char& c : text)
    if (c == '\n' || c == '\r') c = ' ';
  constexpr std::size_t kMax = 200;
  if (text.size() > kMax) text = text.substr(0, kMax) + "...";
  return text;
}

}  // namespace

CLI::App* define_agent(CLI::App& app, AgentRequest& r) {
  CLI::App* agent = app.add_subcommand("agent", "Run a model over the tools until it answers TASK");
  agent->add_option("--provider", r.provider, "openai (default), openai-responses, anthropic or gemini");
  agent->add_option("--model", r.model, "The provider's model name (default: $PTC_MODEL)");
  agent->add_option("--base-url", r.base_url, "The API root the request paths are appended to");
  agent->add_option("--max-turns", r.max_turns, "Model requests that may call tools (default 10)");
  agent->add_option("--output", r.output, "The answer's type, as a signature or a type: the value is printed as JSON");
  agent->add_option("--transcript", r.transcript, "JSON lines of the conversation: continued from, then rewritten");
  agent->add_flag("--stream", r.stream, "Stream each turn's text to standard error as it arrives");
  agent->add_flag("--approve", r.approve, "Ask on the terminal before each call (y, n, or a reason to refuse)");
  agent->add_option("task", r.task, "What to ask the model")->required();
  return agent;
}

namespace {

// What the command line asked for, checked: a usage error is written to `err` and gives nullopt.
struct Setup {
  agent::ProviderOptions provider;
  agent::AgentOptions agent;
  std::optional<Schema> answer;
  agent::Conversation history;
};

std::optional<Setup> set_up(const AgentRequest& r, std::ostream& err) {
  Setup s;
  const auto provider = agent::provider_from_name(r.provider);
  if (!provider) {
    err << "error: unknown provider '" << r.provider << "'; use openai, openai-responses, anthropic or gemini\n";
    return std::nullopt;
  }
  s.agent.settings.model = r.model.empty() ? env("PTC_MODEL") : r.model;
  if (s.agent.settings.model.empty()) {
    err << "error: give a model with --model or $PTC_MODEL\n";
    return std::nullopt;
  }
  if (r.max_turns < 1) {
    err << "error: --max-turns must be at least 1\n";
    return std::nullopt;
  }
  s.agent.limits.max_turns = static_cast<std::uint64_t>(r.max_turns);
  s.agent.stream = r.stream;
  if (!r.output.empty()) {
    auto signature = Signature::parse(r.output);
    if (!signature) {
      err << "error: --output: " << signature.error().to_string() << "\n";
      return std::nullopt;
    }
    s.answer = signature->output();
  }
  s.provider.provider = *provider;
  s.provider.base_url = r.base_url;
  s.provider.api_key = env(agent::api_key_variable(*provider));
  if (s.provider.api_key.empty() && !(!r.base_url.empty() && agent::is_loopback_url(r.base_url))) {
    err << "error: set " << agent::api_key_variable(*provider)
        << " (no key is needed only for a --base-url on loopback)\n";
    return std::nullopt;
  }
  if (!r.transcript.empty() && std::filesystem::exists(r.transcript)) {
    auto text = read_regular_file(r.transcript);
    auto read = text ? agent::Conversation::from_json_lines(*text) : Result<agent::Conversation>(text.error());
    if (!read) {
      err << "error: " << r.transcript << ": " << read.error().to_string() << "\n";
      return std::nullopt;
    }
    s.history = std::move(*read);
  }
  return s;
}

// Asks on the terminal before each call: "y" runs it, "n" or nothing refuses, other text is the reason.
agent::Approval ask(const ToolCall& call, std::ostream& err) {
  err << "run " << call.name << " " << brief(call.arguments) << "? [y/n/reason] " << std::flush;
  std::string line;
  if (!std::getline(std::cin, line)) return agent::Deny{"no answer from the user"};
  if (line == "y" || line == "Y" || line == "yes") return agent::Approve{};
  if (line.empty() || line == "n" || line == "N" || line == "no") return agent::Deny{"the user said no"};
  return agent::Deny{line};
}

// The run as a person watches it on stderr: streamed text, then a line per call, retry and rejection.
class Log {
 public:
  explicit Log(std::ostream& err) : err_(err) {}
  void operator()(const agent::AgentEvent& event) {
    if (const auto* delta = std::get_if<agent::StreamEvent>(&event)) {
      if (delta->kind != agent::StreamEvent::Kind::text_delta || delta->text.empty()) return;
      err_ << delta->text << std::flush;
      mid_line_ = delta->text.back() != '\n';
    } else if (const auto* done = std::get_if<agent::ToolCallFinished>(&event)) {
      end_line();
      err_ << "> " << done->call.name << " " << brief(done->call.arguments) << " [" << status_name(done->status)
           << "]\n";
      for (const auto& w : done->warnings) err_ << "  warning: " << w << "\n";
    } else if (const auto* retry = std::get_if<agent::RetryNotice>(&event)) {
      end_line();
      err_ << "retry " << retry->attempt << " in " << retry->delay.count() << " ms: " << retry->reason << "\n";
    } else if (const auto* rejected = std::get_if<agent::AnswerRejected>(&event)) {
      end_line();
      err_ << "answer rejected (retry " << rejected->attempt << "):\n" << rejected->feedback << "\n";
    }
  }
  // Streamed text ends its line before anything else is written.
  void end_line() {
    if (mid_line_) err_ << "\n";
    mid_line_ = false;
  }

 private:
  std::ostream& err_;
  bool mid_line_ = false;
};

}  // namespace

int run_agent(const ToolRegistry& registry, const AgentRequest& r, const Options& options, std::ostream& out,
              std::ostream& err) {
  auto setup = set_up(r, err);
  if (!setup) return kUsage;
  auto model = agent::make_model(std::move(setup->provider));
  if (!model) {
    err << "error: " << model.error().message << "\n";
    return kUsage;
  }
  if (r.approve) setup->agent.approve = [&err](const ToolCall& call) { return ask(call, err); };
  agent::Agent runner(**model, registry, std::move(setup->agent));
  auto session = std::make_shared<Session>();
  if (options.prepare_session) options.prepare_session(*session);
  runner.use_session(session);
  auto log = std::make_shared<Log>(err);
  runner.subscribe([log](const agent::AgentEvent& event) { (*log)(event); });
  agent::RunResult result = setup->answer ? runner.run(r.task, *setup->answer, std::move(setup->history))
                                          : runner.run(r.task, std::move(setup->history));
  if (!r.transcript.empty()) {
    std::ofstream file(r.transcript, std::ios::binary | std::ios::trunc);
    file << result.conversation.to_json_lines();
    if (!file) err << "error: cannot write " << r.transcript << "\n";
  }
  log->end_line();
  for (const auto& w : result.warnings) err << "warning: " << w << "\n";
  if (!result.ok()) {
    err << "error: " << result.error->message << "\n";
    return kFailed;
  }
  if (setup->answer) {
    out << result.value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
  } else {
    out << result.text << "\n";
  }
  return 0;
}

}  // namespace ptc::cli::detail
