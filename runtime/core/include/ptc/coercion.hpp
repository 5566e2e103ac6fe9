#pragma once
// The coercion rules and message texts of docs/validation.md, as plain functions so that the runtime
// validator and the codecs of generated code (ptc/codec/) apply exactly the same rules and say exactly
// the same thing.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include <ptc/schema.hpp>

namespace ptc::coercion {

enum class Status { Ok, Invalid, OutOfRange };

struct IntValue {
  Status status = Status::Invalid;
  std::int64_t value = 0;
};

/// Whole-string integer in JSON grammar: optional '-', digits, no leading zeros ("42", "-5", "0").
/// No spaces, no '+', no decimals.
IntValue int_from_string(std::string_view text);
/// A JSON-style number ("3.14", "-2", "1e3"); nullopt for anything else or a non-finite result.
std::optional<double> float_from_string(std::string_view text);
/// Exactly "true" or "false".
std::optional<bool> bool_from_string(std::string_view text);
/// A double that is a whole number within int64 (used to reject 42.0 -> int with a precise message).
bool is_whole(double d);

/// `int64` bounds as printed in range errors: "-9223372036854775808..9223372036854775807".
std::string int64_range();
/// Any integer type's bounds in the same format: "0..255".
std::string int_range(std::int64_t min, std::uint64_t max);

/// Integer types narrower than this many bits carry their range in the schema
/// (`[:and :int [:>= -128] [:<= 127]]`): a model easily oversteps 255, and the prompt and JSON Schema
/// then show the bound. Wider types show `:int` (unsigned ones `>= 0`) and their decoders still check
/// the range. The one home of the rule for ptc-gen's schemas and the codecs' messages.
inline constexpr unsigned kRangeInSchemaBelowBits = 32;
/// Whether an integer type whose largest value is `max` is narrower than kRangeInSchemaBelowBits.
constexpr bool range_in_schema(std::uint64_t max) {
  return max < (std::uint64_t{1} << (kRangeInSchemaBelowBits - 1)) - 1;
}

/// The value's type in the signature language, as every message of the core and the tool runtime names
/// it: "nil", "bool", "int", "float", "string", "list", "map". (Command errors speak the vocabulary of
/// command schemas instead: "null", "boolean", "integer", "object"; docs/architecture.md.)
std::string_view type_name(const nlohmann::json& value);

/// Describes a value for "got ..." in messages: `string "abc"`, `int 5`, `float 4.5`, `bool true`,
/// `nil`, `list`, `map`. Long strings are cut to 64 bytes and end with `..." (N bytes)`.
std::string describe(const nlohmann::json& value);
std::string describe_string(std::string_view s);
/// The value as enum and refinement messages show it: `"abc"`, `5`, `4.5`, `true`, `nil`, `list`, `map`.
std::string short_value(const nlohmann::json& value);

/// `expected <what>, got <describe(value)>`.
std::string expected(std::string_view what, const nlohmann::json& value);
/// `coerced string "42" to int`.
std::string coerced(std::string_view original, std::string_view target);

/// What a scalar rule made of a value: taken as it is (int -> float widening included), coerced from a
/// string (`message` is the warning), or rejected (`message` is the error).
enum class Verdict { Exact, Coerced, Failed };
template <class T>
struct Outcome {
  Verdict verdict = Verdict::Failed;
  T value{};
  std::string message;
  /// Failed because the value is a number (or a string read as one) that the type cannot hold exactly:
  /// out of its range, fractional for an integer, not finite. Such an error holds in every mode, even
  /// warn_only and disabled, in the input direction (docs/validation.md, "Numbers a type cannot hold"):
  /// no tool function may receive a wrapped, truncated or undefined conversion of it.
  bool refused = false;
};
/// `:int` (int64). `coercing`: strings may be read as numbers (the input direction outside Strict).
/// Refused: an integer beyond int64, a fractional or non-finite float, an integral float beyond int64,
/// a string of digits beyond int64. An integral float within int64 (`42.0`) is a plain failure.
Outcome<std::int64_t> to_int(const nlohmann::json& value, bool coercing);
/// `:float`: finite floats, and integers widened silently. Refused: NaN and the infinities.
Outcome<double> to_float(const nlohmann::json& value, bool coercing);
/// `:bool`.
Outcome<bool> to_bool(const nlohmann::json& value, bool coercing);

/// `expected one of ["low", "high"], got "medium"`.
std::string not_one_of(const std::vector<nlohmann::json>& values, const nlohmann::json& got);
/// Checks a `[:> n]`, `[:>= n]`, `[:< n]`, `[:<= n]` or `[:re "..."]` schema: nullopt when `value`
/// passes, else the message (`expected value >= 0, got -1`, `expected string matching "^a", got "b"`).
std::optional<std::string> refinement_error(const Schema& refinement, const nlohmann::json& value);

inline constexpr std::string_view kMissingField = "missing required field";
inline constexpr std::string_view kUnexpectedField = "unexpected field";
/// A key the schema does not declare, outside strict mode: `unexpected field (ignored)`, then
/// `; did you mean 'days'?` when exactly one reading of a declared name is close: equal but for case,
/// '_' and '-', or at most two edits away (one for names of up to four characters). The suggestion
/// depends only on the key and the names, never on the order keys arrive in.
std::string ignored_field(std::string_view key, const std::vector<std::string_view>& declared);
/// What a set expects, in `expected ..., got ...`.
inline constexpr std::string_view kSetOf = "set (a list of unique items)";
/// `list of 2 items`, what a tuple expects.
std::string list_of(std::size_t n);
/// `expected list of 2 items, got 3`.
std::string wrong_length(std::size_t expected, std::size_t got);
/// What both JSON readers (parse_json and the generated decoders) say, word for word, about a text
/// they refuse for its content rather than its syntax. `path` is where the value sits.
/// `invalid JSON: duplicate key "a" at x`: one reader would take the first value, another the last.
std::string duplicate_key(std::string_view key, std::string_view path);
/// `invalid JSON: int 18446744073709551616 is beyond 64 bits at x`: an integer literal no int64 or
/// uint64 holds. Refused rather than read as a float, which would change its digits silently.
std::string int_beyond_64_bits(std::string_view token, std::string_view path);
/// Whether `token`, a JSON number, is an integer literal that no int64 or uint64 holds.
bool is_int_beyond_64_bits(std::string_view token);
/// `duplicate item (same as [0])`, reported at the later item.
std::string duplicate_item(std::size_t first);
/// The repeated items of a list, compared as JSON (1 and 1.0 are equal): (index, index of its first
/// equal), by index.
std::vector<std::pair<std::size_t, std::size_t>> duplicates(const nlohmann::json& items);

/// The kinds of JSON value, as unions tell them apart.
enum class JsonKind : unsigned { Null, Bool, Number, String, List, Map };
constexpr unsigned kind_bit(JsonKind k) { return 1u << static_cast<unsigned>(k); }
inline constexpr unsigned kAllKinds = 0x3f;
inline constexpr unsigned kScalarKinds = 0x0f;
JsonKind json_kind(const nlohmann::json& value);
/// A list or map sent as a string that holds its JSON text, as models often send an object or array
/// parameter: the parsed value when `text` is JSON (ptc::parse_json's rules: no repeated keys, no NUL)
/// of kind `want` (List or Map) nesting at most `depth_left` levels, else nullopt. Only values inside
/// the arguments are read this way (never the arguments object itself), outside Strict mode, and
/// never for a :string: the caller warns `coerced string "[1, 2]" to list`.
std::optional<nlohmann::json> container_from_text(std::string_view text, JsonKind want, std::size_t depth_left);
/// The kinds a schema could accept at all, a kind_bit each: the "same family" of a value.
unsigned family(const Schema& s);
/// Whether a failed match against `s` explains more than "expected <type>" would: not a primitive and
/// not an enum.
bool detailed(const Schema& s);
/// A union's type name, as in `expected string or int, got bool true`: the alternatives' names without
/// repeats, joined with ", " and a final " or ".
std::string union_name(const std::vector<std::string>& names);

/// How `[:or ...]` picks an alternative. Offer the alternatives in order with the outcome of trying
/// each: the first exact match wins at once; otherwise the first match that needed coercion; when none
/// matches, the detailed alternative of the value's family with the fewest errors explains the
/// failure; with none of those, the error is `expected <union_name>, got ...`.
class UnionChoice {
 public:
  enum class Take { Exact, Coerced, Closest, Nothing };
  /// `coerced`: the match needed coercion (it warned). `detailed_in_family`: the alternative is
  /// detailed() and its family() holds the value's kind.
  Take offer(bool ok, bool coerced, bool detailed_in_family, std::size_t errors);

 private:
  bool have_coerced_ = false;
  bool have_closest_ = false;
  std::size_t closest_errors_ = 0;
};

/// Paths as issues print them: `items[0].name`, `["odd key"]`; the empty path prints as `(root)`.
void append_key(std::string& path, std::string_view key);
void append_index(std::string& path, std::size_t index);
/// The same as new strings: ("a", "b") -> "a.b", ("a", "x y") -> `a["x y"]`, ("a", 2) -> "a[2]".
std::string key_path(std::string_view parent, std::string_view key);
std::string index_path(std::string_view parent, std::size_t index);
inline constexpr std::string_view kRootPath = "(root)";

}  // namespace ptc::coercion
