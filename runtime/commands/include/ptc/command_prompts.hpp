#pragma once
// Markdown commands served as MCP prompts: a host lists them with prompts/list and a user picks one
// from its menu; prompts/get renders the command's body with the arguments given, as run_command does.
//
//   ptc::add_command_prompts(*commands, registry);   // then serve `registry` with ptc::mcp::Server

#include <string>
#include <vector>

#include <ptc/command_registry.hpp>
#include <ptc/registry.hpp>

namespace ptc {

/// Adds a prompt to `registry` for every command of `commands` (sorted by name), named as the command,
/// described by its description, its arguments the command's params (required as `jido.schema` says,
/// coerced leniently: clients send strings), rendering its body with them as one user message. The
/// commands as they are now: a reload of `commands` later does not change the prompts. Returns what was
/// left out and why, one line each ("name: reason"): a name a prompt of `registry` has already, or one
/// a prompt cannot have (letters, digits, '_' and '-', at most 64).
std::vector<std::string> add_command_prompts(const CommandRegistry& commands, ToolRegistry& registry);

}  // namespace ptc
