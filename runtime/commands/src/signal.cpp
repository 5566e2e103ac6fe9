#include <ptc/signal.hpp>

#include <chrono>
#include <cstdint>

#include <ptc/uuid.hpp>

#include "text.hpp"

namespace ptc {

namespace {

// Microseconds, always six digits, as jido_signal writes them.
std::string now_rfc3339() {
  namespace chrono = std::chrono;
  const auto now = chrono::time_point_cast<chrono::microseconds>(chrono::system_clock::now());
  const auto whole = chrono::floor<chrono::seconds>(now);
  const auto nanos = chrono::duration_cast<chrono::nanoseconds>(now - whole).count();
  return text::rfc3339_utc(whole.time_since_epoch().count(), static_cast<std::uint32_t>(nanos), 6);
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
