// ptc::codec::Decoder: paths, issues and their order.

#include <algorithm>

#include <ptc/codec/decoder.hpp>
#include <ptc/coercion.hpp>
#include <ptc/json_input.hpp>

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

void Decoder::error(std::string message) {
  if (optimistic_) return surprise();
  if (reporting()) adopt_error({path(), std::move(message)});
}

void Decoder::refuse(std::string message) {
  if (optimistic_) return surprise();
  adopt_error({path(), std::move(message)}, true);
}

void Decoder::warn(std::string message) {
  if (optimistic_) return surprise();
  if (reporting()) warnings_.push_back({path(), std::move(message)});
}

void Decoder::adopt_error(Issue issue, bool refusal) {
  if (optimistic_) return surprise();
  if (!reporting() && !refusal) return;
  if (mode_ == Mode::WarnOnly && !trial_ && !refusal) {
    warnings_.push_back(std::move(issue));
  } else {
    errors_.push_back(std::move(issue));
    refusals_.push_back(refusal);
  }
}

bool Decoder::refused() const { return std::find(refusals_.begin(), refusals_.end(), true) != refusals_.end(); }

void Decoder::adopt_warning(Issue issue) {
  if (optimistic_) return surprise();
  if (reporting()) warnings_.push_back(std::move(issue));
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

void Decoder::reorder(Mark from, std::vector<Span>& spans) {
  std::vector<std::size_t> order(spans.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    if (spans[a].rank != spans[b].rank) return spans[a].rank < spans[b].rank;
    if (spans[a].key != spans[b].key) return spans[a].key < spans[b].key;
    return a < b;
  });
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
}

void Decoder::enter() {
  if (++depth_ > kMaxJsonDepth)
    throw InvalidJson("invalid JSON: nesting deeper than " + std::to_string(kMaxJsonDepth) + " levels");
}

}  // namespace ptc::codec
