#pragma once
// Errors returned (not thrown) by ptc's parsers and renderers.

#include <cstddef>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <variant>

namespace ptc {

/// What went wrong and where. `line`/`column` are 1-based positions in the text that was parsed
/// (0 when the error is not about a position in text, e.g. a rendering error that names a `path`).
struct Error {
  std::string message;
  std::size_t line = 0;
  std::size_t column = 0;

  /// "column 7: expected ..." (or "line 2, column 7: ..." for multi-line input, or just the message).
  std::string to_string() const;
  friend bool operator==(const Error&, const Error&) = default;
};

/// Thrown by `Result::value()` when there is no value, and by schema factories given invalid data.
class Exception : public std::runtime_error {
 public:
  explicit Exception(const Error& e) : std::runtime_error(e.to_string()), error_(e) {}
  const Error& error() const noexcept { return error_; }

 private:
  Error error_;
};

/// Either a value or an Error. Small on purpose: `if (auto r = f()) use(*r); else report(r.error());`
/// The members a reader of std::expected looks for are here with the same meaning (has_value,
/// value_or, and_then, transform), so code can move between the two without surprises.
template <class T>
class Result {
 public:
  using value_type = T;

  Result(T value) : v_(std::move(value)) {}      // NOLINT: implicit by design
  Result(Error error) : v_(std::move(error)) {}  // NOLINT: implicit by design

  bool has_value() const noexcept { return v_.index() == 0; }
  /// The same as has_value(), the name ptc used first.
  bool ok() const noexcept { return has_value(); }
  explicit operator bool() const noexcept { return has_value(); }

  const T& value() const& {
    check();
    return std::get<0>(v_);
  }
  T& value() & {
    check();
    return std::get<0>(v_);
  }
  T&& value() && {
    check();
    return std::get<0>(std::move(v_));
  }
  const T& operator*() const& { return value(); }
  T& operator*() & { return value(); }
  const T* operator->() const { return &value(); }
  T* operator->() { return &value(); }

  /// Precondition: !has_value().
  const Error& error() const { return std::get<1>(v_); }

  /// The value, or `fallback` converted to T when there is none.
  template <class U>
  T value_or(U&& fallback) const& {
    return has_value() ? std::get<0>(v_) : static_cast<T>(std::forward<U>(fallback));
  }
  template <class U>
  T value_or(U&& fallback) && {
    return has_value() ? std::get<0>(std::move(v_)) : static_cast<T>(std::forward<U>(fallback));
  }

  /// `f(value)`, which returns a Result of its own, or this error passed on: chains steps that can
  /// each fail, stopping at the first error.
  template <class F>
  auto and_then(F&& f) const& -> std::invoke_result_t<F, const T&> {
    if (has_value()) return std::forward<F>(f)(std::get<0>(v_));
    return std::get<1>(v_);
  }
  template <class F>
  auto and_then(F&& f) && -> std::invoke_result_t<F, T&&> {
    if (has_value()) return std::forward<F>(f)(std::get<0>(std::move(v_)));
    return std::get<1>(std::move(v_));
  }

  /// A Result of `f(value)`, or this error passed on.
  template <class F>
  auto transform(F&& f) const& -> Result<std::invoke_result_t<F, const T&>> {
    if (has_value()) return std::forward<F>(f)(std::get<0>(v_));
    return std::get<1>(v_);
  }

 private:
  void check() const {
    if (!ok()) throw Exception(std::get<1>(v_));
  }
  std::variant<T, Error> v_;
};

}  // namespace ptc
