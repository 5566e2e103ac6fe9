// Schema -> JSON Schema 2020-12, with the restrictions of each provider profile.

#include <ptc/json_schema.hpp>

#include <ptc/firewall.hpp>

#include <cmath>
#include <cstdint>
#include <variant>

#include <re2/re2.h>

#include "ecma_regex.hpp"
#include "text.hpp"

namespace ptc {
namespace {

using J = OrderedJson;

constexpr std::string_view kDialect = "https://json-schema.org/draft/2020-12/schema";

void add_members(J::object_t&) {}
template <class V, class... Rest>
void add_members(J::object_t& members, const char* key, V&& value, Rest&&... rest) {
  members.emplace_back(key, std::forward<V>(value));
  add_members(members, std::forward<Rest>(rest)...);
}

/// The object with these keys and values, in this order: object("type", "array", "items", item).
/// nlohmann's brace form builds each member as a two-element array and copies it into the object,
/// which made most of a schema's allocations; documents are rendered per tool and per profile. Room is
/// left for the keywords added later (required, additionalProperties, description, default), so that
/// adding them does not move the members.
template <class... KeysAndValues>
J object(KeysAndValues&&... keys_and_values) {
  J out = J::object();
  auto& members = out.get_ref<J::object_t&>();
  members.reserve(sizeof...(keys_and_values) / 2 + 4);
  add_members(members, std::forward<KeysAndValues>(keys_and_values)...);
  return out;
}

// Portable roots name their dialect first; provider profiles want the bare object.
J with_dialect(J schema) {
  J rooted = object("$schema", kDialect);
  for (auto& [k, v] : schema.items()) rooted[k] = std::move(v);
  return rooted;
}

class Emitter {
 public:
  /// `shows_firewall`: the schema describes values as the model sees them (MCP structuredContent), in
  /// which firewalled fields hold the firewall's placeholder.
  explicit Emitter(Profile p, bool shows_firewall = false) : p_(p), shows_firewall_(shows_firewall) {}

  Result<J> emit(const Schema& s, const std::string& path) {
    switch (s.kind()) {
      case Kind::String:
      case Kind::Keyword: {
        J out = object("type", "string");
        // Gemini knows "date-time" but no "date"; the text is still a string, described by its field.
        if (!s.format().empty() && !(p_ == Profile::Gemini && s.format() == "date")) out["format"] = s.format();
        return out;
      }
      case Kind::Int: return object("type", "integer");
      case Kind::Float: return object("type", "number");
      case Kind::Bool: return object("type", "boolean");
      case Kind::Nil:
        if (p_ == Profile::Gemini) return unsupported(path, ":nil on its own (use T? for a nullable value)");
        return object("type", "null");
      case Kind::Any:
        if (p_ == Profile::OpenAI || p_ == Profile::Gemini) return unsupported(path, ":any (every value needs a type)");
        return J::object();
      case Kind::Vector:
      case Kind::Sequential:
      case Kind::Set: return array(s, path);
      case Kind::Tuple: return tuple(s, path);
      case Kind::Map: return map(s, path);
      case Kind::MapOf: return map_of(s, path);
      case Kind::Enum: return enumeration(s, path);
      case Kind::Or: return any_of(s, path);
      case Kind::Maybe: {
        auto inner = emit(s.item(), path);
        if (!inner) return inner;
        return nullable(std::move(inner).value());
      }
      case Kind::And: return all_of(s, path);
      case Kind::Refinement: return unsupported(path, "a refinement outside [:and ...]");
    }
    return unsupported(path, "this schema");
  }

  Result<J> array(const Schema& s, const std::string& path) {
    if (s.kind() == Kind::Set && (p_ == Profile::OpenAI || p_ == Profile::Gemini))
      return unsupported(path, "[:set T] (uniqueItems)");
    auto item = emit(s.item(), path + "[]");
    if (!item) return item;
    J out = object("type", "array", "items", std::move(item).value());
    if (s.kind() == Kind::Set) out["uniqueItems"] = true;
    if (auto n = s.length()) {
      out["minItems"] = *n;
      out["maxItems"] = *n;
    }
    return out;
  }

