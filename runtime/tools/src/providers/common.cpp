// The field readers and helpers the provider files share (common.hpp).

#include "common.hpp"

#include <ptc/coercion.hpp>
#include <ptc/json_text.hpp>

#include "text.hpp"

namespace ptc::providers {

using coercion::key_path;

Error at(const std::string& path, std::string_view message) {
  return Error{(path.empty() ? std::string(coercion::kRootPath) : path) + ": " + std::string(message)};
}

std::string shown(const json& v) { return text::excerpt(compact_text(v), 60); }

std::optional<Error> expect_object(const json& v, const std::string& path) {
  if (v.is_object()) return std::nullopt;
  return at(path, "expected an object");
}

Result<std::string> required_string(const json& obj, const std::string& path, std::string_view key) {
  auto it = obj.find(key);
  if (it == obj.end()) return at(key_path(path, key), "missing required field");
  if (!it->is_string()) return at(key_path(path, key), "expected a string");
  return it->get<std::string>();
}

// Names select the tool: an empty one can only be a provider bug, and dispatch would report it as an
// unknown tool called "", which helps nobody.
Result<std::string> required_name(const json& obj, const std::string& path) {
  auto name = required_string(obj, path, "name");
  if (name && name->empty()) return at(key_path(path, "name"), "must not be empty");
  return name;
}

std::optional<Error> expect_type(const json& obj, const std::string& path, std::string_view want) {
  auto it = obj.find("type");
  if (it == obj.end() || (it->is_string() && it->get_ref<const std::string&>() == want)) return std::nullopt;
  return at(key_path(path, "type"), "expected \"" + std::string(want) + "\", got " + shown(*it));
}

OrderedJson named(const Tool& tool) {
  OrderedJson out = OrderedJson::object();
  out["name"] = tool.name();
  out["description"] = tool.description();
  return out;
}

}  // namespace ptc::providers
