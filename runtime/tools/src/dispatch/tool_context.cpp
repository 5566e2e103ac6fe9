#include <ptc/filesystem.hpp>
#include <ptc/session.hpp>
#include <ptc/tool_context.hpp>

namespace ptc {

SessionResources& ToolContext::resources() const { return session_.resources(); }

Filesystem& ToolContext::filesystem() const {
  if (auto* fs = resources().find<Filesystem>()) return *fs;
  throw MissingResourceError("No filesystem is registered.");
}

BudgetTracker& ToolContext::budget_tracker() const {
  if (auto* tracker = resources().find<BudgetTracker>()) return *tracker;
  throw MissingResourceError("No budget tracker is registered.");
}

void ToolContext::report_progress(double progress, std::optional<double> total, std::string_view message) const {
  beat();
  if (environment_.progress) environment_.progress(progress, total, message);
}

}  // namespace ptc
