#pragma once
// `jido.schema` of a command file as a ptc::Schema. Private to the runtime.

#include <nlohmann/json.hpp>

#include <ptc/error.hpp>
#include <ptc/schema.hpp>

namespace ptc::commands {

/// The params object for a `jido.schema` map (as parsed from YAML). Errors: `jido.schema.pr.type: ...`.
Result<Schema> params_schema(const nlohmann::ordered_json& fields);

}  // namespace ptc::commands
