#include "shop/shop.hpp"

#include <cctype>

namespace shop {

std::vector<Issue> search(std::string_view query, int limit) {
  std::vector<Issue> out;
  for (int i = 1; i <= limit; ++i)
    out.push_back({i, "Issue " + std::to_string(i) + " " + std::string(query), {}, "x@y.z"});
  return out;
}

Issue create(ptc::ToolContext&, Issue issue, Priority priority) {
  issue.id = priority == Priority::high ? 1 : 100;
  return issue;
}

std::size_t Tracker::count() const { return open_; }
void Tracker::reset() { open_ = 0; }

std::map<std::string, int> tally(std::span<const std::string> words, std::optional<int> min_count) {
  std::map<std::string, int> counts;
  for (const auto& w : words) ++counts[w];
  std::erase_if(counts, [&](const auto& kv) { return kv.second < min_count.value_or(1); });
  return counts;
}

ptc::ToolResult<std::string> describe(const Issue& issue, bool loud) {
  if (issue.title.empty()) return ptc::ToolResult<std::string>::error("no title");
  std::string text = issue.title;
  if (loud)
    for (auto& c : text) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return ptc::ToolResult<std::string>::ok(text, "described");
}

std::variant<std::monostate, int, std::string> pick(std::tuple<int, std::string> pair, std::set<std::string> tags) {
  if (tags.count("number")) return std::get<0>(pair);
  if (tags.count("text")) return std::get<1>(pair);
  return std::monostate{};
}

std::chrono::milliseconds wait(std::chrono::milliseconds delay, unsigned retries) { return delay * (retries + 1); }

}  // namespace shop
