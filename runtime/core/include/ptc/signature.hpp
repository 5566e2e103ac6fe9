#pragma once
// ptc::Signature — named parameters and a result type: `(query :string, limit :int) -> [{id :int}]`.

#include <string>
#include <string_view>
#include <vector>

#include <ptc/error.hpp>
#include <ptc/schema.hpp>

namespace ptc {

class Signature {
 public:
  /// `() -> :any`.
  Signature();
  /// Throws ptc::Exception on duplicate parameter names.
  Signature(std::vector<MapEntry> params, Schema result);

  /// Shorthand text (docs/signatures.md). A bare type `T` means `() -> T`.
  static Result<Signature> parse(std::string_view shorthand);
  /// Malli text: `[:=> [:cat ...] R]`, `[:=> [:catn [:name S] ...] R]`, or a bare schema (`() -> T`).
  /// `[:cat ...]` parameters are named arg0, arg1, ...
  static Result<Signature> from_malli(std::string_view malli);

  const std::vector<MapEntry>& params() const { return params_; }
  /// The tool-call arguments: a `[:map ...]` of the parameters.
  const Schema& input() const { return input_; }
  const Schema& output() const { return output_; }

  /// Canonical shorthand, e.g. `(query :string, limit :int) -> [{id :int}]`; re-parseable, and equal
  /// on re-parse except for parameter defaults and docs, which shorthand cannot say (docs/signatures.md).
  std::string render() const;
  /// Canonical Malli, e.g. `[:=> [:cat :string :int] [:vector [:map [:id :int]]]]`; re-readable.
  std::string to_malli() const;

  friend bool operator==(const Signature& a, const Signature& b);

 private:
  std::vector<MapEntry> params_;
  Schema input_;
  Schema output_;
};

/// Canonical shorthand of one type, e.g. `{id :int, tags [:string]}`. Constructs the shorthand cannot
/// express print as their Malli form inline (`[:set :int]`), which the shorthand parser reads back.
std::string render(const Schema& schema);
/// Canonical Malli text of one type, e.g. `[:map [:id :int]]`.
std::string to_malli(const Schema& schema);

/// One type, not a signature: shorthand `{id :int}` / Malli `[:map [:id :int]]`.
Result<Schema> parse_type(std::string_view shorthand);
Result<Schema> parse_malli_type(std::string_view malli);

}  // namespace ptc