  Result<J> tuple(const Schema& s, const std::string& path) {
    if (p_ == Profile::OpenAI || p_ == Profile::Gemini) return unsupported(path, "[:tuple ...] (prefixItems)");
    J items = J::array();
    for (std::size_t i = 0; i < s.children().size(); ++i) {
      auto item = emit(s.children()[i], path + "[" + std::to_string(i) + "]");
      if (!item) return item;
      items.push_back(std::move(item).value());
    }
    auto n = s.children().size();
    return object("type", "array", "prefixItems", std::move(items), "items", false, "minItems", n, "maxItems", n);
  }

  Result<J> map_of(const Schema& s, const std::string& path) {
    if (p_ == Profile::OpenAI || p_ == Profile::Gemini)
      return unsupported(path, "a map with dynamic keys (:map / [:map-of K V]); use a map with named fields");
    auto value = emit(s.value(), path + "[*]");
    if (!value) return value;
    J out = object("type", "object", "additionalProperties", std::move(value).value());
    if (s.key().kind() != Kind::String && s.key().kind() != Kind::Keyword) {
      auto key = emit(s.key(), path + "{key}");
      if (!key) return key;
      out["propertyNames"] = std::move(key).value();
    }
    return out;
  }

  Result<J> enumeration(const Schema& s, const std::string& path) const {
    bool strings = true;
    for (const auto& v : s.values()) strings &= v.is_string();
    if (!strings && p_ == Profile::Gemini) return unsupported(path, "non-string :enum values");
    J values = J::array();
    for (const auto& v : s.values()) values.push_back(J(v));
    J out = J::object();
    if (strings) out["type"] = "string";
    out["enum"] = std::move(values);
    return out;
  }

  Result<J> any_of(const Schema& s, const std::string& path) {
    J alts = J::array();
    for (std::size_t i = 0; i < s.children().size(); ++i) {
      auto alt = emit(s.children()[i], path);
      if (!alt) return alt;
      alts.push_back(std::move(alt).value());
    }
    return object("anyOf", std::move(alts));
  }

  Result<J> map(const Schema& s, const std::string& path) {
    J props = J::object();
    // Field names are unique (Schema::map checks): appended without ordered_json's linear key search,
    // which made a struct with many fields quadratic.
    auto& members = props.get_ref<J::object_t&>();
    J required = J::array();
    for (const auto& e : s.entries()) {
      std::string where = path.empty() ? e.name : path + "." + e.name;
      if (auto bad = check_property(e.name, where)) return *bad;
      bool may_be_absent = e.optional || e.default_value;
      if (shows_firewall_ && e.firewalled()) {
        // firewall() puts the placeholder in place of whatever the field held, null included.
        J hidden = object("type", "string", "const", kFirewalled);
        if (!e.doc.empty()) hidden["description"] = e.doc;
        members.emplace_back(e.name, std::move(hidden));
        if (!may_be_absent) required.push_back(e.name);
        continue;
      }
      auto prop = emit(e.schema, where);
      if (!prop) return prop;
      J schema = std::move(prop).value();
      // The validator accepts null for an optional or defaulted field (and fills the default), so the
      // schema says so too; openai needs it anyway, as every property is required there.
      if (may_be_absent && accepts_null_only_via_entry(e.schema)) schema = nullable(std::move(schema));
      std::string doc = e.doc;
      if (e.default_value) {
        if (p_ == Profile::OpenAI) {
          // Strict mode has no "default": the field is sent as null and the runtime fills the default.
          if (!doc.empty()) doc += doc.back() == '.' ? " " : ". ";
          doc += "Default: " + e.default_value->dump() + ".";
        } else {
          schema["default"] = J(*e.default_value);
        }
      }
      if (!doc.empty()) schema["description"] = doc;
      members.emplace_back(e.name, std::move(schema));
      if (!may_be_absent || p_ == Profile::OpenAI) required.push_back(e.name);
    }
    J out = object("type", "object", "properties", std::move(props));
    if (!required.empty() || p_ == Profile::OpenAI) out["required"] = std::move(required);
    if (p_ != Profile::Gemini) out["additionalProperties"] = false;
    return out;
  }

