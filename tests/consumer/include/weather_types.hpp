#pragma once
// Kept apart from weather.hpp so the test can check that editing an included header regenerates.

namespace weather {

enum class Sky { clear, cloudy, rain };

struct Day {
  int day;
  double high;
  Sky sky;
};

}  // namespace weather
