#pragma once
// `PROGRAM agent ... TASK`: runs a model over the program's tools (docs/agent.md). Private to ptc::cli.

#include <iosfwd>
#include <string>

#include <CLI/CLI.hpp>

#include <ptc/cli.hpp>
#include <ptc/registry.hpp>

namespace ptc::cli::detail {

struct AgentRequest {
  std::string provider = "openai";
  std::string model;
  std::string base_url;
  int max_turns = 10;
  std::string output;  // a signature or a bare type; empty: free text
  std::string transcript;
  bool stream = false;
  bool approve = false;
  std::string task;
};

CLI::App* define_agent(CLI::App& app, AgentRequest& request);
/// Exit codes: 0 answered, 1 the run failed, 2 usage errors.
int run_agent(const ToolRegistry& registry, const AgentRequest& request, const Options& options, std::ostream& out,
              std::ostream& err);

}  // namespace ptc::cli::detail
