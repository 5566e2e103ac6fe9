#pragma once
// ptc::mcp's public API in one include: the MCP server.

#include <ptc/mcp/server.hpp>
