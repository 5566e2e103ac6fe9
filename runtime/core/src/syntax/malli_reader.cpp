#include "malli_reader.hpp"

#include <set>

#include <nlohmann/json.hpp>

#include <ptc/validate.hpp>

#include "text.hpp"

namespace ptc::malli {
namespace {

using edn::Value;
using T = Value::Type;

constexpr std::string_view kValidTypes =
    ":string :int :double :boolean :keyword :any :nil :map, or a vector form [:vector T] [:sequential T] "
    "[:set T] [:map [k T] ...] [:map-of K V] [:tuple T ...] [:enum v ...] [:or T ...] [:and T ...] "
    "[:maybe T] [:> n] [:< n] [:>= n] [:<= n] [:re \"pattern\"]";

class Converter {
 public:
  explicit Converter(std::string_view src) : src_(src) {}

  Error err(const Value& at, std::string message) const { return text::error_at(src_, at.offset, std::move(message)); }

  Result<Schema> schema(const Value& v, bool refinement_allowed = false) {
    auto s = form(v, refinement_allowed);
    if (s && s->depth() > kMaxSchemaDepth)
      return err(v, "types nest deeper than " + std::to_string(kMaxSchemaDepth) + " levels");
    return s;
  }

  Result<Schema> form(const Value& v, bool refinement_allowed) {
    if (v.type == T::Keyword) return primitive(v);
    if (v.type != T::Vector)
      return err(v, "expected a schema (a type keyword or a vector form), got " + edn::describe(v) +
                        "; valid schemas are " + std::string(kValidTypes));
    if (v.items.empty()) return err(v, "empty schema form []; expected [:op ...]");
    const Value& head = v.items[0];
    if (head.type != T::Keyword) return err(head, "expected a schema operator keyword, got " + edn::describe(head));
    const std::string& op = head.text;
    if (op == "string" && v.items.size() == 2 && v.items[1].type == T::Map) return string_format(v.items[1]);
    if (op == "vector" && v.items.size() == 3 && v.items[1].type == T::Map) return fixed_vector(v);
    if (v.items.size() > 1 && v.items[1].type == T::Map)
      return err(v.items[1], "schema properties are not supported on [:" + op + " ...]");
    return operation(v, op, v.items.size() - 1, refinement_allowed);
  }

  Result<Signature> signature(const Value& v) {
    if (v.type == T::Vector && !v.items.empty() && v.items[0].type == T::Keyword && v.items[0].text == "=>") {
      if (v.items.size() != 3) return err(v, "[:=> [:cat ...] R] takes a parameter list and a result schema");
      const Value& cat = v.items[1];
      if (cat.type != T::Vector || cat.items.empty() || cat.items[0].type != T::Keyword ||
          (cat.items[0].text != "cat" && cat.items[0].text != "catn"))
        return err(cat, "expected [:cat T ...] or [:catn [name T] ...], got " + edn::describe(cat));
      std::vector<MapEntry> params;
      if (cat.items[0].text == "cat") {
        for (std::size_t i = 1; i < cat.items.size(); ++i) {
          auto s = schema(cat.items[i]);
          if (!s) return s.error();
          MapEntry e("arg" + std::to_string(i - 1), *s, s->kind() == Kind::Maybe);
          params.push_back(std::move(e));
        }
      } else {
        std::set<std::string> seen;
        for (std::size_t i = 1; i < cat.items.size(); ++i) {
          auto e = entry(cat.items[i], "parameter");
          if (!e) return e.error();
          if (!text::is_identifier(e->name))
            return err(cat.items[i].items[0],
                       "parameter names start with a letter or '_' and hold letters, digits, "
                       "'_' and '-', got " +
                           text::quote(e->name));
          // A nullable parameter may be left out, as in shorthand (`name T?`) and [:cat ...].
          if (e->schema.kind() == Kind::Maybe) e->optional = true;
          if (!seen.insert(e->name).second) return err(cat.items[i], "duplicate parameter name '" + e->name + "'");
          params.push_back(std::move(e).value());
        }
      }
      auto result = schema(v.items[2]);
      if (!result) return result.error();
      return Signature(std::move(params), *result);
    }
    auto result = schema(v);
    if (!result) return result.error();
    return Signature({}, *result);
  }