  /// Whether `schema` is exactly {"type": <type>}.
  static bool is_type(const J& schema, const char* type) {
    if (!schema.is_object() || schema.size() != 1) return false;
    const auto& [key, value] = *schema.get_ref<const J::object_t&>().begin();
    return key == "type" && value.is_string() && value.get_ref<const std::string&>() == type;
  }

  static bool accepts_null_only_via_entry(const Schema& s) {
    return s.kind() != Kind::Maybe && s.kind() != Kind::Nil && s.kind() != Kind::Any;
  }

  J nullable(J inner) const {
    if (is_type(inner, "null")) return inner;
    if (p_ == Profile::Gemini) {
      inner["nullable"] = true;
      return inner;
    }
    // OpenAI documents strict mode's nullable fields as a type array. Everywhere else one form for every
    // nullable value: clients that map schemas onto a one-type dialect drop or refuse type arrays, and
    // the MCP Inspector's portability check warns on them (docs/json-schema.md).
    if (p_ == Profile::OpenAI && inner.size() == 1 && inner.contains("type") && inner["type"].is_string())
      return object("type", J::array({inner["type"], "null"}));
    return object("anyOf", J::array({std::move(inner), object("type", "null")}));
  }

  // Refinements merge into the base type's keywords ({"type":"integer","minimum":1}); anything that
  // does not merge cleanly goes into allOf.
  Result<J> all_of(const Schema& s, const std::string& path) {
    auto base = emit(s.children().front(), path);
    if (!base) return base;
    J out = std::move(base).value();
    J extra = J::array();
    bool integral = s.children().front().kind() == Kind::Int;
    for (std::size_t i = 1; i < s.children().size(); ++i) {
      const Schema& c = s.children()[i];
      std::string keyword;
      J value;
      if (c.kind() == Kind::Refinement && c.op() == Refine::Re) {
        // JSON Schema patterns are ECMA-262; ours are RE2.
        auto ecma = detail::ecma_pattern(c.bound().get_ref<const std::string&>());
        if (auto* refused = std::get_if<detail::PatternRefusal>(&ecma))
          return unsupported(path, "[:re " + text::quote(c.bound().get_ref<const std::string&>()) +
                                       "] as an ECMA-262 pattern (" + refused->reason + ")");
        value = std::get<std::string>(std::move(ecma));
        keyword = "pattern";
      } else if (c.kind() == Kind::Refinement) {
        value = J(c.bound());
        switch (c.op()) {
          case Refine::Gt: keyword = "exclusiveMinimum"; break;
          case Refine::Lt: keyword = "exclusiveMaximum"; break;
          case Refine::Ge: keyword = "minimum"; break;
          case Refine::Le: keyword = "maximum"; break;
          case Refine::Re: keyword = "pattern"; break;
        }
        if (p_ == Profile::Gemini && (c.op() == Refine::Gt || c.op() == Refine::Lt)) {
          // Gemini has no exclusive bounds; for integers, > b is exactly >= floor(b)+1.
          if (!integral) return unsupported(path, "an exclusive bound ([:> n] / [:< n]) on a float");
          bool gt = c.op() == Refine::Gt;
          double b = c.bound().get<double>();
          double inclusive = gt ? std::floor(b) + 1 : std::ceil(b) - 1;
          if (c.bound().is_number_integer()) {
            auto n = c.bound().get<std::int64_t>();
            if (n == (gt ? INT64_MAX : INT64_MIN))
              return unsupported(path, "an exclusive bound at the end of the int64 range");
            value = gt ? n + 1 : n - 1;
          } else if (inclusive > -9223372036854775808.0 && inclusive < 9223372036854775808.0) {
            value = static_cast<std::int64_t>(inclusive);
          } else {
            return unsupported(path, "an exclusive bound beyond the int64 range");
          }
          keyword = gt ? "minimum" : "maximum";
        }
      }
      if (c.kind() == Kind::Refinement) {
        if (!out.contains(keyword)) {
          out[keyword] = std::move(value);
          continue;
        }
        J one = J::object();
        one[keyword] = std::move(value);
        extra.push_back(std::move(one));
      } else {
        auto part = emit(c, path);
        if (!part) return part;
        extra.push_back(std::move(part).value());
      }
    }
    if (extra.empty()) return out;
    if (p_ == Profile::OpenAI || p_ == Profile::Gemini) return unsupported(path, "[:and ...] that needs allOf");
    extra.insert(extra.begin(), std::move(out));
    return object("allOf", std::move(extra));
  }

