#pragma once
// Every scalar row of docs/codecs.md, "Types", through aliases and namespaces.

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include <ptc/annotate.hpp>

namespace golden::scalars {

using UserId = std::int64_t;
using Percent = double;

namespace colors {
enum class Color { red, green, blue };
}
enum Size { small, large };  // a plain enum works the same

/// Echoes every scalar back as a struct.
struct Echo {
  std::string text;
  bool flag;
  int small_int;
  std::int64_t big_int;
  std::uint8_t byte;
  std::size_t count;
  unsigned long long huge;
  float ratio;
  Percent percent;
  UserId user;
  colors::Color color;
  Size size;
};

/// Returns its arguments as one struct.
/// \param text Any text.
/// \param flag A switch.
PTC_TOOL() Echo echo(std::string_view text, bool flag, int small_int, std::int64_t big_int, std::uint8_t byte,
                     std::size_t count, unsigned long long huge, float ratio, Percent percent, UserId user,
                     colors::Color color, Size size);

/// Waits for a while; the duration is a count of milliseconds.
PTC_TOOL() std::chrono::seconds wait(std::chrono::milliseconds timeout);

/// The time now and today's date.
struct Clock {
  std::chrono::system_clock::time_point now;
  std::chrono::year_month_day today;
};

/// Reads the clock.
PTC_TOOL() Clock read_clock();

}  // namespace golden::scalars
