#pragma once
#include <string>
#include <vector>

#include <ptc/annotate.hpp>

#include "weather_types.hpp"

namespace weather {

struct Forecast {
  std::string city;
  std::vector<Day> days;
};

/// Forecast for the next days.
/// \param city City name.
PTC_TOOL() Forecast forecast(std::string city, PTC_RANGE(1, 7) int days = 3);

}  // namespace weather
