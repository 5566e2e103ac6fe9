#pragma once
// A small issue tracker exposed to an LLM. Nothing here knows about JSON: ptc-gen reads these
// declarations and generates the schemas, decoders and registration (see CMakeLists.txt).

#include <chrono>
#include <cstdint>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include <ptc/annotate.hpp>
#include <ptc/tool_context.hpp>
#include <ptc/tool_result.hpp>

namespace tracker {

using IssueId = std::int64_t;
using Clock = std::chrono::system_clock;

enum class Status { open, in_progress, closed };
enum class Priority { low, medium, high, urgent };

struct Person {
  std::string name;
  /// Kept for the C++ side; the model sees "<Firewalled>".
  PTC_FIREWALL std::string email;
};

struct Comment {
  std::string author;
  std::string text;
  Clock::time_point created_at;
};

struct Issue {
  IssueId id = 0;
  std::string key;  ///< "PTC-12"
  std::string title;
  Status status = Status::open;
  Priority priority = Priority::medium;
  std::optional<Person> assignee;
  std::vector<std::string> labels;
  std::vector<Comment> comments;
  Clock::time_point created_at;
};

struct SearchResult {
  std::vector<Issue> issues;
  std::int64_t total = 0;  ///< matches before the limit
};

/// An issue's number (12) or its key ("PTC-12").
using IssueRef = std::variant<IssueId, std::string>;

/// What delete_issue asks the user (MCP elicitation). PTC_ANSWER makes its codec and schema public, which
/// `context.elicit<Confirm>(...)` needs.
struct PTC_ANSWER Confirm {
  /// Delete the issue for good?
  bool confirm = false;
};

/// Guesses a priority from a title: "crash" and "data loss" are urgent, "typo" is low.
PTC_TOOL()
PTC_TITLE("Suggest a priority") PTC_READ_ONLY PTC_IDEMPOTENT Priority suggest_priority(std::string_view title);

class Tracker {
 public:
  /// `now` is the clock new issues and comments are stamped with.
  explicit Tracker(std::function<Clock::time_point()> now = [] { return Clock::now(); });

  /// Creates an issue and returns it.
  /// \param title One-line summary.
  /// \param labels Labels to attach, e.g. "bug".
  PTC_TOOL()
  PTC_ADDITIVE Issue create_issue(std::string title, Priority priority = Priority::medium,
                                  std::vector<std::string> labels = {});

  /// Finds issues whose title contains the query, newest first.
  /// \param query Text to look for (case-insensitive); empty matches everything.
  /// \param status Only issues in this state.
  /// \param limit At most this many issues.
  PTC_TOOL()
  PTC_READ_ONLY SearchResult search_issues(std::string query, std::optional<Status> status = std::nullopt,
                                           PTC_RANGE(1, 50) int limit = 10) const;

  /// Assigns an issue to a person.
  PTC_TOOL() PTC_IDEMPOTENT Issue assign(IssueRef issue, Person assignee);

  /// Adds a comment to an issue, written by the agent making the call.
  PTC_TOOL()
  PTC_ADDITIVE ptc::ToolResult<Comment> add_comment(ptc::ToolContext& context, IssueRef issue, std::string text);

  /// Closes an issue; closing a closed issue is an error the model can read.
  PTC_TOOL()
  PTC_DESTRUCTIVE ptc::ToolResult<Issue> close_issue(IssueRef issue, std::optional<std::string> reason = std::nullopt);

  /// Deletes an issue for good, once the user confirms; a client that cannot ask its user gets an error.
  PTC_TOOL() PTC_DESTRUCTIVE ptc::ToolResult<std::string> delete_issue(ptc::ToolContext& context, IssueRef issue);

  /// Asks the client's model for a one-line summary of an issue.
  PTC_TOOL()
  PTC_READ_ONLY PTC_OPEN_WORLD ptc::ToolResult<std::string> summarize_issue(ptc::ToolContext& context,
                                                                            IssueRef issue) const;

  /// An issue, as JSON.
  /// \param key Its key, e.g. "PTC-1".
  PTC_RESOURCE("tracker://issues/{key}") PTC_COMPLETE(key, issue_keys) Issue issue(std::string key) const;

  /// The labels in use, sorted.
  PTC_RESOURCE("tracker://labels") std::vector<std::string> labels() const;

  /// Asks the model to triage an issue: a priority, labels and the next step.
  /// \param issue The issue's key, e.g. "PTC-1".
  PTC_PROMPT() PTC_COMPLETE(issue, issue_keys) std::string triage(std::string issue) const;

  /// The keys of the issues that start with what the user typed, for completing `issue` and `key`.
  std::vector<std::string> issue_keys(std::string_view typed) const;

 private:
  Issue& find(const IssueRef& ref);
  const Issue& find(const IssueRef& ref) const;

  std::function<Clock::time_point()> now_;
  // Tools may be called from several threads at once (an MCP server over HTTP serves each client's
  // calls on its own), so every tool holds the lock.
  mutable std::mutex mutex_;
  std::vector<Issue> issues_;
  IssueId next_id_ = 1;  // ids are never reused, deleted issues' included
};

}  // namespace tracker