 private:
  // [:op arg ...] without properties, `args` the number of args.
  Result<Schema> operation(const Value& v, const std::string& op, std::size_t args, bool refinement_allowed) {
    if (op == "vector" || op == "sequential" || op == "set" || op == "maybe") return collection(v, op, args);
    if (op == "map") return map(v);
    if (op == "map-of") return map_of(v, args);
    if (op == "tuple") {
      if (args == 0) return err(v, "[:tuple T ...] needs at least one schema");
      return list(v, [](std::vector<Schema> xs) { return Schema::tuple(std::move(xs)); });
    }
    if (op == "or") {
      if (args == 0) return err(v, "[:or T ...] needs at least one schema");
      return list(v, [](std::vector<Schema> xs) { return Schema::one_of(std::move(xs)); });
    }
    if (op == "and") return all_of(v, args);
    if (op == "enum") return enumeration(v, args);
    if (const auto r = refine_from_symbol(op)) {
      if (!refinement_allowed) return err(v, "[:" + op + " n] is a refinement; use it inside [:and T ...]");
      if (args != 1) return err(v, "[:" + op + " n] takes exactly one number");
      const Value& n = v.items[1];
      if (n.type == T::Int) return Schema::refinement(*r, n.integer);
      if (n.type == T::Float) return Schema::refinement(*r, n.real);
      return err(n, "expected a number, got " + edn::describe(n));
    }
    if (op == "re") {
      if (!refinement_allowed) return err(v, "[:re \"pattern\"] is a refinement; use it inside [:and :string ...]");
      if (args != 1 || v.items[1].type != T::String) return err(v, "[:re \"pattern\"] takes exactly one string");
      if (auto why = Schema::pattern_error(v.items[1].text))
        return err(v.items[1], "invalid regular expression: " + *why);
      return Schema::pattern(v.items[1].text);
    }
    if (op == "=>" || op == "cat" || op == "catn")
      return err(v.items[0], "[:" + op + " ...] is only allowed at the top of a signature");
    return err(v.items[0], "unknown schema operator :" + op + "; valid schemas are " + std::string(kValidTypes));
  }

  // [:vector T], [:sequential T], [:set T], [:maybe T].
  Result<Schema> collection(const Value& v, const std::string& op, std::size_t args) {
    if (args != 1) return err(v, "[:" + op + " T] takes exactly one schema, got " + std::to_string(args));
    auto item = schema(v.items[1]);
    if (!item) return item;
    if (op == "vector") return Schema::vector(*item);
    if (op == "sequential") return Schema::sequential(*item);
    if (op == "set") return Schema::set(*item);
    return Schema::maybe(*item);
  }

  Result<Schema> map_of(const Value& v, std::size_t args) {
    if (args != 2) return err(v, "[:map-of K V] takes exactly two schemas, got " + std::to_string(args));
    auto k = schema(v.items[1]);
    if (!k) return k;
    auto val = schema(v.items[2]);
    if (!val) return val;
    try {
      return Schema::map_of(*k, *val);
    } catch (const Exception& e) {
      return err(v.items[1], e.error().message);
    }
  }

  // [:and T refinement ...]: a type first, then refinements that apply to it (bounds to numbers,
  // patterns to text) or further types.
  Result<Schema> all_of(const Value& v, std::size_t args) {
    if (args == 0) return err(v, "[:and T ...] needs at least one schema");
    std::vector<Schema> parts;
    for (std::size_t i = 1; i < v.items.size(); ++i) {
      auto s = schema(v.items[i], /*refinement_allowed=*/true);
      if (!s) return s;
      parts.push_back(*s);
    }
    if (parts.front().kind() == Kind::Refinement)
      return err(v.items[1], "[:and ...] must start with a type, e.g. [:and :int [:> 0]]");
    Kind base = parts.front().kind();
    bool numeric = base == Kind::Int || base == Kind::Float;
    bool textual = base == Kind::String || base == Kind::Keyword;
    for (std::size_t i = 1; i < parts.size(); ++i) {
      if (parts[i].kind() != Kind::Refinement) continue;
      bool is_re = parts[i].op() == Refine::Re;
      if ((is_re && numeric) || (!is_re && textual))
        return err(v.items[i + 1], is_re ? "[:re ...] applies to strings, not :" + std::string(kind_name(base))
                                         : "[:" + v.items[i + 1].items[0].text +
                                               " n] applies to numbers, not :" + std::string(kind_name(base)));
    }
    return Schema::all_of(std::move(parts));
  }

