#pragma once
// What the emitters need to know about each tool, worked out once: its signature, its examples, and
// how each parameter is held in the generated Args struct.

#include <map>
#include <optional>
#include <string>
#include <vector>

#include <ptc/signature.hpp>
#include <ptc/tool.hpp>
#include <ptc/tool_example.hpp>

#include "emit/emit.hpp"
#include "model/model.hpp"

namespace ptcgen::emit {

/// How the generated call hands a stored argument to the function.
enum class Pass {
  Move,        ///< std::move(args.x): binds to by-value, const& and && parameters alike
  StringView,  ///< std::string_view(args.x) from the stored std::string
  Span,        ///< std::span<const T>(args.x) from the stored std::vector<T>
};

struct ArgPlan {
  const model::Param* param = nullptr;
  std::string member;       ///< the Args member: the C++ parameter's name
  std::string json_name;    ///< the arguments object's key (PTC_SIGNATURE may rename it)
  std::string stored_type;  ///< what the Args member holds
  Pass pass = Pass::Move;
  bool nullable = false;  ///< the C++ type is std::optional or a smart pointer: null decodes to empty
  /// Absent (or null) runs the C++ default (Default::cpp): a literal default, and also a null one
  /// (`= {}`) on a type that cannot hold null.
  bool fills_default = false;
  /// [:and T refinements...] to check after decoding (PTC_RANGE / PTC_PATTERN / PTC_SIGNATURE).
  std::optional<ptc::Schema> check;
};

struct ToolPlan {
  const model::Tool* tool = nullptr;
  ptc::Signature signature;
  std::string signature_malli;  ///< Malli text that reads back as exactly `signature`
  std::vector<ptc::ToolExample> examples;
  std::optional<ptc::ToolHints> hints;  ///< the tool's stated hints, as the runtime holds them
  std::string id;                       ///< identifier-safe and unique in the header
  std::vector<ArgPlan> args;            ///< C++ parameter order (the context excluded)
};

struct Plan {
  std::vector<ToolPlan> tools;  ///< declaration order; tools with errors left out
  /// The Malli text of the schema (model::schema_of, reading back as exactly that schema) of each struct
  /// and enum the answer types reach, by model name: what its generated ptc::codec::SchemaOf parses.
  std::map<std::string, std::string> type_malli;
  std::vector<EmitError> errors;
};

Plan plan_header(const model::HeaderModel& header);

/// The spec the generated factory builds for the tool, without its invoker and listing: what the
/// runtime lists, renders and counts (the token report) for it.
ptc::ToolSpec tool_spec(const ToolPlan& t);

/// The refinements the generated decoder checks on a value of `type` beyond what its codec checks:
/// `value` (a field's or parameter's value schema, unwrapped from [:maybe]) when it refines more than
/// the type alone does, else nothing.
std::optional<ptc::Schema> extra_check(const ptc::Schema& value, const model::Type& type,
                                       const model::HeaderModel& header);

}  // namespace ptcgen::emit
