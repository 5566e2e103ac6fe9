#pragma once
// The plain model ptc-gen builds from a header: what generator/extract/ reads out of the clang AST and
// generator/emit/ turns into text. No clang types here, so emitters are tested from hand-built models.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace ptcgen::model {

/// A place in a source file, for diagnostics (`file:line:col: error: ...`).
struct Location {
  std::string file;  ///< as given on the command line (never made absolute by us)
  unsigned line = 0;
  unsigned column = 0;
};

/// The C++ categories of docs/codecs.md, "Types". Each maps to exactly one signature construct.
enum class TypeKind {
  String,      ///< std::string                              :string
  StringView,  ///< std::string_view (params only)           :string
  Bool,        ///< bool                                     :bool
  Integer,     ///< any integer type; see bits/is_signed      :int (unsigned: :int[>=0])
  Float,       ///< float, double                            :float
  Enum,        ///< enum / enum class; `name` keys HeaderModel::enums     :enum[...]
  Struct,      ///< aggregate; `name` keys HeaderModel::structs           {field T ...}
  Sequence,    ///< vector, list, deque, span<const T>; args[0]          [T]
  Array,       ///< std::array<T,N>; args[0], array_size                 [T], exactly N items
  Set,         ///< set, unordered_set; args[0]                          [:set T]
  Map,         ///< map/unordered_map with string keys; args[0] is the value   [:map-of :string T]
  Optional,    ///< optional, unique_ptr, shared_ptr; args[0]            T?
  Variant,     ///< std::variant; args = alternatives                    A|B
  Monostate,   ///< std::monostate (inside a variant)                   :nil
  Tuple,       ///< pair, tuple; args = elements                         [:tuple A B]
  TimePoint,   ///< system_clock::time_point                             :string (ISO 8601, UTC, "Z")
  Date,        ///< std::chrono::year_month_day                          :string ("2025-12-29")
  Duration,    ///< std::chrono::duration<R,P>: the count in its own unit    :int
  Expected,    ///< std::expected<T,E>; args = {T, E}                    {result T, error E?}
  Json,        ///< nlohmann::json                                       :any
  Void,        ///< void return                                          :nil
  Recursive,   ///< a struct reached again inside itself                 :any (warned at extraction)
  DepthLimit,  ///< a struct nested deeper than the expansion limit      :map (warned at extraction)
};

struct Type {
  TypeKind kind = TypeKind::Json;
  /// The type as generated code spells it, fully qualified and independent of the header's scope:
  /// "std::vector<::shop::Item>", "long" (builtin names: std::int64_t is long on one platform and
  /// long long on another), "::shop::Status".
  std::string cpp;
  std::vector<Type> args;
  /// Integer (and Duration, of its count): width in bits and signedness ("unsigned char" -> 8, false).
  /// bool is not an Integer.
  unsigned bits = 64;
  bool is_signed = true;
  /// Array only.
  std::size_t array_size = 0;
  /// Duration only: what one count is, in words ("milliseconds", "minutes", "1/100 seconds").
  std::string unit;
  /// Optional only: which wrapper ("std::optional", "std::unique_ptr", "std::shared_ptr").
  std::string wrapper;
  /// Enum, Struct, Recursive, DepthLimit: the qualified name ("shop::Item"), key into HeaderModel.
  std::string name;
};

/// PTC_RANGE / PTC_PATTERN on a field or parameter.
struct Constraints {
  std::optional<nlohmann::json> min;   ///< inclusive; an integer or a float
  std::optional<nlohmann::json> max;   ///< inclusive
  std::optional<std::string> pattern;  ///< RE2, unanchored search
  bool empty() const { return !min && !max && !pattern; }
};

struct Field {
  std::string cpp_name;   ///< the member's name in C++
  std::string json_name;  ///< the key in JSON: cpp_name, with a leading `_` when PTC_FIREWALL is given
  Type type;
  std::string doc;  ///< PTC_DOC, else the doc comment (whitespace collapsed)
  Constraints constraints;
  Location location;
};

struct Struct {
  std::string name;  ///< qualified, without leading "::" ("shop::Item")
  std::string cpp;   ///< "::shop::Item"
  std::string doc;
  std::vector<Field> fields;  ///< declaration order (bases' fields first, as aggregate init sees them)
  Location location;
};

struct Enumerator {
  std::string name;  ///< the string in JSON
  std::string cpp;   ///< "::shop::Status::open"
};

struct Enum {
  std::string name;                     ///< qualified ("shop::Status")
  std::string cpp;                      ///< "::shop::Status"
  std::vector<Enumerator> enumerators;  ///< declaration order
  Location location;
};

/// A default argument. Literals (numbers, booleans, strings, enumerators, `std::nullopt`) become the
/// parameter's `{:default v}`; other expressions are an extraction error.
struct Default {
  nlohmann::json value;  ///< as the schema's default; null for std::nullopt / `{}` on an optional
  std::string cpp;       ///< a C++ expression generated code can use to fill it ("10", "::shop::Status::open")
};

struct Param {
  std::string name;
  Type type;
  std::string doc;  ///< PTC_DOC, else the function's `\param name` text
  Constraints constraints;
  std::optional<Default> default_value;
  Location location;
};

