#pragma once
// Hiding firewalled fields (`_name`) from LLM-facing renderings of values.

#include <nlohmann/json.hpp>

#include <ptc/schema.hpp>

namespace ptc {

inline constexpr const char* kFirewalled = "<Firewalled>";

/// A copy of `value` in which every field the schema marks firewalled (name starting with `_`) is
/// replaced by the string "<Firewalled>", through nested maps, lists, maybes and unions. The original
/// stays untouched for C++ code. Not a security boundary: it saves context window, nothing more.
nlohmann::json firewall(const Schema& schema, const nlohmann::json& value);

}  // namespace ptc
