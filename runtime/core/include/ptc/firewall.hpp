#pragma once
// Hiding firewalled fields (`_name`) from LLM-facing renderings of values.

#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include <ptc/schema.hpp>

namespace ptc {

inline constexpr const char* kFirewalled = "<Firewalled>";

/// A copy of `value` in which every field the schema marks firewalled (name starting with `_`) is
/// replaced by the string "<Firewalled>", through nested maps, lists, maybes and unions. The original
/// stays untouched for C++ code. Not a security boundary: it saves context window, nothing more.
nlohmann::json firewall(const Schema& schema, const nlohmann::json& value);

/// The same for a value given as compact JSON text, in the form compact_text() and the typed encoders
/// write: `json` with each firewalled field's value replaced, without building a tree. For text in that
/// form it is compact_text(firewall(schema, value)). Nullopt for text with spaces, an escaped field name
/// or no JSON value, and when a union holding a firewalled field would have to be matched against the
/// value to know what to hide (firewall() does that). Other departures from that form (escapes in
/// strings, key order) are kept as they are.
std::optional<std::string> firewall_text(const Schema& schema, std::string_view json);

/// Whether any field of `schema`, at any depth (unions included), is firewalled.
bool has_firewalled_fields(const Schema& schema);

}  // namespace ptc
