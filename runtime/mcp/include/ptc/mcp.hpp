#pragma once
// ptc::mcp's public API in one include: the MCP server, its HTTP authorization and MCP's wire shapes.

#include <ptc/mcp/auth.hpp>
#include <ptc/mcp/server.hpp>
#include <ptc/mcp/wire.hpp>
