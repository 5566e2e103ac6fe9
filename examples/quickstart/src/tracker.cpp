#include "tracker/tracker.hpp"

#include <algorithm>
#include <cctype>
#include <mutex>
#include <stdexcept>

namespace tracker {
namespace {

std::string lower(std::string_view text) {
  std::string out(text);
  std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return std::tolower(c); });
  return out;
}

bool contains(std::string_view haystack, std::string_view needle) {
  return lower(haystack).find(lower(needle)) != std::string::npos;
}

}  // namespace

Priority suggest_priority(std::string_view title) {
  if (contains(title, "crash") || contains(title, "data loss")) return Priority::urgent;
  if (contains(title, "typo") || contains(title, "cosmetic")) return Priority::low;
  if (contains(title, "slow") || contains(title, "broken")) return Priority::high;
  return Priority::medium;
}

Tracker::Tracker(std::function<Clock::time_point()> now) : now_(std::move(now)) {}

Issue Tracker::create_issue(std::string title, Priority priority, std::vector<std::string> labels) {
  std::lock_guard lock(mutex_);
  if (title.empty()) throw std::invalid_argument("An issue needs a title.");
  Issue issue;
  issue.id = static_cast<IssueId>(issues_.size()) + 1;
  issue.key = "PTC-" + std::to_string(issue.id);
  issue.title = std::move(title);
  issue.priority = priority;
  issue.labels = std::move(labels);
  issue.created_at = now_();
  issues_.push_back(issue);
  return issue;
}

SearchResult Tracker::search_issues(std::string query, std::optional<Status> status, int limit) const {
  std::lock_guard lock(mutex_);
  SearchResult result;
  for (auto it = issues_.rbegin(); it != issues_.rend(); ++it) {
    if (status && it->status != *status) continue;
    if (!contains(it->title, query)) continue;
    ++result.total;
    if (static_cast<int>(result.issues.size()) < limit) result.issues.push_back(*it);
  }
  return result;
}

Issue& Tracker::find(const IssueRef& ref) {
  for (auto& issue : issues_) {
    if (const auto* id = std::get_if<IssueId>(&ref); id && issue.id == *id) return issue;
    if (const auto* key = std::get_if<std::string>(&ref); key && issue.key == *key) return issue;
  }
  // Dispatch turns the exception into a failed result the model reads.
  throw std::out_of_range("No such issue.");
}

Issue Tracker::assign(IssueRef issue, Person assignee) {
  std::lock_guard lock(mutex_);
  Issue& found = find(issue);
  found.assignee = std::move(assignee);
  if (found.status == Status::open) found.status = Status::in_progress;
  return found;
}

ptc::ToolResult<Comment> Tracker::add_comment(ptc::ToolContext& context, IssueRef issue, std::string text) {
  std::lock_guard lock(mutex_);
  Issue& found = find(issue);
  Comment comment{context.call_id().empty() ? "agent" : "agent (" + context.call_id() + ")", std::move(text), now_()};
  found.comments.push_back(comment);
  return ptc::ToolResult<Comment>::ok(comment, "Comment added to " + found.key + ".");
}

ptc::ToolResult<Issue> Tracker::close_issue(IssueRef issue, std::optional<std::string> reason) {
  std::lock_guard lock(mutex_);
  Issue& found = find(issue);
  if (found.status == Status::closed) return ptc::ToolResult<Issue>::error(found.key + " is already closed.");
  found.status = Status::closed;
  if (reason) found.comments.push_back({"agent", "Closed: " + *reason, now_()});
  return ptc::ToolResult<Issue>::ok(found);
}

}  // namespace tracker
