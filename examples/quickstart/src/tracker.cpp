#include "tracker/tracker.hpp"

#include <algorithm>
#include <cctype>
#include <mutex>
#include <set>
#include <stdexcept>

#include <ptc/codec/elicit.hpp>

#include "tracker.ptc.hpp"  // Confirm's codec and schema, which elicit<Confirm> asks with

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

const char* name(Status status) {
  switch (status) {
    case Status::open: return "open";
    case Status::in_progress: return "in progress";
    case Status::closed: return "closed";
  }
  return "";
}

const char* name(Priority priority) {
  switch (priority) {
    case Priority::low: return "low";
    case Priority::medium: return "medium";
    case Priority::high: return "high";
    case Priority::urgent: return "urgent";
  }
  return "";
}

/// `PTC-1 "Crash when saving an empty file" (open, urgent priority, labels: bug)`: an issue for a model
/// to read.
std::string describe(const Issue& issue) {
  std::string labels;
  for (const auto& label : issue.labels) labels += (labels.empty() ? "" : ", ") + label;
  return issue.key + " \"" + issue.title + "\" (" + name(issue.status) + ", " + name(issue.priority) +
         " priority, labels: " + (labels.empty() ? "none" : labels) + ")";
}

template <class Issues>
auto& find_in(Issues& issues, const IssueRef& ref) {
  for (auto& issue : issues) {
    if (const auto* id = std::get_if<IssueId>(&ref); id && issue.id == *id) return issue;
    if (const auto* key = std::get_if<std::string>(&ref); key && issue.key == *key) return issue;
  }
  // Dispatch turns the exception into a failed result the model reads.
  throw std::out_of_range("No such issue.");
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
  issue.id = next_id_++;
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

Issue& Tracker::find(const IssueRef& ref) { return find_in(issues_, ref); }
const Issue& Tracker::find(const IssueRef& ref) const { return find_in(issues_, ref); }

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

namespace tracker {

ptc::ToolResult<std::string> Tracker::delete_issue(ptc::ToolContext& context, IssueRef issue) {
  using Result = ptc::ToolResult<std::string>;
  std::string key;
  {
    // Only read before asking: under MCP 2026-07-28 the handler runs again from the start once the user
    // has answered. Nor is the lock held while the user makes up their mind.
    std::lock_guard lock(mutex_);
    key = find(issue).key;
  }
  auto answer = context.elicit<Confirm>("Delete " + key + " for good? This cannot be undone.");
  if (!answer) return Result::error(key + " was not deleted: " + answer.error().message);
  if (!answer->accepted() || !answer->value->confirm) {
    const char* why = answer->action == ptc::ElicitAction::decline  ? "declined"
                      : answer->action == ptc::ElicitAction::cancel ? "cancelled"
                                                                    : "did not confirm";
    return Result::error(key + " was not deleted: the user " + why + ".");
  }
  std::lock_guard lock(mutex_);
  auto it = std::find_if(issues_.begin(), issues_.end(), [&](const Issue& i) { return i.key == key; });
  if (it == issues_.end()) return Result::error(key + " was deleted meanwhile.");
  issues_.erase(it);
  return Result::ok("Deleted " + key + ".");
}

ptc::ToolResult<std::string> Tracker::summarize_issue(ptc::ToolContext& context, IssueRef issue) const {
  ptc::SamplingRequest request;
  std::string key;
  {
    std::lock_guard lock(mutex_);
    const Issue& found = find(issue);
    key = found.key;
    request.messages.push_back({"user", "Summarize this issue in one line: " + describe(found)});
  }
  request.system_prompt = "You summarize the issues of a tracker in one line, without a preamble.";
  request.max_tokens = 100;
  auto sample = context.sample(std::move(request));
  if (!sample) return ptc::ToolResult<std::string>::error("Cannot summarize " + key + ": " + sample.error().message);
  return ptc::ToolResult<std::string>::ok(sample->text);
}

Issue Tracker::issue(std::string key) const {
  std::lock_guard lock(mutex_);
  return find(key);
}

std::vector<std::string> Tracker::labels() const {
  std::lock_guard lock(mutex_);
  std::set<std::string> in_use;
  for (const auto& issue : issues_) in_use.insert(issue.labels.begin(), issue.labels.end());
  return {in_use.begin(), in_use.end()};
}

std::string Tracker::triage(std::string issue) const {
  std::lock_guard lock(mutex_);
  return "Triage this issue of our tracker: " + describe(find(issue)) +
         ". Suggest its priority (low, medium, high or urgent), the labels it needs and the next step, one "
         "line each.";
}

std::vector<std::string> Tracker::issue_keys(std::string_view typed) const {
  std::lock_guard lock(mutex_);
  const std::string prefix = lower(typed);
  std::vector<std::string> keys;
  for (const auto& issue : issues_)
    if (lower(issue.key).rfind(prefix, 0) == 0) keys.push_back(issue.key);
  return keys;
}

}  // namespace tracker
