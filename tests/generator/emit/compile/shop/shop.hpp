#pragma once
// The header the compile test's model (write_fixture.cpp) describes: what ptc-gen's extractor would
// read from it. The annotations expand to nothing here; they show which model entry is which.

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <string_view>
#include <tuple>
#include <variant>
#include <vector>

#include <ptc/annotate.hpp>
#include <ptc/tool_context.hpp>
#include <ptc/tool_result.hpp>

namespace shop {

enum class Priority { low, high };

struct Issue {
  PTC_DOC("Tracker-wide id") std::int64_t id = 0;
  PTC_PATTERN("^[A-Z]") std::string title;
  std::optional<std::string> assignee;
  PTC_FIREWALL std::string email;
};

/// Finds issues by text.
PTC_TOOL() std::vector<Issue> search(std::string_view query, PTC_RANGE(1, 50) int limit = 10);
/// Files an issue.
PTC_TOOL() Issue create(ptc::ToolContext& context, Issue issue, Priority priority);

class Tracker {
 public:
  /// Counts open issues.
  PTC_TOOL() std::size_t count() const;
  /// Forgets every issue.
  PTC_TOOL() void reset();

 private:
  std::size_t open_ = 3;
};

/// Counts words.
PTC_TOOL()
std::map<std::string, int> tally(std::span<const std::string> words, PTC_RANGE(1, 100) std::optional<int> min_count);
/// Says what an issue is about.
PTC_TOOL() ptc::ToolResult<std::string> describe(const Issue& issue, bool loud = false);
/// Picks a value.
PTC_TOOL()
std::variant<std::monostate, int, std::string> pick(std::tuple<int, std::string> pair, std::set<std::string> tags);
/// Waits a while.
// clang-format 14 takes the two markers for calls and moves the return type back and forth between runs.
// clang-format off
PTC_TOOL() PTC_SIGNATURE("(delay_ms :int, retries :int[0..5]) -> :int")
std::chrono::milliseconds wait(std::chrono::milliseconds delay, unsigned retries);
// clang-format on

}  // namespace shop
