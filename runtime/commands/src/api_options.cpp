#include "api_options.hpp"

#include <vector>

#include "text.hpp"
#include "json_keys.hpp"

namespace ptc::commands {

using nlohmann::json;

Result<ApiOptions> read_options(const json& options, std::initializer_list<std::string_view> allowed,
                                std::string_view operation) {
  std::string prefix = "invalid " + std::string(operation) + " options: ";
  if (!options.is_object()) return Error{prefix + "must be an object, got " + json_type_name(options)};
  if (auto conflict = find_conflicting_keys(options, "")) return Error{prefix + *conflict};
  ApiOptions out;
  for (const auto& [key, value] : options.items()) {
    auto name = normalized_key(key);
    bool known = false;
    for (auto a : allowed) known = known || a == name;
    if (!known) {
      std::vector<std::string_view> names(allowed);
      std::string expected(names.front());
      for (std::size_t i = 1; i < names.size(); ++i)
        expected += (i + 1 == names.size() ? " or " : ", ") + std::string(names[i]);
      return Error{prefix + "unknown key " + text::quote(key) + "; expected " + expected};
    }
    if (name == "bus") out.bus = &value;
    if (name == "registry") out.registry = &value;
    if (name == "invocation_id") out.invocation_id = &value;
    if (name == "permissions") out.permissions = &value;
  }
  return out;
}

std::optional<std::string> check_reference(const json& value, std::string_view expected, std::string_view what,
                                           std::string_view where) {
  auto name = non_blank_string(&value);
  if (name && name->starts_with(':')) name = name->substr(1);
  if (!name || name->empty()) return at_path(where, "must name a " + std::string(what) + " (a non-empty string)");
  if (*name != expected)
    return at_path(where, "unknown " + std::string(what) + " '" + *name + "'; this runtime's is '" +
                              std::string(expected) + "'");
  return std::nullopt;
}

Result<Permissions> permissions_from_json(const json& value, const std::string& path) {
  if (!value.is_object()) return Error{at_path(path, "must be an object with allow, deny and ask lists")};
  if (auto conflict = find_conflicting_keys(value, path)) return Error{*conflict};
  Permissions out;
  for (const auto& [key, bucket] : value.items()) {
    auto name = normalized_key(key);
    std::string where = key_path(path, name);
    std::vector<std::string>* slot = name == "allow"  ? &out.allow
                                     : name == "deny" ? &out.deny
                                     : name == "ask"  ? &out.ask
                                                      : nullptr;
    if (!slot) return Error{at_path(key_path(path, key), "unknown key; expected allow, deny or ask")};
    // Present means checked: `false` and `null` are not "no list".
    if (!bucket.is_array()) return Error{at_path(where, "must be a list of strings, got " + json_type_name(bucket))};
    std::vector<std::string> entries;
    for (std::size_t i = 0; i < bucket.size(); ++i) {
      if (!bucket[i].is_string()) return Error{at_path(index_path(where, i), "must be a string")};
      entries.push_back(bucket[i].get<std::string>());
    }
    *slot = normalize_permission_list(entries);
  }
  return out;
}

}  // namespace ptc::commands
