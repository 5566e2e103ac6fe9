#pragma once
// Validation with lenient input coercion (docs/validation.md).

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include <ptc/schema.hpp>

namespace ptc {

enum class Mode {
  Enabled,   ///< coerce input (with warnings), strict output, extra fields allowed and kept
  WarnOnly,  ///< like Enabled, but errors are reported as warnings and the result is ok
  Strict,    ///< no coercion, extra fields rejected
  Disabled,  ///< no validation: the value passes through untouched
};

/// Input = tool arguments from an LLM (lenient); Output = values a tool returns (strict).
enum class Direction { Input, Output };

struct ValidateOptions {
  Direction direction = Direction::Output;
  Mode mode = Mode::Enabled;
  /// Tool arguments: in the input direction outside strict mode, a field a map does not declare is
  /// dropped with the warning `unexpected field (ignored)` (and a "did you mean" when a declared name is
  /// close), as generated decoders do. Off (prompt and command params), such a field is kept as given.
  bool drop_undeclared = false;
};

/// One finding. `path` looks like `results[0].customer.id`; the value itself is `(root)`.
struct Issue {
  std::string path;
  std::string message;
  friend bool operator==(const Issue&, const Issue&) = default;
};

struct Validation {
  bool ok = true;
  /// The coerced value (validate_and_coerce only; null after plain validate). Parts that failed keep
  /// the value as given.
  nlohmann::json value;
  std::vector<Issue> errors;    ///< every error, in traversal order
  std::vector<Issue> warnings;  ///< coercions made (and, in WarnOnly, the errors)

  /// The text fed back to the LLM:
  /// "Tool validation errors:\n- path: msg\n" then "\nTool validation warnings:\n- path: msg\n".
  /// Empty when there is nothing to report.
  std::string report() const;
};

/// Checks `value` against `schema` (by default as a tool's result: strict); in the input direction it
/// reports the coercions it would make as warnings.
Validation validate(const Schema& schema, const nlohmann::json& value, ValidateOptions options = {});
/// Checks and coerces, returning the coerced value in `Validation::value`. As its name says, the
/// default is the input direction (tool arguments, coerced leniently); pass
/// `{.direction = Direction::Output}` to check a result strictly and get a copy of it.
Validation validate_and_coerce(const Schema& schema, const nlohmann::json& value,
                               ValidateOptions options = {.direction = Direction::Input});
/// The same for a value the caller gives up: what passes unchanged is moved into the result rather than
/// copied (a tool call's arguments, parsed for this call only, are never held twice). `value` is left
/// valid but unspecified.
Validation validate_and_coerce(const Schema& schema, nlohmann::json&& value,
                               ValidateOptions options = {.direction = Direction::Input});

/// "enabled", "warn_only", "strict", "disabled".
std::string_view mode_name(Mode m);
std::optional<Mode> mode_from_name(std::string_view name);

}  // namespace ptc
