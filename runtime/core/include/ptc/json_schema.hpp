#pragma once
// JSON Schema 2020-12 renderings of schemas and signatures for LLM providers (docs/json-schema.md).

#include <optional>
#include <string_view>

#include <nlohmann/json.hpp>

#include <ptc/error.hpp>
#include <ptc/schema.hpp>
#include <ptc/signature.hpp>

namespace ptc {

enum class Profile {
  Portable,   ///< plain 2020-12; objects closed (additionalProperties:false)
  OpenAI,     ///< strict function calling: all properties required, optional = nullable, no maps
  Anthropic,  ///< tool input_schema: object root
  Gemini,     ///< OpenAPI-3.0-style subset: nullable instead of type arrays, no tuples/sets/maps
  Mcp,        ///< inputSchema and outputSchema with object roots; other results wrapped as {"result": ...};
              ///< firewalled result fields declared as the "<Firewalled>" placeholder
};

std::string_view profile_name(Profile p);
std::optional<Profile> profile_from_name(std::string_view name);

/// Property order follows declaration order, so the output uses ordered_json.
using OrderedJson = nlohmann::ordered_json;

struct SignatureSchemas {
  OrderedJson input;
  OrderedJson output;
};

/// One type. An error names the path of the construct the profile cannot express.
Result<OrderedJson> to_json_schema(const Schema& schema, Profile profile = Profile::Portable);
/// Tool arguments and result of a signature.
Result<SignatureSchemas> to_json_schemas(const Signature& signature, Profile profile = Profile::Portable);
/// The profile whose rules render a signature's result under `profile`. MCP's own: clients check
/// structuredContent against outputSchema. The chat providers only show the result to the model, so
/// theirs is rendered with the portable rules, and whatever those refuse the portable rendering refuses.
Profile result_rules(Profile profile);
/// Whether the mcp profile describes a result as {"result": R}: every result but a `{...}` map, because up
/// to MCP 2025-11-25 an outputSchema must describe an object. The reply writers wrap values by the same
/// rule (<ptc/mcp/wire.hpp>).
bool mcp_wraps_result(const Schema& output);
/// Whether `name` is a valid tool/function name for `profile`; the error says which rule it breaks.
std::optional<Error> check_tool_name(std::string_view name, Profile profile);

}  // namespace ptc
