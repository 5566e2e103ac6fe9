// Definitions of the functions declared in cases/containers.hpp.
#include "cases/containers.hpp"

#include <numeric>

namespace golden::containers {

std::int64_t sum(std::span<const std::int64_t> values) {
  return std::accumulate(values.begin(), values.end(), std::int64_t{0});
}

Bag store(const Bag& bag) {
  Bag copy;
  copy.numbers = bag.numbers;
  copy.names = bag.names;
  copy.samples = bag.samples;
  copy.rgb = bag.rgb;
  copy.tags = bag.tags;
  copy.ids = bag.ids;
  copy.counts = bag.counts;
  copy.groups = bag.groups;
  copy.note = bag.note;
  if (bag.boxed) copy.boxed = std::make_unique<int>(*bag.boxed);
  copy.shared = bag.shared;
  copy.entry = bag.entry;
  copy.triple = bag.triple;
  copy.id_or_key = bag.id_or_key;
  copy.maybe_number = bag.maybe_number;
  copy.extra = bag.extra;
  return copy;
}

std::map<std::string, std::int64_t> count_words(const std::vector<std::string>& words) {
  std::map<std::string, std::int64_t> counts;
  for (const auto& w : words) ++counts[w];
  return counts;
}

}  // namespace golden::containers
