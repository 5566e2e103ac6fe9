// suggest_priority as examples/quickstart/src/tracker.cpp has it; bench/mcp/node/server.mjs does the
// same work, so the MCP benchmark compares the servers and not the tools.
#include <algorithm>
#include <cctype>
#include <string>

#include "bench/priority.hpp"

namespace bench {
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

}  // namespace bench
