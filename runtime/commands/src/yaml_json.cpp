#include "yaml_json.hpp"

#include <cctype>
#include <charconv>
#include <cstdlib>
#include <limits>
#include <map>

#include <yaml-cpp/yaml.h>

#include "json_keys.hpp"

namespace ptc::commands {

using nlohmann::ordered_json;

namespace {

// Aliases let a few lines of YAML expand into an enormous tree; no command needs more than this.
constexpr std::size_t kMaxNodes = 100000;
constexpr std::size_t kMaxDepth = 128;

bool all_of(std::string_view s, std::string_view allowed) {
  return !s.empty() && s.find_first_not_of(allowed) == std::string_view::npos;
}

std::optional<ordered_json> integer(std::string_view s) {
  bool negative = false;
  std::string_view digits = s;
  if (!digits.empty() && (digits.front() == '-' || digits.front() == '+')) {
    negative = digits.front() == '-';
    digits.remove_prefix(1);
  }
  int base = 10;
  if (s.starts_with("0x") || s.starts_with("0o")) {
    base = s[1] == 'x' ? 16 : 8;
    digits = s.substr(2);
    if (!all_of(digits, base == 16 ? "0123456789abcdefABCDEF" : "01234567")) return std::nullopt;
  } else if (!all_of(digits, "0123456789")) {
    return std::nullopt;
  }
  std::uint64_t magnitude = 0;
  auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), magnitude, base);
  if (ec != std::errc{} || end != digits.data() + digits.size())
    return ordered_json(std::strtod(std::string(s).c_str(), nullptr));
  if (!negative) {
    if (magnitude <= static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()))
      return ordered_json(static_cast<std::int64_t>(magnitude));
    return ordered_json(magnitude);
  }
  if (magnitude <= static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()) + 1)
    return ordered_json(static_cast<std::int64_t>(0 - magnitude));
  return ordered_json(-static_cast<double>(magnitude));
}

std::optional<ordered_json> floating(std::string_view s) {
  std::string_view body = s;
  bool negative = false;
  if (!body.empty() && (body.front() == '-' || body.front() == '+')) {
    negative = body.front() == '-';
    body.remove_prefix(1);
  }
  if (body == ".inf" || body == ".Inf" || body == ".INF")
    return ordered_json(negative ? -std::numeric_limits<double>::infinity() : std::numeric_limits<double>::infinity());
  if (s == ".nan" || s == ".NaN" || s == ".NAN") return ordered_json(std::numeric_limits<double>::quiet_NaN());
  // [0-9]+(\.[0-9]*)? or \.[0-9]+, then an optional exponent.
  std::size_t i = 0, int_digits = 0, frac_digits = 0;
  while (i < body.size() && std::isdigit(static_cast<unsigned char>(body[i]))) ++i, ++int_digits;
  if (i < body.size() && body[i] == '.') {
    ++i;
    while (i < body.size() && std::isdigit(static_cast<unsigned char>(body[i]))) ++i, ++frac_digits;
  }
  if (int_digits == 0 && frac_digits == 0) return std::nullopt;
  if (i < body.size() && (body[i] == 'e' || body[i] == 'E')) {
    ++i;
    if (i < body.size() && (body[i] == '+' || body[i] == '-')) ++i;
    std::size_t exp_digits = 0;
    while (i < body.size() && std::isdigit(static_cast<unsigned char>(body[i]))) ++i, ++exp_digits;
    if (exp_digits == 0) return std::nullopt;
  }
  if (i != body.size()) return std::nullopt;
  return ordered_json(std::strtod(std::string(s).c_str(), nullptr));
}

std::optional<ordered_json> resolve_plain(const std::string& s) {
  if (s == "true" || s == "True" || s == "TRUE") return ordered_json(true);
  if (s == "false" || s == "False" || s == "FALSE") return ordered_json(false);
  if (auto i = integer(s)) return i;
  return floating(s);
}

class Converter {
 public:
  Result<ordered_json> convert(const YAML::Node& node, const std::string& path, std::size_t depth) {
    if (depth > kMaxDepth) return Error{"frontmatter nests deeper than " + std::to_string(kMaxDepth) + " levels"};
    if (++nodes_ > kMaxNodes)
      return Error{"frontmatter has more than " + std::to_string(kMaxNodes) + " values once YAML aliases are expanded"};
    switch (node.Type()) {
      case YAML::NodeType::Null:
      case YAML::NodeType::Undefined: return ordered_json(nullptr);
      case YAML::NodeType::Scalar: return scalar(node, path);
      case YAML::NodeType::Sequence: {
        ordered_json out = ordered_json::array();
        std::size_t i = 0;
        for (const auto& item : node) {
          auto v = convert(item, index_path(path, i++), depth + 1);
          if (!v) return v;
          out.push_back(std::move(*v));
        }
        return out;
      }
      case YAML::NodeType::Map: {
        ordered_json out = ordered_json::object();
        std::map<std::string, std::string> seen;  // key text -> as written
        for (auto it = node.begin(); it != node.end(); ++it) {
          std::string key = key_text(it->first);
          std::string written = as_written(it->first);
          auto [prior, fresh] = seen.emplace(key, written);
          if (!fresh) {
            if (prior->second == written) return Error{at_path(path, "duplicate key " + written)};
            return Error{at_path(path, "conflicting keys " + prior->second + " and " + written)};
          }
          auto v = convert(it->second, key_path(path, key), depth + 1);
          if (!v) return v;
          out[key] = std::move(*v);
        }
        return out;
      }
    }
    return ordered_json(nullptr);
  }

 private:
  static Result<ordered_json> scalar(const YAML::Node& node, const std::string& path) {
    const std::string& s = node.Scalar();
    const std::string& tag = node.Tag();
    if (tag == "?") {
      if (auto v = resolve_plain(s)) return *v;
      return ordered_json(s);
    }
    if (tag == "tag:yaml.org,2002:int" || tag == "tag:yaml.org,2002:float" || tag == "tag:yaml.org,2002:bool") {
      auto v = resolve_plain(s);
      if (!v) return Error{at_path(path, "'" + s + "' is not a value of tag " + tag)};
      return *v;
    }
    return ordered_json(s);
  }

  static std::string key_text(const YAML::Node& key) {
    if (key.IsScalar()) return key.Scalar();
    if (key.IsNull()) return "null";
    YAML::Emitter flow;
    flow << YAML::Flow << key;
    return flow.c_str();
  }

  // How a key appears in messages: quoted when the YAML quoted it, so `1` and `"1"` differ.
  static std::string as_written(const YAML::Node& key) {
    if (key.IsScalar() && key.Tag() != "?") return "\"" + key.Scalar() + "\"";
    return key_text(key);
  }

  std::size_t nodes_ = 0;
};

}  // namespace

Result<ordered_json> parse_yaml(std::string_view text) {
  YAML::Node root;
  try {
    root = YAML::Load(std::string(text));
  } catch (const YAML::Exception& e) {
    return Error{"invalid YAML: " + e.msg, static_cast<std::size_t>(e.mark.line + 1),
                 static_cast<std::size_t>(e.mark.column + 1)};
  }
  return Converter{}.convert(root, "", 0);
}

}  // namespace ptc::commands
