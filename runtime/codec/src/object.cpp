// The order of issues in objects, maps, tuples, sets and unions: nlohmann::json objects are std::maps,
// so the validator sees keys sorted and each key once, while simdjson reads them as written.

#include <ptc/codec/codec.hpp>
#include <ptc/coercion.hpp>

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

void KeyedIssues::add(Decoder::Mark begin, Decoder::Mark end, std::size_t rank, std::string_view key, bool ok) {
  entries_.push_back({{begin, end, rank, key}, ok});
}

bool KeyedIssues::finish() {
  if (entries_.empty()) return true;
  bool ok = true;
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
  if (!in_order) d_.reorder(from_, spans);
  return ok;
}

void missing_field(Decoder& d, KeyedIssues& issues, std::size_t rank, std::string_view name) {
  const auto begin = d.mark();
  d.push(name);
  d.error(std::string(coercion::kMissingField));
  d.pop();
  issues.close(begin, rank, name, false);
}

void wrong_length(Decoder& d, Decoder::Mark from, std::size_t expected, std::size_t got) {
  const auto items = d.mark();
  d.error(coercion::wrong_length(expected, got));
  std::vector<Decoder::Span> spans{{items, d.mark(), 0, {}}, {from, items, 1, {}}};
  d.reorder(from, spans);
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
    for (auto& w : coerced->take_warnings()) d.adopt_warning(std::move(w));
    return true;
  }
  if (closest) {
    for (auto& w : closest->take_warnings()) d.adopt_warning(std::move(w));
    const std::vector<bool> refusals = closest->refusals();
    auto errors = closest->take_errors();
    for (std::size_t i = 0; i < errors.size(); ++i) d.adopt_error(std::move(errors[i]), refusals[i]);
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