  Result<Schema> enumeration(const Value& v, std::size_t args) {
    if (args == 0) return err(v, "[:enum v ...] needs at least one value");
    std::vector<nlohmann::json> values;
    std::set<nlohmann::json> seen;
    for (std::size_t i = 1; i < v.items.size(); ++i) {
      const Value& x = v.items[i];
      nlohmann::json j;
      switch (x.type) {
        case T::String:
        case T::Keyword: j = x.text; break;
        case T::Int: j = x.integer; break;
        case T::Float: j = x.real; break;
        case T::Bool: j = x.boolean; break;
        default: return err(x, "enum values must be strings, keywords, numbers or booleans, got " + edn::describe(x));
      }
      // Ordered as == compares (1 and 1.0 are one value), so a set finds repeats in O(log n).
      if (!seen.insert(j).second) return err(x, "duplicate enum value " + j.dump());
      values.push_back(std::move(j));
    }
    return Schema::enumeration(std::move(values));
  }

  template <class Make>
  Result<Schema> list(const Value& v, Make make) {
    std::vector<Schema> xs;
    for (std::size_t i = 1; i < v.items.size(); ++i) {
      auto s = schema(v.items[i]);
      if (!s) return s;
      xs.push_back(*s);
    }
    return make(std::move(xs));
  }

  // [:string {:format "date-time"}]: the one property a schema (not an entry) takes.
  Result<Schema> string_format(const Value& props) {
    std::string format;
    for (std::size_t i = 0; i < props.items.size(); i += 2) {
      const Value& k = props.items[i];
      const Value& val = props.items[i + 1];
      if (k.type != T::Keyword || k.text != "format")
        return err(k, "unknown property " + (k.type == T::Keyword ? ":" + k.text : edn::describe(k)) +
                          " of :string; the one property is :format");
      if (val.type != T::String || (val.text != "date-time" && val.text != "date"))
        return err(val, ":format takes \"date-time\" or \"date\", got " + edn::describe(val));
      format = val.text;
    }
    return Schema::string(format);
  }

  // [:vector {:min N :max N} T]: a list of exactly N items, the one length constraint schemas hold.
  Result<Schema> fixed_vector(const Value& v) {
    const Value& props = v.items[1];
    std::optional<std::int64_t> min, max;
    for (std::size_t i = 0; i < props.items.size(); i += 2) {
      const Value& k = props.items[i];
      const Value& val = props.items[i + 1];
      const bool is_min = k.type == T::Keyword && k.text == "min";
      if (!is_min && !(k.type == T::Keyword && k.text == "max"))
        return err(k, "unknown property " + edn::describe(k) + " of :vector; the properties are :min and :max");
      if (val.type != T::Int || val.integer < 0 || val.integer > 1000000)
        return err(val, ":" + k.text + " takes a count of items from 0 to 1000000, got " + edn::describe(val));
      (is_min ? min : max) = val.integer;
    }
    if (!min || !max || *min != *max)
      return err(props, "[:vector {...} T] takes :min and :max equal (a list of exactly N items)");
    auto item = schema(v.items[2]);
    if (!item) return item;
    return Schema::vector(*item, static_cast<std::size_t>(*min));
  }

  Result<Schema> primitive(const Value& v) {
    if (auto s = primitive_type(v.text)) return *s;
    return err(v, "unknown type :" + v.text + "; valid schemas are " + std::string(kValidTypes));
  }

  Result<Schema> map(const Value& v) {
    std::vector<MapEntry> entries;
    std::set<std::string> seen;
    for (std::size_t i = 1; i < v.items.size(); ++i) {
      auto e = entry(v.items[i], "map entry");
      if (!e) return e.error();
      if (!seen.insert(e->name).second) return err(v.items[i], "duplicate field name '" + e->name + "'");
      entries.push_back(std::move(e).value());
    }
    return Schema::map(std::move(entries));
  }

