#pragma once
// ptc::Schema — the one type model every front end (shorthand, Malli text, C++ types) produces and every
// back end (shorthand, Malli, JSON Schema, prompt text, validation) consumes.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json_fwd.hpp>

namespace ptc {

enum class Kind {
  String,
  Int,
  Float,
  Bool,
  Keyword,
  Any,
  Nil,  // primitives
  Vector,
  Sequential,
  Set,    // homogeneous lists: item()
  Map,    // typed fields: entries()
  MapOf,  // dynamic keys: key(), value()
  Tuple,  // fixed positions: children()
  Enum,   // literal values: values()
  Or,
  And,         // children(); And may hold refinements
  Maybe,       // nullable: item()
  Refinement,  // op(), bound(); only inside And
};

enum class Refine { Gt, Lt, Ge, Le, Re };

class Schema;
struct MapEntry;

/// How deeply types may nest (`[[...]]`, `{a {b ...}}`, `T?`...), counted in schema nodes. Both front
/// ends enforce it, so whatever one reads, the other reads back.
inline constexpr std::size_t kMaxSchemaDepth = 256;

namespace detail {
struct Node;
}

/// Immutable schema tree node. Copying shares the tree (one pointer copy), so pass by value freely;
/// a Schema may be read from many threads at once. Factories do not check depth: the parsers do.
class Schema {
 public:
  /// `:any`.
  Schema();

  static Schema string();
  /// `:string` whose text has a JSON Schema `format`: "date-time" (ISO 8601 time) or "date" (a
  /// calendar date), as C++ time types are sent; `[:string {:format "date-time"}]` in Malli, `:string`
  /// in shorthand. An annotation for the model: validation does not check it (the codecs of time
  /// types do). Throws ptc::Exception for another format.
  static Schema string(std::string_view format);
  static Schema integer();
  static Schema number();  ///< `:float`
  static Schema boolean();
  static Schema keyword();
  static Schema any();
  static Schema nil();
  static Schema primitive(Kind k);  ///< throws ptc::Exception if k is not a primitive kind

  static Schema vector(Schema item);
  /// A list of exactly `length` items (std::array<T, N>): `[:vector {:min N :max N} T]` in Malli,
  /// minItems and maxItems in JSON Schema; checked by validation (`expected list of N items, got M`).
  static Schema vector(Schema item, std::size_t length);
  static Schema sequential(Schema item);
  static Schema set(Schema item);
  /// Throws ptc::Exception on duplicate entry names. Optional entries' types are stored as [:maybe T].
  static Schema map(std::vector<MapEntry> entries);
  /// `:map` in shorthand: `[:map-of :keyword :any]`.
  static Schema any_map();
  /// Keys must be string-like (:string, :keyword, a string enum, or [:and :string [:re ...]]):
  /// JSON object keys are strings. Throws ptc::Exception otherwise.
  static Schema map_of(Schema key, Schema value);
  static Schema tuple(std::vector<Schema> items);
  /// Values are JSON scalars (strings, numbers, booleans). Throws on an empty list or a non-scalar.
  static Schema enumeration(std::vector<nlohmann::json> values);
  static Schema one_of(std::vector<Schema> alternatives);  ///< `[:or ...]`, at least one
  static Schema all_of(std::vector<Schema> parts);         ///< `[:and ...]`, at least one
  static Schema maybe(Schema inner);
  /// `[:> n]` etc.: `bound` must be a number. For Refine::Re use `pattern()`.
  static Schema refinement(Refine op, double bound);
  static Schema refinement(Refine op, std::int64_t bound);
  /// `[:re "..."]`, RE2 syntax, unanchored search. Throws ptc::Exception if RE2 rejects the pattern.
  static Schema pattern(std::string_view regex);
  /// Why RE2 rejects `regex`, or nullopt if it compiles.
  static std::optional<std::string> pattern_error(std::string_view regex);

  Kind kind() const;
  bool is_primitive() const;
  /// Levels of nesting: 1 for a primitive, 2 for `[:int]`, ...
  std::size_t depth() const;

  const std::string& format() const;                  ///< String: "date-time", "date", or empty
  std::optional<std::size_t> length() const;          ///< Vector: the exact number of items, if fixed
  const Schema& item() const;                         ///< Vector, Sequential, Set, Maybe
  const std::vector<MapEntry>& entries() const;       ///< Map
  const MapEntry* find(std::string_view name) const;  ///< Map: entry by name, or nullptr
  const Schema& key() const;                          ///< MapOf
  const Schema& value() const;                        ///< MapOf
  const std::vector<Schema>& children() const;        ///< Tuple, Or, And
  const std::vector<nlohmann::json>& values() const;  ///< Enum
  Refine op() const;                                  ///< Refinement
  const nlohmann::json& bound() const;                ///< Refinement: number, or the pattern string
  /// Refinement Re: whether `text` contains a match (RE2 partial match).
  bool matches(std::string_view text) const;

  /// Structural equality (patterns compare by text).
  friend bool operator==(const Schema& a, const Schema& b);

 private:
  explicit Schema(std::shared_ptr<const detail::Node> n) : node_(std::move(n)) {}
  std::shared_ptr<const detail::Node> node_;
};

/// One field of a `[:map ...]`, or one named parameter of a signature.
struct MapEntry {
  std::string name;
  Schema schema;
  /// May be absent (and may be null). Schema::map and Signature store an optional entry's type as
  /// [:maybe T], as shorthand `name T?` does.
  bool optional = false;
  /// Filled in when the field is missing or null. Held by pointer so MapEntry stays cheap to copy.
  std::shared_ptr<const nlohmann::json> default_value;
  /// Shown to the LLM (JSON Schema "description").
  std::string doc;

  MapEntry() = default;
  MapEntry(std::string n, Schema s, bool opt = false) : name(std::move(n)), schema(std::move(s)), optional(opt) {}

  /// Fields whose name starts with `_` reach C++ code but LLM-facing renderings of values show
  /// "<Firewalled>". A context-window convenience, not a security boundary.
  bool firewalled() const { return !name.empty() && name.front() == '_'; }
  bool has_default() const { return default_value != nullptr; }
  MapEntry& with_default(nlohmann::json v);

  friend bool operator==(const MapEntry& a, const MapEntry& b);
};

/// Name used in messages and shorthand: "int", "float", "list", "map", ...
std::string_view kind_name(Kind k);

/// A refinement's symbol in both syntaxes and in messages: ">", "<", ">=", "<=", and "re".
std::string_view refine_symbol(Refine op);
/// The comparison a symbol names (">", "<", ">=", "<="), or nullopt.
std::optional<Refine> refine_from_symbol(std::string_view symbol);

}  // namespace ptc
