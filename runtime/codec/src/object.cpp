// The order of issues in objects, maps, tuples, sets and unions: nlohmann::json objects are std::maps,
// so the validator sees keys sorted and each key once, while simdjson reads them as written.

#include <ptc/codec/codec.hpp>
#include <ptc/coercion.hpp>

#include <algorithm>

#include <ptc/limits.hpp>

#include "key_set.hpp"
#include "read.hpp"
#include "text.hpp"

namespace ptc::codec::detail {

std::size_t find_field(std::span<const FieldInfo> fields, std::string_view key, std::size_t hint) {
  const std::size_t n = fields.size();
  for (std::size_t k = 0; k < n; ++k) {
    const std::size_t i = hint + k < n ? hint + k : hint + k - n;
    if (same_key(fields[i].name, key)) return i;
  }
  return n;
}

std::size_t find_raw_key(std::span<const FieldInfo> fields, const KeyWord* words, const char* raw, std::size_t hint) {
  const std::size_t n = fields.size();
  const std::uint64_t first = word_at(raw);
  // From the hint to the end, then from the start: two plain loops, the tightest form of the search.
  for (std::size_t i = hint; i < n; ++i)
    if (raw_key_is(first, raw, fields[i], words[i])) return i;
  for (std::size_t i = 0; i < hint && i < n; ++i)
    if (raw_key_is(first, raw, fields[i], words[i])) return i;
  return n;
}

void duplicate_key(Decoder& d, std::string_view key) { throw InvalidJson(coercion::duplicate_key(key, d.path())); }

struct SeenKeys::Keys {
  text::KeySet set;
};

SeenKeys::SeenKeys() noexcept = default;
SeenKeys::~SeenKeys() = default;

bool SeenKeys::insert(std::string_view key) {
  if (!keys_) keys_ = std::make_unique<Keys>();
  return keys_->set.insert(key);
}

bool unknown_field(Decoder& d, Value& v, std::span<const FieldInfo> fields, std::string_view key) {
  skip(d, v);
  if (d.mode() != Mode::Strict) {
    std::vector<std::string_view> declared;
    declared.reserve(fields.size());
    for (const auto& f : fields) declared.push_back(f.name);
    d.warn(coercion::ignored_field(key, declared));
    return true;
  }
  d.error(std::string(coercion::kUnexpectedField));
  return false;
}

namespace {

constexpr std::size_t kPruneAt = 4 * limits::kStoredIssues;

Decoder::Mark plus(Decoder::Mark before, Decoder::Mark to, Decoder::Mark from) {
  return {before.errors + (to.errors - from.errors), before.warnings + (to.warnings - from.warnings),
          before.refused + (to.refused - from.refused)};
}

}  // namespace

KeyedIssues::KeyedIssues(Decoder& d)
    : d_(d),
      from_(d.mark()),
      outer_(d.span()),
      outer_before_(d.before()),
      inner_before_(plus(outer_before_, from_, outer_)),
      prune_at_(kPruneAt) {}

void KeyedIssues::add(Decoder::Mark begin, Decoder::Mark end, std::size_t rank, std::string_view key, bool ok) {
  entries_.push_back({{begin, end, rank, key}, ok});
  if (entries_.size() >= prune_at_) prune();
}

// Puts the issues so far in key order and keeps the first of each kind: those past them stay past
// them whatever keys come later. The keys left without issues are dropped, their `ok` kept.
void KeyedIssues::prune() {
  std::vector<Decoder::Span> spans;
  spans.reserve(entries_.size());
  for (const auto& e : entries_) spans.push_back(e.span);
  d_.reorder(from_, spans, true);
  std::vector<Entry> kept;
  for (std::size_t i = 0; i < entries_.size(); ++i) {
    if (spans[i].begin == spans[i].end) {
      ok_ = ok_ && entries_[i].ok;
    } else {
      kept.push_back({spans[i], entries_[i].ok});
    }
  }
  // In the order their issues now are.
  std::sort(kept.begin(), kept.end(), [](const Entry& a, const Entry& b) {
    return a.span.begin.errors != b.span.begin.errors ? a.span.begin.errors < b.span.begin.errors
                                                      : a.span.begin.warnings < b.span.begin.warnings;
  });
  entries_ = std::move(kept);
  prune_at_ = std::max(kPruneAt, 2 * entries_.size());
}

bool KeyedIssues::finish() {
  d_.set_span(outer_, outer_before_);
  if (entries_.empty()) return ok_;
  bool ok = ok_;
  bool in_order = true;
  std::vector<Decoder::Span> spans;
  spans.reserve(entries_.size());
  for (const auto& e : entries_) {
    ok &= e.ok;
    if (!spans.empty()) {
      const auto& last = spans.back();
      if (last.rank > e.span.rank || (last.rank == e.span.rank && !(last.key < e.span.key))) in_order = false;
    }
    spans.push_back(e.span);
  }
  const auto end = d_.mark();
  const bool many =
      end.errors - from_.errors > limits::kStoredIssues || end.warnings - from_.warnings > limits::kStoredIssues;
  if (!in_order || many) d_.reorder(from_, spans, many);
  return ok;
}

void missing_field(Decoder& d, KeyedIssues& issues, std::size_t rank, std::string_view name) {
  const auto begin = issues.open();
  d.push(name);
  d.error(std::string(coercion::kMissingField));
  d.pop();
  issues.close(begin, rank, name, false);
}

void wrong_length(Decoder& d, Decoder::Mark from, std::size_t expected, std::size_t got) {
  d.error_at(from, coercion::wrong_length(expected, got));
}

void report_duplicates(Decoder& d, const std::vector<std::pair<std::size_t, std::size_t>>& duplicates) {
  for (const auto& [i, first] : duplicates) {
    d.push(i);
    d.error(coercion::duplicate_item(first));
    d.pop();
  }
}

bool union_outcome(Decoder& d, Decoder* coerced, Decoder* closest, std::string_view raw, const std::string& type_name,
                   bool refused) {
  if (coerced) {
    d.adopt_warnings(*coerced);
    return true;
  }
  if (closest) {
    d.adopt_warnings(*closest);
    d.adopt_errors(*closest, false);
    return false;
  }
  nlohmann::json got;
  decode_root(raw, false, [&](Value& v) {
    got = given(d, v);
    return true;
  });
  if (refused) {
    d.refuse(coercion::expected(type_name, got));
  } else {
    d.error(coercion::expected(type_name, got));
  }
  return false;
}

}  // namespace ptc::codec::detail
