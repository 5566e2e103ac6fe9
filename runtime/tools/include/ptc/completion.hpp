#pragma once
// ptc::Completer — suggestions for one argument of a prompt or one variable of a resource template, as
// a client asks for them while its user types (MCP `completion/complete`). Enums and bools complete
// from their values with no code; a function can supply its own.
//
//   options.completers["key"] = [&](const ptc::CompletionRequest& r) { return tracker.keys_starting(r.value); };

#include <cstddef>
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include <ptc/schema.hpp>

namespace ptc {

struct CompletionRequest {
  std::string_view argument;  ///< the argument (or template variable) being completed
  std::string_view value;     ///< what the user typed so far
  /// Arguments (or variables) the client has already resolved, by name.
  const std::map<std::string, std::string, std::less<>>* context = nullptr;
};

/// Returns the values that complete `request.value`, best first. Whatever it returns is capped at
/// Completion::kMaxValues.
using Completer = std::function<std::vector<std::string>(const CompletionRequest& request)>;

/// Completers by argument name.
using Completers = std::map<std::string, Completer, std::less<>>;

struct Completion {
  /// MCP allows at most 100 values in one answer.
  static constexpr std::size_t kMaxValues = 100;
  std::vector<std::string> values;
  std::size_t total = 0;  ///< how many values matched, kept or not
  bool has_more = false;  ///< total > values.size()
};

/// The completion of `request.value` for an argument of type `schema`: the completer's values when
/// there is one, else the schema's own (an enum's values, `true`/`false` for a bool, those of the
/// type inside a [:maybe]) that start with what was typed, in the schema's order. Nothing for other
/// types.
Completion complete(const Schema& schema, const Completer* completer, const CompletionRequest& request);

}  // namespace ptc
