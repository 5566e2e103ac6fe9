#pragma once
// ptc::codec::Decoder — the state of one generated decode: the mode, the current path, and the errors
// and warnings, reported exactly as ptc::validate reports them for the same signature (same texts,
// same paths, same order). Generated code and the codecs in this directory use it; users need not.

#include <array>
#include <cstddef>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

// simdjson's On-Demand classes change their layout with SIMDJSON_DEVELOPMENT_CHECKS, which simdjson
// turns on by itself wherever NDEBUG is not defined. Generated code instantiates those classes' inline
// functions and so does libptc_codec: if a Debug program and a Release library disagree, the linker
// keeps one copy of each and every decode reads garbage. The setting is therefore part of ptc::codec's
// interface, fixed here (and by ptc::codec's compile definition, for sources that include simdjson
// first), whatever the build type.
#ifndef SIMDJSON_DEVELOPMENT_CHECKS
#define SIMDJSON_DEVELOPMENT_CHECKS 0
#endif
#include <simdjson.h>
#if SIMDJSON_DEVELOPMENT_CHECKS
#error \
    "ptc::codec needs SIMDJSON_DEVELOPMENT_CHECKS=0 (simdjson.h was included before it without NDEBUG): link ptc::codec, or define SIMDJSON_DEVELOPMENT_CHECKS=0 for the whole program"
#endif

#include <ptc/validate.hpp>

namespace ptc::codec {

using Value = simdjson::ondemand::value;

/// Thrown while decoding when the text turns out not to be JSON (simdjson reads lazily, so this can
/// surface deep inside a decode), or nests deeper than ptc::kMaxJsonDepth as ptc::parse_json refuses
/// to. The decode entry points catch it; a codec never needs to.
class InvalidJson : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class Decoder {
 public:
  /// Decoding is always the input direction; `mode` decides coercion and strictness. In Disabled mode
  /// nothing is reported (the decode still fails where a value cannot be read).
  explicit Decoder(Mode mode = Mode::Enabled);

  Mode mode() const { return mode_; }
  /// Whether strings may be coerced to numbers and booleans (every mode but Strict).
  bool coercing() const { return mode_ != Mode::Strict; }

  /// Path segments. A key must stay alive while it is on the path (simdjson's string buffer does).
  void push(std::string_view key) { push_segment(key, 0, true); }
  void push(std::size_t index) { push_segment({}, index, false); }
  void pop() {
    if (--path_length_ >= kInlinePath) deep_path_.pop_back();
  }
  /// The current path as the validator prints it: `items[0].name`, `["odd key"]`, `(root)`.
  std::string path() const;

  /// Records an error at the current path. In WarnOnly mode (outside trials) it is recorded as a
  /// warning, as the validator does.
  void error(std::string message);
  /// Records an error that holds in every mode, WarnOnly and Disabled included: a number the C++ type
  /// cannot hold (out of its range, fractional for an integer, past float's range), which no function
  /// may run on (docs/codecs.md, "Modes").
  void refuse(std::string message);
  void warn(std::string message);
  /// Takes over an issue a trial decoder found: an error as error() records one (as refuse() does when
  /// `refusal`), a warning as is.
  void adopt_error(Issue issue, bool refusal = false);
  void adopt_warning(Issue issue);
  /// Takes over everything a trial decoder found, stored or counted: its warnings, and its errors
  /// (those that are refusals only, with `refusals_only`), as adopt_error and adopt_warning would.
  void adopt_warnings(Decoder& trial);
  void adopt_errors(Decoder& trial, bool refusals_only);
  /// One flag per stored error, in the same order: whether it is a refusal (refuse(), or adopt_error
  /// with `refusal`). A union adopts its closest alternative's errors with their flags.
  const std::vector<bool>& refusals() const { return refusals_; }
  /// Whether any error is a refusal: a union whose alternatives all failed, one of them refusing a
  /// number, cannot hold the value either.
  bool refused() const { return stored_refusals_ != 0 || more_refused_ != 0; }

  /// The issues stored, capped as a Validation's are (limits::kStoredIssues): each list holds the first
  /// issues in the validator's order, errors counted apart for refusals and the others (so that a union
  /// adopting a trial's errors in WarnOnly still has the first of each), and counts the rest.
  const std::vector<Issue>& errors() const { return errors_; }
  const std::vector<Issue>& warnings() const { return warnings_; }
  /// All errors (warnings), stored and counted.
  std::size_t error_count() const { return errors_.size() + more_plain_ + more_refused_; }
  std::size_t warning_count() const { return warnings_.size() + more_warnings_; }
  /// The report: the first limits::kStoredIssues errors and warnings, and how many more there are.
  /// Leaves the decoder without issues.
  void take_report(Validation& out);
  /// The stored errors (warnings), taken out; those only counted are forgotten.
  std::vector<Issue> take_errors() {
    refusals_.clear();
    stored_refusals_ = more_plain_ = more_refused_ = 0;
    return std::move(errors_);
  }
  std::vector<Issue> take_warnings() {
    more_warnings_ = 0;
    return std::move(warnings_);
  }

  /// A decoder for trying one alternative of a variant, as the validator tries one: same path and
  /// depth, its own issues, Strict if this one is Strict and Enabled otherwise, errors kept as errors.
  Decoder trial() const;

