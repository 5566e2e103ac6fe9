#pragma once
// Reading signatures and types in tests: a failure to read is a test failure (not an exception), and
// the text that failed is named.

#include <string>
#include <string_view>

#include <gtest/gtest.h>

#include <ptc/signature.hpp>

namespace ptc::test {

template <class T, class Print>
T read_ok(Result<T> r, std::string_view text, Print) {
  if (!r) {
    ADD_FAILURE() << "failed to read " << text << ": " << r.error().to_string();
    return T{};
  }
  return std::move(r).value();
}

template <class T, class Print>
std::string read_error(Result<T> r, std::string_view text, Print print) {
  if (r) {
    ADD_FAILURE() << "expected an error for " << text << ", got " << print(*r);
    return {};
  }
  return r.error().to_string();
}

inline auto as_malli = [](const auto& x) {
  if constexpr (std::is_same_v<std::decay_t<decltype(x)>, Signature>) {
    return x.to_malli();
  } else {
    return to_malli(x);
  }
};

/// Shorthand signature / type, Malli signature / type.
inline Signature sig(std::string_view text) { return read_ok(Signature::parse(text), text, as_malli); }
inline Schema type(std::string_view text) { return read_ok(parse_type(text), text, as_malli); }
inline Signature malli_sig(std::string_view text) { return read_ok(Signature::from_malli(text), text, as_malli); }
inline Schema malli_type(std::string_view text) { return read_ok(parse_malli_type(text), text, as_malli); }

/// The error text of a shorthand / Malli signature that must not read.
inline std::string parse_error(std::string_view text) { return read_error(Signature::parse(text), text, as_malli); }
inline std::string malli_error(std::string_view text) {
  return read_error(Signature::from_malli(text), text, as_malli);
}

}  // namespace ptc::test