  std::optional<Error> check_property(const std::string& name, const std::string& where) const {
    if (p_ == Profile::Portable || p_ == Profile::Mcp) return std::nullopt;
    static const re2::RE2 rule("^[a-zA-Z0-9_.-]{1,64}$");
    if (re2::RE2::FullMatch(name, rule)) return std::nullopt;
    return Error{std::string(profile_name(p_)) + ": property name at " + where + " must match ^[a-zA-Z0-9_.-]{1,64}$"};
  }

  Error unsupported(const std::string& path, std::string_view what) const {
    return Error{std::string(profile_name(p_)) + " cannot express " + std::string(what) + " at " +
                 (path.empty() ? "(root)" : path)};
  }

 private:
  Profile p_;
  bool shows_firewall_ = false;
};

}  // namespace

std::string_view profile_name(Profile p) {
  switch (p) {
    case Profile::Portable: return "portable";
    case Profile::OpenAI: return "openai";
    case Profile::Anthropic: return "anthropic";
    case Profile::Gemini: return "gemini";
    case Profile::Mcp: return "mcp";
  }
  return "portable";
}

std::optional<Profile> profile_from_name(std::string_view name) {
  for (Profile p : {Profile::Portable, Profile::OpenAI, Profile::Anthropic, Profile::Gemini, Profile::Mcp})
    if (profile_name(p) == name) return p;
  return std::nullopt;
}

Result<OrderedJson> to_json_schema(const Schema& schema, Profile profile) {
  auto out = Emitter(profile).emit(schema, "");
  if (!out) return out;
  if (profile != Profile::Portable) return out;
  return with_dialect(std::move(out).value());
}

Profile result_rules(Profile profile) { return profile == Profile::Mcp ? Profile::Mcp : Profile::Portable; }

bool mcp_wraps_result(const Schema& output) { return output.kind() != Kind::Map; }

Result<SignatureSchemas> to_json_schemas(const Signature& signature, Profile profile) {
  Emitter emitter(profile);
  auto input = emitter.map(signature.input(), "");
  if (!input) return input.error();
  Emitter out_emitter(result_rules(profile), profile == Profile::Mcp);
  Result<J> output = out_emitter.emit(signature.output(), "output");
  if (!output) return output.error();
  J out = std::move(output).value();
  if (profile == Profile::Mcp && mcp_wraps_result(signature.output())) {
    // MCP's outputSchema must describe an object: other results travel as {"result": ...}.
    out = object("type", "object", "properties", object("result", std::move(out)), "required", J::array({"result"}),
                 "additionalProperties", false);
  }
  J in = std::move(input).value();
  if (profile == Profile::Portable) {
    in = with_dialect(std::move(in));
    out = with_dialect(std::move(out));
  }
  return SignatureSchemas{std::move(in), std::move(out)};
}

std::optional<Error> check_tool_name(std::string_view name, Profile profile) {
  static const re2::RE2 common("^[a-zA-Z0-9_-]{1,64}$");
  static const re2::RE2 gemini("^[a-zA-Z_][a-zA-Z0-9_.-]{0,63}$");
  static const re2::RE2 mcp("^[a-zA-Z0-9_.-]{1,128}$");
  const re2::RE2* rule = profile == Profile::Gemini ? &gemini : profile == Profile::Mcp ? &mcp : &common;
  if (re2::RE2::FullMatch(re2::StringPiece(name.data(), name.size()), *rule)) return std::nullopt;
  return Error{std::string(profile_name(profile)) + ": tool name " + text::quote(text::excerpt(name, 80)) +
               " must match " + rule->pattern()};
}

}  // namespace ptc
