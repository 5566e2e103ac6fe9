#include <ptc/signal.hpp>

#include <chrono>
#include <cstdint>

#include <ptc/uuid.hpp>

#include "text.hpp"

namespace ptc {

namespace {

// Microseconds, always six digits, as jido_signal writes them.
std::string now_rfc3339() {
  const auto micros =
      std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::system_clock::now().time_since_epoch())
          .count();
  const auto seconds = micros >= 0 ? micros / 1000000 : (micros - 999999) / 1000000;
  return text::rfc3339_utc(seconds, static_cast<std::uint32_t>((micros - seconds * 1000000) * 1000), 6);
}

}  // namespace

Signal Signal::make(std::string type, std::string source, nlohmann::json data) {
  return Signal{make_uuid(), std::move(type), std::move(source), now_rfc3339(), std::move(data)};
}

nlohmann::ordered_json Signal::to_json() const {
  nlohmann::ordered_json out;
  out["id"] = id;
  out["type"] = type;
  out["source"] = source;
  out["time"] = time;
  out["data"] = data;
  return out;
}

}  // namespace ptc
