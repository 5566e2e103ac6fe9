#pragma once
// ptc::codec::Decoder — the state of one generated decode: the mode, the current path, and the errors
// and warnings, reported exactly as ptc::validate reports them for the same signature (same texts,
// same paths, same order). Generated code and the codecs in this directory use it; users need not.

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include <simdjson.h>

#include <ptc/validate.hpp>

namespace ptc::codec {

using Value = simdjson::ondemand::value;

/// Nesting deeper than this (objects and lists inside each other) is an error, not a stack overflow.
inline constexpr std::size_t kMaxDecodeDepth = 256;

class Decoder {
 public:
  /// Decoding is always the input direction; `mode` decides coercion and strictness.
  explicit Decoder(Mode mode = Mode::Enabled);

  Mode mode() const { return mode_; }
  /// Whether strings may be coerced to numbers and booleans (every mode but Strict).
  bool coercing() const { return mode_ != Mode::Strict; }

  /// Path segments. A key must stay alive while it is on the path (simdjson's string buffer does).
  void push(std::string_view key);
  void push(std::size_t index);
  void pop();
  /// The current path as the validator prints it: `items[0].name`, `["odd key"]`, `(root)`.
  std::string path() const;

  /// Records an error at the current path. In WarnOnly mode (outside trials) it is recorded as a
  /// warning, as the validator does.
  void error(std::string message);
  void warn(std::string message);

  const std::vector<Issue>& errors() const { return errors_; }
  const std::vector<Issue>& warnings() const { return warnings_; }
  std::vector<Issue> take_errors();
  std::vector<Issue> take_warnings();

  /// A decoder for trying one alternative of a variant: same mode and path, its own issues, errors kept
  /// as errors even in WarnOnly.
  Decoder trial() const;

  /// Positions in the issue lists; ObjectReader uses them to put a struct's issues in field order.
  struct Mark {
    std::size_t errors = 0;
    std::size_t warnings = 0;
  };
  Mark mark() const { return {errors_.size(), warnings_.size()}; }
  /// Moves the issues recorded since `from` into `to` order. `order[i]` is the rank of the i-th span
  /// (spans are consecutive, starting at `from`); issues are stably re-sorted by rank.
  struct Span {
    Mark begin, end;
    std::size_t rank = 0;
    std::string_view key;  ///< second sort key (unknown fields and map keys sort by key, as std::map does)
  };
  void reorder(Mark from, std::vector<Span>& spans);
  /// Drops the issues of `span` (a repeated key: the last occurrence wins, as in nlohmann::json).
  void drop(const Span& span);

  /// Depth guard for nested objects and lists. `enter()` returns false (and records the error) when
  /// the limit is reached.
  bool enter();
  void leave() { --depth_; }

 private:
  struct Segment {
    std::string_view key;
    std::size_t index = 0;
    bool is_key = false;
  };
  Mode mode_;
  bool trial_ = false;
  std::size_t depth_ = 0;
  std::vector<Segment> path_;
  std::vector<Issue> errors_;
  std::vector<Issue> warnings_;
};

/// Describes the value for "got ..." exactly as coercion::describe does for the same JSON.
std::string describe(Value& value);
/// Reads the value as nlohmann::json (used on slow paths: errors, variants, :any).
nlohmann::json to_json(Value& value);

}  // namespace ptc::codec
