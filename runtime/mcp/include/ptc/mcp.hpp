#pragma once
// ptc::mcp's public API in one include: the MCP server and MCP's wire shapes.

#include <ptc/mcp/server.hpp>
#include <ptc/mcp/wire.hpp>
