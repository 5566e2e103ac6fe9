// Definitions of the functions declared in cases/scalars.hpp, so its generated code links and runs.
#include "cases/scalars.hpp"

namespace golden::scalars {

Echo echo(std::string_view text, bool flag, int small_int, std::int64_t big_int, std::uint8_t byte, std::size_t count,
          unsigned long long huge, float ratio, Percent percent, UserId user, colors::Color color, Size size) {
  return Echo{std::string(text), flag, small_int, big_int, byte, count, huge, ratio, percent, user, color, size};
}

std::chrono::seconds wait(std::chrono::milliseconds timeout) {
  return std::chrono::duration_cast<std::chrono::seconds>(timeout);
}

Clock read_clock() {
  using namespace std::chrono;
  const sys_days day = year{2025} / 12 / 29;
  return Clock{system_clock::time_point{day + hours{10} + minutes{30}}, year_month_day{day}};
}

}  // namespace golden::scalars
