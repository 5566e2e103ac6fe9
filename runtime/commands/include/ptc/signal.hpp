#pragma once
// ptc::Signal — one event on a SignalBus, shaped like a CloudEvent: an id, a dot-separated type
// ("command.completed"), the source that published it, the time, and a JSON object of data.

#include <string>

#include <nlohmann/json.hpp>

namespace ptc {

struct Signal {
  std::string id;      ///< random UUID
  std::string type;    ///< e.g. "command.invoke"
  std::string source;  ///< e.g. "/dispatcher"
  std::string time;    ///< RFC 3339, UTC, microseconds: "2025-01-31T09:15:02.123456Z"
  nlohmann::json data = nlohmann::json::object();

  /// A new signal with a fresh id and the current time.
  static Signal make(std::string type, std::string source, nlohmann::json data = nlohmann::json::object());

  /// `{"id","type","source","time","data"}` in that order (what `ptc command --signals` prints).
  nlohmann::ordered_json to_json() const;
};

}  // namespace ptc
