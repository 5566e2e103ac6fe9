#include "agent_command.hpp"

#include <cstdlib>
#include <fstream>
#include <iostream>
#include <sstream>

#include <ptc/agent.hpp>
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

int run_agent(const ToolRegistry& registry, const AgentRequest& r, const Options& options, std::ostream& out,
              std::ostream& err) {
  const auto provider = agent::provider_from_name(r.provider);
  if (!provider) {
    err << "error: unknown provider '" << r.provider << "'; use openai, openai-responses, anthropic or gemini\n";
    return kUsage;
  }
  agent::AgentOptions agent_options;
  agent_options.settings.model = r.model.empty() ? env("PTC_MODEL") : r.model;
  if (agent_options.settings.model.empty()) {
    err << "error: give a model with --model or $PTC_MODEL\n";
    return kUsage;
  }
  if (r.max_turns < 1) {
    err << "error: --max-turns must be at least 1\n";
    return kUsage;
  }
  agent_options.limits.max_turns = static_cast<std::uint64_t>(r.max_turns);
  agent_options.stream = r.stream;
  std::optional<Schema> answer;
  if (!r.output.empty()) {
    auto signature = Signature::parse(r.output);
    if (!signature) {
      err << "error: --output: " << signature.error().to_string() << "\n";
      return kUsage;
    }
    answer = signature->output();
  }
  agent::ProviderOptions provider_options;
  provider_options.provider = *provider;
  provider_options.base_url = r.base_url;
  provider_options.api_key = env(agent::api_key_variable(*provider));
  if (provider_options.api_key.empty() && !(!r.base_url.empty() && agent::is_loopback_url(r.base_url))) {
    err << "error: set " << agent::api_key_variable(*provider)
        << " (no key is needed only for a --base-url on loopback)\n";
    return kUsage;
  }
  agent::Conversation history;
  if (!r.transcript.empty()) {
    std::ifstream in(r.transcript, std::ios::binary);
    if (in) {
      std::ostringstream text;
      text << in.rdbuf();
      auto read = agent::Conversation::from_json_lines(text.str());
      if (!read) {
        err << "error: " << r.transcript << ": " << read.error().to_string() << "\n";
        return kUsage;
      }
      history = std::move(*read);
    }
  }
  auto model = agent::make_model(std::move(provider_options));
  if (!model) {
    err << "error: " << model.error().message << "\n";
    return kUsage;
  }
  if (r.approve) {
    agent_options.approve = [&err](const ToolCall& call) -> agent::Approval {
      err << "run " << call.name << " " << brief(call.arguments) << "? [y/n/reason] " << std::flush;
      std::string line;
      if (!std::getline(std::cin, line)) return agent::Deny{"no answer from the user"};
      if (line == "y" || line == "Y" || line == "yes") return agent::Approve{};
      if (line.empty() || line == "n" || line == "N" || line == "no") return agent::Deny{"the user said no"};
      return agent::Deny{line};
    };
  }
  agent::Agent runner(**model, registry, std::move(agent_options));
  auto session = std::make_shared<Session>();
  if (options.prepare_session) options.prepare_session(*session);
  runner.use_session(session);
  // Streamed text ends its line before anything else is written to stderr.
  bool mid_line = false;
  auto end_line = [&] {
    if (mid_line) err << "\n";
    mid_line = false;
  };
  runner.subscribe([&](const agent::AgentEvent& event) {
    if (const auto* delta = std::get_if<agent::StreamEvent>(&event)) {
      if (delta->kind != agent::StreamEvent::Kind::text_delta || delta->text.empty()) return;
      err << delta->text << std::flush;
      mid_line = delta->text.back() != '\n';
    } else if (const auto* done = std::get_if<agent::ToolCallFinished>(&event)) {
      end_line();
      err << "> " << done->call.name << " " << brief(done->call.arguments) << " [" << status_name(done->status)
          << "]\n";
      for (const auto& w : done->warnings) err << "  warning: " << w << "\n";
    } else if (const auto* retry = std::get_if<agent::RetryNotice>(&event)) {
      end_line();
      err << "retry " << retry->attempt << " in " << retry->delay.count() << " ms: " << retry->reason << "\n";
    } else if (const auto* rejected = std::get_if<agent::AnswerRejected>(&event)) {
      end_line();
      err << "answer rejected (retry " << rejected->attempt << "):\n" << rejected->feedback << "\n";
    }
  });
  agent::RunResult result =
      answer ? runner.run(r.task, *answer, std::move(history)) : runner.run(r.task, std::move(history));
  if (!r.transcript.empty()) {
    std::ofstream file(r.transcript, std::ios::binary | std::ios::trunc);
    file << result.conversation.to_json_lines();
    if (!file) err << "error: cannot write " << r.transcript << "\n";
  }
  end_line();
  for (const auto& w : result.warnings) err << "warning: " << w << "\n";
  if (!result.ok()) {
    err << "error: " << result.error->message << "\n";
    return kFailed;
  }
  if (answer) {
    out << result.value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
  } else {
    out << result.text << "\n";
  }
  return 0;
}

}  // namespace ptc::cli::detail