  Result<MapEntry> entry(const Value& v, std::string_view what) {
    if (v.type != T::Vector || v.items.size() < 2 || v.items.size() > 3)
      return err(v, "expected a " + std::string(what) + " [name T] or [name {options} T], got " + edn::describe(v));
    const Value& key = v.items[0];
    if (key.type != T::Keyword && key.type != T::String)
      return err(key, "expected a keyword or string name, got " + edn::describe(key));
    if (key.text.empty()) return err(key, "names must not be empty");
    MapEntry e;
    e.name = key.text;
    const Value* type = &v.items[1];
    const Value* props = nullptr;
    if (v.items.size() == 3) {
      props = &v.items[1];
      type = &v.items[2];
      if (props->type != T::Map)
        return err(*props, "expected an options map {:optional true}, got " + edn::describe(*props));
    }
    auto s = schema(*type);
    if (!s) return s.error();
    e.schema = *s;
    if (props) {
      for (std::size_t i = 0; i < props->items.size(); i += 2) {
        const Value& k = props->items[i];
        const Value& val = props->items[i + 1];
        std::string name = k.type == T::Keyword ? k.text : "";
        if (name == "optional") {
          if (val.type != T::Bool) return err(val, ":optional takes true or false");
          e.optional = val.boolean;
        } else if (name == "default") {
          auto j = to_json(val);
          if (!j) return j.error();
          e.with_default(*j);
        } else if (name == "doc" || name == "description") {
          if (val.type != T::String) return err(val, ":" + name + " takes a string");
          e.doc = val.text;
        } else {
          return err(k, "unknown entry option " + edn::describe(k) + "; valid options are :optional, :default, :doc");
        }
      }
      if (auto why = default_mismatch(e)) return err(*props, *why);
    }
    return e;
  }

  Result<nlohmann::json> to_json(const Value& v, std::size_t depth = 0) {
    switch (v.type) {
      case T::String:
      case T::Keyword: return nlohmann::json(v.text);
      case T::Int: return nlohmann::json(v.integer);
      case T::Float: return nlohmann::json(v.real);
      case T::Bool: return nlohmann::json(v.boolean);
      case T::Nil: return nlohmann::json(nullptr);
      case T::Vector: {
        auto arr = nlohmann::json::array();
        for (const auto& x : v.items) {
          auto j = to_json(x, depth + 1);
          if (!j) return j;
          arr.push_back(std::move(j).value());
        }
        return arr;
      }
      case T::Map: {
        auto obj = nlohmann::json::object();
        for (std::size_t i = 0; i < v.items.size(); i += 2) {
          const Value& k = v.items[i];
          if (k.type != T::Keyword && k.type != T::String)
            return err(k, "map keys in values must be keywords or strings");
          auto j = to_json(v.items[i + 1], depth + 1);
          if (!j) return j;
          obj[k.text] = std::move(j).value();
        }
        return obj;
      }
      case T::Symbol: break;
    }
    return err(v, "expected a value, got " + edn::describe(v));
  }

  std::string_view src_;
};

}  // namespace

std::optional<Schema> primitive_type(std::string_view name) {
  if (name == "string") return Schema::string();
  if (name == "int") return Schema::integer();
  if (name == "float" || name == "double") return Schema::number();
  if (name == "bool" || name == "boolean") return Schema::boolean();
  if (name == "keyword") return Schema::keyword();
  if (name == "any") return Schema::any();
  if (name == "nil") return Schema::nil();
  if (name == "map") return Schema::any_map();
  return std::nullopt;
}

std::optional<std::string> default_mismatch(const MapEntry& entry) {
  if (!entry.default_value) return std::nullopt;
  auto r = validate(entry.schema, *entry.default_value, {Direction::Output, Mode::Strict});
  if (r.ok) return std::nullopt;
  const Issue& first = r.errors.front();
  return "default value " + text::excerpt(entry.default_value->dump(), 60) +
         " does not match the field's type: " + (first.path == "(root)" ? "" : first.path + ": ") + first.message;
}

Result<Schema> schema_from_edn(const edn::Value& v, std::string_view source) { return Converter(source).schema(v); }

Result<Signature> signature_from_edn(const edn::Value& v, std::string_view source) {
  return Converter(source).signature(v);
}

}  // namespace ptc::malli
