#include "command_schema.hpp"

#include <algorithm>
#include <cctype>
#include <set>

#include <ptc/validate.hpp>

#include "text.hpp"
#include "json_keys.hpp"

namespace ptc::commands {

using nlohmann::json;
using nlohmann::ordered_json;

namespace {

constexpr std::string_view kTypes = "string, integer, float, boolean, map, atom, list";

// ^[a-z][a-zA-Z0-9_]*$: field names, and the names atom defaults may hold.
bool lower_identifier(std::string_view s) {
  if (s.empty() || !(s.front() >= 'a' && s.front() <= 'z')) return false;
  return std::all_of(s.begin(), s.end(),
                     [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; });
}

std::optional<Schema> type_schema(std::string_view type) {
  if (type == "string") return Schema::string();
  if (type == "integer") return Schema::integer();
  if (type == "float") return Schema::number();
  if (type == "boolean") return Schema::boolean();
  if (type == "map") return Schema::any_map();
  if (type == "atom") return Schema::keyword();
  if (type == "list") return Schema::vector(Schema::any());
  return std::nullopt;
}

Result<MapEntry> field(std::string_view name, const ordered_json& spec, const std::string& path) {
  if (!lower_identifier(name)) return Error{at_path(path, "field names must match ^[a-z][a-zA-Z0-9_]*$")};
  if (!spec.is_object()) return Error{at_path(path, "must be a map of options (type, required, doc, default)")};
  for (const auto& [key, _] : spec.items())
    if (key != "type" && key != "required" && key != "doc" && key != "default")
      return Error{at_path(key_path(path, key), "unknown option; expected type, required, doc or default")};

  std::string type = "string";
  if (spec.contains("type")) {
    const auto& t = spec["type"];
    if (t.is_string()) {
      type = text::ascii_lower(t.get_ref<const std::string&>());
    }
    if (!t.is_string() || !type_schema(type))
      return Error{at_path(key_path(path, "type"), "must be one of " + std::string(kTypes))};
  }
  bool required = false;
  if (spec.contains("required")) {
    if (!spec["required"].is_boolean()) return Error{at_path(key_path(path, "required"), "must be true or false")};
    required = spec["required"].get<bool>();
  }
  MapEntry entry(std::string(name), *type_schema(type), !required);
  if (spec.contains("doc")) {
    if (!spec["doc"].is_string()) return Error{at_path(key_path(path, "doc"), "must be a string")};
    entry.doc = std::string(text::trim(spec["doc"].get_ref<const std::string&>()));
  }
  if (spec.contains("default")) {
    if (required) return Error{at_path(path, "a required field cannot have a default")};
    std::string dpath = key_path(path, "default");
    json value(spec["default"]);
    if (type == "atom") {
      std::string_view atom = value.is_string() ? text::trim(value.get_ref<const std::string&>()) : std::string_view{};
      if (atom.starts_with(':')) atom.remove_prefix(1);
      if (!lower_identifier(atom)) return Error{at_path(dpath, "must be an atom name matching ^[a-z][a-zA-Z0-9_]*$")};
      value = std::string(atom);
    } else {
      auto check = validate(entry.schema, value, {Direction::Output, Mode::Strict});
      if (!check.ok) return Error{at_path(dpath, "does not match type " + type + ": " + check.errors.front().message)};
    }
    entry.with_default(std::move(value));
  }
  return entry;
}

}  // namespace

Result<Schema> params_schema(const ordered_json& fields) {
  const std::string path = "jido.schema";
  if (!fields.is_object()) return Error{at_path(path, "must be a map of fields")};
  std::vector<MapEntry> entries;
  std::set<std::string, std::less<>> names;  // a search of `entries` per field would be quadratic
  for (const auto& [raw, spec] : fields.items()) {
    std::string name(text::trim(raw));
    auto entry = field(name, spec, key_path(path, raw));
    if (!entry) return entry.error();
    if (!names.insert(name).second) return Error{at_path(key_path(path, raw), "field " + name + " is declared twice")};
    entries.push_back(std::move(*entry));
  }
  return Schema::map(std::move(entries));
}

}  // namespace ptc::commands
