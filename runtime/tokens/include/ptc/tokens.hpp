#pragma once
// ptc::tokens: OpenAI's byte-pair encodings, offline (Encoding), the texts ptc sends a model for each tool
// (tool_renderings.hpp), and what they cost (token_report.hpp). docs/tokens.md.

#include <ptc/encoding.hpp>
#include <ptc/token_report.hpp>
#include <ptc/tool_renderings.hpp>
