#pragma once
// Helpers shared by the libFuzzer targets: oracle failures print what they saw, then trap.

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>

namespace ptc_fuzz {

inline std::string_view as_text(const std::uint8_t* data, std::size_t size) {
  return {reinterpret_cast<const char*>(data), size};
}

/// Prints the failed property and the strings involved (length-delimited: they may hold any byte), then
/// stops the fuzzer with a crash so it saves the input.
[[noreturn]] inline void oracle_failure(const char* property, std::string_view a_label, std::string_view a,
                                        std::string_view b_label = {}, std::string_view b = {}) {
  std::fprintf(stderr, "\n==ptc-fuzz== ORACLE FAILURE: %s\n", property);
  std::fprintf(stderr, "==ptc-fuzz== %.*s (%zu bytes): %.*s\n", static_cast<int>(a_label.size()), a_label.data(),
               a.size(), static_cast<int>(a.size()), a.data());
  if (!b_label.empty())
    std::fprintf(stderr, "==ptc-fuzz== %.*s (%zu bytes): %.*s\n", static_cast<int>(b_label.size()), b_label.data(),
                 b.size(), static_cast<int>(b.size()), b.data());
  std::fflush(stderr);
  __builtin_trap();
}

}  // namespace ptc_fuzz
