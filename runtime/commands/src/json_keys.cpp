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

namespace {

// Builds the DOM as nlohmann's own SAX parser does, and keeps the keys of each open object so that a
// repeated key is an error instead of a silent overwrite.
class CheckingBuilder {
 public:
  explicit CheckingBuilder(json& root) : root_(root) {}

  bool null() { return put(nullptr); }
  bool boolean(bool v) { return put(v); }
  bool number_integer(json::number_integer_t v) { return put(v); }
  bool number_unsigned(json::number_unsigned_t v) { return put(v); }
  bool number_float(json::number_float_t v, const std::string&) { return put(v); }
  bool string(std::string& v) { return put(std::move(v)); }
  bool binary(json::binary_t& v) { return put(json::binary(std::move(v))); }
  bool start_object(std::size_t) { return open(json::object()); }
  bool start_array(std::size_t) { return open(json::array()); }
  bool end_object() { return close(); }
  bool end_array() { return close(); }

  bool key(std::string& k) {
    Frame& top = frames_.back();
    auto [it, fresh] = top.keys.emplace(std::string(normalized_key(k)), k);
    if (!fresh) {
      error = conflict(path(), it->second, k);
      return false;
    }
    top.key = k;
    return true;
  }

  bool parse_error(std::size_t position, const std::string&, const nlohmann::detail::exception& e) {
    std::string what = e.what();
    auto colon = what.find(": ");
    parse_failure = {position == 0 ? 0 : position - 1, colon == std::string::npos ? what : what.substr(colon + 2)};
    return false;
  }

  std::optional<std::string> error;
  std::optional<std::pair<std::size_t, std::string>> parse_failure;
  bool too_deep = false;

 private:
  struct Frame {
    json* value;
    std::map<std::string, std::string> keys;  // normalized -> as written
    std::string key;
    std::size_t index = 0;
  };

  json* slot(json v) {
    if (frames_.empty()) {
      root_ = std::move(v);
      return &root_;
    }
    Frame& top = frames_.back();
    if (top.value->is_array()) {
      top.value->push_back(std::move(v));
      ++top.index;
      return &top.value->back();
    }
    auto& member = (*top.value)[top.key];
    member = std::move(v);
    return &member;
  }

  bool put(json v) {
    slot(std::move(v));
    return true;
  }

  bool open(json container) {
    if (frames_.size() >= kMaxJsonDepth) {
      too_deep = true;
      return false;
    }
    json* at = slot(std::move(container));
    frames_.push_back({at, {}, {}, 0});
    return true;
  }

  bool close() {
    frames_.pop_back();
    return true;
  }

  // Where the parser is: the innermost open object's pending key, or the array's next index.
  std::string path() const {
    std::string out;
    for (std::size_t i = 0; i < frames_.size(); ++i) {
      const Frame& f = frames_[i];
      bool last = i + 1 == frames_.size();
      if (last) break;
      out = f.value->is_array() ? index_path(out, f.index - 1) : key_path(out, f.key);
    }
    return out;
  }

  json& root_;
  std::vector<Frame> frames_;
};

}  // namespace

Result<json> parse_json_checking_keys(std::string_view text) {
  json root;
  CheckingBuilder builder(root);
  bool ok = false;
  try {
    ok = json::sax_parse(text.begin(), text.end(), &builder);
  } catch (const json::exception& e) {
    std::string what = e.what();
    auto close = what.find("] ");
    return Error{"invalid JSON: " + (close == std::string::npos ? what : what.substr(close + 2))};
  }
  if (ok) return root;
  if (builder.error) return Error{*builder.error};
  if (builder.too_deep) return Error{"invalid JSON: nesting deeper than " + std::to_string(kMaxJsonDepth) + " levels"};
  if (builder.parse_failure)
    return text::error_at(text, builder.parse_failure->first, "invalid JSON: " + builder.parse_failure->second);
  return Error{"invalid JSON"};
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
