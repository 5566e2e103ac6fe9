#pragma once
// Typed answers: the value read leniently out of what a model wrote, and the feedback that asks it
// again when the value does not hold. Internal to ptc::agent.

#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include <ptc/error.hpp>
#include <ptc/schema.hpp>
#include <ptc/validate.hpp>

namespace ptc::agent::detail {

struct ReadAnswer {
  nlohmann::json value;
  std::vector<std::string> warnings;  ///< how the value was found, when not as the whole text
};

/// The JSON value in a model's answer text, read the way models write it: the whole text; a JSON string
/// holding the value; the body of a markdown code fence; the outermost `{...}` or `[...]` with prose
/// around it. For a string answer type, text that is no JSON is the value itself. An Error when no
/// reading gives a value.
Result<ReadAnswer> read_answer(std::string_view text, const Schema& schema);

/// The answer checked and coerced (quoted numbers and the like, with warnings) against `schema`.
struct CheckedAnswer {
  bool ok = false;
  nlohmann::json value;
  std::vector<std::string> warnings;
  std::vector<std::string> errors;  ///< "path: message", at most limits::kReportedErrors
  std::size_t more_errors = 0;
};
CheckedAnswer check_answer(std::string_view text, const Schema& schema);

/// What the model is told when its answer does not hold: the errors with their paths, the expected
/// type in signature syntax, which retry this is, and that no tools are offered in the turn.
std::string answer_feedback(const CheckedAnswer& checked, const Schema& schema, int retry, int retries);

/// The instruction added to the task when an answer type is asked for and the provider has no
/// structured output: the type in signature syntax.
std::string answer_instruction(const Schema& schema);

}  // namespace ptc::agent::detail
