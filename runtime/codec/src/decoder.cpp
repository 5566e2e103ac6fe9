// ptc::codec::Decoder: paths, issues and their order.

#include <algorithm>

#include <ptc/codec/decoder.hpp>
#include <ptc/coercion.hpp>
#include <ptc/json_input.hpp>
#include <ptc/limits.hpp>

namespace ptc::codec {

Decoder::Decoder(Mode mode) : mode_(mode) {}

void Decoder::push_deep(const Segment& s) {
  deep_path_.push_back(s);
  ++path_length_;
}

std::string Decoder::path() const {
  if (path_length_ == 0) return std::string(coercion::kRootPath);
  std::string out;
  for (std::size_t i = 0; i < path_length_; ++i) {
    const Segment& seg = segment(i);
    if (seg.is_key) {
      coercion::append_key(out, seg.key);
    } else {
      coercion::append_index(out, seg.index);
    }
  }
  return out;
}

namespace {

// How many issues of a kind come before `at`: those before the innermost key and its own before `at`.
std::size_t before_at(Decoder::Mark at, Decoder::Mark span, Decoder::Mark before, bool warning, bool refusal) {
  if (warning) return before.warnings + (at.warnings - span.warnings);
  if (refusal) return before.refused + (at.refused - span.refused);
  return (before.errors - before.refused) + ((at.errors - at.refused) - (span.errors - span.refused));
}

}  // namespace

bool Decoder::room(bool warning, bool refusal) const {
  return before_at(mark(), span_, before_, warning, refusal) < limits::kStoredIssues;
}

void Decoder::store(Issue issue, bool warning, bool refusal) {
  if (!room(warning, refusal)) return count(warning, refusal, 1);
  if (warning) return warnings_.push_back(std::move(issue));
  errors_.push_back(std::move(issue));
  refusals_.push_back(refusal);
  if (refusal) ++stored_refusals_;
}

// The path is built only for an issue that is stored.
void Decoder::error(std::string message) {
  if (optimistic_) return surprise();
  if (!reporting()) return;
  const bool warning = as_warning(false);
  if (room(warning, false))
    store({path(), std::move(message)}, warning, false);
  else
    count(warning, false, 1);
}

void Decoder::refuse(std::string message) {
  if (optimistic_) return surprise();
  if (room(false, true))
    store({path(), std::move(message)}, false, true);
  else
    count(false, true, 1);
}

void Decoder::warn(std::string message) {
  if (optimistic_) return surprise();
  if (!reporting()) return;
  if (room(true, false))
    warnings_.push_back({path(), std::move(message)});
  else
    ++more_warnings_;
}

void Decoder::adopt_error(Issue issue, bool refusal) {
  if (optimistic_) return surprise();
  if (!reporting() && !refusal) return;
  store(std::move(issue), as_warning(refusal), refusal);
}

void Decoder::adopt_warning(Issue issue) {
  if (optimistic_) return surprise();
  if (reporting()) store(std::move(issue), true, false);
}

void Decoder::adopt_warnings(Decoder& trial) {
  if (optimistic_) return surprise();
  if (!reporting()) return;
  for (auto& w : trial.warnings_) store(std::move(w), true, false);
  more_warnings_ += trial.more_warnings_;
  trial.warnings_.clear();
  trial.more_warnings_ = 0;
}

void Decoder::adopt_errors(Decoder& trial, bool refusals_only) {
  for (std::size_t i = 0; i < trial.errors_.size(); ++i)
    if (trial.refusals_[i] || !refusals_only) adopt_error(std::move(trial.errors_[i]), trial.refusals_[i]);
  // Those the trial counted come after those it stored, of each kind: they are counted here too.
  if (!optimistic_) {
    if (trial.more_refused_) count(as_warning(true), true, trial.more_refused_);
    if (!refusals_only && trial.more_plain_ && reporting()) count(as_warning(false), false, trial.more_plain_);
  }
  trial.errors_.clear();
  trial.refusals_.clear();
  trial.stored_refusals_ = trial.more_plain_ = trial.more_refused_ = 0;
}

void Decoder::take_report(Validation& out) {
  out.more_errors = more_plain_ + more_refused_;
  if (errors_.size() > limits::kStoredIssues) {
    out.more_errors += errors_.size() - limits::kStoredIssues;
    errors_.resize(limits::kStoredIssues);
  }
  out.errors = std::move(errors_);
  out.more_warnings = more_warnings_;
  if (warnings_.size() > limits::kStoredIssues) {
    out.more_warnings += warnings_.size() - limits::kStoredIssues;
    warnings_.resize(limits::kStoredIssues);
  }
  out.warnings = std::move(warnings_);
  errors_.clear();
  warnings_.clear();
  refusals_.clear();
  stored_refusals_ = more_plain_ = more_refused_ = more_warnings_ = 0;
}

void Decoder::error_at(Mark at, std::string message) {
  if (optimistic_) return surprise();
  if (!reporting()) return;
  const bool warning = as_warning(false);
  // Stored when fewer than the cap of its kind come before `at` in the innermost key.
  if (before_at(at, span_, before_, warning, false) >= limits::kStoredIssues) return count(warning, false, 1);
  Issue issue{path(), std::move(message)};
  if (warning) {
    warnings_.push_back(std::move(issue));
    std::rotate(warnings_.begin() + static_cast<std::ptrdiff_t>(at.warnings), warnings_.end() - 1, warnings_.end());
  } else {
    errors_.push_back(std::move(issue));
    refusals_.push_back(false);
    std::rotate(errors_.begin() + static_cast<std::ptrdiff_t>(at.errors), errors_.end() - 1, errors_.end());
    std::rotate(refusals_.begin() + static_cast<std::ptrdiff_t>(at.errors), refusals_.end() - 1, refusals_.end());
  }
}

Decoder Decoder::trial() const {
  Decoder t(mode_ == Mode::Strict ? Mode::Strict : Mode::Enabled);
  t.trial_ = true;
  t.depth_ = depth_;
  t.path_length_ = path_length_;
  std::copy_n(path_.begin(), std::min(path_length_, kInlinePath), t.path_.begin());
  t.deep_path_ = deep_path_;
  return t;
}

Decoder Decoder::optimistic(Mode mode) {
  Decoder d(mode);
  d.optimistic_ = true;
  return d;
}

void Decoder::reorder(Mark from, std::vector<Span>& spans, bool trim) {
  std::vector<std::size_t> order(spans.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    if (spans[a].rank != spans[b].rank) return spans[a].rank < spans[b].rank;
    if (spans[a].key != spans[b].key) return spans[a].key < spans[b].key;
    return a < b;
  });
  if (!trim) {
    auto rebuild = [&](auto& issues, std::size_t Mark::*at) {
      std::vector<typename std::remove_reference_t<decltype(issues)>::value_type> tail;
      for (std::size_t i : order)
        for (std::size_t k = spans[i].begin.*at; k < spans[i].end.*at; ++k) tail.push_back(std::move(issues[k]));
      issues.resize(from.*at);
      for (auto&& issue : tail) issues.push_back(std::move(issue));
    };
    rebuild(errors_, &Mark::errors);
    rebuild(refusals_, &Mark::errors);
    rebuild(warnings_, &Mark::warnings);
    stored_refusals_ =
        from.refused + static_cast<std::size_t>(std::count(refusals_.begin() + static_cast<std::ptrdiff_t>(from.errors),
                                                           refusals_.end(), true));
    return;
  }
  // Trimmed: past the cap of a kind (counted from `from`), an issue is counted instead of kept.
  std::vector<Issue> errors, warnings;
  std::vector<bool> refusals;
  std::size_t plain = 0, refused = 0;
  std::vector<Mark> begins(spans.size()), ends(spans.size());
  for (std::size_t i : order) {
    begins[i] = {from.errors + errors.size(), from.warnings + warnings.size(), from.refused + refused};
    for (std::size_t k = spans[i].begin.errors; k < spans[i].end.errors; ++k) {
      const bool refusal = refusals_[k];
      std::size_t& kept = refusal ? refused : plain;
      if (kept < limits::kStoredIssues) {
        ++kept;
        errors.push_back(std::move(errors_[k]));
        refusals.push_back(refusal);
      } else {
        ++(refusal ? more_refused_ : more_plain_);
      }
    }
    for (std::size_t k = spans[i].begin.warnings; k < spans[i].end.warnings; ++k) {
      if (warnings.size() < limits::kStoredIssues)
        warnings.push_back(std::move(warnings_[k]));
      else
        ++more_warnings_;
    }
    ends[i] = {from.errors + errors.size(), from.warnings + warnings.size(), from.refused + refused};
  }
  // Issues after `from` that no span covers are dropped, as without trimming.
  errors_.resize(from.errors);
  refusals_.resize(from.errors);
  warnings_.resize(from.warnings);
  for (auto& e : errors) errors_.push_back(std::move(e));
  refusals_.insert(refusals_.end(), refusals.begin(), refusals.end());
  for (auto& w : warnings) warnings_.push_back(std::move(w));
  stored_refusals_ = from.refused + refused;
  for (std::size_t i = 0; i < spans.size(); ++i) {
    spans[i].begin = begins[i];
    spans[i].end = ends[i];
  }
}

void Decoder::enter() {
  if (++depth_ > kMaxJsonDepth)
    throw InvalidJson("invalid JSON: nesting deeper than " + std::to_string(kMaxJsonDepth) + " levels");
}

}  // namespace ptc::codec