/// How the function hands back its result.
enum class ReturnStyle {
  Value,       ///< T: the result is T
  ToolResult,  ///< ptc::ToolResult<T>: the result is T; success/message pass through
  Expected,    ///< std::expected<T,E>: the result is `{result T, error E?}`
  Void,        ///< void: the result is :nil
};

struct Example {
  std::string input;   ///< JSON text of the arguments object
  std::string output;  ///< JSON text of the result
  Location location;
};

/// What a marked function is served as. A resource's reader and a prompt's renderer are tools as far
/// as their arguments, results, decoders and invokers go; only their registration differs.
enum class ToolKind {
  Tool,      ///< PTC_TOOL: the model calls it
  Resource,  ///< PTC_RESOURCE: a client reads it by URI; the function is the reader
  Prompt,    ///< PTC_PROMPT: a user picks it; the function renders its messages
};

/// "tool", "resource", "prompt", for messages.
const char* kind_name(ToolKind kind);

/// PTC_COMPLETE(argument, function): what suggests values for one argument of a prompt or one variable
/// of a resource template.
struct Completer {
  std::string argument;  ///< the C++ parameter's name
  /// What generated code calls: "::shop::keys" for a free or static member function, the member's name
  /// for a non-static member of the tool's class (called on the instance).
  std::string function;
  bool on_instance = false;
  /// It takes `const ptc::CompletionRequest&`; else the text typed so far (a string or string_view).
  bool takes_request = false;
  Location location;
};

struct Tool {
  ToolKind kind = ToolKind::Tool;
  std::string name;         ///< PTC_NAME / PTC_TOOL("...") / the function's name
  std::string description;  ///< PTC_DESCRIPTION, else the doc comment's text (without \param lines)
  std::string function;     ///< qualified callable name: "::shop::search", or the member's name
  std::string class_name;   ///< qualified class ("shop::Tracker") for member tools, else empty
  std::string class_cpp;    ///< "::shop::Tracker" for member tools
  bool const_member = false;
  std::vector<Param> params;  ///< in C++ order, without the injected context
  /// Index among the C++ arguments where `ptc::ToolContext&` goes, if the function takes one.
  std::optional<std::size_t> context_index;
  Type result;  ///< the T of the return style (Void: kind Void)
  ReturnStyle return_style = ReturnStyle::Value;
  std::optional<std::string> explicit_signature;  ///< PTC_SIGNATURE text, already checked
  std::vector<Example> examples;
  std::string title;  ///< PTC_TITLE, empty without
  /// PTC_READ_ONLY, PTC_DESTRUCTIVE, PTC_ADDITIVE, PTC_IDEMPOTENT, PTC_OPEN_WORLD. A tool with any of
  /// them is described by them alone (`stated`); one with none gets the runtime's unstated defaults.
  struct Hints {
    bool stated = false;
    bool read_only = false;
    bool destructive = false;
    bool additive = false;  ///< says only that destructive is false; kept to refuse contradictions
    bool idempotent = false;
    bool open_world = false;
  } hints;
  std::string uri;                    ///< Resource: PTC_RESOURCE's URI or URI template
  std::string mime_type;              ///< Resource: PTC_MIME_TYPE, empty without
  std::vector<Completer> completers;  ///< prompts and resource templates, in the order written
  Location location;
};

/// What a registry tells tools, resources and prompts apart by: two of one header with the same key
/// cannot both be registered. "tool search", "prompt triage", "resource tracker://issues/{key}" (a
/// resource is found by its URI; two resources may share a name).
std::string registry_key(const Tool& tool);

/// Everything ptc-gen emits for one header.
struct HeaderModel {
  std::string stem;             ///< "tracker" for tracker.hpp; identifier-safe (non [A-Za-z0-9_] -> '_')
  std::string include;          ///< how generated code includes the header: "tracker/tracker.hpp"
  std::string source;           ///< the header as given on the command line (diagnostics about the file)
  std::vector<Tool> tools;      ///< declaration order
  std::vector<Struct> structs;  ///< every struct the tools and answers reach, dependencies before users
  std::vector<Enum> enums;      ///< every enum the tools and answers reach, in first-reached order
  /// Member tools' classes, in first-declared order ("shop::Tracker").
  std::vector<std::string> classes;
  /// PTC_ANSWER structs and enums (kind Struct or Enum), declaration order: types an agent may answer
  /// with, whose codecs and schemas generated code makes public (in `<stem>.ptc.hpp`).
  std::vector<Type> answers;

  const Struct* find_struct(const std::string& name) const;
  const Enum* find_enum(const std::string& name) const;
};

/// The qualified names of the structs and enums `header.answers` reach, themselves included: the types
/// whose codecs and schemas must be public.
std::set<std::string> reached_from_answers(const HeaderModel& header);

/// The unit of a duration, also held in an optional, list, set or map of durations; empty otherwise.
const std::string& duration_unit(const Type& type);
/// A parameter's or field's doc with the unit of its durations said: "How long to wait. Unit:
/// milliseconds." (just "Unit: milliseconds." without a doc). The model sees only the JSON number.
std::string with_unit(const std::string& doc, const std::string& unit);

}  // namespace ptcgen::model
