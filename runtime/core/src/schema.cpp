#include <ptc/schema.hpp>

#include <algorithm>
#include <cmath>
#include <set>

#include <ptc/error.hpp>

#include "schema_node.hpp"

namespace ptc {
namespace {

using detail::Node;

[[noreturn]] void fail(std::string message) { throw Exception(Error{std::move(message)}); }

std::shared_ptr<const Node> finish(std::shared_ptr<Node> n) {
  std::size_t deepest = 0;
  for (const auto& c : n->children) deepest = std::max(deepest, c.depth());
  for (const auto& e : n->entries) deepest = std::max(deepest, e.schema.depth());
  n->depth = deepest + 1;
  return n;
}

const Schema& shared_any() {
  static const Schema any = Schema::any();
  return any;
}

bool is_primitive_kind(Kind k) {
  switch (k) {
    case Kind::String:
    case Kind::Int:
    case Kind::Float:
    case Kind::Bool:
    case Kind::Keyword:
    case Kind::Any:
    case Kind::Nil: return true;
    default: return false;
  }
}

bool string_like_key(const Schema& k) {
  switch (k.kind()) {
    case Kind::String:
    case Kind::Keyword: return true;
    case Kind::Enum:
      for (const auto& v : k.values())
        if (!v.is_string()) return false;
      return true;
    case Kind::And:
      if (k.children().empty() || k.children().front().kind() != Kind::String) return false;
      for (std::size_t i = 1; i < k.children().size(); ++i)
        if (k.children()[i].kind() != Kind::Refinement || k.children()[i].op() != Refine::Re) return false;
      return true;
    default: return false;
  }
}

}  // namespace

Schema::Schema() : Schema(shared_any()) {}

Schema Schema::primitive(Kind k) {
  if (!is_primitive_kind(k)) fail("Schema::primitive: not a primitive kind");
  // Primitives are interned: equal primitives share one node.
  static const std::shared_ptr<const Node> nodes[] = {
      std::make_shared<Node>(Node{Kind::String, {}, {}, {}, {}, {}, {}, {}}),
      std::make_shared<Node>(Node{Kind::Int, {}, {}, {}, {}, {}, {}, {}}),
      std::make_shared<Node>(Node{Kind::Float, {}, {}, {}, {}, {}, {}, {}}),
      std::make_shared<Node>(Node{Kind::Bool, {}, {}, {}, {}, {}, {}, {}}),
      std::make_shared<Node>(Node{Kind::Keyword, {}, {}, {}, {}, {}, {}, {}}),
      std::make_shared<Node>(Node{Kind::Any, {}, {}, {}, {}, {}, {}, {}}),
      std::make_shared<Node>(Node{Kind::Nil, {}, {}, {}, {}, {}, {}, {}}),
  };
  return Schema(nodes[static_cast<int>(k)]);
}

Schema Schema::string() { return primitive(Kind::String); }
Schema Schema::string(std::string_view format) {
  if (format.empty()) return string();
  if (format != "date-time" && format != "date")
    fail("unknown string format \"" + std::string(format) + "\"; the formats are \"date-time\" and \"date\"");
  auto n = std::make_shared<Node>();
  n->kind = Kind::String;
  n->format = std::string(format);
  return Schema(std::move(n));
}
Schema Schema::integer() { return primitive(Kind::Int); }
Schema Schema::number() { return primitive(Kind::Float); }
Schema Schema::boolean() { return primitive(Kind::Bool); }
Schema Schema::keyword() { return primitive(Kind::Keyword); }
Schema Schema::any() { return primitive(Kind::Any); }
Schema Schema::nil() { return primitive(Kind::Nil); }

Schema Schema::vector(Schema item) {
  auto n = std::make_shared<Node>();
  n->kind = Kind::Vector;
  n->children.push_back(std::move(item));
  return Schema(finish(std::move(n)));
}

Schema Schema::vector(Schema item, std::size_t length) {
  auto n = std::make_shared<Node>();
  n->kind = Kind::Vector;
  n->children.push_back(std::move(item));
  n->length = length;
  return Schema(finish(std::move(n)));
}

Schema Schema::sequential(Schema item) {
  auto n = std::make_shared<Node>();
  n->kind = Kind::Sequential;
  n->children.push_back(std::move(item));
  return Schema(finish(std::move(n)));
}

Schema Schema::set(Schema item) {
  auto n = std::make_shared<Node>();
  n->kind = Kind::Set;
  n->children.push_back(std::move(item));
  return Schema(finish(std::move(n)));
}

Schema Schema::maybe(Schema inner) {
  auto n = std::make_shared<Node>();
  n->kind = Kind::Maybe;
  n->children.push_back(std::move(inner));
  return Schema(finish(std::move(n)));
}

std::vector<MapEntry> normalize_entries(std::vector<MapEntry> entries) {
  std::set<std::string_view> seen;
  for (auto& e : entries) {
    if (!seen.insert(e.name).second) fail("duplicate field name '" + e.name + "'");
    // An optional entry accepts null anyway (docs/validation.md), so `{:optional true} T` is stored
    // as `{:optional true} [:maybe T]`, the canonical form of the spec's table: one model, one reading.
    if (e.optional && e.schema.kind() != Kind::Maybe) e.schema = Schema::maybe(e.schema);
  }
  return entries;
}

Schema Schema::map(std::vector<MapEntry> entries) {
  entries = normalize_entries(std::move(entries));
  auto n = std::make_shared<Node>();
  n->kind = Kind::Map;
  n->entries = std::move(entries);
  // find() is called once per key of every object validated: a sorted index keeps a wide object linear
  // in its keys times log of the fields, where a scan made it quadratic.
  n->by_name.resize(n->entries.size());
  for (std::size_t i = 0; i < n->by_name.size(); ++i) n->by_name[i] = i;
  std::sort(n->by_name.begin(), n->by_name.end(),
            [&](std::size_t a, std::size_t b) { return n->entries[a].name < n->entries[b].name; });
  return Schema(finish(std::move(n)));
}

Schema Schema::any_map() { return map_of(keyword(), any()); }

Schema Schema::map_of(Schema key, Schema value) {
  if (!string_like_key(key))
    fail(
        "map-of keys must be :string, :keyword, a string enum or [:and :string [:re ...]] "
        "(JSON object keys are strings)");
  auto n = std::make_shared<Node>();
  n->kind = Kind::MapOf;
  n->children = {std::move(key), std::move(value)};
  return Schema(finish(std::move(n)));
}

Schema Schema::tuple(std::vector<Schema> items) {
  auto n = std::make_shared<Node>();
  n->kind = Kind::Tuple;
  n->children = std::move(items);
  return Schema(finish(std::move(n)));
}

Schema Schema::enumeration(std::vector<nlohmann::json> values) {
  if (values.empty()) fail(":enum needs at least one value");
  for (const auto& v : values)
    if (!v.is_string() && !v.is_number() && !v.is_boolean()) fail(":enum values must be strings, numbers or booleans");
  auto n = std::make_shared<Node>();
  n->kind = Kind::Enum;
  n->values = std::move(values);
  return Schema(finish(std::move(n)));
}

Schema Schema::one_of(std::vector<Schema> alternatives) {
  if (alternatives.empty()) fail(":or needs at least one schema");
  auto n = std::make_shared<Node>();
  n->kind = Kind::Or;
  n->children = std::move(alternatives);
  return Schema(finish(std::move(n)));
}

Schema Schema::all_of(std::vector<Schema> parts) {
  if (parts.empty()) fail(":and needs at least one schema");
  auto n = std::make_shared<Node>();
  n->kind = Kind::And;
  n->children = std::move(parts);
  return Schema(finish(std::move(n)));
}

Schema Schema::refinement(Refine op, double bound) {
  if (op == Refine::Re) fail("use Schema::pattern for [:re ...]");
  if (!std::isfinite(bound)) fail("refinement bounds must be finite numbers");
  auto n = std::make_shared<Node>();
  n->kind = Kind::Refinement;
  n->op = op;
  n->bound = bound;
  return Schema(finish(std::move(n)));
}

Schema Schema::refinement(Refine op, std::int64_t bound) {
  if (op == Refine::Re) fail("use Schema::pattern for [:re ...]");
  auto n = std::make_shared<Node>();
  n->kind = Kind::Refinement;
  n->op = op;
  n->bound = bound;
  return Schema(finish(std::move(n)));
}

namespace {
std::shared_ptr<const re2::RE2> compile(std::string_view regex) {
  re2::RE2::Options options;
  options.set_log_errors(false);
  options.set_max_mem(8 << 20);  // bounded: patterns may come from an LLM or a user
  return std::make_shared<const re2::RE2>(re2::StringPiece(regex.data(), regex.size()), options);
}
}  // namespace

std::optional<std::string> Schema::pattern_error(std::string_view regex) {
  auto re = compile(regex);
  if (re->ok()) return std::nullopt;
  return re->error();
}

Schema Schema::pattern(std::string_view regex) {
  auto re = compile(regex);
  if (!re->ok()) fail("invalid regular expression: " + re->error());
  auto n = std::make_shared<Node>();
  n->kind = Kind::Refinement;
  n->op = Refine::Re;
  n->bound = std::string(regex);
  n->regex = std::move(re);
  return Schema(finish(std::move(n)));
}

Kind Schema::kind() const { return node_->kind; }
bool Schema::is_primitive() const { return is_primitive_kind(node_->kind); }
std::size_t Schema::depth() const { return node_->depth; }

const Schema& Schema::item() const {
  switch (node_->kind) {
    case Kind::Vector:
    case Kind::Sequential:
    case Kind::Set:
    case Kind::Maybe: return node_->children.front();
    default: fail("Schema::item: schema has no item type");
  }
}

const std::vector<MapEntry>& Schema::entries() const { return node_->entries; }

const MapEntry* Schema::find(std::string_view name) const {
  const auto& entries = node_->entries;
  const auto& order = node_->by_name;
  auto it = std::lower_bound(order.begin(), order.end(), name,
                             [&](std::size_t i, std::string_view n) { return std::string_view(entries[i].name) < n; });
  if (it == order.end() || entries[*it].name != name) return nullptr;
  return &entries[*it];
}

const Schema& Schema::key() const {
  if (node_->kind != Kind::MapOf) fail("Schema::key: not a map-of");
  return node_->children[0];
}

const Schema& Schema::value() const {
  if (node_->kind != Kind::MapOf) fail("Schema::value: not a map-of");
  return node_->children[1];
}

const std::vector<Schema>& Schema::children() const { return node_->children; }
const std::vector<nlohmann::json>& Schema::values() const { return node_->values; }
Refine Schema::op() const { return node_->op; }
const nlohmann::json& Schema::bound() const { return node_->bound; }
const std::string& Schema::format() const { return node_->format; }
std::optional<std::size_t> Schema::length() const { return node_->length; }

bool Schema::matches(std::string_view text) const {
  if (!node_->regex) return false;
  return re2::RE2::PartialMatch(re2::StringPiece(text.data(), text.size()), *node_->regex);
}

bool operator==(const Schema& a, const Schema& b) {
  if (a.node_ == b.node_) return true;
  const Node& x = *a.node_;
  const Node& y = *b.node_;
  return x.kind == y.kind && x.children == y.children && x.entries == y.entries && x.values == y.values &&
         x.op == y.op && x.bound == y.bound && x.format == y.format && x.length == y.length;
}

MapEntry& MapEntry::with_default(nlohmann::json v) {
  default_value = std::make_shared<const nlohmann::json>(std::move(v));
  return *this;
}

bool operator==(const MapEntry& a, const MapEntry& b) {
  auto same_default = [&] {
    if (!a.default_value || !b.default_value) return a.default_value == b.default_value;
    return *a.default_value == *b.default_value;
  };
  return a.name == b.name && a.schema == b.schema && a.optional == b.optional && a.doc == b.doc && same_default();
}

std::string_view kind_name(Kind k) {
  switch (k) {
    case Kind::String: return "string";
    case Kind::Int: return "int";
    case Kind::Float: return "float";
    case Kind::Bool: return "bool";
    case Kind::Keyword: return "keyword";
    case Kind::Any: return "any";
    case Kind::Nil: return "nil";
    case Kind::Vector: return "list";
    case Kind::Sequential: return "list";
    case Kind::Set: return "set";
    case Kind::Map: return "map";
    case Kind::MapOf: return "map";
    case Kind::Tuple: return "tuple";
    case Kind::Enum: return "enum";
    case Kind::Or: return "or";
    case Kind::And: return "and";
    case Kind::Maybe: return "maybe";
    case Kind::Refinement: return "refinement";
  }
  return "?";
}

std::string_view refine_symbol(Refine op) {
  switch (op) {
    case Refine::Gt: return ">";
    case Refine::Lt: return "<";
    case Refine::Ge: return ">=";
    case Refine::Le: return "<=";
    case Refine::Re: return "re";
  }
  return "?";
}

std::optional<Refine> refine_from_symbol(std::string_view symbol) {
  for (Refine op : {Refine::Gt, Refine::Lt, Refine::Ge, Refine::Le})
    if (refine_symbol(op) == symbol) return op;
  return std::nullopt;
}

}  // namespace ptc
