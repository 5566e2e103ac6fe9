#pragma once
// Exceptions of the tool runtime. Tool *failures* are not exceptions: they are failed ToolResults the
// model reads. These are for mistakes in how tools and prompts are put together, and for the few
// conditions that must stop an evaluation (docs/tools.md).

#include <stdexcept>
#include <string>
#include <vector>

namespace ptc {

/// A tool, example, section or prompt that is built wrong (bad name, duplicate tool, placeholder that
/// names no parameter...). Thrown when the object is built, never during a call.
class DefinitionError : public std::runtime_error {
 public:
  explicit DefinitionError(std::string message, std::vector<std::string> section_path = {}, std::string field = {})
      : std::runtime_error(message),
        message_(std::move(message)),
        section_path_(std::move(section_path)),
        field_(std::move(field)) {}

  /// The message alone, e.g. "Duplicate tool name registered for prompt."
  const std::string& message() const noexcept { return message_; }
  /// Keys of the sections from the prompt root down to the offending one; empty outside a prompt.
  const std::vector<std::string>& section_path() const noexcept { return section_path_; }
  /// The offending field: "name", "description", "examples[0].input", "template", ...
  const std::string& field() const noexcept { return field_; }

 private:
  std::string message_;
  std::vector<std::string> section_path_;
  std::string field_;
};

/// The name DefinitionError had before it was thrown outside prompts too; kept for a release.
using PromptValidationError [[deprecated("use ptc::DefinitionError")]] = DefinitionError;

/// Thrown by a handler that finds its (already schema-valid) arguments unusable. Dispatch turns it into
/// the failed result "Tool validation failed: <what>".
class ToolValidationError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// Stops the evaluation instead of producing a tool result. Dispatch lets it through after restoring
/// the session.
class PromptEvaluationError : public std::runtime_error {
 public:
  explicit PromptEvaluationError(const std::string& message, std::string tool = {})
      : std::runtime_error(message), tool_(std::move(tool)) {}
  /// The tool being dispatched when the evaluation stopped, if any.
  const std::string& tool() const noexcept { return tool_; }

 private:
  std::string tool_;
};

/// The deadline passed: before the call, or inside the handler (which may throw this itself).
class DeadlineExceededError : public PromptEvaluationError {
 public:
  using PromptEvaluationError::PromptEvaluationError;
};

/// `ToolContext::resources().get<T>()` (or `filesystem()`, `budget_tracker()`) found no such resource.
class MissingResourceError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace ptc