  /// A decoder for a first, optimistic pass over a document: it records no issue, only that one arose
  /// (surprised()), and objects skip the bookkeeping that orders issues by field. Most arguments a
  /// model sends decode without any issue; for the others the document is decoded again from the
  /// start with a reporting decoder (detail::decode_document_into), so what is reported never depends
  /// on this pass.
  static Decoder optimistic(Mode mode);
  bool is_optimistic() const { return optimistic_; }
  /// Whether an optimistic decoder met anything it would have reported, error or warning.
  bool surprised() const { return surprised_; }
  /// What an optimistic decoder does in place of recording: notes that the pass cannot be used.
  void surprise() { surprised_ = true; }

  /// Positions in the issue lists; objects use them to put their issues in field order. `refused`: the
  /// refusals among the errors before the position.
  struct Mark {
    std::size_t errors = 0;
    std::size_t warnings = 0;
    std::size_t refused = 0;
    friend bool operator==(const Mark&, const Mark&) = default;
  };
  Mark mark() const { return {errors_.size(), warnings_.size(), stored_refusals_}; }
  /// Where the innermost key being decoded began (KeyedIssues sets it), and how many issues of each
  /// kind (as a Mark counts them) surely come before it in the validator's order: those of the keys
  /// and items around it that were read before its object began. A key's issues are recorded in the
  /// validator's order, so once those before it and its own reach limits::kStoredIssues of a kind,
  /// more of that kind are only counted. Outside any key, the start of the lists and nothing before.
  Mark span() const { return span_; }
  Mark before() const { return before_; }
  void set_span(Mark begin, Mark before) {
    span_ = begin;
    before_ = before;
  }
  /// The issues recorded between `begin` and `end` while decoding one key (or one part of a value).
  struct Span {
    Mark begin, end;
    std::size_t rank = 0;  ///< first sort key: a field's declaration index
    std::string_view key;  ///< second sort key (unknown fields and map keys sort by key, as std::map does)
  };
  /// Rewrites the issues recorded since `from` as those of `spans` only, ordered by (rank, key); the
  /// issues of spans left out are dropped. `spans` must cover disjoint ranges after `from`. With `trim`,
  /// only the first limits::kStoredIssues of each kind are kept (the others counted), and each span's
  /// marks are set to where its issues now are (spans sorted, as `spans` should then be given).
  void reorder(Mark from, std::vector<Span>& spans, bool trim = false);
  /// An error (as error() records one) that belongs at `at`, before the issues recorded since.
  void error_at(Mark at, std::string message);

  /// Depth guard for nested objects and lists: past ptc::kMaxJsonDepth levels the document is refused
  /// (throws InvalidJson), as ptc::parse_json refuses it.
  void enter();
  void leave() { --depth_; }
  /// The lists and objects entered around the current value (0 for the arguments object itself).
  std::size_t depth() const { return depth_; }

  /// In Strict mode an integer given for a float stays an integer in the validator's value, so a
  /// refinement shows it as given ("got 5", not "got 5.0"). The float codec notes it (or nullopt)
  /// here; check() shows it in place of the float it equals.
  void note_integer(std::optional<nlohmann::json> given) { noted_integer_ = std::move(given); }
  std::optional<nlohmann::json> take_noted_integer() { return std::exchange(noted_integer_, std::nullopt); }

 private:
  // No member initializers: path_ is left unwritten until a segment is pushed, which spares a decode
  // clearing sixteen segments it mostly never reads.
  struct Segment {
    std::string_view key;
    std::size_t index;
    bool is_key;
  };
  // Every field and item is pushed and popped, so the usual path lives inline, not on the heap.
  static constexpr std::size_t kInlinePath = 16;
  // The members are written one by one: a Segment built on the stack and copied in was stored in
  // parts and loaded back as one 16-byte word, a store-forwarding stall on every item of a list.
  void push_segment(std::string_view key, std::size_t index, bool is_key) {
    if (path_length_ < kInlinePath) [[likely]] {
      Segment& s = path_[path_length_++];
      s.key = key;
      s.index = index;
      s.is_key = is_key;
    } else {
      push_deep({key, index, is_key});
    }
  }
  void push_deep(const Segment& s);
  const Segment& segment(std::size_t i) const { return i < kInlinePath ? path_[i] : deep_path_[i - kInlinePath]; }
  bool reporting() const { return trial_ || mode_ != Mode::Disabled; }
  // In WarnOnly an error is recorded as a warning, unless it is a refusal; trials keep errors as errors.
  bool as_warning(bool refusal) const { return mode_ == Mode::WarnOnly && !trial_ && !refusal; }
  // Whether an issue of this list (and kind) recorded now is stored, or only counted.
  bool room(bool warning, bool refusal) const;
  void store(Issue issue, bool warning, bool refusal);
  void count(bool warning, bool refusal, std::size_t n) {
    (warning ? more_warnings_ : refusal ? more_refused_ : more_plain_) += n;
  }

  Mode mode_;
  bool trial_ = false;
  bool optimistic_ = false;
  bool surprised_ = false;
  std::size_t depth_ = 0;
  std::size_t path_length_ = 0;
  std::array<Segment, kInlinePath> path_;
  std::vector<Segment> deep_path_;
  std::vector<Issue> errors_;
  std::vector<bool> refusals_;  // one per error
  std::vector<Issue> warnings_;
  std::size_t stored_refusals_ = 0;  // refusals among errors_
  std::size_t more_plain_ = 0;       // errors counted, not stored (refusals apart)
  std::size_t more_refused_ = 0;     // refusals counted, not stored
  std::size_t more_warnings_ = 0;    // warnings counted, not stored
  Mark span_{};
  Mark before_{};
  std::optional<nlohmann::json> noted_integer_;
};

/// Reads the value as nlohmann::json, with the types nlohmann's parser gives (used for :any and on
/// slow paths).
nlohmann::json to_json(Decoder& d, Value& value);

}  // namespace ptc::codec
