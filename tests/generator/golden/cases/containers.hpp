#pragma once
// The container rows of docs/codecs.md, "Types".

#include <array>
#include <cstdint>
#include <deque>
#include <list>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <tuple>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <variant>
#include <vector>

#include <nlohmann/json.hpp>

#include <ptc/annotate.hpp>

namespace golden::containers {

struct Bag {
  std::vector<int> numbers;
  std::list<std::string> names;
  std::deque<double> samples;
  std::array<int, 3> rgb;
  std::set<std::string> tags;
  std::unordered_set<std::int64_t> ids;
  std::map<std::string, int> counts;
  std::unordered_map<std::string, std::vector<std::string>> groups;
  std::optional<std::string> note;
  std::unique_ptr<int> boxed;
  std::shared_ptr<std::string> shared;
  std::pair<std::string, int> entry;
  std::tuple<int, std::string, bool> triple;
  std::variant<std::int64_t, std::string> id_or_key;
  std::variant<std::monostate, double> maybe_number;
  nlohmann::json extra;
};

/// Sums a list of numbers given as a span.
PTC_TOOL() std::int64_t sum(std::span<const std::int64_t> values);

/// Stores a bag and returns it unchanged.
PTC_TOOL() Bag store(const Bag& bag);

/// Counts words.
PTC_TOOL() std::map<std::string, std::int64_t> count_words(const std::vector<std::string>& words);

}  // namespace golden::containers
