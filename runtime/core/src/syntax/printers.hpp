#pragma once
// Helpers shared by the shorthand and Malli printers.

#include <string>

#include <nlohmann/json_fwd.hpp>

#include <ptc/schema.hpp>

namespace ptc::print {

/// A JSON value written as EDN (null -> nil, objects with string keys).
std::string edn_value(const nlohmann::json& v);
/// A map key / parameter name as a Malli key: `:id`, or `"odd key"` when not a plain keyword.
std::string malli_key(const std::string& name);
/// `{:optional true :default 0 :doc "..."}` or "" when the entry has no options.
std::string malli_entry_options(const MapEntry& e, bool include_optional);

}  // namespace ptc::print
