#include <ptc/signal.hpp>

#include <chrono>
#include <ctime>

#include <fmt/format.h>

#include <ptc/session.hpp>

namespace ptc {

namespace {

std::string now_rfc3339() {
  auto now = std::chrono::system_clock::now();
  auto micros = std::chrono::duration_cast<std::chrono::microseconds>(now.time_since_epoch()).count() % 1000000;
  std::time_t seconds = std::chrono::system_clock::to_time_t(now);
  std::tm utc{};
  gmtime_r(&seconds, &utc);
  return fmt::format("{:04}-{:02}-{:02}T{:02}:{:02}:{:02}.{:06}Z", utc.tm_year + 1900, utc.tm_mon + 1, utc.tm_mday,
                     utc.tm_hour, utc.tm_min, utc.tm_sec, micros);
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
