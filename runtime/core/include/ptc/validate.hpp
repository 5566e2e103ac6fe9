#pragma once
// Validation with lenient input coercion (docs/validation.md).

#include <cstddef>
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
  /// The first errors, in traversal order: at most limits::kStoredIssues of them; `more_errors` counts
  /// the rest, which are not stored (error_count() is all of them). A caller that lists issues lists
  /// these and says how many more there are, as report() does.
  std::vector<Issue> errors;
  /// The first warnings: coercions made, undeclared fields dropped (and, in WarnOnly, the errors);
  /// capped as `errors` is, the rest counted in `more_warnings`.
  std::vector<Issue> warnings;
  std::size_t more_errors = 0;    ///< errors found beyond those stored in `errors`
  std::size_t more_warnings = 0;  ///< warnings found beyond those stored in `warnings`

  std::size_t error_count() const { return errors.size() + more_errors; }
  std::size_t warning_count() const { return warnings.size() + more_warnings; }
  /// Appends an issue found after those recorded so far: stored while the list holds fewer than
  /// limits::kStoredIssues (and nothing was counted past it), counted otherwise.
  void add_error(Issue issue);
  void add_warning(Issue issue);

  /// The text fed back to the LLM:
  /// "Tool validation errors:\n- path: msg\n" then "\nTool validation warnings:\n- path: msg\n",
  /// each section listing at most limits::kReportedErrors issues and then "- ... and N more\n" (N from
  /// the counts, so it is exact however many were stored). Empty when there is nothing to report.
  std::string report() const;
};

/// The undeclared members of an arguments object that a parse declined to build
/// (JsonParseOptions::keep), as validation reports them: how many there are and the names that sort
/// first (the issues a Validation stores), in a few kilobytes however many there are.
class DroppedFields {
 public:
  void add(std::string_view name);
  std::size_t size() const { return count_; }
  /// The names that sort first (as nlohmann::json orders an object's keys), at most
  /// limits::kStoredIssues of them, in order.
  std::vector<std::string> first() const;

 private:
  std::vector<std::string> heap_;  // a max-heap of the smallest names
  std::size_t count_ = 0;
};

/// Reports `dropped`, undeclared members of arguments validated against `params` (a map), as
/// validate_and_coerce(params, arguments, {Direction::Input, mode, drop_undeclared = true}) reports
/// them when they are in the object: after every other issue, in key order, `unexpected field
/// (ignored)` warnings (with "did you mean"), `unexpected field` errors in Strict mode (`ok` becomes
/// false), nothing in Disabled mode. Dispatch uses it for arguments parsed without those members.
void report_dropped_fields(Validation& validation, const Schema& params, const DroppedFields& dropped, Mode mode);

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
