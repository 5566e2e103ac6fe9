#include "json_keys.hpp"

#include <map>
#include <vector>

#include <ptc/json_input.hpp>

#include "text.hpp"

namespace ptc::commands {

using nlohmann::json;

std::string_view normalized_key(std::string_view key) { return key.starts_with(':') ? key.substr(1) : key; }

std::string at_path(std::string_view path, std::string_view rule) {
  return path.empty() ? std::string(rule) : std::string(path) + ": " + std::string(rule);
}

namespace {

std::string conflict(std::string_view path, std::string_view first, std::string_view second) {
  if (first == second) return at_path(path, "duplicate key " + text::quote(first));
  return at_path(path, "conflicting keys " + text::quote(first) + " and " + text::quote(second));
}

}  // namespace

std::optional<std::string> find_conflicting_keys(const json& value, std::string_view path) {
  if (value.is_array()) {
    for (std::size_t i = 0; i < value.size(); ++i)
      if (auto found = find_conflicting_keys(value[i], index_path(path, i))) return found;
    return std::nullopt;
  }
  if (!value.is_object()) return std::nullopt;
  std::map<std::string_view, std::string_view> seen;
  for (const auto& [key, _] : value.items()) {
    auto [it, fresh] = seen.emplace(normalized_key(key), key);
    if (!fresh) return conflict(path, it->second, key);
  }
  for (const auto& [key, member] : value.items())
    if (auto found = find_conflicting_keys(member, key_path(path, normalized_key(key)))) return found;
  return std::nullopt;
}

const json* find_key(const json& object, std::string_view key) {
  if (!object.is_object()) return nullptr;
  for (const auto& [k, v] : object.items())
    if (normalized_key(k) == key) return &v;
  return nullptr;
}

json with_normalized_keys(const json& value) {
  if (value.is_array()) {
    json out = json::array();
    for (const auto& item : value) out.push_back(with_normalized_keys(item));
    return out;
  }
  if (!value.is_object()) return value;
  json out = json::object();
  for (const auto& [key, member] : value.items()) out[std::string(normalized_key(key))] = with_normalized_keys(member);
  return out;
}

Result<json> parse_json_checking_keys(std::string_view text) {
  auto parsed = parse_json(text);  // refuses an exactly repeated key
  if (!parsed) return parsed;
  if (auto conflict = find_conflicting_keys(*parsed, "")) return Error{*conflict};
  return parsed;
}

std::optional<std::string> non_blank_string(const json* value) {
  if (!value || !value->is_string()) return std::nullopt;
  auto trimmed = text::trim(value->get_ref<const std::string&>());
  if (trimmed.empty()) return std::nullopt;
  return std::string(trimmed);
}

std::string json_type_name(const json& value) {
  switch (value.type()) {
    case json::value_t::null: return "null";
    case json::value_t::object: return "object";
    case json::value_t::array: return "list";
    case json::value_t::string: return "string";
    case json::value_t::boolean: return "boolean";
    case json::value_t::number_integer:
    case json::value_t::number_unsigned: return "integer";
    case json::value_t::number_float: return "float";
    default: return "binary";
  }
}

}  // namespace ptc::commands
