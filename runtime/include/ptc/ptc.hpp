#pragma once
// Every component's public API: the union of their umbrella headers. Only ptc::runtime, which links
// every component, puts it on the include path; a program linking one component includes that
// component's header (<ptc/core.hpp>, <ptc/tools.hpp>, ...; docs/architecture.md lists them).

#include <ptc/agent.hpp>
#include <ptc/cli.hpp>
#include <ptc/codec.hpp>
#include <ptc/commands.hpp>
#include <ptc/core.hpp>
#include <ptc/mcp.hpp>
#include <ptc/tokens.hpp>
#include <ptc/tools.hpp>
