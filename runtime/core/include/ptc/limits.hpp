#pragma once
// The default limits on untrusted input, in one place. docs/limits.md lists each with what happens
// when it is reached; every limit is checked before the work it bounds.

#include <cstddef>

namespace ptc::limits {

/// Bytes of a file the runtime or the CLI reads: `@FILE` arguments, settings.json, command files.
inline constexpr std::size_t kFileBytes = std::size_t{16} << 20;

/// Bytes of one tool call's argument text (JSON) before it is parsed.
inline constexpr std::size_t kArgumentBytes = std::size_t{4} << 20;

/// Bytes the tool calls in flight may reserve for their arguments, together (MemoryBudget::process(),
/// DispatchOptions::memory_budget): about sixteen calls at the argument limit at once.
inline constexpr std::size_t kCallMemoryBytes = std::size_t{512} << 20;

/// Bytes of a command file's YAML frontmatter.
inline constexpr std::size_t kFrontmatterBytes = std::size_t{256} << 10;

/// Errors listed in one report fed back to the model; the rest are counted in one line.
inline constexpr std::size_t kReportedErrors = 20;

/// Issues a Validation (and a generated decoder's report) stores in each of its lists, errors and
/// warnings: the first ones in the validator's order. Those beyond are counted, not stored
/// (Validation::more_errors, more_warnings), so that a call with hundreds of thousands of bad or
/// undeclared fields costs a count, not an issue each. At least kReportedErrors.
inline constexpr std::size_t kStoredIssues = 100;
static_assert(kStoredIssues >= kReportedErrors);

/// Events a Session keeps in each of its logs (`log<E>()`); older ones are dropped, so a long-running
/// server's memory stays flat. SessionOptions::log_limit changes it per session.
inline constexpr std::size_t kSessionLogEntries = 1000;

}  // namespace ptc::limits
