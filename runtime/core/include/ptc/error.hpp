#pragma once
// Errors returned (not thrown) by ptc's parsers and renderers.

#include <cstddef>
#include <stdexcept>
#include <string>
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
template <class T>
class Result {
 public:
  Result(T value) : v_(std::move(value)) {}      // NOLINT: implicit by design
  Result(Error error) : v_(std::move(error)) {}  // NOLINT: implicit by design

  bool ok() const noexcept { return v_.index() == 0; }
  explicit operator bool() const noexcept { return ok(); }

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

  /// Precondition: !ok().
  const Error& error() const { return std::get<1>(v_); }

 private:
  void check() const {
    if (!ok()) throw Exception(std::get<1>(v_));
  }
  std::variant<T, Error> v_;
};

}  // namespace ptc
